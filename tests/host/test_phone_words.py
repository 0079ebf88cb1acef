"""The board's phone page and host_tools/words.py say the same sentence for
every event: the page's phrase table is words.py's (written into mat.js,
checked current here), and the real phone page in headless Chromium words
whole games (every sample mode, a correction by the mat, a player's undo,
abilities, the end) exactly as words.py does."""
import http.server
import json
import os
import threading

import pytest

from browserkit import Browser
from host_tools import boards, fwpath, words
from host_tools.webview.state import board_json

SAMPLES = os.path.join(fwpath.REPO_DIR, "host_tools", "samples")
WEB = os.path.join(fwpath.REPO_DIR, "firmware", "web")


def test_the_page_phrase_table_is_words_py():
    with open(words.mat_js_path()) as f:
        copy = words.js_copy(f.read())
    assert copy is not None, "mat.js lost its PHRASES block"
    assert copy == words.js_block(), "mat.js's phrases are stale: python -m host_tools.words --write-js"


def referee_out(lines):
    """The referee's output events (their JSON form) for an event log."""
    fwpath.ensure()
    from referee import events
    from referee.journal import Journal
    out = []
    game = Journal(lines[0], lambda o: out.append(json.loads(events.encode_json(o))))
    t = 0
    for ev in lines[1:]:
        t = ev["t"]
        game.feed(ev)
    game.finish(t)
    return out


def read_log(name):
    with open(os.path.join(SAMPLES, name + ".ndjson")) as f:
        return [json.loads(x) for x in f if x.strip()]


def corrected_official():
    """The official sample with what the board's match feeds when the mat
    corrects itself (firmware/match.py _amend: `undo` of the landing, the
    other Bakugan landed, at one time), and a player's own undo (BACK
    held) with the landing again."""
    log = read_log("official")
    hdr, evs = log[0], log[1:]
    i = next(k for k, e in enumerate(evs) if e["ev"] == "land" and e["bakugan"] == "serpenoid")
    land = evs[i]
    t = land["t"] + 600
    # the mat's second thought: another of the thrower's Bakugan, one not thrown before
    owner = next(p for p in hdr["players"] if land["bakugan"] in [b["id"] for b in p["bakugan"]])
    thrown = {e.get("bakugan") for e in evs[:i + 1]}
    other = next(b["id"] for b in owner["bakugan"] if b["id"] not in thrown)
    fix = [{"t": t, "ev": "undo"}, dict(land, t=t, bakugan=other)]
    j = next(k for k, e in enumerate(evs) if e["ev"] == "land" and k > i + 3)
    back = [{"t": evs[j]["t"] + 300, "ev": "undo"}, dict(evs[j], t=evs[j]["t"] + 900)]
    out = evs[:i + 1] + fix + evs[i + 1:j + 1] + back + evs[j + 1:]
    # the events put in may be later than the next ones: keep the log's times rising
    for k in range(1, len(out)):
        if out[k]["t"] < out[k - 1]["t"]:
            out[k] = dict(out[k], t=out[k - 1]["t"])
    return [hdr] + out, land["bakugan"], other


class _Page(http.server.BaseHTTPRequestHandler):
    state = None

    def log_message(self, *a):
        pass

    def do_GET(self):
        path = self.path.split("?", 1)[0].lstrip("/") or "phone.html"
        if path == "api/state":
            body, ctype = json.dumps(self.server.state).encode(), "application/json"
            self.server.state = dict(self.server.state, events=[])   # later polls: nothing new
        elif path in ("phone.html", "phone.js", "mat.js", "mat.css"):
            with open(os.path.join(WEB, path), "rb") as f:
                body = f.read()
            ctype = {"html": "text/html", "js": "application/javascript", "css": "text/css"}[path.rsplit(".", 1)[1]]
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def phone():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    b = Browser()
    yield srv, b
    b.close()
    srv.shutdown()


# every line the page adds to its event list, in order (it keeps only the last 60 on screen)
RECORD = """
new MutationObserver(function (ms) {
  ms.forEach(function (m) { m.addedNodes.forEach(function (n) {
    if (n.tagName === "LI" && m.target.id === "events") window.__said.push(n.textContent);
  }); });
}).observe(document, {childList: true, subtree: true});
"""


def page_says(phone, header, out):
    srv, b = phone
    srv.state = {"seq": len(out), "board": board_json(boards.load(boards.REFERENCE)), "header": header,
                 "events": [[i + 1, e] for i, e in enumerate(out)]}
    pg = b.page()
    try:
        pg.add_init_script("window.__said = []; document.addEventListener('DOMContentLoaded', function () {%s});"
                           % RECORD)
        pg.goto("http://127.0.0.1:%d/" % srv.server_address[1])
        pg.wait_for_function("window.__said.length >= %d" % len(out))
        said = pg.evaluate("window.__said")
        assert not pg.errors, pg.errors
        return said
    finally:
        pg.close()


def host_says(header, out):
    w = words.Words(header)
    return [w.line(e) for e in out]


def test_a_corrected_game_reads_the_same_on_the_phone(phone):
    log, was, now = corrected_official()
    out = referee_out(log)
    host = host_says(log[0], out)
    assert page_says(phone, log[0], out) == host
    text = "\n".join(host)
    # what a player checks: the correction told, the undo in words, abilities by name, the end
    assert "(the mat corrected: %s, not %s)" % (now, was) in text
    assert "the referee takes back the last landing (the one at " in text
    assert "Dan plays fire-wall (opponent -50 G)" in text
    assert host[-1].endswith("game over: " + words.Words(log[0]).end_line(out[-1]))
    assert "{" not in text and "p0-" not in text


@pytest.mark.parametrize("mode", sorted(n[:-7] for n in os.listdir(SAMPLES) if n.endswith(".ndjson")))
def test_every_sample_game_reads_the_same_on_the_phone(phone, mode):
    log = read_log(mode)
    out = referee_out(log)
    assert page_says(phone, log[0], out) == host_says(log[0], out)


def test_the_rarer_sentences_read_the_same(phone):
    """Events no sample game has: a gate turned over, a stalemate, the
    page's `learnt`, a refused undo, a game with no winner, a kind neither
    knows (said in plain words, no JSON)."""
    hdr = read_log("official")[0]
    out = [{"ev": "reveal", "t": 10, "player": 0, "gate": "dan-gold", "bonus": {"pyrus": 50, "aquos": -20}},
           {"ev": "reveal", "t": 20, "player": 1, "gate": "p1-gate0", "bonus": {}},
           {"ev": "learnt", "t": 30, "bakugan": "drago", "zone": 0, "alike": ["serpenoid"]},
           {"ev": "learnt", "t": 40, "bakugan": "tigrerra", "zone": 3, "alike": []},
           {"ev": "reject", "t": 50, "input": "undo", "reason": "nothing to undo"},
           {"ev": "ability", "t": 60, "player": 1, "card": "unknown-card"},
           {"ev": "novelty", "t": 55, "player": 0, "what": {"b": [1, 2], "a": None, "ok": True}},
           {"ev": "stalemate", "t": 70, "reason": "no Bakugan left"},
           {"ev": "end", "t": 80, "captured": [["a"], ["b"]], "winner": None}]
    host = host_says(hdr, out)
    assert page_says(phone, hdr, out) == host
    assert host[0].endswith("gate dan-gold turned over: aquos -20, pyrus +50")
    assert host[2].endswith("the mat learnt drago on zone 0; can't tell it from serpenoid: if one player has both, swap one")
    assert host[3].endswith("the mat learnt tigrerra on zone 3")
    assert host[6] == "00:00  novelty: player Dan, what a none, b 1, 2, ok yes"
    assert host[-1].endswith("game over: no winner (1-1)")
