"""`bakumat diag buttons` against a board at the other end of a TCP socket
speaking serial protocol v1 with the firmware's own codec, reporting button
presses as the firmware does (`mat {"ev": "button"}`, app._gesture). The
virtual board has no buttons: its side channel (vboard-side-channel-v1)
carries no button input yet."""
import json
import socket
import subprocess
import threading

from host_tools import fwpath
from mptools import tool


class ButtonBoard:
    """Answers `version`; once asked, sends the given presses as `mat`
    frames, between other traffic a board sends (a landing, a log)."""

    def __init__(self, presses):
        fwpath.ensure()
        from link import codec
        self.codec = codec
        self.presses = presses
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.sock.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        conn, _ = self.sock.accept()
        self.conn = conn
        dec = self.codec.Decoder(self.on_frame)
        while True:
            try:
                data = conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            dec.feed(data)

    def on_frame(self, seq, typ, body):
        send = lambda s, t, b: self.conn.sendall(self.codec.encode(s, t, b))  # noqa: E731
        if typ != "version":
            send(seq, "err", {"code": "unknown", "msg": typ})
            return
        send(seq, "version", {"fw": "test", "proto": 1, "board": "esp32_devkitc", "mpy": "6.3"})
        send(100, "mat", {"ev": "land", "t": 50, "zone": 3, "bakugan": "drago"})
        for i, (name, press) in enumerate(self.presses):
            send(101 + i, "mat", {"ev": "button", "name": name, "press": press, "t": 100 + 400 * i})
            send(200 + i, "log", {"msg": "noise"})


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
