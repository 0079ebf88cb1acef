"""`bakumat flash` against a fake esptool boundary, and the port errors on
real ptys (busy: an exclusive lock held by another open; permission: a
chmod 000 pty opened by an unprivileged user)."""
import fcntl
import io
import os

import pytest

from fake_esptool import FakeEsptool, make_image
from host_tools import boards, cli
from host_tools.device import flash, ports, transport
from host_tools.errors import UserError
from host_tools.device.progress import Progress

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def pty():
    master, slave = os.openpty()
    path = os.ttyname(slave)
    yield path
    os.close(master)
    os.close(slave)


def test_esp32_exact_operations_and_offset(tmp_path):
    img = make_image(str(tmp_path / "ESP32_GENERIC-20250415-v1.25.0.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    mcu, image, off = flash.flash("/dev/ttyUSB0", image=img, api=api, out=io.StringIO())
    assert (mcu, off) == ("esp32", 0x1000)
    assert api.ops == [
        ("detect_chip", "/dev/ttyUSB0"),
        ("run_stub",),
        ("change_baud", 460800),
        ("attach_flash",),
        ("erase_flash",),
        ("write_flash", ((0x1000, os.path.basename(img)),)),
        ("reset_chip", "hard-reset"),
    ]
    with open(img, "rb") as f:
        assert api.written[0x1000] == f.read()
    assert api.loaders[0].closed


def test_esp32s3_exact_operations_and_offset(tmp_path):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=9)
    api = FakeEsptool("ESP32-S3")
    mcu, _, off = flash.flash("/dev/ttyACM0", image=img, api=api, out=io.StringIO(), erase=False, baud=921600)
    assert (mcu, off) == ("esp32s3", 0x0)
    assert api.ops == [
        ("detect_chip", "/dev/ttyACM0"),
        ("run_stub",),
        ("change_baud", 921600),
        ("attach_flash",),
        ("write_flash", ((0x0, "fw.bin"),)),
        ("reset_chip", "hard-reset"),
    ]


def test_offsets_per_chip():
    assert flash.offset("esp32") == 0x1000
    assert flash.offset("esp32s2") == 0x1000
    assert flash.offset("esp32s3") == 0
    assert flash.offset("esp32c3") == 0
    assert flash.offset("esp32c6") == 0


def test_wrong_chip_for_image_stops_before_erasing(tmp_path):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=9)       # an S3 image
    api = FakeEsptool("ESP32")
    with pytest.raises(UserError) as e:
        flash.flash("/dev/ttyUSB0", image=img, api=api, out=io.StringIO())
    msg = str(e.value)
    assert "wrong image" in msg and "ESP32-S3" in msg and "ESP32_GENERIC" in msg
    assert [op[0] for op in api.ops] == ["detect_chip"]


def test_not_an_image_is_refused_before_touching_the_board(tmp_path):
    p = tmp_path / "notes.bin"
    p.write_bytes(b"hello world, this is not firmware at all")
    api = FakeEsptool("ESP32")
    with pytest.raises(UserError) as e:
        flash.flash("/dev/ttyUSB0", image=str(p), api=api, out=io.StringIO())
    assert "not an ESP32 firmware image" in str(e.value)
    assert api.ops == []


@pytest.mark.parametrize("fail", ["download", "nodata"])
def test_not_in_download_mode_says_what_to_press(tmp_path, fail):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32", fail=fail)
    with pytest.raises(UserError) as e:
        flash.flash("/dev/ttyUSB0", image=img, api=api, out=io.StringIO())
    msg = str(e.value)
    assert "hold the BOOT button" in msg and "EN/RESET" in msg
    assert "Traceback" not in msg


def test_board_definition_chip_must_match(tmp_path):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    with pytest.raises(UserError) as e:
        flash.flash("/dev/ttyUSB0", image=img, api=api, expect_mcu="esp32s3", out=io.StringIO())
    assert "board definition is for ESP32-S3" in str(e.value)


def test_image_from_cache_newest_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("BAKUMAT_CACHE", str(tmp_path))
    d = tmp_path / "firmware" / "esp32s3"
    d.mkdir(parents=True)
    old = make_image(str(d / "old.bin"), chip_id=9)
    new = make_image(str(d / "new.bin"), chip_id=9)
    os.utime(old, (1000, 1000))
    os.utime(new, (2000, 2000))
    api = FakeEsptool("ESP32-S3")
    _, image, _ = flash.flash("/dev/ttyUSB0", api=api, out=io.StringIO())
    assert image == new
    assert api.ops[5] == ("write_flash", ((0, "new.bin"),))


def test_no_image_anywhere_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("BAKUMAT_CACHE", str(tmp_path))
    api = FakeEsptool("ESP32")
    with pytest.raises(UserError) as e:
        flash.flash("/dev/ttyUSB0", api=api, out=io.StringIO())
    msg = str(e.value)
    assert os.path.join(str(tmp_path), "firmware", "esp32") in msg
    assert "does not download" in msg and "--image" in msg
    assert [op[0] for op in api.ops] == ["detect_chip"]


def test_socket_port_cannot_be_flashed():
    with pytest.raises(UserError) as e:
        flash.flash("socket://127.0.0.1:9", image=None, api=FakeEsptool(), out=io.StringIO())
    assert "bakumat deploy" in str(e.value)


def test_progress_bar_on_a_terminal_and_quiet_otherwise(tmp_path):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0, size=100000)
    tty = Tty()
    flash.flash("/dev/ttyUSB0", image=img, api=FakeEsptool("ESP32"), out=tty)
    assert "\r" in tty.getvalue() and "100%" in tty.getvalue()
    plain = io.StringIO()
    flash.flash("/dev/ttyUSB0", image=img, api=FakeEsptool("ESP32"), out=plain)
    assert "\r" not in plain.getvalue()
    assert "Writing: 97.7 KB" in plain.getvalue()       # one summary line


def test_progress_helper_rate_limits_and_summarises():
    now = [0.0]
    tty = Tty()
    bar = Progress("Copying", total=100, stream=tty, clock=lambda: now[0])
    for i in range(1, 101):
        bar.set(i)          # no time passes: only the first and the final draw
    bar.close()
    out = tty.getvalue()
    assert out.count("\r\x1b[K") == 3       # first draw, 100 %, clearing before the summary
    assert out.endswith("Copying: 100 in 0.0 s\n")


# ------------------------------------------------------------------ the CLI

def run_cli(argv, capsys):
    code = cli.main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_flash_esp32_through_a_pty(tmp_path, pty, monkeypatch, capsys):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    monkeypatch.setattr(flash, "esptool_api", lambda: api)
    code, out, err = run_cli(["flash", "--port", pty, "--image", img, "--no-deploy"], capsys)
    assert code == 0, err
    assert api.ops[5] == ("write_flash", ((0x1000, "fw.bin"),))      # a plain ESP32's image goes at 0x1000
    assert "chip: ESP32" in err


def test_cli_flash_refuses_a_retired_board(tmp_path, pty, monkeypatch, capsys):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    monkeypatch.setattr(flash, "esptool_api", lambda: api)
    code, out, err = run_cli(["flash", "--port", pty, "--image", img, "--board", "esp32_devkitc",
                              "--no-deploy"], capsys)
    assert code == 2 and api.ops == []
    assert "board 'esp32_devkitc' is retired" in err and "Traceback" not in err


def test_cli_flash_board_mismatch(tmp_path, pty, monkeypatch, capsys):
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    monkeypatch.setattr(flash, "esptool_api", lambda: api)
    code, out, err = run_cli(["flash", "--port", pty, "--image", img, "--board", boards.REFERENCE,
                              "--no-deploy"], capsys)
    assert code == 2
    assert "board definition is for ESP32-S3" in err and "Traceback" not in err


def test_cli_port_busy(tmp_path, pty, monkeypatch, capsys):
    """Another program holds the port (pyserial's exclusive flock, as
    mpremote, esptool and pyserial's miniterm take it)."""
    img = make_image(str(tmp_path / "fw.bin"), chip_id=0)
    api = FakeEsptool("ESP32")
    monkeypatch.setattr(flash, "esptool_api", lambda: api)
    holder = os.open(pty, os.O_RDWR | os.O_NOCTTY)
    fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        code, out, err = run_cli(["flash", "--port", pty, "--image", img, "--no-deploy"], capsys)
    finally:
        os.close(holder)
    assert code == 2
    assert "in use by another program" in err and pty in err
    assert "Traceback" not in err
    assert api.ops == []


def test_port_busy_ebusy_text():
    # The kernel's answer for a TIOCEXCL tty opened by a normal user.
    import serial
    e = serial.SerialException(16, "could not open port /dev/ttyUSB0: [Errno 16] Device or resource busy: "
                                   "'/dev/ttyUSB0'")
    assert "in use by another program" in str(ports.open_error(e, "/dev/ttyUSB0"))


def test_permission_denied_says_dialout(pty):
    os.chmod(pty, 0)
    if os.geteuid() != 0:
        with pytest.raises(UserError) as e:
            transport.check_port(pty)
        msg = str(e.value)
    else:
        # root ignores file modes: open it from a child that became an
        # unprivileged user, as a player would be (modules already loaded).
        import serial.serialposix  # noqa: F401
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(r)
                os.setgid(65534)
                os.setuid(65534)
                try:
                    transport.check_port(pty)
                    text = "opened"
                except UserError as e:
                    text = str(e)
                os.write(w, text.encode())
            finally:
                os._exit(0)
        os.close(w)
        chunks = []
        while True:
            b = os.read(r, 4096)
            if not b:
                break
            chunks.append(b)
        os.close(r)
        os.waitpid(pid, 0)
        msg = b"".join(chunks).decode()
    assert "permission denied" in msg, msg
    assert "dialout" in msg


def test_missing_port_and_refused_socket():
    with pytest.raises(UserError) as e:
        transport.check_port("/dev/ttyUSB-nonexistent")
    assert "no such port" in str(e.value)
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()           # nothing listens there now
    with pytest.raises(UserError) as e:
        transport.check_port("socket://127.0.0.1:%d" % port)
    assert "bakumat vboard" in str(e.value)


# ------------------------------------------------------------ port choice

def info(device, vid=None, pid=None, desc="n/a", sn=None):
    from serial.tools.list_ports_common import ListPortInfo
    i = ListPortInfo(device, skip_link_detection=True)
    i.vid, i.pid, i.description, i.serial_number = vid, pid, desc, sn
    return i


def test_choose_single_board_says_which(monkeypatch):
    monkeypatch.delenv(ports.ENV, raising=False)
    out = io.StringIO()
    infos = [info("/dev/ttyS0"), info("/dev/ttyUSB0", 0x10C4, 0xEA60, "CP2102 USB to UART", "0001")]
    assert ports.choose(None, infos, out) == "/dev/ttyUSB0"
    assert "using /dev/ttyUSB0 (Silicon Labs CP210x, 10C4:EA60" in out.getvalue()


@pytest.mark.parametrize("vid", [0x303A, 0x10C4, 0x1A86, 0x0403])
def test_each_known_usb_vendor_is_found(monkeypatch, vid):
    monkeypatch.delenv(ports.ENV, raising=False)
    assert ports.choose(None, [info("/dev/ttyX", vid, 1)], io.StringIO()) == "/dev/ttyX"


def test_choose_none_and_several(monkeypatch):
    monkeypatch.delenv(ports.ENV, raising=False)
    with pytest.raises(UserError) as e:
        ports.choose(None, [info("/dev/ttyS0"), info("/dev/ttyACM3", 0x2341, 0x43)], io.StringIO())
    msg = str(e.value)
    assert "no ESP32 board found" in msg and "/dev/ttyACM3" in msg and "--port" in msg and "data cable" in msg
    with pytest.raises(UserError) as e:
        ports.choose(None, [info("/dev/ttyUSB0", 0x10C4, 1), info("/dev/ttyACM0", 0x303A, 0x1001)], io.StringIO())
    msg = str(e.value)
    assert "several boards found" in msg and "/dev/ttyUSB0" in msg and "/dev/ttyACM0" in msg


def test_port_override_and_env(monkeypatch):
    monkeypatch.setenv(ports.ENV, "socket://127.0.0.1:7000")
    assert ports.choose(None, [], io.StringIO()) == "socket://127.0.0.1:7000"
    assert ports.choose("/dev/ttyUSB3", [], io.StringIO()) == "/dev/ttyUSB3"


def test_without_an_image_the_reference_board_is_told_the_spiram_oct_one(tmp_path, monkeypatch):
    monkeypatch.setenv("BAKUMAT_CACHE", str(tmp_path))
    with pytest.raises(UserError) as e:
        flash.find_cached("esp32s3")
    assert "ESP32_GENERIC_S3-SPIRAM_OCT" in str(e.value)
    with pytest.raises(UserError) as e:
        flash.find_cached("esp32")
    assert "board ESP32_GENERIC)" in str(e.value)
