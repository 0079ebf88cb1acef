"""`bakumat vboard`'s console, driven as a person types into it: each line
takes effect at once (the board's sensing sees it) and is answered; the
board keeps serving with no console; real mpremote and pyserial's miniterm
work as the banner says."""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from host_tools import fwpath
from host_tools import boards
from host_tools.device.link import open_link
from mptools import tool

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")


class Console:
    """A `bakumat vboard --port 0` process with its console on a pipe."""

    def __init__(self, tmp_path, stdin=subprocess.PIPE):
        cmd = [sys.executable, "-m", "host_tools.cli", "vboard", "--port", "0", "--dir", str(tmp_path / "fs")]
        self.p = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        first = self.line(30)
        m = re.search(r"(socket://127\.0\.0\.1:\d+)", first)
        assert m, first
        self.url = m.group(1)
        self.banner = [first] + self.until(lambda x: "console" in x or "type scenario" in x, 30)

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def line(self, timeout):
        x = self.q.get(timeout=timeout)
        assert x is not None, "the virtual board exited (status %s)" % self.p.wait(5)
        return x

    def until(self, pred, timeout):
        got = []
        deadline = time.monotonic() + timeout
        while True:
            x = self.line(max(0.1, deadline - time.monotonic()))
            got.append(x)
            if pred(x):
                return got

    def say(self, text, timeout=30):
        """Type a line; return the answer's lines."""
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        return self.until(lambda x: x.startswith(("ok", "not done", "power", "reset", "game clock", "maint", "app")), timeout)

    def close(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


@pytest.fixture
def console(tmp_path):
    c = Console(tmp_path)
    yield c
    c.close()


def mat_event(link, pred, timeout=20):
    from host_tools.device.link import LinkError
    try:
        return link.wait_for(lambda f: f[1] == "mat" and pred(f[2]), timeout=timeout)[2]
    except LinkError:
        raise AssertionError("not seen; the board sent %s" % list(link.inbox))


def test_console_lines_reach_the_sensors_at_once_and_are_answered(console, tmp_path):
    with open(SAMPLE) as f:
        header = json.loads(f.readline())
    with open_link(console.url) as link:
        assert link.request("cfg", header, timeout=10)[1]["ok"]
    # register: `bakumat register` waits for the Bakugan the person puts down at the console
    reg = subprocess.Popen([sys.executable, "-m", "host_tools.cli", "register", "drago", "--zone", "3",
                            "--port", console.url, "--timeout", "40"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        asked = reg.stdout.readline()       # the board took the `register` before anything lands
        assert "put a gate card on zone 3 and open drago on it" in asked, asked
        ack = console.say("card on zone 3")
        assert ack[-1].startswith("ok") and "gate card lies on zone 3" in ack[-1], ack
        ack = console.say("place drago on zone 3")
        assert ack[0].startswith("ok") and "drago put down opened on zone 3" in ack[0], ack
        learnt = reg.stdout.readline()     # as a person does: lift it when the command says so
        assert "learnt drago; take it off" in learnt, learnt
        ack = console.say("remove zone 3")
        assert ack[0].startswith("ok") and "lift zone 3" in ack[0], ack
        out, _ = reg.communicate(timeout=60)
    finally:
        if reg.poll() is None:
            reg.kill()
            reg.wait()
    assert reg.returncode == 0, out
    assert "taught 1 Bakugan: drago" in out
    # place / throw / lift in the game: the board's sensing reports each one
    link = open_link(console.url)
    try:
        ack = console.say("gate 0 dan-gold on zone 6")
        assert ack[-1].startswith("ok: sends ev=gate gate=dan-gold player=0 zone=6"), ack
        link.wait_for(lambda f: f[1] == "input" and f[2].get("gate") == "dan-gold", timeout=20)
        assert console.say("gate 1 runo-gold on zone 5")[-1].startswith("ok")
        link.wait_for(lambda f: f[1] == "input" and f[2].get("gate") == "runo-gold", timeout=20)
        assert console.say("place drago on zone 5")[0].startswith("ok")
        mat_event(link, lambda b: b.get("ev") == "land" and b.get("zone") == 5)
        assert console.say("remove drago")[0].startswith("ok")
        mat_event(link, lambda b: b.get("ev") == "leave" and b.get("zone") == 5)
        assert "thrown to zone 6" in console.say("throw tigrerra -> zone 6")[0]
        mat_event(link, lambda b: b.get("ev") == "land" and b.get("zone") == 6)
        assert console.say("remove zone 6")[0].startswith("ok")
        mat_event(link, lambda b: b.get("ev") == "leave" and b.get("zone") == 6)
        # a bad line says what is wrong and changes nothing
        bad = console.say("place drago on zone 99")
        assert bad[-1].startswith("not done:") and "zone" in bad[-1], bad
        bad = console.say("fly drago")
        assert bad[-1].startswith("not done:") and "unknown action 'fly'" in bad[-1] and "idle" not in bad[-1], bad
        assert re.match(r"game clock \d\d:\d\d, boots 1, resets none", console.say("status")[-1])
    finally:
        link.close()
    console.p.stdin.write("help\n")
    console.p.stdin.flush()
    text = console.until(lambda x: x.startswith("  quit"), 10)
    assert text[0].startswith("The console of the simulated mat.")
    for word in ("card on zone", "place drago", "throw drago", "remove zone", "register drago", "power", "leds"):
        assert any(word in x for x in text), word
    console.p.stdin.write("quit\n")
    console.p.stdin.flush()
    assert console.p.wait(20) == 0


def test_without_a_console_it_serves_until_stopped(tmp_path):
    c = Console(tmp_path, stdin=subprocess.DEVNULL)
    try:
        assert "keeps serving until stopped" in c.line(10)
        link = open_link(c.url)
        assert link.request("version", timeout=10)[1]["board"] == boards.REFERENCE
        link.close()
        assert c.p.poll() is None
        c.p.send_signal(signal.SIGTERM)
        assert c.p.wait(20) == 0
        assert c.until(lambda x: x == "stopped", 5)
    finally:
        c.close()


def test_the_banners_mpremote_and_miniterm_advice_works(tmp_path):
    c = Console(tmp_path)
    try:
        banner = "\n".join(c.banner)
        m = re.search(r"(\S*mpremote) connect (\S+) resume fs ls", banner)
        assert m and m.group(2) == c.url, banner
        # a Ctrl-C never stops the app (line noise): the console's `maint`
        # asks it to step aside with the framed request, as deploy does
        assert "`maint` here" in banner
        assert c.say("maint")[-1].startswith("maintenance mode")
        r = subprocess.run([tool("mpremote"), "connect", c.url, "resume", "fs", "ls"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "board.json" in r.stdout, r.stdout + r.stderr
        r = subprocess.run([tool("mpremote"), "connect", c.url, "resume", "exec", "print(6 * 7)"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and "42" in r.stdout, r.stdout + r.stderr
        # `app` at the console leaves maintenance mode: the app runs again
        assert c.say("app")[-1].startswith("app: the board rebooted")
        link = open_link(c.url)
        assert link.request("version", timeout=10)[0] == "version"
        link.close()
        assert c.say("maint")[-1].startswith("maintenance mode")
        # the REPL advice: pyserial's miniterm on the socket (in a pty, as a person runs it)
        assert "pyserial-miniterm %s" % c.url in banner
        import pty
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(tool("pyserial-miniterm"), ["pyserial-miniterm", "--raw", c.url, "115200"])
        try:
            import select

            def read_until(token, timeout=20):
                got = b""
                deadline = time.monotonic() + timeout
                while token not in got and time.monotonic() < deadline:
                    if select.select([fd], [], [], 0.2)[0]:
                        try:
                            got += os.read(fd, 4096)
                        except OSError:
                            break
                return got
            assert b"Miniterm on" in read_until(b"Quit: Ctrl+]")
            import termios
            deadline = time.monotonic() + 10      # its console is raw (Ctrl-C goes to the board) once set up
            while termios.tcgetattr(fd)[3] & termios.ISIG and time.monotonic() < deadline:
                time.sleep(0.02)
            os.write(fd, b"\r\x03")              # maintenance mode: the REPL answers
            got = read_until(b">>>")
            assert b">>>" in got, got
            os.write(fd, b"print(6 * 7 + 1)\r")
            seen = read_until(b"43")
            os.write(fd, b"\x1d")         # Ctrl-] quits miniterm
            assert b"43" in seen, seen[-500:]
        finally:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            os.waitpid(pid, 0)
            os.close(fd)
    finally:
        c.close()
