"""Power cuts of the virtual board in the middle of requests (kill -9 of
the interpreter, realtime): an acknowledged input is always stored, and a
request that reaches the board after it restarted (sent while it was off)
is refused as stale, never applied (serial protocol: B2 frames)."""
import json
import os
import random
import signal
import time

import pytest

from host_tools.logs import boardstate
from host_tools import boards, fwpath
from host_tools.device.link import REPLIES, LinkError
from host_tools.vboard import VBoard

BOARD = boards.REFERENCE


def sample_header():
    with open(os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")) as f:
        return json.loads(f.readline())


def stored(vb):
    """The events the board stored (through the store's reader)."""
    g = boardstate.stored_game(vb.workdir)
    return g[1] if g else []


def wait_back(vb, n_resets, timeout=30):
    deadline = time.monotonic() + timeout
    while len(vb.resets) < n_resets:
        assert time.monotonic() < deadline, vb.resets
        time.sleep(0.02)
    vb.wait_booted()


def off(vb):
    """Power off: no watchdog to bring it back, the interpreter killed."""
    vb._wdt = None
    p = vb.proc
    os.kill(p.pid, signal.SIGKILL)
    p.wait(10)


@pytest.fixture(scope="module")
def board():
    return boards.load(BOARD)


def test_a_request_sent_while_the_board_was_off_is_not_applied(board):
    with VBoard(board, lockstep=False) as vb:
        link = vb.link()
        link.request("cfg", sample_header(), timeout=10)
        link.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}, timeout=10)
        assert link.boot                      # the link learnt the board's boot id: B2 frames
        off(vb)
        seq = link.send("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5})
        with pytest.raises(LinkError):        # the host gives up on it
            link.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout=0.5)
        vb.restart("power")
        vb.wait_booted()
        _, typ, body = link.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout=10)
        assert (typ, body["code"]) == ("err", "stale") and body["boot"] != "" and body["boot"] == link.boot
        _, st = link.request("state", timeout=10)
        assert st["events"] == 1 and list(st["view"]["zones"]) == ["6"]
        assert [e["ev"] for e in stored(vb)] == ["gate"]
        # the same request sent now, to this boot, is applied
        assert link.request("ctl", {"ev": "gate", "player": 1, "gate": "runo-gold", "zone": 5}, timeout=10)[1]["ok"]


def test_kill_rounds_never_lose_an_acknowledged_input(board):
    rng = random.Random(18)
    rounds = 12
    figures = {"acked": 0, "unanswered": 0, "stored_unacked": 0, "stale": 0}
    with VBoard(board, lockstep=False) as vb:
        link = vb.link()
        link.request("cfg", sample_header(), timeout=10)
        resets = 0
        for r in range(rounds):
            before = len(stored(vb))
            gate_on = bool(stored(vb)) and stored(vb)[-1]["ev"] == "gate"
            body = {"ev": "undo"} if gate_on else {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}
            seq = link.send("ctl", body)
            time.sleep(rng.random() * 0.03)
            try:
                _, typ, reply = link.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout=0.001)
            except LinkError:
                typ = reply = None
            os.kill(vb.proc.pid, signal.SIGKILL)       # the watchdog brings it back
            resets += 1
            wait_back(vb, resets)
            if typ is None:       # the reply may have been on its way
                try:
                    _, typ, reply = link.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout=0.3)
                except LinkError:
                    typ = reply = None
            after = len(stored(vb))
            if typ == "ack" and reply.get("ok"):
                figures["acked"] += 1
                assert after == before + 1, (r, before, after, reply)      # acknowledged: stored
            elif typ == "err":
                figures["stale"] += 1
                assert reply["code"] == "stale" and after == before, (r, reply)
            else:
                figures["unanswered"] += 1
                assert after in (before, before + 1), (r, before, after)
                figures["stored_unacked"] += after - before
            _, st = link.request("state", timeout=10)       # resumed: the live game is the stored one
            assert st["events"] == after
        assert [c for _, c in vb.resets] == ["wdt"] * rounds
    print("kill rounds: %d, acknowledged %d (all stored), unanswered %d (%d of them stored), stale %d; "
          "0 acknowledged inputs lost" % (rounds, figures["acked"], figures["unanswered"],
                                          figures["stored_unacked"], figures["stale"]))
