"""A bounded fuzz campaign over every input surface, with fixed seeds (the
same inputs every run): event logs and raw logs (the host readers:
`bakumat replay`, the view's timeline, `game load`), serial frames (the
app on the fake board), HTTP requests (the phone page's server in the
real micropython binary). Asserted: no internal error and no traceback (a
command exits 0 or 2 with a one-line message), no state change from a
rejected input (the stored game and the view), and the board still
answering afterwards. Each test prints its campaign's figures."""
import contextlib
import io
import json
import os
import random
import re
import socket
import subprocess
import time

import pytest

from host_tools.logs import boardstate
from host_tools import boards, cli, mpscripts, sim
from host_tools.device import mpybuild
from host_tools.errors import UserError
from mptools import REPO, tool

SAMPLE = os.path.join(REPO, "host_tools", "samples", "official.ndjson")
HOSTILE = [None, True, False, -1, 0, 1, 7, 15, 16, 2 ** 31, 2 ** 70, 99999999999999999999, 1e20, -0.5, 1e300,
           1e-300, "", "x" * 3000, "\x1b[2J\x07", "<script>alert(1)</script>", "\u00e9\u4e2d", [], {}, [[[[1]]]],
           {"a": {"b": [1]}}, "drago", "dan-gold", "runo-gold", "fire-wall", "take", "move", "official"]
TOKENS = ["NaN", "Infinity", "-Infinity", "1e999", "[" * 200, "\\ud800", "\x00", "\x1b", "\ufeff", "\u2028"]


def sample_lines():
    with open(SAMPLE, encoding="utf-8") as f:
        return f.read().splitlines()


def _paths(obj, prefix=()):
    """Every (path) to a value in a JSON object."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append(prefix + (k,))
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.append(prefix + (i,))
            out += _paths(v, prefix + (i,))
    return out


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    if value is _DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value


_DELETE = object()


def mutate_json(rng, obj):
    """obj with one value replaced by a hostile one, or deleted."""
    obj = json.loads(json.dumps(obj))
    paths = _paths(obj)
    if not paths:
        return obj
    p = rng.choice(paths)
    _set(obj, p, _DELETE if rng.random() < 0.2 else rng.choice(HOSTILE))
    return obj


def mutate_log(rng, lines):
    """One mutation of a log (a list of lines): bytes of the new file."""
    lines = list(lines)
    op = rng.randrange(9)
    i = rng.randrange(len(lines))
    if op == 0:                                   # a value replaced or deleted
        try:
            lines[i] = json.dumps(mutate_json(rng, json.loads(lines[i])))
        except ValueError:
            pass
    elif op == 1:                                 # a byte changed, added or removed
        s = lines[i]
        k = rng.randrange(len(s) + 1)
        c = rng.choice('"{}[],:\\0123456789-e.x \t')
        lines[i] = s[:k] + (c if rng.random() < 0.7 else "") + s[k + rng.randrange(2):]
    elif op == 2:                                 # a raw token JSON does not have
        s = lines[i]
        m = list(re.finditer(r"-?\d+(\.\d+)?", s))
        if m:
            x = rng.choice(m)
            lines[i] = s[:x.start()] + rng.choice(TOKENS) + s[x.end():]
    elif op == 3:
        lines.insert(i, lines[rng.randrange(len(lines))])      # a line repeated
    elif op == 4:
        del lines[i]
    elif op == 5:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == 6:                                 # cut short, mid-line
        data = "\n".join(lines)
        return data[:rng.randrange(len(data))].encode("utf-8")
    elif op == 7:
        lines.insert(i, rng.choice(["", "   ", "[" * 100000, '"' + "y" * 200000 + '"', "null", "{}", "[]",
                                    '{"ev": "land"}', json.dumps({"t": 2 ** 80, "ev": "resolve"})]))
    else:                                         # bytes that are not UTF-8, or a surrogate escaped
        s = lines[i].encode("utf-8")
        k = rng.randrange(len(s) + 1)
        return b"\n".join([x.encode("utf-8") for x in lines[:i]] + [s[:k] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80"])
                                                                     + s[k:]] + [x.encode("utf-8") for x in lines[i + 1:]])
    return ("\n".join(lines) + "\n").encode("utf-8")


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


def check_cli(code, err, what):
    assert code in (0, 1, 2), (what, code, err[-800:])
    assert "internal error" not in err and "Traceback" not in err, (what, err[-800:])
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and len(err) < 5000, (what, err[:3000])


@pytest.fixture(scope="module")
def raw_lines():
    h = json.loads(sample_lines()[0])
    h = {k: h[k] for k in ("mode", "first", "target", "players")}
    sc = sim.parse_scenario("gate 0 dan-gold on zone 4 at 0.1s\ngate 1 runo-gold on zone 5 at 0.15s\n"
                            "place drago on zone 4 at 0.3s\nremove drago at 0.6s\nmiss tigrerra at 0.7s\n")
    return sim.run(boards.load(boards.REFERENCE), sc, seed=3).raw_lines(h)


def test_fuzz_event_and_raw_logs(tmp_path, raw_lines):
    from host_tools.commands.game import header_from_file
    from host_tools.webview import timeline
    rng = random.Random(18)
    events = sample_lines()
    figures = {"event": 0, "raw": 0, "refused": 0}
    p = str(tmp_path / "log.ndjson")
    for n in range(360):
        kind = "raw" if n % 3 == 2 else "event"
        data = mutate_log(rng, raw_lines if kind == "raw" else events)
        with open(p, "wb") as f:
            f.write(data)
        figures[kind] += 1
        code, out, err = run_cli("replay", p)
        check_cli(code, err, (kind, n, data[:300]))
        figures["refused"] += code == 2
        if n % 4 == 0:
            for reader in (lambda: timeline.load(p), lambda: header_from_file(p)):
                try:
                    reader()
                except UserError as e:
                    assert len(str(e)) < 1100000, str(e)[:300]
        if kind == "raw" and n % 7 == 2:
            code, out, err = run_cli("replay", "--why", p)
            check_cli(code, err, ("why", n))
    print("log fuzz: %(event)d event-log and %(raw)d raw-log mutations, %(refused)d refused with a "
          "one-line error, 0 internal errors" % figures)


# ------------------------------------------------------------------- serial

CONTROLS = ["gate", "miss", "ability", "resolve", "choose", "reveal", "undo", "register", "which", "trap", "pick",
            "land", "end", None, 5]


def _stored(d):
    """The stored game (through the store's reader) as its event log's text,
    or None without one."""
    return "".join(boardstate.event_log(d)) or None


def random_frame(rng, header):
    """(type, body) of a hostile request, or raw bytes."""
    r = rng.random()
    if r < 0.15:     # a control of the sample game: some are accepted, the game moves on
        ev = json.loads(rng.choice(sample_lines()[1:]))
        if ev["ev"] != "land":
            del ev["t"]
            return "ctl", mutate_json(rng, ev) if rng.random() < 0.3 else ev
    if r < 0.45:
        ev = {"ev": rng.choice(CONTROLS)}
        for k in rng.sample(["player", "gate", "zone", "bakugan", "card", "action", "bonus", "trap", "note", "t",
                             "by", "extra", "attr"], rng.randrange(5)):
            ev[k] = rng.choice(HOSTILE)
        return "ctl", ev
    if r < 0.55:
        return "cfg", mutate_json(rng, header) if rng.random() < 0.8 else rng.choice(HOSTILE)
    if r < 0.65:
        return rng.choice(["end", "state", "health", "version", "ping", "raw", "frob", "cal"]), rng.choice(
            [{}, {"on": rng.choice(HOSTILE)}, rng.choice(HOSTILE)])
    from link import codec
    good = codec.encode(rng.randrange(65536), "ctl", {"ev": "resolve"})
    choices = [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))),
               b"\x03", b"\x03\x04", b"\x1e" + bytes(rng.randrange(256) for _ in range(40)) + b"\n",
               good[:rng.randrange(len(good))],
               good[:-3] + b"zz\n",
               codec.encode(1, "ctl", {"ev": "resolve"}, "deadbeef-00000000"),
               b"\x1eB9 1 ping {} 0000\n", b"\x1e" + b"B1 1 cfg " + b"[" * 1500 + b" 0000\n"]
    return None, rng.choice(choices)


def test_fuzz_serial_frames(tmp_path):
    from fwharness import Rig, load_board
    from link import codec
    rng = random.Random(1818)
    d = str(tmp_path)
    rig = Rig(load_board(), d)
    try:
        header = json.loads(sample_lines()[0])
        del header["bakumat"], header["version"]
        assert rig.request("cfg", header)[1]["ok"]
        assert rig.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})[1]["ok"]
        figures = {"frames": 0, "accepted": 0, "refused": 0, "garbage": 0}
        for n in range(400):
            typ, body = random_frame(rng, header)
            if typ is not None and len(codec.encode(1, typ, body)) > codec.MAX_LEN:
                typ, body = None, codec.encode(1, typ, body)     # oversized: dropped (err oversized, seq 0)
            before = (_stored(d), rig.request("state")[1]["view"])
            figures["frames"] += 1
            if typ is None:
                rig.send_raw(body)
                rig.run_ms(60)
                rig.received()
                figures["garbage"] += 1
                after = (_stored(d), rig.request("state")[1]["view"])
                assert after == before, (n, body[:100])
                continue
            kind, reply = rig.request(typ, body)
            changed = kind == "ack" and reply.get("ok") is True and typ in ("cfg", "ctl", "end")
            if not changed:
                figures["refused"] += 1
                after = (_stored(d), rig.request("state")[1]["view"])
                assert after == before, (n, typ, str(body)[:200], reply)
            else:
                figures["accepted"] += 1
                if rig.app.session.game is None or rig.request("state")[1]["view"]["phase"] == "over" or rng.random() < 0.05:
                    assert rig.request("cfg", header)[1]["ok"]          # a fresh game now and then
            logs = [m[2]["msg"] for m in rig.received("log")]
            assert not [m for m in logs if "stage failed" in m], logs
            assert rig.app.health.failing_ticks == 0
        assert rig.request("ping")[0] == "pong"
        assert rig.resets == []
        print("serial fuzz: %(frames)d frames (%(garbage)d garbage, %(refused)d refused, %(accepted)d accepted); "
              "no stage failed, no state change from a refused one, the board still answers" % figures)
    finally:
        rig.close()


# --------------------------------------------------------------------- HTTP

ALLOWED = {200, 400, 403, 404, 405, 409, 413, 429, 431, 503}


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    d = tmp_path_factory.mktemp("fuzzweb")
    fw = str(d / "fw")
    mpybuild.build(fw)
    hdr = d / "header.json"
    import sys
    sys.path.insert(0, os.path.join(REPO, "tests", "firmware"))
    from test_referee_rules import header
    hdr.write_text(json.dumps(header()))
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen([tool("micropython"), "-X", "heapsize=256K", mpscripts.path("web_board.py"), fw,
                             str(hdr), str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    assert line.startswith("READY"), line + proc.stdout.read()
    yield port, proc
    proc.kill()
    proc.wait()


def exchange(port, data, src=1):
    """Send data, read one answer (its head and Content-Length bytes of
    body, or until the server closes), then close: (bytes, seconds)."""
    s = socket.socket()
    s.settimeout(5)
    s.bind(("127.0.0.%d" % src, 0))
    s.connect(("127.0.0.1", port))
    t0 = time.monotonic()
    try:
        s.sendall(data)
    except OSError:
        pass
    out = b""
    try:
        while True:
            i = out.find(b"\r\n\r\n")
            if i >= 0:
                m = re.search(rb"Content-Length: (\d+)", out[:i])
                if m and len(out) >= i + 4 + int(m.group(1)):
                    break
            chunk = s.recv(4096)
            if not chunk:
                break
            out += chunk
    except (socket.timeout, ConnectionError):
        pass
    took = time.monotonic() - t0
    s.close()
    return out, took


def http(port, method, path, body=b"", src=1, extra=b""):
    req = b"%s %s HTTP/1.0\r\n%sContent-Length: %d\r\n\r\n" % (method, path, extra, len(body)) + body
    out, took = exchange(port, req, src)
    m = re.match(rb"HTTP/1\.0 (\d{3}) ", out)
    status = int(m.group(1)) if m else None
    i = out.find(b"\r\n\r\n")
    return status, out[i + 4:] if i >= 0 else b"", took


def view(port):
    st, body, _ = http(port, b"GET", b"/api/state")
    assert st == 200, body[:300]
    return json.loads(body)["view"]


def test_fuzz_http_requests(web):
    port, proc = web
    rng = random.Random(4242)
    st, body, _ = http(port, b"POST", b"/api/claim", json.dumps({"player": 0}).encode())
    dan = json.loads(body)["code"]
    st, body, _ = http(port, b"POST", b"/api/claim", json.dumps({"player": 1}).encode())
    runo = json.loads(body)["code"]
    figures = {"requests": 0, "ok": 0}
    statuses = {}
    for n in range(240):
        before = view(port)
        r = rng.random()
        src = rng.randrange(2, 250)    # a client of its own: wrong codes lock only it out
        if r < 0.7:
            if rng.random() < 0.4:     # an input that may well be accepted
                obj = rng.choice([{"ev": "gate", "gate": rng.choice(["d1", "d2", "d3", "r1", "r2", "r3"]),
                                   "zone": rng.randrange(16)},
                                  {"ev": "resolve"}, {"ev": "undo"},
                                  {"ev": "miss", "bakugan": rng.choice(["drago", "saurus", "tigrerra"])},
                                  {"ev": "ability", "card": rng.choice(["fire-wall", "boost", "shield", "shade"])},
                                  {"ev": "reveal", "gate": rng.choice(["d1", "r1"]), "bonus": {"pyrus": 70}}])
                if rng.random() < 0.3:
                    obj = mutate_json(rng, obj)
            else:
                obj = {"ev": rng.choice(CONTROLS)}
                for k in rng.sample(["player", "gate", "zone", "bakugan", "card", "action", "bonus", "note", "t",
                                     "code"], rng.randrange(5)):
                    obj[k] = rng.choice(HOSTILE)
            if "code" not in obj or rng.random() < 0.7:
                obj["code"] = rng.choice([dan, runo, dan, runo, "%016x" % rng.getrandbits(64), "", None, 1234])
            if obj.get("code") in (dan, runo):
                src = 1
            body = json.dumps(obj).encode()
            if rng.random() < 0.15:
                b = bytearray(body)
                b[rng.randrange(len(b))] = rng.randrange(256)
                body = bytes(b)
            st, answer, took = http(port, b"POST", rng.choice([b"/api/input", b"/api/input", b"/api/claim"]), body, src)
        elif r < 0.85:
            path = rng.choice([b"/api/state", b"/api/state?since=", b"/api/state?code=" + dan.encode(),
                               b"/api/state?code=%016x" % rng.getrandbits(64), b"/", b"/phone.js", b"/../x",
                               b"/api/" + bytes(rng.randrange(33, 127) for _ in range(8)), b"/api/state?since=-5&since=x"])
            st, answer, took = http(port, rng.choice([b"GET", b"GET", b"POST", b"PUT", b"X"]), path, b"", src)
        else:
            raw = rng.choice([b"GET / HTTP/1.0\n\n", b"GET /api/state HTTP/1.0\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                              b"\x00\xff\r\n\r\n", b"POST /api/input HTTP/1.0\r\nContent-Length: 99999\r\n\r\n{}",
                              b"POST /api/input HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                              b"GET /" + b"a" * 2000 + b" HTTP/1.0\r\n\r\n",
                              bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))) + b"\r\n\r\n"])
            out, took = exchange(port, raw, src)
            m = re.match(rb"HTTP/1\.0 (\d{3}) ", out)
            st, answer = (int(m.group(1)) if m else None), out
        figures["requests"] += 1
        statuses[st] = statuses.get(st, 0) + 1
        assert st in ALLOWED, (n, st, answer[:300])
        assert took < 4.0, (n, took)
        ok = False
        if st == 200 and answer.startswith(b"{"):
            try:
                ok = json.loads(answer).get("ok") is True
            except ValueError:
                pass
        if ok:
            figures["ok"] += 1
        else:
            assert view(port) == before, (n, answer[:300])
    assert proc.poll() is None
    st, _, _ = http(port, b"GET", b"/api/state")
    assert st == 200
    print("HTTP fuzz: %d requests, %d inputs accepted, statuses %s; never 500, never a hang, no state change "
          "from a refused one" % (figures["requests"], figures["ok"], dict(sorted((k or 0, v) for k, v in statuses.items()))))
