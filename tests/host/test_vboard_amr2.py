"""`bakumat vboard --board esp32s3_devkitc1_amr2`: the firmware on the
reference board's amr2 mat (three-axis magnetometers on I2C, 16-bit
readings), simulated in the mat's nominal world with the computed physics;
its sensing (the kernel fit on the world's kernel table) reports what the
console puts on the mat."""
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

from host_tools import boards, fwpath
from host_tools.device.link import LinkError, open_link

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")
BOARD = "esp32s3_devkitc1_amr2"


class Console:
    def __init__(self, tmp_path, *extra):
        cmd = [sys.executable, "-m", "host_tools.cli", "vboard", "--port", "0", "--dir", str(tmp_path / "fs")] + list(extra)
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.banner = self.until(lambda x: "type scenario" in x, 60)
        m = re.search(r"(socket://127\.0\.0\.1:\d+)", self.banner[0])
        assert m, self.banner
        self.url = m.group(1)

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.rstrip("\n"))
        self.q.put(None)

    def until(self, pred, timeout):
        got = []
        deadline = time.monotonic() + timeout
        while True:
            x = self.q.get(timeout=max(0.1, deadline - time.monotonic()))
            assert x is not None, "the virtual board exited (status %s): %s" % (self.p.wait(5), got)
            got.append(x)
            if pred(x):
                return got

    def say(self, text, timeout=30):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()
        return self.until(lambda x: x.startswith(("ok", "not done")), timeout)

    def close(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(20)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()


def mat_event(link, pred, timeout=30):
    try:
        return link.wait_for(lambda f: f[1] == "mat" and pred(f[2]), timeout=timeout)[2]
    except LinkError:
        raise AssertionError("not seen; the board sent %s" % list(link.inbox))


def test_the_amr2_board_senses_in_its_nominal_world(tmp_path):
    b = boards.load(BOARD)
    n = len(b["sensors"])
    c = Console(tmp_path, "--board", BOARD)
    try:
        assert "virtual board %s running the app in world mu300-t0.2 (the mat's nominal world)" % BOARD \
            in c.banner[0], c.banner
        with open(os.path.join(str(tmp_path / "fs"), "board.json")) as f:
            deployed = json.load(f)
        assert deployed["kernels"]["world"] == "mu300-t0.2" and deployed["mat"] == "amr2"
        with open(SAMPLE) as f:
            header = json.loads(f.readline())
        link = open_link(c.url)
        try:
            assert link.request("cfg", header, timeout=20)[1]["ok"]
            # the raw scans: one 16-bit reading per channel, near the zero field (32768 counts, 1 mG each)
            ack = link.request("raw", {"on": True}, timeout=20)[1]
            # ... and the world of the kernel table it fits (record puts it in the raw log's header)
            assert ack["kernels"] == "mu300-t0.2", ack
            fr = link.wait_for(lambda f: f[1] == "frame", timeout=20)[2]["c"]
            link.request("raw", {"on": False}, timeout=20)
            assert len(fr) == n and all(abs(v - 32768) < 400 for v in fr), fr
            assert c.say("gate 0 dan-gold on zone 6")[-1].startswith("ok")
            link.wait_for(lambda f: f[1] == "input" and f[2].get("gate") == "dan-gold", timeout=30)
            assert c.say("gate 1 runo-gold on zone 5")[-1].startswith("ok")
            link.wait_for(lambda f: f[1] == "input" and f[2].get("gate") == "runo-gold", timeout=30)
            assert c.say("place drago on zone 5")[0].startswith("ok")
            mat_event(link, lambda e: e.get("ev") == "land" and e.get("zone") == 5)
            assert c.say("remove drago")[0].startswith("ok")
            mat_event(link, lambda e: e.get("ev") == "leave" and e.get("zone") == 5)
            assert "thrown to zone 6" in c.say("throw tigrerra -> zone 6")[0]
            mat_event(link, lambda e: e.get("ev") == "land" and e.get("zone") == 6)
        finally:
            link.close()
    finally:
        c.close()


def test_a_bare_mat_names_the_board_folder_that_wires_it(capsys):
    from host_tools import cli
    assert cli.main(["vboard", "--board", "amr2", "--port", "0", "--for", "1"]) != 0
    err = capsys.readouterr().err
    assert "board amr2 has no wiring (a bare mat)" in err and BOARD in err and "Traceback" not in err
