"""A running `bakumat monitor` and the commands around it, on the virtual
board: the monitor follows a game another command sets through it (there is
no board event for a new game), and a command given the board's own port
acts through the monitor instead of taking the port from it."""
import json
import os
import queue
import subprocess
import threading
import time

import pytest

from host_tools import boards
from host_tools.vboard import VBoard
from mptools import tool

pytestmark = pytest.mark.usefixtures("own_cache")  # the monitors' files go in the module's cache too

STEP = 60


@pytest.fixture
def vb(tmp_path):
    work = tmp_path / "board"
    work.mkdir()
    v = VBoard(boards.load(boards.REFERENCE), lockstep=False, workdir=str(work), mpy_dir=str(work))
    v.start()
    yield v
    v.stop()


class Monitor:
    def __init__(self, vb, *extra):
        self.p = subprocess.Popen([tool("bakumat"), "monitor", "--port", vb.url, "--share", "0"] + list(extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        note = self.p.stderr.readline()
        assert "other commands act through this monitor with --port socket://" in note, note
        self.share = note.split("--port ", 1)[1].strip()
        self.q = queue.Queue()
        threading.Thread(target=lambda: [self.q.put(x.rstrip("\n")) for x in self.p.stdout], daemon=True).start()
        self.seen = []

    def wait(self, pred, what):
        deadline = time.monotonic() + STEP
        while time.monotonic() < deadline:
            try:
                x = self.q.get(timeout=0.2)
            except queue.Empty:
                assert self.p.poll() is None, "the monitor exited: %s" % self.p.stderr.read()
                continue
            self.seen.append(x)
            if pred(x):
                return x
        raise AssertionError("the monitor never said %s; it said:\n%s" % (what, "\n".join(self.seen)))

    def stop(self):
        self.p.send_signal(2)
        assert self.p.wait(30) == 0, self.p.stderr.read()


def bakumat(*args):
    r = subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=STEP,
                       env=dict(os.environ, BAKUMAT_PORT=""))
    assert "Traceback" not in r.stderr, r.stderr
    return r


def test_the_monitor_follows_a_game_set_through_it(vb):
    mon = Monitor(vb, "--no-mat")
    try:
        mon.wait(lambda x: "no game on the board" in x, "that there is no game yet")
        assert bakumat("game", "new", "--target", "1", "--port", mon.share).returncode == 0
        mon.wait(lambda x: x == "a new game on the board: players Dan, Runo, 1 gate to win", "the new game")
        r = bakumat("game", "input", '{"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}', "--port", mon.share)
        assert r.returncode == 0, r.stderr
        mon.wait(lambda x: "Dan places" in x, "the gate")
        # a second game: said at once, with its own target, not the old game's
        assert bakumat("game", "new", "--port", mon.share).returncode == 0
        mon.wait(lambda x: x == "a new game on the board: players Dan, Runo, 3 gates to win", "the second game")
    finally:
        mon.stop()


def test_the_monitor_json_gives_the_new_games_state(vb):
    mon = Monitor(vb, "--json")
    try:
        mon.wait(lambda x: json.loads(x)["type"] == "state", "its first state")
        assert bakumat("game", "new", "--target", "1", "--port", mon.share).returncode == 0
        bakumat("game", "input", '{"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}', "--port", mon.share)
        mon.wait(lambda x: json.loads(x)["body"].get("ev") == "placed", "the gate")
        assert bakumat("game", "new", "--port", mon.share).returncode == 0
        st = json.loads(mon.wait(lambda x: json.loads(x)["type"] == "state", "the new game's state"))["body"]
        assert st["names"] == ["Dan", "Runo"] and not any((z or {}).get("gate") for z in st["view"]["zones"].values())
    finally:
        mon.stop()


def test_commands_given_the_boards_port_act_through_the_monitor(vb, tmp_path):
    mon = Monitor(vb, "--no-mat")
    try:
        mon.wait(lambda x: "no game on the board" in x, "that there is no game yet")
        # the board's own port, as the vboard prints it: the command finds the monitor
        r = bakumat("game", "new", "--target", "1", "--port", vb.url)
        assert r.returncode == 0, r.stderr
        mon.wait(lambda x: x.startswith("a new game on the board"), "the new game")
        # the live browser view too (it used to take the link and end the monitor)
        view = subprocess.Popen([tool("bakumat"), "view", "--live", "--port", vb.url, "--http", "0", "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            line = view.stdout.readline()
            while "bakumat view:" not in line and line:
                line = view.stdout.readline()
            assert "%s on %s at http://127.0.0.1:" % (boards.REFERENCE, vb.url) in line, line
            r = bakumat("game", "input", '{"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}',
                        "--port", vb.url)
            assert r.returncode == 0, r.stderr
            mon.wait(lambda x: "Dan places" in x, "the gate placed while the view watches")
            assert view.poll() is None
        finally:
            view.send_signal(2)
            view.wait(30)
        # what needs the port itself says so in one line and leaves the monitor be
        r = bakumat("deploy", "--port", vb.url)
        assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert "holds %s: deploy needs the port itself, so stop the monitor" % vb.url in r.stderr, r.stderr
        assert mon.p.poll() is None
    finally:
        mon.stop()
    # the monitor gone (and its file with it), the board's port is the board's again
    r = bakumat("game", "status", "--port", vb.url)
    assert r.returncode == 0 and "phase setup" in r.stdout, r.stderr
    assert os.listdir(os.path.join(os.environ["BAKUMAT_CACHE"], "monitors")) == []
