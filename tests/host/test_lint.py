"""The MicroPython lint profile passes on firmware/: ruff with
typecheck/ruff-micropython.toml (bugs and CPython-only imports), plus
typecheck/mpidioms.py (str methods and builtin keyword arguments MicroPython
lacks). Both are shown to fail on code that would break on the board."""
import os
import subprocess
import sys

import pytest

from host_tools.fwpath import FIRMWARE_DIR, REPO_DIR
from mptools import micropython, tool

sys.path.insert(0, os.path.join(REPO_DIR, "typecheck"))
import mpidioms  # noqa: E402

CONFIG = os.path.join(REPO_DIR, "typecheck", "ruff-micropython.toml")


def ruff(*paths):
    r = subprocess.run([tool("ruff"), "check", "--no-cache", "--config", CONFIG, "--output-format", "concise"]
                       + list(paths), capture_output=True, text=True, cwd=REPO_DIR)
    assert r.returncode in (0, 1), r.stderr
    return r.returncode, r.stdout.strip()


def test_ruff_micropython_profile_passes_on_firmware():
    rc, out = ruff("firmware")
    if rc:
        pytest.fail("ruff (typecheck/ruff-micropython.toml) on firmware/:\n" + out, pytrace=False)


def test_no_cpython_only_idioms_in_firmware():
    found = mpidioms.check_tree(FIRMWARE_DIR)
    if found:
        pytest.fail("CPython-only idioms in firmware/ (typecheck/mpidioms.py):\n" + "\n".join(
            "%s:%d: %s" % (os.path.relpath(p, REPO_DIR), line, msg) for p, line, msg in found), pytrace=False)


def test_ruff_profile_catches_cpython_only_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("from dataclasses import dataclass\nimport enum\nimport typing\nfrom pathlib import Path\n"
                   "def f(x=[]):\n    return x + undefined\n")
    rc, out = ruff(str(bad))
    assert rc == 1
    for code in ("TID251 `dataclasses`", "TID251 `enum`", "TID251 `typing`", "TID251 `pathlib`", "B006", "F821"):
        assert code in out, out


def test_ruff_profile_does_not_push_newer_idioms(tmp_path):
    # code pyupgrade/simplify rules would rewrite (format strings, try/except
    # pass, zip without strict=) is fine for MicroPython
    ok = tmp_path / "ok.py"
    ok.write_text("def f(a, b):\n    x = None\n    try:\n        x = '%d' % a\n    except ValueError:\n        pass\n"
                  "    return list(zip(a, b)), '{}'.format(b), x\n")
    rc, out = ruff(str(ok))
    assert rc == 0, out


IDIOMS = [
    ("'ab'.removeprefix('a')", "removeprefix"),
    ("'7'.zfill(3)", "zfill"),
    ("'a b'.split(maxsplit=1)", "split(maxsplit"),
    ("print(1, flush=True)", "print(flush"),
    ("int('5', base=10)", "int(base"),
    ("sum([1], start=0)", "sum(start"),
]


@pytest.mark.parametrize("code,expect", IDIOMS)
def test_idiom_checker_flags_what_micropython_rejects(code, expect):
    found = mpidioms.check_source(code + "\n")
    assert found and expect in found[0][2], found
    # and the real MicroPython VM does reject it
    r = micropython(["-c", code])
    assert r.returncode != 0, (code, r.stdout)


def test_idiom_checker_accepts_supported_keywords():
    src = "print(1, end='')\nsorted([2, 1], key=abs)\nenumerate([1], start=1)\n'a'.split(',')\n"
    assert mpidioms.check_source(src) == []
