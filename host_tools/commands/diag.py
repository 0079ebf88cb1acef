"""bakumat diag info|channels|zones|leds|buzzer|buttons: check a board, step by step
(the order of hardware/bring-up.md).

  info      firmware and MicroPython versions, board, free heap, reset cause,
            uptime, scan loop figures, link errors, sensor faults
  channels  every channel's baseline, noise and health (dead, stuck,
            saturated, noisy, off baseline), and zones that read identically
            (a select line); exit code 1 when something is wrong
  zones     walk the zones: put a Bakugan on each zone in turn when asked;
            each zone must light up (its sensors respond, the board reports
            a landing on that zone) and go dark when it is taken off;
            sensors that stay silent or respond reversed are named
  leds      light the LED chain for a visual check
  buzzer    play the test tones
  buttons   show each button press as the firmware's debouncer reports it
            (short, or long after 0.9 s held), for --seconds or until
            --presses presses; names the buttons never pressed
  plate     the real gate cards measured: a Bakugan on a plain card, then
            on a gate card, at marked spots of one zone; reports the share
            that gets through, the leak, the implied mu_r t and the nearest
            simulated world, and saves them in the board's calibration
"""
import json
import sys
import time

from host_tools import boards
from host_tools.device import boardlink
from host_tools.logs import diagnose, termmat
from host_tools.errors import UserError
from host_tools.device.progress import Progress


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="TEST")
    sub.required = True
    i = sub.add_parser("info", help="versions, free heap, reset cause, loop and link figures")
    i.add_argument("--json", action="store_true")
    c = sub.add_parser("channels", help="per-channel baseline, noise and health")
    c.add_argument("--seconds", type=float, default=3.0, help="how long to listen (default 3 s)")
    c.add_argument("--json", action="store_true")
    c.add_argument("--all", action="store_true", help="list healthy channels too")
    z = sub.add_parser("zones", help="walk the zones with a Bakugan")
    z.add_argument("--zones", help="zones to test, e.g. 0,1,5 (default: all)")
    z.add_argument("--timeout", type=float, default=60.0, help="seconds to wait on each zone (default 60)")
    z.add_argument("--json", action="store_true", help="results as JSON (prompts still go to stderr)")
    sub.add_parser("leds", help="LED chain test (watch the mat)")
    bt = sub.add_parser("buttons", help="show the button presses the firmware reports (press each button)")
    bt.add_argument("--seconds", type=float, default=30.0, help="how long to listen (default 30 s)")
    bt.add_argument("--presses", type=int, help="stop after this many presses (exit code 1 if fewer came)")
    bt.add_argument("--json", action="store_true", help="each press as a JSON line, then a summary line")
    sub.add_parser("buzzer", help="buzzer test (listen)")
    pl = sub.add_parser("plate", help="measure what a real gate card's steel plate lets through (a one-zone jig)")
    pl.add_argument("--zone", type=int, default=5, help="the zone to measure on (default 5)")
    pl.add_argument("--seconds", type=float, default=1.5, help="how long to average each reading (default 1.5 s)")
    pl.add_argument("--no-save", action="store_true", help="do not save the figures in the board's calibration")
    pl.add_argument("--json", action="store_true", help="the figures as JSON (prompts still go to stderr)")
    for sp in sub.choices.values():
        boardlink.add_port_argument(sp)
        sp.add_argument("--board", help="board definition (default: the one the board reports)")


# ------------------------------------------------------------------ info

def info(bl, as_json):
    v = bl.version
    _, h = bl.request("health")
    if as_json:
        print(json.dumps({"version": v, "health": h}, sort_keys=True))
        return 0
    rows = [
        ("firmware", v.get("fw")),
        ("protocol", v.get("proto")),
        ("board", v.get("board")),
        ("MicroPython", v.get("mpy")),
        ("reset cause", h.get("cause")),
        ("uptime", "%.1f s" % (h.get("uptime_ms", 0) / 1000.0) if h.get("uptime_ms") is not None else None),
        ("free heap", "%s bytes" % h.get("mem_free") if h.get("mem_free") is not None else None),
        ("scans", h.get("scans")),
        ("late scans", h.get("overruns")),
        ("longest loop", "%s us" % h.get("loop_us_max") if h.get("loop_us_max") is not None else None),
        ("watchdog", h.get("wdt")),
        ("link", "%s frames in, %s errors, %s garbage bytes, %s replies dropped, %s frames dropped" % (
            h.get("rx_frames"), h.get("rx_errors"), h.get("rx_garbage"), h.get("err_dropped"), h.get("tx_drops"))),
        ("saves", "%s (%s failed)" % (h.get("saves"), h.get("save_errors"))),
        ("sensor faults", ", ".join(str(c) for c in h.get("faults") or []) or "none"),
    ]
    for k, val in rows:
        if val is not None:
            print("%-14s %s" % (k, val))
    for k in sorted(h):
        if k not in ("cause", "uptime_ms", "mem_free", "scans", "overruns", "loop_us_max", "wdt", "rx_frames",
                     "rx_errors", "rx_garbage", "err_dropped", "tx_drops", "saves", "save_errors", "faults"):
            print("%-14s %s" % (k, h[k]))
    return 0


# ------------------------------------------------------------------ raw frames

class RawStream:
    """`raw on` while in use; frames as (t, counts)."""

    def __init__(self, bl):
        self.bl = bl
        self.other = []

    def __enter__(self):
        self.bl.request("raw", {"on": True})
        return self

    def __exit__(self, *a):
        from host_tools.device.link import LinkError
        try:
            self.bl.request("raw", {"on": False}, timeout=3.0)
        except LinkError:
            sys.stderr.write("warning: the board did not acknowledge `raw off` and may still be streaming raw "
                             "frames (its link cannot drain them as fast as it scans); reset it if other "
                             "commands get no answer\n")

    def read(self, timeout=0.05):
        out = []
        for seq, typ, body in self.bl.frames(timeout):
            if typ == "frame":
                out.append((body["t"], body["c"]))
            else:
                self.other.append((seq, typ, body))
        return out


def listen(bl, seconds, label="Listening"):
    board = need_board(bl)
    n = int(seconds * board["rate_hz"])
    frames = []
    bar = Progress(label, total=n, unit="frames")
    deadline = time.monotonic() + seconds + 5.0
    with RawStream(bl) as rs:
        while len(frames) < n:
            if time.monotonic() > deadline:
                break
            frames.extend(rs.read(0.1))
            bar.set(min(len(frames), n))
    bar.close("")
    if len(frames) < max(diagnose.MIN_FRAMES, n // 2):
        raise UserError("the board sent only %d raw frames in %.0f s (expected about %d at %s Hz): "
                        "is the scan running? (`bakumat diag info`)" % (len(frames), seconds, n, board["rate_hz"]))
    return frames


def need_board(bl):
    if bl.board is None:
        raise UserError("unknown board definition: pass --board NAME")
    return bl.board


def channels(bl, args):
    board = need_board(bl)
    frames = listen(bl, args.seconds)
    rows = diagnose.classify(board, diagnose.channel_stats(frames))
    dups = diagnose.identical_zones(board, frames)
    bad = [r for r in rows if r["health"] != "ok"]
    if args.json:
        print(json.dumps({"frames": len(frames), "channels": rows, "identical_zones": dups}, sort_keys=True))
        return 1 if bad or dups else 0
    s = board["sensor"]
    print("%d frames; expected baseline %d +- %d, noise up to %.1f counts rms"
          % (len(frames), s["zero_counts"], diagnose.offset_limit(board), diagnose.NOISE_FACTOR * s["noise_counts_rms"]))
    print("%4s %4s %4s %8s %7s %6s %6s  %s" % ("ch", "zone", "slot", "baseline", "noise", "min", "max", "health"))
    for r in rows:
        if args.all or r["health"] != "ok":
            print("%4d %4s %4s %8d %7.1f %6d %6d  %s" % (r["ch"], r["zone"], r["slot"], r["baseline"], r["noise"],
                                                       r["min"], r["max"], r["why"]))
    for a, b in dups:
        print("zones %d and %d read identical values: %s %s stuck or open"
              % (a, b, diagnose.select_line_words(board), "/".join(diagnose.select_line_hint(board, a, b))))
    if not bad and not dups:
        print("all %d channels healthy" % len(rows))
        return 0
    print("%d of %d channels need attention" % (len(bad), len(rows)))
    return 1


# ------------------------------------------------------------------ zones

def zones(bl, args):
    board = need_board(bl)
    ids = [z["id"] for z in board["zones"]]
    if args.zones:
        try:
            want = [int(x) for x in args.zones.split(",") if x.strip()]
        except ValueError:
            raise UserError("--zones: expected zone numbers separated by commas, got %r" % args.zones)
        for z in want:
            if z not in ids:
                raise UserError("--zones: no zone %d on board %s (zones %d..%d)" % (z, board["name"], ids[0], ids[-1]))
        ids = want
    err = sys.stderr
    playing = bool(bl.state().get("configured"))
    if not playing:
        err.write("note: no game on the board, so it reports no landings; judging the sensors only "
                  "(start a game with `bakumat game new` to check the landings too)\n")
    err.write("Walk the zones: keep the mat empty for a moment...\n")
    base_frames = listen(bl, 1.5, "Measuring the empty mat")
    st = diagnose.channel_stats(base_frames)
    base = [s["mean"] for s in st]
    noise = [s["noise"] for s in st]
    results = []
    walks = []
    lit = {}
    with RawStream(bl) as rs:
        for z in ids:
            w = diagnose.WalkZone(board, z, base, noise)
            err.write("\nZone %d: put a gate card on zone %d and stand a Bakugan on it (open), then take it off.\n"
                      % (z, z))
            landed = []
            deadline = time.monotonic() + args.timeout
            told = False
            while not w.removed and time.monotonic() < deadline:
                for _, v in rs.read(0.1):
                    w.feed(v)
                for _, typ, body in rs.other:
                    if typ == "mat" and body.get("ev") == "land":
                        landed.append(body.get("zone"))
                rs.other = []
                if w.placed and not told:
                    told = True
                    err.write("  zone %d sees it; now take it off\n" % z)
            c, d = w.strongest()
            res = {"zone": z, "seen": w.placed, "cleared": w.removed, "strongest": c, "peak": d,
                   "silent": w.silent(), "reported": sorted(set(landed)),
                   "others": sorted(w.other_peak), "playing": playing}
            res["ok"] = bool(w.placed and w.removed and not w.silent()
                             and (not playing or (z in landed and all(x == z for x in landed))))
            results.append(res)
            walks.append(w)
            lit[z] = "OK" if res["ok"] else "FAIL"
            err.write("  %s\n" % _zone_text(res))
    rev = diagnose.reversed_channels(walks)
    if args.json:
        print(json.dumps({"zones": results, "reversed": rev}, sort_keys=True))
    else:
        print(termmat.draw(board, None, lit))
        for r in results:
            print(_zone_text(r))
        for c in rev:
            print("channel %d: %s" % (c, diagnose.HEALTH_TEXT["reversed"]))
    return 0 if all(r["ok"] for r in results) and not rev else 1


def _zone_text(r):
    if not r["seen"]:
        return "zone %d: nothing seen (no sensor of the zone moved)" % r["zone"]
    parts = ["zone %d: strongest channel %s (%+d counts)" % (r["zone"], r["strongest"], int(r["peak"]))]
    if r["silent"]:
        parts.append("silent channels %s" % ", ".join(str(c) for c in r["silent"]))
    if not r["playing"]:
        pass
    elif not r["reported"]:
        parts.append("the board reported no landing")
    elif r["reported"] != [r["zone"]]:
        parts.append("the board reported a landing on zone(s) %s" % ", ".join(str(x) for x in r["reported"]))
    if not r["cleared"]:
        parts.append("not taken off in time")
    parts.append("OK" if r["ok"] else "FAIL")
    return "; ".join(parts)


# ------------------------------------------------------------------ outputs

def output_test(bl, what):
    body = {"leds": {"what": "leds"}, "buzzer": {"what": "buzzer"}}[what]
    _, r = bl.request("test", body, timeout=30.0)
    print("%s test %s%s" % (what, "done" if r.get("ok", True) else "failed",
                            (": " + str(r.get("why"))) if r.get("why") else ""))
    # what the firmware drove (newer firmware says), then what a person checks
    if what == "leds" and r.get("leds"):
        print("the firmware drove %d LEDs: each one alone red, then green, then blue, in chain order, then all "
              "white at level %s of 255 (%d strip writes)" % (r["leds"], r.get("level"), r.get("writes") or 0))
    elif what == "buzzer" and r.get("notes"):
        notes = r["notes"]
        print("the firmware played %d notes: %s" % (len(notes) // 2, ", ".join(
            "%d Hz %d ms" % (notes[i], notes[i + 1]) for i in range(0, len(notes) - 1, 2))))
    if r.get("ok", True):
        print({"leds": "Check on the mat: every LED lit in each colour, none dark, none in a wrong colour.",
               "buzzer": "Check at the mat: a short clean rising tune, no crackle."}[what])
    return 0 if r.get("ok", True) else 1


# ------------------------------------------------------------------ buttons

def buttons(bl, args, clock=time.monotonic):
    """The firmware reports every debounced press as `mat {"ev": "button",
    "name", "press": "short"|"long", "t"}` (serial-protocol-v1.md); listen
    for them and list them."""
    if args.seconds <= 0:
        raise UserError("--seconds must be > 0, got %s" % args.seconds)
    if args.presses is not None and args.presses < 1:
        raise UserError("--presses must be at least 1, got %d" % args.presses)
    wired = ((bl.board or {}).get("wiring") or {}).get("buttons") or []
    known = [b["name"] for b in wired]
    meaning = {}
    for b in wired:
        meaning[b["name"]] = "player %d %s" % (b.get("player", 0) + 1, (b.get("role") or "?").upper())
    if not args.json:
        print("press each button (%s); listening for %g s%s" % (
            ", ".join(known) or "the board definition lists none", args.seconds,
            "" if args.presses is None else " or %d presses" % args.presses))
    counts = {}
    n = 0
    deadline = clock() + args.seconds
    while clock() < deadline and (args.presses is None or n < args.presses):
        for _, typ, body in bl.frames(timeout=0.05):
            if typ != "mat" or not isinstance(body, dict) or body.get("ev") != "button":
                continue
            name = str(body.get("name"))
            press = str(body.get("press"))
            n += 1
            c = counts.setdefault(name, {"short": 0, "long": 0})
            c[press] = c.get(press, 0) + 1
            if args.json:
                print(json.dumps({"name": name, "press": press, "t": body.get("t")}, sort_keys=True))
            else:
                print("%-8s %-5s  %s" % (name, press, meaning.get(name, "not in the board definition")))
            sys.stdout.flush()
            if args.presses is not None and n >= args.presses:
                break
    silent = [k for k in known if k not in counts]
    if args.json:
        print(json.dumps({"presses": n, "buttons": counts, "silent": silent}, sort_keys=True))
    else:
        print("%d press%s: %s" % (n, "" if n == 1 else "es", ", ".join(
            "%s %d short %d long" % (k, counts[k]["short"], counts[k]["long"]) for k in sorted(counts)) or "none"))
        if silent:
            print("never pressed: %s" % ", ".join(silent))
    if args.presses is not None and n < args.presses:
        print("only %d of %d presses within %g s" % (n, args.presses, args.seconds), file=sys.stderr)
        return 1
    return 0


def run(args):
    with boardlink.connect(args.port, args.board) as bl:
        if args.action == "buttons":
            return buttons(bl, args)
        if args.action == "info":
            return info(bl, args.json)
        if args.action == "channels":
            return channels(bl, args)
        if args.action == "zones":
            return zones(bl, args)
        if args.action == "plate":
            return plate(bl, args)
        return output_test(bl, args.action)


# ----------------------------------------------------------------- plate

def _wait_enter(what):
    sys.stderr.write(what + " Press Enter when it is done.\n")
    sys.stderr.flush()
    if not sys.stdin.readline():
        raise UserError("no answer on the input (diag plate asks you to press Enter at each step)")


def _medians(frames):
    """Each channel's median over the frames: a frame from before the step
    (the stream's first) or a spike does not move it."""
    cols = list(zip(*[v for _, v in frames]))
    return [sorted(c)[len(c) // 2] for c in cols]


def _zone_mT(board, chans, frames, base):
    s = board["sensor"]
    med = _medians(frames)
    return [(med[c["ch"]] - base[c["ch"]]) / s["counts_per_mT"] for c in chans]


def _not_clipped(board, a, frames, what):
    """Stop when a channel of the sensor under mark A reads the end of its
    range: its figure would be the range, not the Bakugan's field."""
    s = board["sensor"]
    med = _medians(frames)
    part = [c for c in board["sensors"] if (c["x"], c["y"]) == (a["x"], a["y"])]
    near = 4 * max(4, s["noise_counts_rms"])      # a clipped channel's median, its noise cut at the end
    clipped = [c["ch"] for c in part if med[c["ch"]] <= near or med[c["ch"]] >= s["max_counts"] - near]
    if clipped:
        full = max(s["zero_counts"], s["max_counts"] - s["zero_counts"]) / abs(s["counts_per_mT"])
        raise UserError("the sensor under mark A saturates with the Bakugan there on %s (channel%s %s at the end of "
                        "its +-%.1f mT range): diag plate cannot measure the card's share on board %s"
                        % (what, "s" if len(clipped) > 1 else "", ", ".join(map(str, clipped)), full, board["name"]))


def plate(bl, args):
    from host_tools.logs import platefit
    board = need_board(bl)
    zones_ = [z["id"] for z in board["zones"]]
    if args.zone not in zones_:
        raise UserError("--zone: no zone %d on board %s (zones %d..%d)" % (args.zone, board["name"], zones_[0], zones_[-1]))
    sens = platefit.bz_channels(board, args.zone)    # the Bz channels: the fit's readings
    cx, cy = boards.zone_center(board, args.zone)
    # mark A: straight over the zone's sensor nearest its centre; mark B: the centre
    a = min(sens, key=lambda c: (c["x"] - cx) ** 2 + (c["y"] - cy) ** 2)
    mark_a = (a["x"], a["y"])
    mark_b = (cx, cy)
    err = sys.stderr
    err.write("Measuring a gate card on zone %d. Mark two spots on it: A at (%+.0f, %+.0f) mm from the zone's centre "
              "(straight over channel %d), B at its centre. Use one Bakugan throughout, opened, standing upright.\n"
              % (args.zone, mark_a[0] - cx, mark_a[1] - cy, a["ch"]))
    _wait_enter("1/5: clear zone %d (nothing on it)." % args.zone)
    base = _medians(listen(bl, args.seconds, "Empty zone"))
    _wait_enter("2/5: lay a plain card with no steel (the same thickness as a gate card, e.g. card stock) on zone %d "
                "and stand the Bakugan on mark A." % args.zone)
    frames = listen(bl, args.seconds, "Plain card, mark A")
    _not_clipped(board, a, frames, "the plain card")
    bare = _zone_mT(board, sens, frames, base)
    _wait_enter("3/5: move the Bakugan to mark B (the card's centre).")
    bare_b = _zone_mT(board, sens, listen(bl, args.seconds, "Plain card, mark B"), base)
    _wait_enter("4/5: replace the plain card by a real gate card and stand the Bakugan on mark A again.")
    frames = listen(bl, args.seconds, "Gate card, mark A")
    _not_clipped(board, a, frames, "the gate card")
    card = _zone_mT(board, sens, frames, base)
    _wait_enter("5/5: move the Bakugan to mark B.")
    far = _zone_mT(board, sens, listen(bl, args.seconds, "Gate card, mark B"), base)
    if abs(bare[sens.index(a)]) * board["sensor"]["counts_per_mT"] < 10 * board["sensor"]["noise_counts_rms"]:
        raise UserError("channel %d hardly moved with the Bakugan on mark A (%.3f mT): was it standing straight over "
                        "the sensor, on a plain card?" % (a["ch"], bare[sens.index(a)]))
    r = platefit.analyse(board, args.zone, mark_a, mark_b, bare, bare_b, card, far)
    saved = False
    if not args.no_save:
        _, body = bl.request("cal", {"plate": r}, timeout=10.0)
        saved = bool(body.get("ok"))
        if not saved:
            err.write("warning: the board did not save the figures: %s\n" % body.get("why"))
    if args.json:
        print(json.dumps(dict(r, saved=saved), sort_keys=True))
    else:
        print(platefit.text(r))
        print("saved in the board's calibration" if saved else "not saved on the board")
    return 0
