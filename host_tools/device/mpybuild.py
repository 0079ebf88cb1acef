"""Compile the firmware tree to .mpy with the real mpy-cross.

    mpybuild.build(dest)                 # bytecode for the unix port (virtual board)
    mpybuild.build(dest, arch="xtensawin")  # ESP32 / ESP32-S3

Like a deployed board, the result holds .mpy files (compiled on the host:
compiling .py on the board costs tens of KB of heap at import), with
main.py and boot.py kept as source (MicroPython runs those by name) and
non-Python assets (web/) copied. Only files whose source changed since the
last build are recompiled. A module of viper or native code
(sense/viperloops.py) needs an architecture: without one it is copied as
source, which the unix port compiles at import with its own emitter and a
port without one (the WebAssembly port) refuses, taking the plain loops.
"""
import os
import shutil
import subprocess

from host_tools import fwpath, programs

KEEP_SOURCE = ("main.py", "boot.py")


def mpy_cross():
    return programs.find("mpy-cross") or "mpy-cross"


def build(dest, src=None, arch=None):
    """Compile src (default firmware/) into dest. Returns the list of files
    written (relative paths)."""
    src = src or fwpath.FIRMWARE_DIR
    written = []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(root, src)
        outdir = os.path.join(dest, rel) if rel != "." else dest
        os.makedirs(outdir, exist_ok=True)
        for name in sorted(files):
            s = os.path.join(root, name)
            relname = os.path.normpath(os.path.join(rel, name))
            if name.endswith(".py") and relname not in KEEP_SOURCE and (arch or not needs_native(s)):
                d = os.path.join(outdir, name[:-3] + ".mpy")
                if _fresh(s, d):
                    continue
                cmd = [mpy_cross(), "-o", d, "-s", relname]
                if arch:
                    cmd.append("-march=" + arch)
                r = subprocess.run(cmd + [s], capture_output=True, text=True)
                if r.returncode != 0:
                    raise RuntimeError("mpy-cross failed on %s: %s" % (relname, r.stderr.strip()))
                written.append(os.path.relpath(d, dest))
            elif not name.endswith((".pyc",)):
                d = os.path.join(outdir, name)
                if _fresh(s, d):
                    continue
                shutil.copyfile(s, d)
                written.append(os.path.relpath(d, dest))
    return written


def needs_native(path):
    """True when the module at path has @micropython.viper / native code
    (mpy-cross compiles it only for an architecture)."""
    with open(path, "rb") as f:
        src = f.read()
    return b"@micropython.viper" in src or b"@micropython.native" in src


def _fresh(s, d):
    return os.path.exists(d) and os.path.getmtime(d) >= os.path.getmtime(s)
