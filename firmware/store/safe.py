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


def overwrite(path, data):
    """Replace path's content with data (str) in place: open, one write,
    close. littlefs commits a file's new content only when it is closed,
    so a cut leaves the old content or the new (a file that was not there:
    absent or empty); for a small file it is one commit in its directory's
    metadata, where write()'s temp file and rename are three, each making
    littlefs read the directory back (a lesson's signatures: 92 KB read a
    save against 10 KB, bench/savelayouts). On a host directory (the
    virtual board) a kill in the middle can leave the file empty: readers
    skip an empty file as absent."""
    f = open(path, "w")
    try:
        f.write(data)
    finally:
        f.close()


def append(path, data):
    """Add data (bytes) at the end of path in place: one write, then close.
    littlefs commits a file's new content only when it is closed (or
    flushed: never flush in between), so after a power cut the file is the
    old or the new one; the write copies only the file's last block, not
    the whole file. A write that failed half-way (a full filesystem) may
    still leave part of data at the end when the file is closed:
    tail_ok() / cut_tail() find and drop it."""
    f = open(path, "ab")
    try:
        f.write(data)
    finally:
        f.close()


def tail_ok(path):
    """True when path is absent, empty or ends with a newline."""
    try:
        f = open(path, "rb")
    except OSError:
        return True
    try:
        n = f.seek(0, 2)
        if not n:
            return True
        f.seek(n - 1)
        return f.read(1) == b"\n"
    finally:
        f.close()


def cut_tail(path, buf=None):
    """Replace path, atomically (temp file, rename), with its content up to
    its last newline: an append that did not complete is dropped. Returns
    how many bytes were dropped."""
    tmp = path + TMP
    if buf is None:
        buf = bytearray(_CHUNK)
    mv = memoryview(buf)
    src = open(path, "rb")
    try:
        # where the last complete line ends
        size = src.seek(0, 2)
        end = size
        while end > 0:
            start = end - len(buf) if end > len(buf) else 0
            src.seek(start)
            n = src.readinto(mv[:end - start])
            i = bytes(mv[:n]).rfind(b"\n")
            if i >= 0:
                end = start + i + 1
                break
            end = start
        src.seek(0)
        dst = open(tmp, "wb")
        try:
            left = end
            while left > 0:
                n = src.readinto(mv[:left if left < len(buf) else len(buf)])
                if not n:
                    break
                dst.write(mv[:n])
                left -= n
        finally:
            dst.close()
    finally:
        src.close()
    os.rename(tmp, path)
    return size - end


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
