"""Power-loss-safe files: write a temp file, close it, os.rename() it over
the old one. littlefs (the ESP32's filesystem) makes the rename atomic and
never shows a half-written file that was not flushed, so after a power cut
the file is always the old or the new one. Never remove the old file first
(a cut would leave nothing) and never flush() in the middle of a write (a
cut could commit half a file). Proof: tests/test_powercut.py.
"""
import json
import os

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_CHUNK = const(256)
TMP = ".tmp"


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def remove_quietly(path):
    try:
        os.remove(path)
    except OSError:
        pass


def write(path, data):
    """Replace path's content with data (bytes or str) atomically."""
    tmp = path + TMP
    f = open(tmp, "wb")
    try:
        f.write(data if type(data) is not str else data.encode())
    finally:
        f.close()
    os.rename(tmp, path)


def write_json(path, obj):
    """Replace path's content with obj as one JSON line (json.dumps(obj)
    and a newline) atomically, streamed into the file: the text is never
    whole in RAM (a game header is about 1 KB of text: three copies of it,
    str, line and bytes, were the peak of a new game on a full heap)."""
    tmp = path + TMP
    f = open(tmp, "w")
    try:
        json.dump(obj, f)
        f.write("\n")
    finally:
        f.close()
    os.rename(tmp, path)


def append_line(path, line, buf=None):
    """Replace path with its old content plus one line, atomically: the old
    file is copied into the temp file in small chunks (no whole-file copy
    in RAM), the line added, then renamed over the old one."""
    tmp = path + TMP
    if buf is None:
        buf = bytearray(_CHUNK)
    mv = memoryview(buf)
    dst = open(tmp, "wb")
    try:
        try:
            src = open(path, "rb")
        except OSError:
            src = None
        if src is not None:
            try:
                while True:
                    n = src.readinto(buf)
                    if not n:
                        break
                    dst.write(mv[:n])
            finally:
                src.close()
        dst.write(line if type(line) is not str else line.encode())
    finally:
        dst.close()
    os.rename(tmp, path)


def read(path):
    """Whole content as bytes, or None when the file does not exist."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        return f.read()
    finally:
        f.close()
