"""A new user's first session, as docs/guide.md ("Try it all without
hardware") walks it, with the real `bakumat` commands as subprocesses: the
virtual board with its console, its files kept (`--dir`) and its phone page
served (`--web`, looked at in a headless Chromium at a phone's size), a
monitor watching while the other commands, given the board's own port, act
through it, a game set up and its Bakugan taught, a game played by hand
(console lines, `game input`, the phone page) and recorded, the recording
replayed, shown in the browser and turned into a report, the board restarted
on its folder. At each step the test checks what the user would look at, and
waits for it (never a fixed sleep)."""
import json
import os

import pytest
import queue
import re
import signal
import socket
import subprocess
import threading
import time

from browserkit import Browser
from mptools import tool

STEP = 40          # seconds any one step may take (a loaded machine); the session takes about 40 s in all
INTERNAL = re.compile(r"\bp\d+-(gate|card)\d+\b|\bplayer 0\b")   # ids and zero-based numbers a player never sees

# the monitors' files and the board's compiled modules in the module's own cache (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("own_cache")


class Proc:
    """A command running in the background; its output lines kept as they come."""

    def __init__(self, args, env, stdin=None):
        self.args = args
        self.p = subprocess.Popen([tool("bakumat")] + args, stdin=stdin, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, env=env)
        self.lines = []
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def wait_line(self, pred, what, timeout=STEP):
        """The first line from now on (or kept) that pred accepts."""
        for x in self.lines:
            if pred(x):
                self.lines.remove(x)
                return x
        deadline = time.monotonic() + timeout
        while True:
            try:
                x = self.q.get(timeout=max(0.05, deadline - time.monotonic()))
            except queue.Empty:
                x = False
            if x is None or x is False or time.monotonic() > deadline:
                raise AssertionError("`bakumat %s` never said %s%s; it said:\n%s" % (
                    " ".join(self.args), what, "" if x is not None else " (it exited: %s)" % self.p.poll(),
                    "\n".join(self.lines[-30:])))
            if pred(x):
                return x
            self.lines.append(x)

    def wait_text(self, text, timeout=STEP):
        return self.wait_line(lambda x: text in x, repr(text), timeout)

    def stop(self, sig=signal.SIGINT):
        if self.p.poll() is None:
            self.p.send_signal(sig)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        return self.p.returncode


class Console(Proc):
    """`bakumat vboard` with its console on a pipe, as typed into."""

    def say(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        ack = self.wait_line(lambda x: x.startswith(("ok", "not done")), "an answer to %r" % text)
        assert ack.startswith("ok"), (text, ack)
        return ack


def bakumat(args, env, timeout=STEP):
    r = subprocess.run([tool("bakumat")] + args, capture_output=True, text=True, env=env, timeout=timeout)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    return r.stdout + r.stderr


def wait_for(fn, what, timeout=STEP):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def test_a_new_users_first_session(tmp_path, monkeypatch):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("BAKUMAT_PORT", None)
    monkeypatch.chdir(tmp_path)
    procs = []
    browser = None
    try:
        # the virtual board, in a terminal of its own, its files kept in a folder, its phone page served
        vb = Console(["vboard", "--port", "0", "--dir", "mat", "--web", "0"], env, stdin=subprocess.PIPE)
        procs.append(vb)
        first = vb.wait_text("serial link on socket://")
        url = re.search(r"(socket://127\.0\.0\.1:\d+)", first).group(1)
        web = re.search(r"(http://127\.0\.0\.1:\d+/)", vb.wait_text("phone page")).group(1)
        assert "bakumat game new --port %s" % url in vb.wait_text("bakumat commands:")
        vb.wait_text("type scenario lines")

        # the phone page before any game: it says what it is and how a game starts
        browser = Browser()
        phone = browser.page()
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(web)
        phone.wait_for_function("document.getElementById('nogame') !== null")
        assert phone.inner_text("#nogame") == "No game on the mat yet."
        assert "bakumat game new" in phone.inner_text("#panel")

        # a monitor holds the link and shares it: the other commands, given
        # the board's own port, find it and act through it
        env["BAKUMAT_PORT"] = url
        mon = Proc(["monitor", "--no-mat", "--share", "0"], env)
        procs.append(mon)
        mon.wait_text("act through this monitor")

        # a game of one gate to win, the sample decks; the mat knows no Bakugan yet
        out = bakumat(["game", "new", "--target", "1"], env)
        assert "game started on the board: mode official, players Dan, Runo" in out
        assert "not taught yet: drago" in out
        # the monitor says it at once (the board sends no event of a new game)
        mon.wait_text("a new game on the board: players Dan, Runo, 1 gate to win")
        # the phone page finds the game: a side to claim, set-up (nobody's turn yet)
        phone.wait_for_selector("#claim0")
        assert phone.inner_text("#status") == "Set-up: each player places a gate card"
        assert "turn" not in phone.text_content("#mat")

        # teach the two Bakugan of the game to come, at the console as the command asks
        reg = Proc(["register", "drago", "falconeer", "--timeout", str(STEP)], env)
        procs.append(reg)
        for zone, b in enumerate(("drago", "falconeer")):
            reg.wait_text("%s: put a gate card on zone %d and open %s on it" % (b, zone, b))
            vb.say("card on zone %d" % zone)
            vb.say("place %s on zone %d" % (b, zone))
            reg.wait_text("learnt %s; take it off" % b)
            vb.say("remove zone %d" % zone)
            vb.say("card off zone %d" % zone)
        reg.wait_text("taught 2 Bakugan: drago, falconeer")
        assert reg.p.wait(STEP) == 0
        mon.wait_text("the mat learnt falconeer on zone 1")

        # record the game on the board (the one `game new` set, not the sample's: one gate to win)
        rec = Proc(["record", "game.raw", "--events", "game.ndjson", "--live", "live.ndjson", "--until-end"], env)
        procs.append(rec)
        rec.wait_text("recording the board's game from its start: mode official, players Dan, Runo")
        untaught = rec.wait_text("not taught yet:")
        assert "serpenoid" in untaught and "drago" not in untaught and "falconeer" not in untaught, untaught
        wait_for(lambda: os.path.exists("game.raw") and open("game.raw").read().count("\n") >= 2,
                 "the first recorded frame")
        # the game started again from its start: Dan takes his side on the phone page
        phone.wait_for_selector("#claim0")
        phone.click("#claim0")
        phone.wait_for_function("document.getElementById('me').textContent.indexOf('You play Dan. Side code ') === 0")
        assert "another phone can play Dan only with it" in phone.inner_text("#me")

        # the game, by hand: gates and throws at the console, the rest with `game input`
        vb.say("gate 0 dan-gold on zone 6")
        mon.wait_text("Dan places gate dan-gold on zone 6")
        vb.say("gate 1 runo-gold on zone 5")
        mon.wait_text("Runo places gate runo-gold on zone 5")
        vb.say("throw drago -> zone 6")
        mon.wait_text("Dan opens drago on zone 6")
        # taken back (as BACK held): the referee forgets it; the player lifts it and throws again
        out = bakumat(["game", "input", '{"ev": "undo"}'], env)
        assert "takes back the last landing" in out and "{" not in out, out
        vb.say("remove drago")
        mon.wait_text("drago is lifted off zone 6")
        # a line that cannot happen says why, in the console's own terms (no clock of the simulator's)
        vb.p.stdin.write("remove zone 9\n")
        vb.p.stdin.flush()
        no = vb.wait_line(lambda x: x.startswith(("ok", "not done")), "an answer to 'remove zone 9'")
        assert no == "not done: remove: nothing stands on zone 9 (help lists what the console takes)", no
        vb.say("throw drago -> zone 6")
        mon.wait_text("Dan opens drago on zone 6")
        vb.say("throw falconeer -> zone 6")
        mon.wait_text("BATTLE on zone 6: falconeer attacks drago")
        # a second recording now would start the game again: refused, in one line, the game untouched
        r = subprocess.run([tool("bakumat"), "record", "again.raw", "--seconds", "1"], capture_output=True,
                           text=True, env=env, timeout=STEP)
        assert r.returncode != 0 and "the game on the board is in play" in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
        # Dan plays his ability on the phone page
        phone.wait_for_selector("#ability-fire-wall")
        phone.click("#ability-fire-wall")
        mon.wait_text("Dan plays fire-wall (opponent -50 G)")
        phone.wait_for_function("document.getElementById('events').textContent.indexOf("
                                "'Dan plays fire-wall (opponent -50 G)') >= 0")
        assert phone.inner_text("#msg") == ""           # taken: the log says so, no stray "ok"
        vb.say("resolve")
        mon.wait_text("battle on zone 6: falconeer 320 (370 G, abilities -50) against drago 550 "
                      "(450 G, gate +100): drago wins")
        mon.wait_text("Dan captures gate dan-gold from zone 6 (won the battle)")
        mon.wait_text("game over: Dan wins 1-0")
        rec.wait_text("event log (")
        assert rec.p.wait(STEP) == 0
        status = bakumat(["game", "status"], env)
        assert "game over" in status and "Dan wins 1-0" in status, status
        phone.wait_for_function("document.getElementById('status').textContent === 'Dan wins!'")
        page_text = phone.inner_text("body")
        assert "Dan wins 1-0" in page_text and not INTERNAL.search(page_text), page_text
        # (the browser logs the API's answers "no game yet" (503) and "claim your
        # side again" (403) as failed loads: the page's own polling, not errors)
        errors = [e for e in phone.errors if not re.search(r"status of (503|403) ", e)]
        assert errors == [] and phone.offline_requests == [], phone.errors
        browser.close()
        browser = None

        # the recording replays to the decisions the board took live (the
        # same events in the same order; their milliseconds may move by a
        # frame or two where the board dropped frames its link could not
        # take, which the record line counts)
        saved = rec.wait_text("recorded ")
        print(saved)

        def story(events):
            return [dict((k, v) for k, v in e.items() if k not in ("t", "at")) for e in events if e["ev"] != "end"]
        live = [json.loads(x) for x in open("live.ndjson")]
        again = [json.loads(x) for x in bakumat(["replay", "--json", "game.raw"], env).splitlines()]
        assert story(again) == story(live)
        assert [e["ev"] for e in live].count("undo") == 1
        text = bakumat(["replay", "game.raw"], env)
        assert text.rstrip().endswith("game over: Dan wins 1-0"), text
        assert "takes back the last landing" in text and "Dan plays fire-wall (opponent -50 G)" in text
        # the event log --events wrote is a log `replay` takes, with the same story
        assert bakumat(["replay", "game.ndjson"], env).rstrip().endswith("game over: Dan wins 1-0")

        # the browser view of the recording: the mat, the winner
        view = Proc(["view", "game.raw", "--http", "0", "--no-browser"], env)
        procs.append(view)
        addr = re.search(r"(http://127\.0\.0\.1:\d+/)", view.wait_text("http://127.0.0.1:")).group(1)
        b = Browser()
        try:
            page = b.page()
            page.goto(addr)
            page.wait_for_selector("#status")
            # a log opens on its first step: the slider to the end
            page.eval_on_selector("#scrub", "e => { e.value = e.max; e.dispatchEvent(new Event('input')); }")
            page.wait_for_function("document.getElementById('status').textContent === 'Dan wins!'")
            assert "1/1 gates" in page.inner_text('.player[data-player="0"]')
            assert page.errors == [] and page.offline_requests == []
        finally:
            b.close()
        assert view.stop() in (0, -signal.SIGINT, 130)

        # the report to share: one page, no network, the battle's arithmetic and the winner in words
        out = bakumat(["report", "game.raw", "-o", "game.html"], env)
        assert "game.html" in out
        page = open("game.html").read()
        assert "Dan wins 1-0" in page and "fire-wall (opponent -50 G)" in page
        assert re.search(r"drago.*?550", page, re.S) and "falconeer" in page
        assert "http://" not in page and "https://" not in page

        # everything stops cleanly
        assert mon.stop() == 0
        # (two programs on the board's link at once: the first one is told at once, the console says so)
        first_c = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=STEP)
        second = socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=STEP)
        vb.wait_text("note: another program took the board's link")
        while first_c.recv(4096):             # EOF (not a timeout): the first program learns it lost the link
            pass
        first_c.close()
        second.close()
        vb.p.stdin.write("quit\n")
        vb.p.stdin.flush()
        assert vb.p.wait(STEP) == 0

        # the same command again on the same folder: the board comes back with its game and lessons
        vb = Console(["vboard", "--port", "0", "--dir", "mat", "--web", "0"], env, stdin=subprocess.PIPE)
        procs.append(vb)
        url = re.search(r"(socket://127\.0\.0\.1:\d+)", vb.wait_text("serial link on socket://")).group(1)
        vb.wait_text("type scenario lines")
        env["BAKUMAT_PORT"] = url
        status = bakumat(["game", "status"], env)
        assert "game over" in status and "Dan wins 1-0" in status, status
        assert "taught: drago, falconeer" in status, status
        vb.p.stdin.write("quit\n")
        vb.p.stdin.flush()
        assert vb.p.wait(STEP) == 0
    finally:
        if browser is not None:
            browser.close()
        for p in procs:
            if p.p.poll() is None:
                p.p.kill()
                p.p.wait()
