"""`bakumat wifi` end to end against the virtual board (the firmware in the
micropython binary, its filesystem a host folder) with the real mpremote:
the file the board reads (docs/formats/wifi-v1.md) written through the
deploy command's path (maintenance mode, temp file renamed), shown with the
password masked, removed; bad input refused before any board is touched."""
import json
import os
import subprocess

import pytest

from host_tools import boards
from host_tools.commands import wifi
from host_tools.errors import UserError
from host_tools.vboard import VBoard
from mptools import tool

SECRET = "s3cret-pass phrase"


@pytest.fixture
def vb(tmp_path):
    work = tmp_path / "board"
    work.mkdir()
    v = VBoard(boards.load(boards.REFERENCE), lockstep=False, workdir=str(work), mpy_dir=str(work))
    v.start()
    yield v
    v.stop()


def bakumat(*args, input=None, timeout=120):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=timeout,
                          input=input)


def on_board(vb):
    p = os.path.join(vb.workdir, "wifi.json")
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def test_wifi_ap_join_show_off_on_the_virtual_board(vb):
    r = bakumat("wifi", "--port", vb.url, "ap", "--password", SECRET)
    assert r.returncode == 0, r.stderr + vb.console_text()[-2000:]
    assert on_board(vb) == {"version": 1, "mode": "ap", "ssid": "BakuMat", "key": SECRET}
    assert "asking it for maintenance mode" in r.stderr and "is up" in r.stderr  # the app restarted
    assert "password   set (bakumat wifi show --reveal shows it)" in r.stdout
    assert "s3cret" not in r.stdout + r.stderr and str(len(SECRET)) not in r.stdout
    assert sorted(f for f in os.listdir(vb.workdir) if f.startswith("wifi")) == ["wifi.json"]  # no temp file left
    # joining a network, the password from stdin; the port after the action works too
    r = bakumat("wifi", "join", "--ssid", "Home net", "--password", "-", "--port", vb.url, input=SECRET + "\n")
    assert r.returncode == 0, r.stderr
    assert on_board(vb) == {"version": 1, "mode": "sta", "ssid": "Home net", "key": SECRET}
    boots = vb.boots
    r = bakumat("wifi", "--port", vb.url, "show")
    assert r.returncode == 0, r.stderr
    # read-only: read from the running app, the board not restarted
    assert vb.boots == boots and "maintenance" not in r.stderr
    assert "mode       join a network" in r.stdout and "ssid       Home net" in r.stdout
    assert "password   set (bakumat wifi show --reveal shows it)" in r.stdout
    assert "s3cret" not in r.stdout + r.stderr and str(len(SECRET)) not in r.stdout
    r = bakumat("wifi", "--port", vb.url, "show", "--reveal")
    assert r.returncode == 0 and "password   %s" % SECRET in r.stdout, r.stderr
    # an access point without a password: protected by one made at random,
    # shown only by --reveal
    r = bakumat("wifi", "--port", vb.url, "ap", "--ssid", "Mat 2")
    assert r.returncode == 0, r.stderr
    doc = on_board(vb)
    key = doc.pop("key")
    assert doc == {"version": 1, "mode": "ap", "ssid": "Mat 2"} and len(key) == 14
    assert key not in r.stdout + r.stderr and "made at random" in r.stdout
    r = bakumat("wifi", "--port", vb.url, "show")
    assert key not in r.stdout and "14" not in r.stdout
    r = bakumat("wifi", "--port", vb.url, "show", "--reveal")
    assert "password   %s" % key in r.stdout
    # an open access point only when asked for by name
    r = bakumat("wifi", "--port", vb.url, "ap", "--ssid", "Mat 2", "--open")
    assert r.returncode == 0, r.stderr
    assert on_board(vb) == {"version": 1, "mode": "ap", "ssid": "Mat 2", "key": "", "open": True}
    assert "password   none (an open access point)" in r.stdout and "anyone nearby can join" in r.stdout
    # off, twice
    r = bakumat("wifi", "--port", vb.url, "off")
    assert r.returncode == 0, r.stderr
    assert on_board(vb) is None and "removed wifi.json" in r.stdout
    r = bakumat("wifi", "--port", vb.url, "off", "--no-reset")
    assert r.returncode == 0, r.stderr
    assert "already off" in r.stdout and "left the board in maintenance mode" in r.stderr
    # a damaged file on the board is named, not a traceback
    with open(os.path.join(vb.workdir, "wifi.json"), "w") as f:
        f.write("{not json")
    r = bakumat("wifi", "--port", vb.url, "show")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines()[-1] == ("bakumat wifi: error: wifi.json on the board is not valid JSON "
                                                 "(write it again with bakumat wifi ap or join)")


@pytest.mark.parametrize("args, message", [
    (["ap", "--password", "short"], "--password: a WPA2 password has 8 to 63 characters, this one has 5"),
    (["ap", "--password", "x" * 64], "--password: a WPA2 password has 8 to 63 characters, this one has 64"),
    (["ap", "--password", "caf\u00e9-au-lait"], "--password: a WPA2 password is printable ASCII only "
                                                "(character 4 is not)"),
    (["join", "--ssid", "", "--password", "12345678"], "--ssid: the network name is empty (1 to 32 bytes)"),
    (["join", "--ssid", "\u00e9" * 17, "--password", "12345678"], "is 34 bytes long in UTF-8; a network name "
                                                                  "has at most 32"),
    (["join", "--ssid", "a\tb", "--password", "12345678"], "--ssid: the network name contains a control character"),
])
def test_wifi_refuses_bad_input_before_touching_a_board(args, message):
    # no board at that port: the input is checked first
    r = bakumat("wifi", "--port", "socket://127.0.0.1:9", *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bakumat wifi: error: ") and message in lines[0], r.stderr
    assert "Traceback" not in r.stderr


def test_wifi_config_and_mask():
    made = [wifi.config("ap", "BakuMat", None)["key"] for _ in range(2)]
    assert made[0] != made[1] and all(len(k) == 14 and set(k) <= set(wifi.KEY_CHARS) for k in made)
    assert wifi.config("ap", "BakuMat", None, open_ap=True) == {"version": 1, "mode": "ap", "ssid": "BakuMat",
                                                                "key": "", "open": True}
    assert wifi.config("sta", "x" * 32, "a" * 63)["key"] == "a" * 63
    with pytest.raises(UserError, match="--password is required"):
        wifi.config("sta", "home", "")
    lines = wifi.describe({"version": 1, "mode": "ap", "ssid": "S", "key": "topsecret1"})
    assert "password   set (bakumat wifi show --reveal shows it)" in lines
    assert not any("topsecret" in line or "10" in line for line in lines)
    assert "password   topsecret1" in wifi.describe({"mode": "ap", "key": "topsecret1"}, reveal=True)
    # the script written to the board does not carry the password in clear
    assert "topsecret1" not in wifi.write_script({"key": "topsecret1"})
