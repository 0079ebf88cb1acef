"""A match report a player can share: one self-contained HTML page (no
script, no network: styles inline) from an event log or a raw sensor log,
with the players and their decks, every battle with its arithmetic, the
captures, the winner and the whole game in the mat's words
(host_tools/words.py).

    html = report.build(path)          # UserError naming the file and line on bad input
"""
import html
import io
import json

from host_tools.errors import UserError
from host_tools.words import Words, effect_text, stamp

CSS = """
body{font-family:system-ui,sans-serif;max-width:860px;margin:2em auto;padding:0 1em;color:#222}
h1{margin-bottom:.2em}.result{font-size:1.5em;font-weight:bold;margin:.3em 0 1em}
table{border-collapse:collapse;margin:.5em 0 1.5em;width:100%}
th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.win{font-weight:bold}.num{text-align:right;font-variant-numeric:tabular-nums}
.p0{color:#0050ff}.p1{color:#d05a00}.p2{color:#00a02a}.p3{color:#9000d0}
ol.log{font-family:ui-monospace,monospace;font-size:.9em;padding-left:1.5em}
footer{color:#777;font-size:.85em;margin-top:2em}
"""


def game_outputs(path):
    """(header, the referee's output events as dicts) of the game in `path`."""
    from host_tools.logs.logfile import log_kind, read_lines
    lines = read_lines(path)
    kind = log_kind(lines, path)
    out = io.StringIO()
    if kind == "raw":
        from host_tools.logs import rawlog, rawreplay
        rawreplay.replay_raw(path, "json", out=out)
        try:
            header = next(obj for _, k, obj in rawlog.iter_raw(lines[:1]) if k == "header")[0]
        except (StopIteration, rawlog.RawLogError) as e:
            raise UserError("%s: %s" % (path, e))
    else:
        from host_tools.logs.eventreplay import replay_events
        game = replay_events(lines, path, True, out)
        header = game.header
    return header, [json.loads(x) for x in out.getvalue().splitlines() if x.strip()]


def _ended_by_hand(path):
    """An event log holding the `end` input (`bakumat game end`)."""
    from host_tools.logs.logfile import read_lines
    for x in read_lines(path)[1:]:
        if '"end"' in x:
            try:
                if json.loads(x).get("ev") == "end":
                    return True
            except ValueError:
                pass
    return False


def _e(x):
    return html.escape(str(x), quote=True)


def build(path, title=None):
    header, evs = game_outputs(path)
    w = Words(header)
    players = header.get("players") or []
    g_of = {}
    for p in players:
        for b in p.get("bakugan") or ():
            g_of[b.get("id")] = b
    end = next((e for e in reversed(evs) if e.get("ev") == "end"), None)
    result = w.end_line(end) if end else "the game is not over in this log"
    if end and end.get("winner") is None and not any(e.get("ev") in ("win", "stalemate") for e in evs) \
            and not _ended_by_hand(path):
        # a replay ends the game where the log stops: a recording stopped
        # mid-game is not a game without a winner
        result = "no winner yet: the log stops before the game is decided (%s)" % w.score(end.get("captured"))
    name = _e(title or "BakuMat game: " + " vs ".join(w.names))
    out = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
           "<title>%s</title><style>%s</style></head><body>" % (name, CSS),
           "<h1>%s</h1>" % name,
           "<p>Mode %s%s</p>" % (_e(header.get("mode", "official")),
                                 ", %s to win" % _e(_gates(header["target"])) if "target" in header else ""),
           "<p class=\"result\" id=\"result\">%s</p>" % _e(result)]
    # the players and their decks
    out.append("<h2>Players</h2><table id=\"players\"><tr><th>player</th><th>Bakugan</th><th>gate cards</th>"
               "<th>ability cards</th></tr>")
    for i, p in enumerate(players):
        baks = ", ".join("%s (%s, %s G)" % (b.get("id"), b.get("attr"), b.get("g")) for b in p.get("bakugan") or ())
        gates = ", ".join("%s%s" % (w.gate_name(g.get("id")),
                                    " (%s)" % ", ".join("%s %+d" % (a, v) for a, v in sorted((g.get("bonus") or {})
                                                                                            .items()))
                                    if g.get("bonus") else "") for g in p.get("gates") or ())
        abil = ", ".join("%s (%s)" % (a.get("id"), effect_text(a.get("effect") or {}))
                         for a in p.get("abilities") or ())
        out.append("<tr><td class=\"p%d\">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>"
                   % (i % 4, _e(w.who(i)), _e(baks), _e(gates), _e(abil)))
    out.append("</table>")
    # the battles and their arithmetic
    def battle_rows(b):
        parts = b.get("parts") or {}
        power = b.get("power") or {}
        rows = []
        for k, bid in enumerate([b.get("attacker"), b.get("defender")]):
            g, gate, ab = (parts.get(bid) or [0, 0, 0])[:3]
            owner = next((i for i, p in enumerate(players)
                          if any(x.get("id") == bid for x in p.get("bakugan") or ())), None)
            cls = " class=\"win\"" if bid == b.get("winner") else ""
            lead = ("<td rowspan=\"2\">%s</td><td rowspan=\"2\">%s</td>" % (_e(stamp(b.get("t")).strip()),
                                                                             _e(b.get("zone")))) if k == 0 else ""
            rows.append("<tr%s>%s<td>%s%s</td><td class=\"num\">%d</td><td class=\"num\">%+d</td>"
                        "<td class=\"num\">%+d</td><td class=\"num\">%d%s</td></tr>"
                        % (cls, lead, _e(bid), (" (%s)" % _e(w.who(owner))) if owner is not None else "",
                           g, gate, ab, power.get(bid, g + gate + ab),
                           " &#10003; wins" if bid == b.get("winner") else ""))
        return rows

    _table(out, "Battles", [e for e in evs if e.get("ev") == "battle"], "No battle in this game.",
           "<table id=\"battles\"><tr><th>time</th><th>zone</th><th>Bakugan</th><th class=\"num\">G</th>"
           "<th class=\"num\">gate</th><th class=\"num\">abilities</th><th class=\"num\">power</th></tr>",
           battle_rows)

    # the captures
    def capture_rows(c):
        return ["<tr><td>%s</td><td class=\"p%d\">%s</td><td>%s</td><td>%s</td><td>%s</td></tr>"
                % (_e(stamp(c.get("t")).strip()), (c.get("player") or 0) % 4, _e(w.who(c.get("player"))),
                   _e(w.gate_name(c.get("gate"))), _e(c.get("zone")), _e(w.kind("how", c.get("reason"), c)))]

    _table(out, "Captures", [e for e in evs if e.get("ev") == "capture"], "No gate card was captured.",
           "<table id=\"captures\"><tr><th>time</th><th>player</th><th>gate card</th><th>zone</th>"
           "<th>how</th></tr>", capture_rows)
    # the whole game, in words
    out.append("<h2>The game, move by move</h2><ol class=\"log\" id=\"log\">")
    for e in evs:
        out.append("<li>%s</li>" % _e(w.line(e)))
    out.append("</ol>")
    out.append("<footer>Made by <code>bakumat report</code> from %s: the referee's decisions replayed from the "
               "log with the mat's own firmware.</footer></body></html>" % _e(_base(path)))
    return "\n".join(out) + "\n"


def _gates(n):
    return "1 gate card" if n == 1 else "%s gate cards" % n


def _table(out, title, items, empty, table_head, rows_of):
    """A section: its heading, then a table with rows_of(item) for each item
    (a list of <tr> lines), or a line saying there are none."""
    out.append("<h2>%s</h2>" % title)
    if not items:
        out.append("<p>%s</p>" % empty)
        return
    out.append(table_head)
    for item in items:
        out.extend(rows_of(item))
    out.append("</table>")


def _base(path):
    import os
    return os.path.basename(path)
