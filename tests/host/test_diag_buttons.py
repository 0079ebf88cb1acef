"""`bakumat diag buttons` against a board at the other end of a TCP socket
speaking serial protocol v1 with the firmware's own codec, reporting button
presses as the firmware does (`mat {"ev": "button"}`, runtime.buttons). The
virtual board has no buttons: its side channel (vboard-side-channel-v1)
carries no button input yet."""
import json
import subprocess

from linkboard import LinkBoard
from mptools import tool


class ButtonBoard(LinkBoard):
    """Answers `version`; once asked, sends the given presses as `mat`
    frames, between other traffic a board sends (a landing, a log)."""

    def __init__(self, presses):
        super().__init__()
        self.presses = presses
        self.start()

    def on_frame(self, seq, typ, body):
        if typ != "version":
            self.send(seq, "err", {"code": "unknown", "msg": typ})
            return
        self.send(seq, "version", {"fw": "test", "proto": 1, "board": "esp32_devkitc", "mpy": "6.3"})
        self.send(100, "mat", {"ev": "land", "t": 50, "zone": 3, "bakugan": "drago"})
        for i, (name, press) in enumerate(self.presses):
            self.send(101 + i, "mat", {"ev": "button", "name": name, "press": press, "t": 100 + 400 * i})
            self.send(200 + i, "log", {"msg": "noise"})


def bakumat(*args, timeout=60):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=timeout)


def test_diag_buttons_lists_each_press_and_the_silent_buttons():
    b = ButtonBoard([("p0_ok", "short"), ("p1_back", "long"), ("p0_ok", "short")])
    r = bakumat("diag", "buttons", "--port", b.url, "--presses", "3", "--seconds", "30")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1:4] == ["p0_ok    short  player 1 OK", "p1_back  long   player 2 BACK",
                          "p0_ok    short  player 1 OK"]
    assert "3 presses: p0_ok 2 short 0 long, p1_back 0 short 1 long" in r.stdout
    assert "never pressed: p0_back, p1_ok" in r.stdout


def test_diag_buttons_json_and_too_few_presses():
    b = ButtonBoard([("p1_ok", "short")])
    r = bakumat("diag", "buttons", "--port", b.url, "--presses", "2", "--seconds", "1.5", "--json")
    assert r.returncode == 1
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert out[0] == {"name": "p1_ok", "press": "short", "t": 100}
    assert out[-1] == {"presses": 1, "buttons": {"p1_ok": {"short": 1, "long": 0}},
                       "silent": ["p0_ok", "p0_back", "p1_back"]}
    assert "only 1 of 2 presses within 1.5 s" in r.stderr


def test_diag_buttons_bad_arguments():
    b = ButtonBoard([])
    r = bakumat("diag", "buttons", "--port", b.url, "--presses", "0")
    assert r.returncode == 2 and r.stderr.strip() == "bakumat diag: error: --presses must be at least 1, got 0"
