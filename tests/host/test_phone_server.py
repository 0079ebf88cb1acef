"""The board's phone-page server, running in the real micropython binary
(compiled .mpy, as deployed), poked by clients that misbehave."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from host_tools import mpscripts
from host_tools.device import mpybuild
from mptools import tool

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "firmware"))
from test_referee_rules import header  # noqa: E402


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    d = tmp_path_factory.mktemp("web")
    fw = str(d / "fw")
    mpybuild.build(fw)
    hdr = d / "header.json"
    hdr.write_text(json.dumps(header()))
    port = free_port()
    proc = subprocess.Popen([tool("micropython"), "-X", "heapsize=256K", mpscripts.path("web_board.py"), fw,
                             str(hdr), str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    assert line.startswith("READY"), line + proc.stdout.read()
    yield "http://127.0.0.1:%d" % port, port, proc
    proc.kill()
    proc.wait()


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, json.loads(r.read())


def get_status(url):
    try:
        return get(url)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def post(url, obj):
    req = urllib.request.Request(url, data=json.dumps(obj).encode(), method="POST")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def raw(port, data, close_early=False):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(data)
    if close_early:
        s.close()
        return b""
    out = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            break
        out += chunk
    s.close()
    return out


def test_state_claim_and_inputs(board):
    url, port, _ = board
    st, state = get(url + "/api/state")
    assert st == 200 and state["api"] == 1
    assert len(state["board"]["zones"]) == 16
    assert state["header"]["players"][0]["name"] == "Dan"
    assert state["view"]["phase"] == "setup"
    assert state["you"]["player"] is None
    # spectators only watch
    st, body = post(url + "/api/input", {"ev": "resolve"})
    assert st == 403
    st, dan = post(url + "/api/claim", {"player": 0})
    assert st == 200 and len(dan["code"]) == 16 and int(dan["code"], 16) >= 0
    st, _ = post(url + "/api/claim", {"player": 0})
    assert st == 409  # taken, and no code given
    st, runo = post(url + "/api/claim", {"player": 1})
    assert st == 200 and runo["code"] != dan["code"]
    st, r = post(url + "/api/input", {"code": dan["code"], "ev": "gate", "gate": "d1", "zone": 5})
    assert r == {"ok": True, "reason": None}
    # Dan cannot place Runo's gate: the referee's reason comes back
    st, r = post(url + "/api/input", {"code": dan["code"], "ev": "gate", "gate": "r1", "zone": 6})
    assert r["ok"] is False and "belongs to Runo" in r["reason"]
    st, r = post(url + "/api/input", {"code": runo["code"], "ev": "gate", "gate": "r1", "zone": 6})
    assert r["ok"] is True
    # Runo may not declare Dan's miss
    st, r = post(url + "/api/input", {"code": runo["code"], "ev": "miss", "bakugan": "drago"})
    assert st == 403
    # landings come from the sensors, never from a phone
    st, r = post(url + "/api/input", {"code": dan["code"], "ev": "land", "bakugan": "drago", "zone": 5})
    assert st == 400
    # the values of Dan's gate, entered when it is turned over
    st, r = post(url + "/api/input", {"code": dan["code"], "ev": "reveal", "gate": "d1", "bonus": {"pyrus": 70}})
    assert r == {"ok": True, "reason": None}
    st, state = get(url + "/api/state?since=0&code=" + dan["code"])
    assert state["you"]["player"] == 0
    assert "board" not in state
    assert state["view"]["zones"]["5"]["gate"] == "d1"
    assert [e[1]["ev"] for e in state["events"]][:2] == ["placed", "reject"]
    assert state["events"][-1][1] == {"ev": "reveal", "t": state["events"][-1][1]["t"], "player": 0, "gate": "d1",
                                      "bonus": {"pyrus": 70}}
    # undo from a phone takes back only its own side's last event: Runo
    # cannot take back Dan's reveal; Dan can, then Runo his gate
    st, r = post(url + "/api/input", {"code": runo["code"], "ev": "undo"})
    assert st == 403
    st, r = post(url + "/api/input", {"code": dan["code"], "ev": "undo"})
    assert r["ok"] is True
    st, state = get(url + "/api/state")
    assert state["events"][-1][1]["ev"] == "undo" and "6" in state["view"]["zones"]
    st, r = post(url + "/api/input", {"code": runo["code"], "ev": "undo"})
    assert r["ok"] is True
    st, state = get(url + "/api/state")
    assert "6" not in state["view"]["zones"]


def test_wrong_codes_get_403_then_the_client_waits(board):
    # the game of the test above has started: no claim without the side's button
    url, port, _ = board
    st, r = post(url + "/api/claim", {"player": 1})
    assert st == 409
    answers = set()
    for guess in ("0000", "%016x" % 1, "ffffffffffffffff", "x" * 16, "1234"):
        st, body = get_status(url + "/api/state?since=0&code=" + guess)
        answers.add((st, json.dumps(body)))
    st, body = get_status(url + "/api/state?since=0&code=0")
    assert answers == {(403, json.dumps({"error": "claim a side first: spectators only watch"}))}
    assert st == 429          # five wrong codes: this client waits
    st, body = get_status(url + "/api/state?since=0")
    assert st == 200 and body["you"] == {"player": None}    # watching still works


def test_garbage_truncation_oversize_and_wrong_methods(board):
    url, port, _ = board
    assert raw(port, b"\x00\xff garbage \r\n\r\n").startswith(b"HTTP/1.0 400")
    assert raw(port, b"GET /" + b"a" * 3000 + b" HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 431")
    big = json.dumps({"code": "0000", "ev": "miss", "pad": "x" * 2000}).encode()
    assert raw(port, b"POST /api/input HTTP/1.0\r\nContent-Length: %d\r\n\r\n" % len(big) + big).startswith(
        b"HTTP/1.0 413")
    assert raw(port, b"POST /api/input HTTP/1.0\r\nContent-Length: 9\r\n\r\nnot json!").startswith(b"HTTP/1.0 400")
    assert raw(port, b"DELETE /index.html HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 405")
    assert raw(port, b"GET /../../etc/passwd HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 404")
    raw(port, b"GET /api/sta", close_early=True)  # disconnects mid-request
    raw(port, b"POST /api/input HTTP/1.0\r\nContent-Length: 50\r\n\r\n{\"co", close_early=True)
    st, state = get(url + "/api/state")
    assert st == 200


def test_flood_of_idle_clients_is_refused_then_recovers(board):
    url, port, proc = board
    socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(12)]
    refused = 0
    deadline = time.monotonic() + 10
    for s in socks:
        s.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            data = s.recv(100)
        except socket.timeout:
            continue
        except ConnectionError:
            data = b""
        if data.startswith(b"HTTP/1.0 503") or data == b"":
            refused += 1      # answered 503, or evicted (closed) for a newer client
    assert refused >= 12 - 4  # at most 4 client slots
    for s in socks:
        s.close()
    # the slots held by silent clients are dropped after the idle timeout,
    # or at once when they close: a fresh client gets served
    deadline = time.monotonic() + 15
    while True:
        try:
            st, _ = get(url + "/api/state")
            break
        except (urllib.error.URLError, ConnectionError, socket.timeout):
            assert time.monotonic() < deadline, "server did not recover"
    assert st == 200
    assert proc.poll() is None


def timed_raw(port, data, limit=2.0):
    t0 = time.monotonic()
    out = raw(port, data)
    return out, time.monotonic() - t0


def test_malformed_requests_are_answered_400_at_once(board):
    url, port, _ = board
    for req in (b"GET /api/state HTTP/1.0\n\n",                       # LF only
                b"GET /api/state HTTP/1.0\r\nHost: x\n\r\n",          # one bare LF
                b"POST /api/input HTTP/1.0\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\n{\"a\":",
                b"POST /api/input HTTP/1.0\r\nContent-Length: -1\r\n\r\n",
                b"POST /api/input HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"):
        out, took = timed_raw(port, req)
        assert out.startswith(b"HTTP/1.0 400"), (req, out)
        assert took < 2.0, (req, took)      # answered, not left to time out


def test_slow_clients_do_not_take_the_page_down(board):
    url, port, proc = board
    slow = []
    for _ in range(4):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"G")
        slow.append(s)
    served = 0
    t_end = time.monotonic() + 4
    while time.monotonic() < t_end:
        for s in slow:       # a byte now and then from each slow client
            try:
                s.sendall(b"E")
            except OSError:
                pass
        try:
            st, _ = get(url + "/api/state")
            served += st == 200
        except (urllib.error.URLError, ConnectionError, socket.timeout) as e:
            print("refused", e)
        time.sleep(0.3)
    for s in slow:
        s.close()
    assert served >= 8, served
    assert proc.poll() is None
