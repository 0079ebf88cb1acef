"""Logs as timelines for the web view: one step per input the referee saw,
each with its output events and the state after it (view, LEDs).

    tl = event_timeline(lines, path, board)   # event log (docs/formats/event-log-v1.md)
    tl = raw_timeline(path)                   # raw log: the sensing pipeline decides the landings
    tl.json()                                  # GET /api/timeline
    tl.traces(zone)                            # raw logs: GET /api/traces?zone=Z

A raw log goes through the very firmware code the board runs (firmware/
match.py: sensing pipeline + referee); the per-zone sensor traces are read
from the pipeline after every frame (trace.Probe), with its thresholds and
the moments it decided.
"""
from host_tools import fwpath
from host_tools.errors import UserError
from host_tools.webview.state import Tracker, board_json
from host_tools.words import Words, plain, stamp


def _describe(ev, words=None):
    """An input of the log as the page lists it: the game clock, then the
    input with players by name and cards by the names the transcripts use
    (host_tools/words.py), never an id or a zero-based player number."""
    w = words or Words()
    kind = ev.get("ev")
    said = {"player": w.who, "gate": w.gate_name, "card": w.gate_name}
    rest = ", ".join("%s %s" % (k, said.get(k, plain)(ev[k])) for k in ev if k not in ("t", "ev"))
    return "%s  %s%s" % (stamp(ev.get("t", 0)), kind, (": " + rest) if rest else "")


class Timeline:
    def __init__(self, kind, title, board, header):
        self.kind = kind  # "events" | "raw"
        self.title = title
        self.board = board
        self.page_board = board_json(board)
        self.header = header
        self.steps = []
        self.probe = None  # raw logs: trace.Probe
        self.words = Words(header)

    def add(self, tracker, input_text, out_from, zone=None, source="input"):
        snap = tracker.snapshot()
        outs = [e[1].get("text") or e[1]["ev"] for e in tracker.events if e[0] > out_from]
        self.steps.append({"t": snap["t"], "input": input_text, "source": source, "zone": zone,
                           "out": outs, "state": {"t": snap["t"], "seq": snap["seq"], "view": snap["view"],
                                                  "leds": snap["leds"], "asking": snap["asking"]}})

    def json(self):
        return {"api": 1, "kind": self.kind, "title": self.title, "board": self.page_board,
                "header": self.header, "steps": self.steps}

    def final_state(self):
        st = {"api": 1, "board": self.page_board, "header": self.header, "you": {"player": None}}
        st.update(self.steps[-1]["state"])
        return st

    def traces(self, zone):
        if self.probe is None:
            return None
        return self.probe.zone_json(zone)


def _strip_header(header):
    out = {}
    for k in ("mode", "first", "target", "players"):
        if k in header:
            out[k] = header[k]
    return out


def event_timeline(lines, path, board):
    """Timeline of an event log (lines: str lines); UserError naming the line."""
    fwpath.ensure()
    from referee.errors import SetupError
    from store import eventlog
    tl = None
    tr = None
    t = 0
    try:
        for lineno, obj in eventlog.iter_log(lines):
            if tr is None:
                tr = Tracker(board, obj)
                tl = Timeline("events", path, board, _strip_header(obj))
                tl.add(tr, "start: %s game, %s" % (obj.get("mode", "official"),
                                                   " vs ".join(p["name"] for p in obj["players"])), 0)
                continue
            t = obj["t"]
            mark = tr.seq
            tr.tick(t)
            tr.feed(obj)
            tl.add(tr, _describe(obj, tl.words), mark, obj.get("zone"))
    except eventlog.LogError as e:
        raise UserError("%s: %s" % (path, e))
    except SetupError as e:
        raise UserError("%s: line 1: %s" % (path, e))
    if tr is None:
        raise UserError("%s: empty log: no header" % path)
    mark = tr.seq
    tr.finish(t)
    tl.add(tr, "%s  end of the log" % stamp(t), mark)
    return tl


def raw_timeline(path):
    """Timeline of a raw sensor log, through the firmware's sensing pipeline."""
    from host_tools.logs import rawlog
    from host_tools.webview.trace import Probe
    fwpath.ensure()
    from referee.errors import SetupError
    from match import Match

    tl = None
    tr = None
    m = None
    probe = None
    pending = []  # sensed events of the current frame
    waits = None  # rawwhy.Waits, once the pipeline exists
    t = 0
    try:
        with open(path, encoding="utf-8", newline="") as f:
            for lineno, kind, obj in rawlog.iter_raw(f):
                if kind == "header":
                    header, board = obj
                    board = dict(board)
                    board["rate_hz"] = header["rate_hz"]
                    game_header = _strip_header(header)
                    if "players" not in game_header:
                        raise UserError("%s: line %d: a raw log without a game (no players) has no referee to replay"
                                        % (path, lineno))
                    try:
                        tr = Tracker(board, game_header)
                    except SetupError as e:
                        raise UserError("%s: line %d: %s" % (path, lineno, e))
                    tl = Timeline("raw", path, board, game_header)
                    tl.add(tr, "start: %s game on %s, %s" % (game_header.get("mode", "official"), board["name"],
                                                             " vs ".join(p["name"] for p in game_header["players"])), 0)
                    from host_tools.logs.rawreplay import board_params
                    m = Match(board, tr.game, _sensed_sink(pending, tr), params=board_params())
                    rawlog.resume(m, header)
                    from host_tools.logs.rawwhy import Waits
                    waits = Waits(m.pipeline.zone_ids)
                    m.pipeline.on_wait = waits.add
                    probe = Probe(m.pipeline, board)
                    tl.probe = probe
                    continue
                if kind == "frame":
                    t, vals = obj
                    mark = tr.seq
                    tr.tick(t)
                    waits.stale(t)
                    m.frame(vals, t)
                    probe.sample(t)
                    if pending:
                        for ev in pending:
                            probe.decision(ev)
                            if ev["ev"] == "fault":
                                tr.fb.fault(probe.zone_of(ev["ch"]), True, t)
                        tr.after()
                        for ev in pending:
                            tl.add(tr, "%s  sensed %s%s" % (stamp(ev["t"]), _sensed_text(ev), _waited(waits, ev)),
                                   mark, ev.get("zone", probe.zone_of(ev.get("ch"))), "sensed")
                            mark = tr.seq
                        del pending[:]
                    continue
                ev = obj
                t = ev["t"]
                mark = tr.seq
                tr.tick(t)
                tr.mark_input_zone(ev.get("zone"))
                m.control(ev)
                tr.after()
                tl.add(tr, _describe(ev, tl.words), mark, ev.get("zone"))
    except rawlog.RawLogError as e:
        raise UserError("%s: %s" % (path, e))
    except UnicodeDecodeError as e:
        raise UserError("%s: not UTF-8 text (%s)" % (path, e.reason))
    except FileNotFoundError:
        raise UserError("%s: no such file" % path)
    except OSError as e:
        raise UserError("%s: cannot read: %s" % (path, e.strerror or e))
    if tr is None:
        raise UserError("%s: empty log: no header" % path)
    mark = tr.seq
    tr.finish(t)
    tl.add(tr, "%s  end of the log" % stamp(t), mark)
    return tl


def _waited(waits, ev):
    """What the pipeline waited for before this decision, as `bakumat
    replay --why` tells it ("" when it did not)."""
    ep = waits.take(ev.get("zone")) if waits is not None else None
    if ep is None:
        return ""
    return ", after waiting %d ms: %s" % (ev["t"] - ep.t0, waits_in_words(ep))


# what the sensing waited for, in a player's words (rawwhy.REASONS has the
# long form with the pipeline's settings, for `replay --why`)
WAIT_WORDS = {
    "ambiguous": "not sure which Bakugan",
    "mismatch": "like no Bakugan of the game",
    "identity": "no Bakugan named yet",
    "ramp": "maybe still opening",
    "trend": "still moving",
    "lesson": "learning the Bakugan",
    "lift": "maybe being lifted",
    "tail": "fading as a lifted Bakugan does",
    "residue": "something left on the card",
    "leave": "waiting for the zone to settle",
    "unexplained": "a field nothing explains",
}


def waits_in_words(ep):
    """An episode's waits, the most frequent first: "not sure which Bakugan
    (8 frames; most likely tigrerra, 93%); still moving (1 frame)"."""
    parts = []
    for r in sorted(ep.order, key=lambda r: -ep.counts[r]):
        n = ep.counts[r]
        bits = ["%d frame%s" % (n, "" if n == 1 else "s")]
        d = ep.detail.get(r)
        if d is not None and r == "ambiguous":
            bits.append("most likely %s, %.0f%%" % (d[0], 100.0 * d[1]))
        elif d is not None and r == "mismatch":
            bits.append("closest %s" % d[0])
        parts.append("%s (%s)" % (WAIT_WORDS.get(r, r), "; ".join(bits)))
    return "; ".join(parts)


def _sensed_sink(pending, tr):
    def sink(ev):
        pending.append(ev)
        tr.mark_input_zone(ev.get("zone"))  # a rejected landing flashes its zone
    return sink


def _sensed_text(ev):
    k = ev["ev"]
    if k == "fault":
        return "fault on channel %s (%s)" % (ev.get("ch"), ev.get("kind"))
    who = ev.get("bakugan") or "an unidentified Bakugan"
    if k == "land":
        return "%s %s on zone %s" % (who, "taught" if ev.get("learned") else "opens", ev.get("zone"))
    if k == "leave":
        return "%s leaves zone %s" % (who, ev.get("zone"))
    if k == "ident":
        return "the Bakugan on zone %s is %s after all" % (ev.get("zone"), who)
    if k == "unsure":
        return "not sure it is %s on zone %s (or %s): the board asks the thrower" % (who, ev.get("zone"), ev.get("alt"))
    if k == "unland":
        return "no landing on zone %s after all (a ball that paused there)" % ev.get("zone")
    if k == "roll":
        return "a ball rolls across zone %s" % ev.get("zone")
    return k


def load(path, board_name=None):
    """Timeline for a log file of either kind."""
    from host_tools import boards
    from host_tools.logs.logfile import log_kind, read_lines
    lines = read_lines(path)
    if log_kind(lines, path) == "raw":
        return raw_timeline(path)
    return event_timeline(lines, path, boards.load(board_name or default_board()))


def default_board():
    """The board an event log is drawn on when none is named: the reference board."""
    from host_tools import boards
    return boards.REFERENCE
