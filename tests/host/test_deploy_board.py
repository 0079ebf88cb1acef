"""`bakumat deploy` through the real mpremote onto a bare MicroPython board
(the unix port's REPL over socket://, filesystem on a host folder): files
really copied, imported there, only changes copied the second time, and the
error when no app answers after the reset."""
import io
import json
import shutil
import subprocess

import pytest

from barerepl import BareRepl
from host_tools import boards, fwpath
from host_tools.device import deploy, transport
from mptools import tool


pytestmark = pytest.mark.usefixtures("own_cache")  # one .mpy cache for the module (tests/conftest.py)


def bakumat(*args, timeout=180):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=timeout)


def test_deploy_copies_and_imports_on_the_board(tmp_path):
    fs = tmp_path / "fs"
    src = str(tmp_path / "fw")      # a snapshot: others may edit firmware/ meanwhile
    shutil.copytree(fwpath.FIRMWARE_DIR, src, ignore=shutil.ignore_patterns("__pycache__"))
    with BareRepl(fs) as b:
        mp = transport.Mpremote(b.url, timeout=60)
        out = io.StringIO()
        r = deploy.deploy(deploy.BoardTarget(mp), boards.load(boards.REFERENCE), mode="official", out=out, src=src)
        assert r["arch"] == "x64"           # what the unix port reports: the vboard's arch
        n = len(deploy.app_files(src))
        assert len(r["copied"]) == n + 2
        assert (fs / "referee" / "engine.mpy").is_file()
        assert (fs / ".bakumat-manifest.json").is_file()
        assert json.loads((fs / "board.json").read_text())["name"] == boards.REFERENCE
        # imported on the board from its own filesystem
        text = mp.exec("import sys\nsys.path[:0]=['']\nfrom link import codec\nimport referee\n"
                       "print(codec.crc16(b'123456789'), codec.__file__)")
        crc, path = text.split()
        assert int(crc) == 0x29B1 and path.endswith("link/codec.mpy")
        # second time: nothing to copy, one mpremote call to probe
        calls = mp.calls
        r = deploy.deploy(deploy.BoardTarget(mp), boards.load(boards.REFERENCE), mode="official", out=out, src=src)
        assert r["copied"] == [] and mp.calls == calls + 1
        # a file damaged on the board is noticed by its size and copied again
        (fs / "sense" / "pipeline.mpy").write_bytes(b"x")
        r = deploy.deploy(deploy.BoardTarget(mp), boards.load(boards.REFERENCE), mode="official", out=out, src=src)
        assert r["copied"] == ["sense/pipeline.mpy"]


def test_cli_deploy_then_no_app_answers(tmp_path):
    fs = tmp_path / "fs"
    with BareRepl(fs) as b:
        r = bakumat("deploy", "--port", b.url, "--board", boards.REFERENCE, "--mode", "big", "--no-reset")
        assert r.returncode == 0, r.stderr
        assert "interrupt" in r.stderr          # no app answered the maintenance request
        assert "copied" in r.stderr
        app = json.loads((fs / "app.json").read_text())
        assert app["board"] == boards.REFERENCE and app["mode"] == "big"
        # board and mode are remembered; the reset brings no app up here
        r = bakumat("deploy", "--port", b.url, "--timeout", "3")
        assert r.returncode == 2
        app = json.loads((fs / "app.json").read_text())
        assert app["board"] == boards.REFERENCE and app["mode"] == "big"
        assert "the app did not answer within 3 s after the reset" in r.stderr
        assert "the board printed" in r.stderr      # what the REPL said, to help
        assert "host_tools" not in r.stderr and "internal error" not in r.stderr


def test_cli_deploy_needs_a_board_name_the_first_time(tmp_path):
    with BareRepl(tmp_path / "fs") as b:
        r = bakumat("deploy", "--port", b.url)
        assert r.returncode == 2
        assert "which board is this? pass --board NAME" in r.stderr and boards.REFERENCE in r.stderr
        known = r.stderr.split("(known: ", 1)[1].split(")", 1)[0].split(", ")
        assert boards.REFERENCE in known and not set(boards.RETIRED) & set(known)   # a retired board is never offered


def test_flash_then_deploy_on_a_serial_device(tmp_path, monkeypatch, capsys):
    """`bakumat flash` (esptool faked) goes on to deploy the app through
    mpremote on the same serial device path."""
    from fake_esptool import FakeEsptool, make_image
    from host_tools import cli
    from host_tools.device import flash
    img = make_image(str(tmp_path / "ESP32_GENERIC_S3.bin"), chip_id=9)
    api = FakeEsptool("ESP32-S3")
    monkeypatch.setattr(flash, "esptool_api", lambda: api)
    fs = tmp_path / "fs"
    with BareRepl(fs, device=True) as b:
        code = cli.main(["flash", "--port", b.url, "--image", img, "--board", boards.REFERENCE, "--no-reset"])
        err = capsys.readouterr().err
        assert code == 0, err
        assert [op[0] for op in api.ops] == ["detect_chip", "run_stub", "change_baud", "attach_flash",
                                             "erase_flash", "write_flash", "reset_chip"]
        assert api.ops[5] == ("write_flash", ((0x0, "ESP32_GENERIC_S3.bin"),))
        assert (fs / "app.json").is_file() and (fs / "referee" / "engine.mpy").is_file()
        assert json.loads((fs / "board.json").read_text())["name"] == boards.REFERENCE
        assert "left the board in maintenance mode" in err


def test_cli_deploy_of_the_amr2_board_carries_its_kernel_table(tmp_path):
    """`bakumat deploy --board esp32s3_devkitc1_amr2`: the board definition
    on the board wires the I2C sensors and carries the kernel table of the
    mat's nominal world; a world `diag plate` measured (calib.json on the
    board) wins over it."""
    fs = tmp_path / "fs"
    with BareRepl(fs) as b:
        r = bakumat("deploy", "--port", b.url, "--board", "esp32s3_devkitc1_amr2", "--no-reset")
        assert r.returncode == 0, r.stderr
        assert "kernel table of world mu300-t0.2 (the mat's nominal world)" in r.stderr
        bd = json.loads((fs / "board.json").read_text())
        assert bd["name"] == "esp32s3_devkitc1_amr2" and len(bd["wiring"]["i2c"]["sensors"]) == 32
        assert bd["kernels"]["world"] == "mu300-t0.2" and bd["sensor"]["max_counts"] == 65535
        (fs / "calib.json").write_text(json.dumps({"plate": {"world": "mu1000-t0.2"}}))
        r = bakumat("deploy", "--port", b.url, "--no-reset")
        assert r.returncode == 0, r.stderr
        assert "kernel table of world mu1000-t0.2 (measured by diag plate)" in r.stderr
        assert json.loads((fs / "board.json").read_text())["kernels"]["world"] == "mu1000-t0.2"
