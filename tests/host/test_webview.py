"""bakumat view's server and timelines, bakumat plot and the live demo,
without a browser (tests/host/test_view_browser.py drives the page)."""
import gzip
import io
import json
import os
import queue
import re
import subprocess
import threading
import time
import urllib.error
import urllib.request

import pytest

from host_tools import boards, fwpath
from host_tools.errors import UserError
from host_tools.webview import server, timeline
from linkboard import LinkBoard
from mptools import tool

REPO = fwpath.REPO_DIR
SAMPLE = os.path.join(REPO, "host_tools", "samples", "official.ndjson")
WEB = os.path.join(REPO, "firmware", "web")


def referee_outputs(path):
    """The referee's own output events for an event log (the oracle)."""
    fwpath.ensure()
    import referee
    from referee import events
    from store import eventlog
    outs = []
    game = None
    t = 0
    with open(path) as f:
        for _, obj in eventlog.iter_log(f.readlines()):
            if game is None:
                game = referee.new_game(obj, outs.append)
            else:
                t = obj["t"]
                game.feed(obj)
    game.finish(t)
    from host_tools.words import Words
    words = Words(game.header)
    js = [json.loads(events.encode_json(o)) for o in outs]
    return game, js, [words.line(d) for d in js]


@pytest.fixture(scope="module")
def sample_tl():
    return timeline.load(SAMPLE, boards.REFERENCE)


def test_event_timeline_is_the_referee_replay(sample_tl):
    game, outs, texts = referee_outputs(SAMPLE)
    with open(SAMPLE) as f:
        n_events = sum(1 for line in f if line.strip()) - 1
    steps = sample_tl.steps
    assert len(steps) == n_events + 2  # the start, one per input event, the end of the log
    assert [o for s in steps for o in s["out"]] == texts
    final = steps[-1]["state"]["view"]
    end = outs[-1]
    assert end["ev"] == "end"
    assert final["winner"] == end["winner"] and final["captured"] == end["captured"]
    # every step's state is the referee's view after that input
    assert steps[0]["state"]["view"]["phase"] == "setup"
    stands = [(i, s) for i, s in enumerate(steps) if any(" opens " in o for o in s["out"])
              and not any(" captures " in o for o in s["out"])]
    assert stands
    for i, s in stands:
        m = re.search(r"opens (\S+) on zone (\d+)", " ".join(s["out"]))
        b, z = m.group(1), m.group(2)
        assert b in s["state"]["view"]["zones"][z]["bakugan"]


def test_leds_come_from_the_firmware_feedback(sample_tl):
    fwpath.ensure()
    from show import palette
    bj = sample_tl.page_board
    assert bj["leds"]["count"] == len(sample_tl.steps[0]["state"]["leds"]) > 0
    cap = bj["leds"]["cap"]
    seen = 0
    for s in sample_tl.steps:
        view = s["state"]["view"]
        leds = s["state"]["leds"]
        if view["phase"] != "play" or view["battle"] or view["choice"] or any(" wins" in o.lower() for o in s["out"]):
            continue
        if any("not allowed" in o or "battle on" in o for o in s["out"]):
            continue  # flashes
        for zi, z in enumerate(bj["zones"]):
            run = [leds[i] for i in bj["leds"]["zones"][zi]]
            info = view["zones"].get(str(z["id"]))
            if info is None:
                assert all(c == [0, 0, 0] for c in run), (s["input"], z["id"], run)
                continue
            # a lit zone shows its owner's colour (scaled by level and cap)
            owner = info["owner"]
            if info["bakugan"]:
                owner = [p for p in range(2) if any(b["id"] == info["bakugan"][0]
                                                    for b in sample_tl.header["players"][p]["bakugan"])][0]
            col = palette.PLAYER[owner]
            want = ((col >> 16) & 255, (col >> 8) & 255, col & 255)
            for c in run:
                assert max(c) <= cap and max(c) > 0
                k = max(c) / max(want)
                assert all(abs(c[j] - want[j] * k) <= 1.5 for j in range(3)), (c, want)
            seen += 1
    assert seen > 10


def get(url, data=None, raw=False):
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
            return r.status, dict(r.headers), (body if raw else json.loads(body))
    except urllib.error.HTTPError as e:
        body = e.read()
        return e.code, dict(e.headers), (body if raw else json.loads(body))


@pytest.fixture(scope="module")
def log_server(sample_tl):
    srv = server.start(server.LogSource(sample_tl))
    yield srv
    srv.shutdown()
    srv.server_close()


def test_state_api_and_since(log_server, sample_tl):
    u = log_server.url
    code, hdr, st = get(u + "api/state")
    assert code == 200 and st["api"] == 1 and hdr["Content-Type"] == "application/json"
    assert st["board"]["zones"] and st["header"]["players"][0]["name"] == "Dan"
    assert st["view"] == sample_tl.steps[-1]["state"]["view"] and st["you"] == {"player": None}
    code, _, same = get(u + "api/state?since=%d" % st["seq"])
    assert code == 200 and same["same"] is True and "view" not in same and same["leds"] == st["leds"]
    code, _, err = get(u + "api/state?since=abc")
    assert code == 400 and "since" in err["error"]


def test_timeline_info_and_errors(log_server, sample_tl):
    u = log_server.url
    code, _, info = get(u + "api/info")
    assert info["timeline"] is True and info["traces"] is False and info["steps"] == len(sample_tl.steps)
    code, _, tl = get(u + "api/timeline")
    assert code == 200 and tl == json.loads(json.dumps(sample_tl.json()))
    code, _, err = get(u + "api/traces?zone=3")
    assert code == 404 and "raw sensor logs" in err["error"]
    assert get(u + "api/nothing")[0] == 404
    code, _, err = get(u + "api/input", b'{"ev": "resolve"}')
    assert code == 403 and "error" in err
    code, _, err = get(u + "api/input", b"x" * 600)
    assert code == 413
    code, _, err = get(u + "api/input", b"{not json")
    assert code == 400 and "JSON" in err["error"]
    code, _, err = get(u + "api/throw", b"{}")
    assert code == 403


def test_static_files_only_from_the_page_folder(log_server):
    u = log_server.url
    code, hdr, body = get(u, raw=True)
    assert code == 200 and hdr["Content-Type"].startswith("text/html") and b"mat.js" in body
    code, hdr, body = get(u + "mat.js", raw=True)
    assert code == 200 and "javascript" in hdr["Content-Type"] and b"BakuMat" in body
    for bad in ("../README.md", "%2e%2e/README.md", "web/mat.js", "nothing.js", ".hidden"):
        assert get(u + bad, raw=True)[0] == 404, bad


def test_page_is_small_offline_and_gzips():
    files = sorted(f for f in os.listdir(WEB) if not f.startswith("."))
    total = 0
    gz = 0
    for f in files:
        with open(os.path.join(WEB, f), "rb") as fh:
            data = fh.read()
        total += len(data)
        gz += len(gzip.compress(data, 9))
        text = data.decode("utf-8")
        # no script, style or font from anywhere but the server itself
        urls = [m for m in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text)
                if "www.w3.org/2000/svg" not in m]
        assert not urls, (f, urls)
        assert "import " not in text or f.endswith(".css")
    def page(names):
        raw = b"".join(open(os.path.join(WEB, f), "rb").read() for f in names)
        return len(raw), len(gzip.compress(raw, 9))
    # the two pages share the drawing module and style (mat.js, mat.css)
    laptop = page(("index.html", "view.js", "mat.js", "mat.css"))
    phone = page(("phone.html", "phone.js", "mat.js", "mat.css"))
    print("\nweb: %d files, %d bytes (%d gzipped); laptop page %d bytes (%d gz); board's phone page %d bytes (%d gz)"
          % (len(files), total, gz, laptop[0], laptop[1], phone[0], phone[1]))
    assert laptop[0] < 34500 and laptop[1] < 12000      # (34.2 KB since an unknown event names players and cards)
    # (the board sends its files as they are, streamed in chunks: 20.6 KB
    # since the phone teaches Bakugan, 20.0 before; 30.8 KB since the page
    # says events in host_tools/words.py's words (its phrase table and field
    # kinds in mat.js, +9.8 KB: 21.0 -> 30.8 KB, 7.5 -> 10.7 KB gzipped); 34.2 KB (11.7 gz) since the
    # page explains itself before a game, draws a lesson on its zone and lets
    # the thrower name any of their Bakugan; `bakumat bench phone` measures serving it)
    assert phone[0] < 35000 and phone[1] < 12000


def test_bad_logs_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="no such file"):
        timeline.load(str(tmp_path / "missing.ndjson"))
    p = tmp_path / "x.ndjson"
    p.write_text('{"hello": 1}\n')
    with pytest.raises(UserError, match="not a BakuMat log"):
        timeline.load(str(p))
    with open(SAMPLE) as f:
        lines = f.read().splitlines()
    p.write_text("\n".join(lines[:3] + ['{"t": 3000, "ev": "land", "bakugan": "drago"}'] + lines[3:]) + "\n")
    with pytest.raises(UserError, match="line 4: land event: missing field 'zone'"):
        timeline.load(str(p))


def bakumat(*args, timeout=60):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=timeout)


def test_cli_errors_name_the_problem(tmp_path):
    r = bakumat("view", str(tmp_path / "nope.ndjson"), "--no-browser", "--http", "0")
    assert r.returncode != 0 and "no such file" in r.stderr and "Traceback" not in r.stderr
    r = bakumat("view", "--no-browser")
    assert r.returncode != 0 and "nothing to show" in r.stderr
    r = bakumat("plot", SAMPLE, "-o", str(tmp_path / "x.png"))
    assert r.returncode != 0 and "not a raw sensor log" in r.stderr and "Traceback" not in r.stderr


# ------------------------------------------------------------------ raw logs

@pytest.fixture(scope="module")
def raw_log(tmp_path_factory):
    from host_tools.sim import game, world
    b = boards.load(boards.REFERENCE)
    sc = game.random_game(11, b, max_throws=6, long_idle=0.0)
    res = world.run(b, sc, seed=11)
    p = tmp_path_factory.mktemp("raw") / "game.raw.ndjson"
    with open(p, "w") as f:
        for line in res.raw_lines(sc.header):
            f.write(line + "\n")
    return str(p)


def test_raw_timeline_traces_and_decisions(raw_log):
    tl = timeline.load(raw_log)
    assert tl.kind == "raw" and tl.probe is not None
    sensed = [s for s in tl.steps if s["source"] == "sensed"]
    lands = [s for s in sensed if "opens" in s["input"] or "taught" in s["input"]]
    assert lands, "the pipeline decided no landing in a simulated game"
    # every decision is told in words, the mat's questions too (this game has some)
    assert all("zone" in s["input"] or "channel" in s["input"] for s in sensed), [s["input"] for s in sensed]
    assert any("not sure it is" in s["input"] and "(or " in s["input"] for s in sensed)
    # and what the sensing waited for before a decision (as `replay --why`)
    assert any(re.search(r", after waiting \d+ ms: (not sure which Bakugan|like no Bakugan of the game|maybe still "
                         r"opening|still moving|learning the Bakugan) \(\d+ frames?", s["input"])
               for s in lands), [s["input"] for s in lands]
    # in a player's words: no reason codes, no clock with decimals
    assert not any(re.search(r" x\d|\d\.\d+ ?s\b|\d+\.\d%", s["input"]) for s in tl.steps), \
        [s["input"] for s in tl.steps]
    n = len(tl.probe.t)
    for z in tl.page_board["zones"]:
        d = tl.traces(z["id"])
        assert len(d["t"]) == n and len(d["energy"]) == n
        assert all(len(c["dev"]) == n for c in d["channels"])
        assert len(d["channels"]) == sum(1 for s in tl.board["sensors"] if s["zone"] == z["id"])
        # the pipeline decides a landing only once the zone's energy has
        # crossed its threshold: our recomputed E must show that
        for dec in d["decisions"]:
            if dec["ev"] != "land":
                continue
            i = d["t"].index(dec["t"])
            lo = max(0, i - 50)
            over = [k for k in range(lo, i + 1) if d["energy"][k] >= d["threshold"]
                    or (d["coherent"] is not None and d["coherent"][k] >= d["coherent_threshold"])]
            assert over, (z["id"], dec, max(d["energy"][lo:i + 1]))
    for s in lands:
        z = s["zone"]
        t = s["t"]
        assert any(dd["t"] == t and dd["ev"] == "land" for dd in tl.traces(z)["decisions"]), s["input"]
    srv = server.start(server.LogSource(tl))
    try:
        code, _, info = get(srv.url + "api/info")
        assert info["traces"] is True and info["trace_zone"] in [z["id"] for z in tl.page_board["zones"]]
        code, _, d = get(srv.url + "api/traces?zone=%d" % lands[0]["zone"])
        assert code == 200 and d["zone"] == lands[0]["zone"]
        assert get(srv.url + "api/traces?zone=99")[0] == 404
        assert get(srv.url + "api/traces?zone=x")[0] == 400
    finally:
        srv.shutdown()
        srv.server_close()


def test_plot_writes_a_picture(raw_log, tmp_path):
    out = tmp_path / "traces.png"
    from host_tools.commands import plot
    probe = timeline.load(raw_log).probe
    busy = plot._zones(probe, None)  # default: the zones where the pipeline decided something
    assert busy == [z for zi, z in enumerate(probe.zone_ids) if probe.decisions[zi]]
    with pytest.raises(UserError, match="--zone 99: no such zone"):
        plot._zones(probe, [99])
    r = bakumat("plot", raw_log, "-o", str(out), "--zone", str(busy[0]), timeout=120)
    assert r.returncode == 0, r.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000
    assert "zones %d" % busy[0] in r.stdout


# ------------------------------------------------------------------ demo

def test_demo_plays_a_game_through_the_firmware_to_its_winner():
    """The README's demo on the virtual board (the micropython binary): the
    game reaches a winner, announced by the firmware's referee in its own
    game frames and read back from the board's state. (Seed 6: the sensing
    misreads some landings there, which the simulated players correct.)"""
    from host_tools.demo.demo_game import run_demo
    out = io.StringIO()
    rc = run_demo(seed=6, speed=0, out=out)
    text = out.getvalue()
    assert "sensors: learnt" in text and " opens " in text
    assert re.search(r"^\+-+\+", text, re.M) and "score: " in text, "the text mat is shown"
    assert rc == 0
    last = text.strip().splitlines()[-1]
    m = re.match(r"winner: (\S+), declared by the board's referee \(seed 6\)$", last)
    assert m, last
    assert "*** %s WINS ***" % m.group(1) in text  # the board's referee's own win event
    assert text.count("*** ") == 1
    if "undo (BACK held)" in text:  # corrections go through the board's referee: its own undo event
        assert 'undo {"undone": ' in text or re.search(r"takes back the last \w+ \(from ", text)


def test_demo_human_plays_their_whole_side():
    """`--players human`: the person places their gate cards, picks which
    Bakugan to throw where (or misses), plays abilities in their battles and
    gets `help` for each question."""
    from host_tools.demo.demo_game import run_demo
    stop = threading.Event()
    out = io.StringIO()

    class Person:
        """Answers each question the demo asks, reading it (and the help) from the terminal."""
        def __init__(self):
            self.log = []

        def get(self, timeout=None):
            text = out.getvalue()
            q = text[text.rindex(">>> "):] if ">>> " in text else ""
            first = q.splitlines()[0] if q else ""
            key = first.split(":")[0]           # the question, without what it says of the mat now
            asked = [a for f, a in self.log if f.split(":")[0] == key]
            if len([f for f, _ in self.log if f.startswith(">>> your throw")]) >= 5 or len(self.log) > 40:
                stop.set()
                raise queue.Empty
            if not asked:
                a = "help"
            elif first.startswith(">>> place a gate card"):
                # gate card 2 by its number first, then the first card of the hand (a zone alone)
                a = "gate 2 7" if len(asked) == 1 else "%d" % (10 + len(asked))
            elif first.startswith(">>> battle on zone"):
                cards = re.findall(r"ability N      play ability card N: \S+'s card (\d+) \(", text)
                a = "ok" if any(x.startswith("ability") for x in asked) or not cards else "ability " + cards[-1]
            elif first.startswith(">>> your throw"):
                zones = re.search(r"gate cards lie on zones ([\d, ]+)", first)
                other = re.findall(r"throw another of yours: (.*)", text)      # from the help it printed
                if zones and other and not any(" " in x for x in asked):
                    a = "%s %s" % (other[-1].split(", ")[-1], zones.group(1).split(", ")[0])
                else:
                    a = None            # a miss
            else:
                a = None
            self.log.append((first, a if a is not None else "m"))
            return a

    person = Person()
    # the answers' plumbing; the firmware's modules under CPython are enough (and quicker)
    # on the Hall mat (its `capture` world), where seed 7 reads the person's chosen throws right: this is
    # about the person's plumbing. On the demo's amr2 mat none of seeds 1-5 and 7 passed: mostly the
    # person's chosen Bakugan was named as another one (the identification's business, issue 16)
    run_demo(seed=7, speed=0, players="human", out=out, answers=person, stop=stop, firmware="cpython",
             board_name=boards.REFERENCE)
    text = out.getvalue()
    human = text.splitlines()[1].split(":")[0].strip()
    said = [a for _, a in person.log]
    # help answered every kind of question it got
    assert "help" in said and "  help           this list" in text
    # the person's own gate card: placed where they said
    gates = [a for a in said if a.startswith("gate ")]
    assert gates, person.log
    placed = re.search(r"you put (.+) on zone (\d+)", text)
    assert placed and placed.group(1).endswith("gate 2"), text      # the card they named, by its number
    assert "%s places %s on zone %s" % (human, placed.group(1), placed.group(2)) in text
    # the Bakugan they chose to throw where they said (when the mat read it)
    chose = [a for a in said if a != "m" and a != "help" and not a.startswith(("gate", "ability", "ok"))]
    assert chose, [a for _, a in person.log]
    bak, z = chose[0].split()
    assert "%s opens %s on zone %s" % (human, bak, z) in text, text
    # a miss said is a miss
    assert re.search(r"%s misses with \S+ \(missed\)|not allowed \(miss\)" % re.escape(human), text)
    # their battle: they played an ability card of theirs, then said it was over
    assert ">>> battle on zone" in text and "you play %s's card" % human in text, text
    assert re.search(r"%s plays %s's card \d" % (re.escape(human), re.escape(human)), text)
    # no page was mentioned: there is none without --view
    assert "click it on the page" not in text
    # one name per player and per card everywhere: never the engine's ids or numbers
    assert not re.search(r"\bp\d+-(gate|card)\d+\b|\bplayer \d\b", text), re.findall(
        r".*(?:\bp\d+-(?:gate|card)\d+\b|\bplayer \d\b).*", text)


# ------------------------------------------------------------------ live link

class ProtocolBoard(LinkBoard):
    """A board at the other end of a TCP socket speaking serial protocol v1
    with the firmware's own codec: it plays the sample game with the real
    referee, sends each output event as a `game` frame, and answers
    `version` and `state` (with LED colours when asked). Stands in for
    `bakumat vboard` / a real board in this test of the client side."""

    def __init__(self, send_leds=True):
        super().__init__()
        self.send_leds = send_leds
        self.asking = None     # the board's own `asking` in its state reply, when set
        self.game, self.events, _ = referee_outputs(SAMPLE)  # the finished game: its view is the state
        self.seq = 0
        self.start()

    def on_frame(self, seq, typ, body):
        if typ == "version":
            self.send(seq, "version", {"fw": "test", "proto": 1, "board": boards.REFERENCE, "mpy": "6.3"})
        elif typ == "state":
            for ev in self.events:  # the game's events, before the reply (as the protocol says)
                self.seq += 1
                self.send(self.seq, "game", ev)
            self.events = []
            st = {"configured": True, "events": 30, "t": 66000, "view": self.game.view()}
            if self.send_leds and body.get("leds"):
                st["leds"] = [[0, 0, 32]] * 68
            if self.asking is not None:
                st["asking"] = self.asking
            self.send(seq, "state", st)
        else:
            self.send(seq, "err", {"code": "unknown", "msg": typ})


def test_live_link_source_serves_what_the_board_says():
    from host_tools.webview import livelink
    fb = ProtocolBoard()
    with open(SAMPLE) as f:
        header = json.loads(f.readline())
    src, watcher = livelink.source(port="socket://127.0.0.1:%d" % fb.port, header=header)
    srv = server.start(src)
    try:
        def events_arrived():
            code, _, st = get(srv.url + "api/state")
            return st if len(st["events"]) >= 20 else None
        deadline = time.monotonic() + 10
        st = None
        while st is None and time.monotonic() < deadline:
            st = events_arrived()
            time.sleep(0.05)
        assert st, "the game frames never reached the page's state"
        assert st["board"]["name"] == boards.REFERENCE and st["header"]["players"][0]["name"] == "Dan"
        assert st["view"]["winner"] == 1 and st["leds"][0] == [0, 0, 32] and len(st["leds"]) == 68
        texts = [e[1].get("text", "") for e in st["events"]]
        assert any("Runo WINS" in t for t in texts)
        code, _, info = get(srv.url + "api/info")
        assert info["live"] is True and info["timeline"] is False
        assert st["asking"] is None     # derived from the view: the game is over, nothing awaited
        # the board's own asking (the mat's question) is served as it says it
        ask = {"player": 0, "zone": 5, "what": "which", "bakugan": "drago", "alt": "saurus"}
        fb.asking = ask
        deadline = time.monotonic() + 10
        while get(srv.url + "api/state")[2]["asking"] != ask and time.monotonic() < deadline:
            time.sleep(0.05)
        assert get(srv.url + "api/state")[2]["asking"] == ask
    finally:
        watcher.close()
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(os.path.join(REPO, "host_tools", "samples"))
                                        if f.endswith(".ndjson")))
def test_every_sample_log_has_a_timeline(name):
    """Whatever the mode, a log replays into a timeline whose last state is
    the referee's final verdict."""
    path = os.path.join(REPO, "host_tools", "samples", name)
    tl = timeline.load(path, boards.REFERENCE)
    _, outs, _ = referee_outputs(path)
    end = outs[-1]
    final = tl.steps[-1]["state"]["view"]
    assert end["ev"] == "end" and final["winner"] == end["winner"]
    json.dumps(tl.json())  # all of it goes to the page as JSON


def test_view_command_serves_until_interrupted():
    import signal
    p = subprocess.Popen([tool("bakumat"), "view", SAMPLE, "--no-browser", "--http", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = p.stdout.readline()
        m = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
        assert m, line + p.stderr.read()
        code, _, st = get(m.group(1) + "api/state")
        assert code == 200 and st["view"]["phase"] == "over"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
        assert p.returncode == 0 and "stopped" in out and "Traceback" not in err
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_view_live_on_the_virtual_board():
    """bakumat view --live against the real firmware on the virtual board
    (micropython binary, real-time clock): the page's state is the board's."""
    from host_tools.device.link import open_link
    from host_tools.vboard import VBoard
    from host_tools.webview import livelink
    with open(SAMPLE) as f:
        header = json.loads(f.readline())
    vb = VBoard(boards.REFERENCE, lockstep=False)
    vb.start()
    try:
        with open_link(vb.url) as link:
            typ, body = link.request("cfg", header, timeout=10)
            assert typ == "ack"
            link.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}, timeout=10)
        src, watcher = livelink.source(port=vb.url, header=header)
        srv = server.start(src)
        try:
            deadline = time.monotonic() + 15
            st = None
            while time.monotonic() < deadline:
                _, _, st = get(srv.url + "api/state")
                if st.get("view") and st["view"]["zones"]:
                    break
                time.sleep(0.1)
            assert st["view"]["zones"]["6"]["gate"] == "dan-gold" and st["view"]["phase"] == "setup"
            assert st["board"]["name"] == boards.REFERENCE and st["header"]["players"][1]["name"] == "Runo"
        finally:
            watcher.close()
            srv.shutdown()
            srv.server_close()
    finally:
        vb.stop()


def test_plot_legend_beside_the_traces_and_every_decision_labelled(raw_log, tmp_path, monkeypatch):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from host_tools.commands import plot
    figs = []
    monkeypatch.setattr(plt, "close", lambda fig=None: figs.append(fig))
    tl = timeline.load(raw_log)
    plot.plot(tl, str(tmp_path / "t.png"))
    fig = figs[0]
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    for ax in fig.axes:
        leg = ax.get_legend().get_window_extent(r)
        assert leg.x0 >= ax.get_window_extent(r).x1          # beside the traces, not over them
        for a in ax.texts:
            ev, what = a.get_text().split(" ", 1)
            assert ev and what.strip()                         # every decision says what it was about
        labels = [t for t in ax.get_yticklabels() if t.get_text()]
        boxes = [t.get_window_extent(r) for t in labels]
        for b1, b2 in zip(boxes, boxes[1:]):
            assert not b1.overlaps(b2)                         # tick labels never overlap
