"""Type checks (typecheck/run.py, mypy): firmware/ against each board's
MicroPython stubs, host_tools/ against CPython typing. Zero errors.

The first run installs the pinned stubs (pip --target <venv>/mpstubs/<board>);
later runs reuse them and mypy's cache."""
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "typecheck"))
import run as typecheck  # noqa: E402  (typecheck/run.py)

BOARDS = typecheck.board_folders()


def _report(profile, errors):
    by_file = {}
    for e in errors:
        by_file.setdefault(e.split(":", 1)[0], []).append(e)
    lines = ["%d type errors in the %s profile (run: .venv/bin/python typecheck/run.py %s):"
             % (len(errors), profile, profile)]
    for path in sorted(by_file):
        lines.append("  %s" % path)
        for e in by_file[path]:
            lines.append("    " + e.split(":", 1)[1].strip())
    return "\n".join(lines)


def test_every_board_pins_its_stubs():
    names = [b for b, _r in BOARDS]
    assert "esp32_devkitc" in names and "esp32s3_devkitc1" in names, names


@pytest.mark.parametrize("board,requirement", BOARDS)
def test_firmware_types_against_board_stubs(board, requirement):
    errors, stub_errors, accepted = typecheck.check_board(board, requirement)
    print("\n[%s] %s: %d errors, %d accepted idioms, %d inside the stubs"
          % (board, requirement, len(errors), len(accepted), len(stub_errors)))
    if errors:
        pytest.fail(_report(board, errors), pytrace=False)


def test_host_tools_types():
    errors, _stub, _acc = typecheck.check_host()
    if errors:
        pytest.fail(_report("host", errors), pytrace=False)


def test_the_checker_finds_board_api_mistakes(tmp_path):
    """The profile does catch what it is for: a CPython-only module, a
    machine call that does not exist on the board, a bad signature."""
    board, requirement = BOARDS[0]
    d = typecheck.install_stubs(board, requirement)
    src = tmp_path / "bad.py"
    src.write_text(
        "import dataclasses\n"
        "import machine\n"
        "from array import array\n"
        "p = machine.Pin(4, machine.Pin.OUT)\n"
        "p.toggle_fast()\n"
        "a = machine.ADC(machine.Pin(34))\n"
        "a.read_u16(3)\n"
        "buf = array('H', [0])\n"
        "buf[0] = 1.5\n")
    out = typecheck._mypy(["--config-file", os.path.join(typecheck.HERE, "mypy-firmware.ini"),
                           "--custom-typeshed-dir", d, "--cache-dir", str(tmp_path / "cache"), str(src)],
                          [d])
    errors, _s, _a = typecheck.parse(out, d)
    text = "\n".join(errors)
    assert "bad.py:1:" in text and "dataclasses" in text, text
    assert "bad.py:5:" in text and "toggle_fast" in text, text
    assert "bad.py:7:" in text, text
    assert "bad.py:9:" in text, text


def test_const_fallback_idiom_is_accepted(tmp_path):
    # the project-mandated pattern is not an error; anything else still is
    board, requirement = BOARDS[0]
    d = typecheck.install_stubs(board, requirement)
    src = tmp_path / "idiom.py"
    src.write_text(
        "try:\n"
        "    from micropython import const\n"
        "except ImportError:\n"
        "    def const(x):\n"
        "        return x\n"
        "_N = const(3)\n"
        "print(undefined_name)\n")
    out = typecheck._mypy(["--config-file", os.path.join(typecheck.HERE, "mypy-firmware.ini"),
                           "--custom-typeshed-dir", d, "--cache-dir", str(tmp_path / "cache"), str(src)],
                          [d])
    errors, _s, accepted = typecheck.parse(out, d)
    assert len(accepted) == 1 and "idiom.py:4:" in accepted[0], (errors, accepted)
    assert len(errors) == 1 and "idiom.py:7:" in errors[0], errors
