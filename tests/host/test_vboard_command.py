"""`bakumat vboard`: the firmware on the virtual board, served on a TCP
port, with scenario control from the terminal (its side channel)."""
import os
import queue
import re
import subprocess
import sys
import threading
import time

from host_tools import boards
from host_tools.device.link import open_link


def _lines_until(stream, text, timeout):
    """The lines read from `stream` up to the first one holding `text`; fails
    (rather than hangs) if none comes within `timeout` seconds or it ends."""
    got = queue.Queue()
    threading.Thread(target=lambda: [got.put(x) for x in iter(stream.readline, "")] + [got.put("")],
                     daemon=True).start()
    lines, deadline = [], time.monotonic() + timeout
    while not lines or text not in lines[-1]:
        try:
            lines.append(got.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError("no line with %r within %d s: %r" % (text, timeout, lines)) from None
        assert lines[-1], "the console ended before a line with %r: %r" % (text, lines)
    return lines


def test_vboard_command_serves_the_app_and_takes_scenario_lines(tmp_path):
    script = tmp_path / "fault.txt"
    script.write_text("fault ch 31 dead\n")
    cmd = [sys.executable, "-m", "host_tools.cli", "vboard", "--port", "0", "--dir", str(tmp_path / "fs"),
           "--script", str(script)]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = p.stdout.readline()
        m = re.search(r"(socket://127\.0\.0\.1:\d+)", first)
        assert m, first
        link = open_link(m.group(1))
        assert link.request("version", timeout=10)[1]["board"] == boards.REFERENCE
        link.request("cfg", {"mode": "official", "players": [
            {"name": "A", "bakugan": [{"id": "a1", "attr": "pyrus", "g": 400}], "gates": [{"id": "ga", "bonus": {}}]},
            {"name": "B", "bakugan": [{"id": "b1", "attr": "haos", "g": 400}], "gates": [{"id": "gb", "bonus": {}}]}]})
        fault = link.wait_for(lambda f: f[1] == "fault", timeout=15)
        assert fault[2]["ch"] == 31 and fault[2]["zone"] == 5
        # the board's filesystem is the folder: the game is stored there
        assert os.path.exists(tmp_path / "fs" / "game.ndj")
        p.stdin.write("status\n")
        p.stdin.flush()
        lines = _lines_until(p.stdout, "game clock", 60)       # after the banner and the script's answer
        assert any("script: channel 31 dead" in x for x in lines), lines
        link.close()
        p.stdin.write("quit\n")
        p.stdin.flush()
        assert p.wait(20) == 0
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_vboard_for_says_it_has_no_console_and_stops(tmp_path):
    cmd = [sys.executable, "-m", "host_tools.cli", "vboard", "--port", "0", "--dir", str(tmp_path / "fs"),
           "--for", "1"]
    r = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "no console with --for: the board serves for 1 s, then stops" in r.stdout, r.stdout
    assert "type scenario lines" not in r.stdout
