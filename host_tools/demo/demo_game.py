"""The live demo: a simulated game on the mat, refereed by the firmware.

    run_demo(mode, seed, speed, players, view, out)

Two players (random, or a person for player 1 with players="human") throw
Bakugan; the magnetic simulator (host_tools/sim) turns every throw, roll and
lift into ADC frames; the firmware's sensing pipeline and referee
(firmware/match.py, here under CPython) decide from those frames alone what
happened, and the game is shown as it goes: the referee's transcript and the
mat (host_tools/logs/termmat.py) after every capture in the terminal, and the mat page in the browser with view=True
(bakumat view's server, firmware/web/).

The simulated players follow a scenario made by host_tools/sim/game.py with
its own referee as the oracle; the firmware's referee only sees the sensor
frames and the control events (gate placed, ability, resolve, choice, miss),
exactly as on a real mat. If the sensing gets something wrong, the demo shows
it: that is the point.
"""
import queue
import random
import sys
import threading
import time

from host_tools import boards, fwpath
from host_tools.errors import UserError

# The board the demo plays on unless told otherwise: the reference board,
# simulated in its mat's nominal world with the kernel fit.
DEMO_BOARD = boards.REFERENCE
PLAYERS = ("random", "human")
DEMO_MODES = ("official", "big", "multi")  # modes the simulated players know how to play
FIRMWARES = ("micropython", "cpython")
HUMAN = 0  # the person plays the first player in the header (top of the mat)
EOF = object()  # in the answers queue: the terminal's input ended


# ------------------------------------------------------------------ the mat

class _Mat:
    """What both mats share: the events they sensed, collected under their
    lock for the terminal and the page."""

    def take_sensed(self):
        with self.lock:
            s = self.sensed
            self.sensed = []
            return s


class FirmwareMat(_Mat):
    """Sensing pipeline + referee on CPython (firmware/match.py), with the
    firmware's LED feedback, published as web API states."""

    def __init__(self, board, header):
        fwpath.ensure()
        from match import Match
        from host_tools.webview.state import Tracker
        self.board = board
        self.tracker = Tracker(board, header)
        self.lock = threading.Lock()
        self.sensed = []
        # the tracker's referee is behind a journal, as on the board: `undo` takes back the last event
        self.match = Match(board, self.tracker.game, self._sensed)
        self.t = 0

    def _sensed(self, ev):
        self.sensed.append(ev)
        self.tracker.mark_input_zone(ev.get("zone"))

    def frame(self, t, values):
        with self.lock:
            self.t = t
            self.tracker.tick(t)
            self.match.frame(values, t)
            if self.sensed:
                self.tracker.after()

    def control(self, ev):
        with self.lock:
            self.tracker.tick(ev["t"])
            self.tracker.mark_input_zone(ev.get("zone"))
            ok = self.match.control(ev)
            self.tracker.after()
            return ok

    def finish(self):
        with self.lock:
            self.tracker.finish(self.t)

    @property
    def over(self):
        return self.tracker.game.view()["phase"] == "over"

    def view(self):
        return self.tracker.game.view()

    def current_view(self):
        with self.lock:
            return self.tracker.game.view()

    def events_after(self, seq):
        return [e for e in self.tracker.events if e[0] > seq]

    def run_span(self, frames, controls, start, end, pacer, term):
        play_span(frames, controls, start, end, self, pacer, term)

    def close(self):
        pass


class VBoardMat(_Mat):
    """The real firmware (firmware/app.py) under the micropython binary on
    the virtual board (host_tools/vboard/__init__.py, lockstep clock): it only gets
    the simulated sensor frames and the control events over the serial
    link, as a board on USB would. Its game frames, sensed events, view and
    LED strip are collected for the terminal and the page."""

    STEP_MS = 100

    def __init__(self, board, header):
        from host_tools.vboard import VBoard
        from host_tools.webview.livelink import Remote
        self.board = board
        self.lock = threading.Lock()
        self.tracker = Remote(header)  # what the page is served (web API states)
        self.sensed = []
        self.header = header
        self.start = None  # board time of game time 0, once the game is configured
        self.vb = VBoard(board, lockstep=True)
        self.vb.start()
        try:
            self.link = self.vb.link()
        except BaseException:
            self.vb.stop()
            raise

    def _configure(self, frames):
        """Start the game on the board with the simulated frames already
        showing: the pipeline takes its baselines from the first frames after
        `cfg`, so they must be the simulated mat's (its sensors' own offsets),
        not the virtual board's idle field."""
        from host_tools.vboard import Recorded
        self.start = self.vb.vnow
        self.vb.source = Recorded(frames, self.start, self.board)
        typ, body = self.vb.request(self.link, "cfg", self.header)
        if typ != "ack" or not body.get("ok", True):
            raise UserError("the virtual board refused the game: %s" % (body,))
        self._collect(force_state=True)

    @property
    def t(self):
        return 0 if self.start is None else self.vb.vnow - self.start

    def _collect(self, force_state=False):
        from host_tools.device.link import REPLIES
        self.link.pump(0)
        frames = [f for f in self.link.inbox if f[1] not in REPLIES]
        self.link.inbox.clear()  # the acks of the controls: nothing to do with them
        changed = force_state
        with self.lock:
            for _, typ, body in frames:
                if not isinstance(body, dict):
                    continue
                if typ == "game":
                    self.tracker.add_event(body)
                    changed = True
                elif typ in ("mat", "fault"):
                    self.sensed.append(body)
            if self.vb.leds:
                buf = self.vb.leds[-1][1]  # GRB, as the NeoPixel buffer
                self.tracker.leds = [[buf[i + 1], buf[i], buf[i + 2]] for i in range(0, len(buf) - 2, 3)]
            self.tracker.t = self.t
        if changed:
            _, st = self.vb.request(self.link, "state")
            with self.lock:
                if st.get("view") != self.tracker.view:
                    self.tracker.view = st.get("view")
                    self.tracker.seq += 1

    def run_span(self, frames, controls, start, end, pacer, term):
        """Let board time run over game times (start, end], showing `frames`
        and sending the controls of that span when their time comes."""
        from host_tools.vboard import Recorded
        vb = self.vb
        if self.start is None:
            self._configure(frames)
        vb.source = Recorded(frames, self.start, self.board)
        pending = [dict(c) for c in controls if start < c["t"] <= end]
        link = self.link
        base = self.start

        def advance(T):
            # side-channel thread, before board time moves to T
            while pending and base + pending[0]["t"] <= T:
                body = pending.pop(0)
                body.pop("t", None)
                vb.send(link, "ctl", body)
        vb.on_advance = advance
        try:
            while self.t < end and not pacer.stop.is_set() and not self.over:
                nxt = min(end, self.t + self.STEP_MS)
                if not pacer.wait(nxt):
                    break
                vb.run_for(max(1, nxt - self.t), link)
                self._collect()
                term.update()
        finally:
            vb.on_advance = None
        self._collect()
        term.update()

    def control(self, ev):
        typ, body = self.vb.request(self.link, "ctl", dict((k, v) for k, v in ev.items() if k != "t"))
        self._collect()
        return body.get("ok", False)

    def finish(self):
        self.vb.request(self.link, "end", {})
        self._collect(force_state=True)

    @property
    def over(self):
        v = self.tracker.view
        return bool(v) and v.get("phase") == "over"

    def view(self):
        return self.tracker.view

    def current_view(self):
        """The referee's view as the board has it now (asked over the link)."""
        if self.start is None:
            return None
        _, st = self.vb.request(self.link, "state")
        return st.get("view")

    def events_after(self, seq):
        return [e for e in self.tracker.events if e[0] > seq]

    def close(self):
        try:
            self.link.close()
        finally:
            self.vb.stop()


# ------------------------------------------------------------------ terminal

def score_line(view, header):
    names = [p["name"] for p in header["players"]]
    caps = view["captured"]
    return "   score: " + ", ".join("%s %d/%s" % (names[i], len(caps[i]), header.get("target", 3))
                                   for i in range(len(names)))


class Terminal:
    def __init__(self, out, board, header, mat):
        self.out = out
        self.board = board
        self.header = header
        self.mat = mat
        self.seen = 0

    def write(self, text):
        try:
            self.out.write(text + "\n")
            self.out.flush()
        except (BrokenPipeError, ValueError):
            pass

    def update(self):
        """Print what happened since the last call."""
        for ev in self.mat.take_sensed():
            if ev["ev"] == "land" and not ev.get("learned"):
                self.write("       sensors: %s opened on zone %s" % (ev.get("bakugan") or "an unknown Bakugan",
                                                                          ev["zone"]))
            elif ev["ev"] == "land":
                self.write("       sensors: learnt %s on zone %s" % (ev["bakugan"], ev["zone"]))
            elif ev["ev"] == "fault":
                self.write("       sensors: FAULT on channel %s (%s)" % (ev["ch"], ev["kind"]))
        with self.mat.lock:
            new = self.mat.events_after(self.seen)
            if new:
                self.seen = new[-1][0]
            view = self.mat.view() if new else None
        show_mat = False
        for _, e in new:
            self.write(e.get("text") or e["ev"])
            if e["ev"] in ("capture", "win", "stalemate"):
                show_mat = True
        if show_mat:
            from host_tools.logs import termmat
            self.write(termmat.draw(self.board, view, names=[p["name"] for p in self.header["players"]]))
            self.write(score_line(view, self.header))


# ------------------------------------------------------------------ pacing

class Pacer:
    """Game time -> wall time at `speed` (0: as fast as possible)."""

    def __init__(self, speed, stop):
        self.speed = speed
        self.stop = stop
        self.anchor(0)

    def anchor(self, t):
        self.t0 = t
        self.w0 = time.monotonic()

    def wait(self, t):
        if self.speed <= 0:
            return not self.stop.is_set()
        due = self.w0 + (t - self.t0) / 1000.0 / self.speed
        while True:
            left = due - time.monotonic()
            if left <= 0 or self.stop.is_set():
                return not self.stop.is_set()
            self.stop.wait(min(left, 0.2))


def play_span(frames, controls, start, end, mat, pacer, term, fi=0, ci=0):
    """Feed frames and control events with start < t <= end (controls before
    the frames of their millisecond). Returns (fi, ci) to continue from."""
    while fi < len(frames) and frames[fi][0] <= start:
        fi += 1
    while ci < len(controls) and controls[ci]["t"] <= start:
        ci += 1
    while fi < len(frames) and frames[fi][0] <= end:
        t, v = frames[fi]
        while ci < len(controls) and controls[ci]["t"] <= t:
            ev = dict(controls[ci])
            ci += 1
            mat.control(ev)
        if not pacer.wait(t):
            break
        mat.frame(t, v)
        fi += 1
        term.update()
        if mat.over:
            return fi, ci
    if not pacer.stop.is_set():
        # controls after the last frame of the span (the next span starts after `end`)
        while ci < len(controls) and controls[ci]["t"] <= end:
            mat.control(dict(controls[ci]))
            ci += 1
        term.update()
    return fi, ci


# ------------------------------------------------------------------ players

def make_header(mode, rng):
    from host_tools.gen import gamegen
    if mode == "official":
        return gamegen.random_header(rng)
    from host_tools.gen import gamegen_official
    if mode not in DEMO_MODES:
        from host_tools import modes
        modes.check(mode)
        raise UserError("the live demo simulates %s games; mode %r is refereed but not simulated yet: play its "
                        "sample game with `bakumat demo --sample --mode %s`" % (", ".join(DEMO_MODES), mode, mode))
    return gamegen_official.random_header(rng, mode)


def _human_generator(rng, board, header, opts, ask, tell):
    """sim.game's generator with player HUMAN's side played by a person:
    which gate card goes where, which Bakugan is thrown where (or a miss),
    which abilities are played in a battle. ask(gen, prompt, bid) -> a zone
    id, None (a miss) or a line of text; tell(text) prints."""
    from host_tools.sim import game as sgame
    from host_tools.words import Words
    words = Words(header)

    own_gates = [x["id"] for x in header["players"][HUMAN].get("gates") or ()]

    def card_of(text, deck, left):
        """A card typed by its number (the N of "Dan's gate N", as every
        output names it) or its id; None when it names none of `left`."""
        if text.isdigit() and 1 <= int(text) <= len(deck):
            text = deck[int(text) - 1]
        return text if text in left else None

    def help_text(gen, bid=None, battle=False):
        g = gen.g
        lines = []
        if battle:
            cards = [c for c in g.abil_ids[HUMAN] if c not in g.used_abil[HUMAN]]
            lines.append("  ability N      play ability card N: %s" % (", ".join(
                words.card(c) for c in cards) or "none left"))
            lines.append("  ok             the battle is over (the mat works out the winner)")
        else:
            hand = g.gates_in_hand(HUMAN)
            if bid is not None:
                _, cands = g.expects()
                lines.append("  ZONE           throw %s at that zone (gate cards lie on %s)"
                             % (bid, ", ".join(str(z) for z in sorted(gen.cards)) or "no zone"))
                lines.append("  BAKUGAN ZONE   throw another of yours: %s" % ", ".join(cands))
                lines.append("  m              a miss (the ball flies off the mat)")
            if hand and (bid is None or (g.placed == 0 and g.phase == 1)):
                bonus = dict((x["id"], x.get("bonus") or {}) for x in header["players"][HUMAN].get("gates") or ())
                lines.append("  gate N ZONE    put gate card N down: %s" % ", ".join(
                    "%s (%s)" % (words.gate(x), ", ".join("%s %+d" % kv for kv in sorted(bonus.get(x, {}).items()))
                                 or "no bonus") for x in hand))
        lines.append("  help           this list")
        return "\n".join(lines)

    class Gen(sgame.GameGen):
        def _gate(self, text):
            """`gate CARD ZONE` / `CARD ZONE` / `ZONE`: place a gate card; True when placed."""
            parts = text.replace("gate", " ", 1).split() if text.startswith("gate") else text.split()
            hand = self.g.gates_in_hand(HUMAN)
            if not hand:
                tell("no gate card left in your hand")
                return False
            gid = hand[0]
            if len(parts) == 2:
                gid = card_of(parts[0], own_gates, hand)
            if not parts or not parts[-1].isdigit() or gid not in hand:
                tell("not understood: gate N ZONE, N one of your gate cards in hand: %s"
                     % ", ".join(words.gate(x) for x in hand))
                return False
            z = int(parts[-1])
            if z in self.cards or z not in self.grid:
                tell("zone %s: not a free zone of this mat" % z)
                return False
            # after what the mat has already shown (the person answers now)
            self.t += int(self.rng.uniform(600, 1200))
            ok = self.control({"ev": "gate", "player": HUMAN, "gate": gid, "zone": z}, card=True)
            if ok:
                self.cards.add(z)
                tell("you put %s on zone %d" % (words.gate(gid), z))
            return ok

        def place_gate(self, p):
            if p != HUMAN:
                return sgame.GameGen.place_gate(self, p)
            while True:
                a = ask(self, "place a gate card: type ZONE (your first card) or N ZONE (gate card N); help lists them",
                        None)
                if a is None or a is EOF:
                    return sgame.GameGen.place_gate(self, p)   # no answer: the first card, where the mat suggests
                if a == "help":
                    tell(help_text(self))
                    continue
                if self._gate(str(a)):
                    return True

        def control(self, ev, card=False):
            g = self.g
            if ev["ev"] == "ability" and ev.get("player") == HUMAN:
                return True         # the person plays their own abilities (below)
            if ev["ev"] == "resolve" and g.battle is not None and \
                    HUMAN in (g.bak_owner.get(g.battle[1]), g.bak_owner.get(g.battle[2])):
                self._abilities()
            return sgame.GameGen.control(self, ev, card)

        def _abilities(self):
            g = self.g
            while True:
                a = ask(self, "battle on zone %s: ability N to play card N, ok when the battle is over; help"
                        % g.battle[0], None)
                if a is None or a is EOF or a in ("ok", "o", ""):
                    return
                if a == "help":
                    tell(help_text(self, battle=True))
                    continue
                left = [c for c in g.abil_ids[HUMAN] if c not in g.used_abil[HUMAN]]
                card = card_of(str(a).split()[-1], g.abil_ids[HUMAN], left)
                if card not in left:
                    tell("not understood: %r; your ability cards left: %s (ok: the battle is over)"
                         % (str(a), ", ".join(words.card(c) for c in left) or "none"))
                    continue
                self.t += int(self.rng.uniform(500, 1000))
                if sgame.GameGen.control(self, {"ev": "ability", "player": HUMAN, "card": card}):
                    tell("you play %s" % words.card(card))
                else:
                    tell("%s cannot be played now" % card)

        def throw(self, p, bid):
            if p != HUMAN:
                return sgame.GameGen.throw(self, p, bid)
            while True:
                z = ask(self, None, bid)
                if z in ("m", "miss"):
                    z = None
                if z == "help":
                    tell(help_text(self, bid))
                    continue
                if isinstance(z, str):
                    w = z.split()
                    if w and w[0] == "gate" or (len(w) == 2 and w[0] in self.g.gates_in_hand(HUMAN)):
                        self._gate(z)
                        continue
                    _, cands = self.g.expects()
                    if len(w) == 2 and w[0] in cands and w[1].isdigit():
                        bid, z = w[0], int(w[1])
                    else:
                        tell("not understood: %r (help lists what you can type)" % z)
                        continue
                break
            if z is not None and z not in self.cards:
                tell("no gate card on zone %d: %s rolls on and off the mat (a Bakugan opens only on a card)"
                     % (z, bid))
            if z is None or z not in self.cards:
                zones = [z] if z is not None else self.miss_path(p)
                self.act("roll", bakugan=bid, zones=zones, off=True, speed=None)
                self.t += int(self.rng.uniform(1500, 2500))
                self.control({"ev": "miss", "bakugan": bid})
                return
            t_open = self.t + int(self.rng.uniform(700, 1200))
            self.act("throw", t=t_open, bakugan=bid, zone=z, pos=self.pos(), tilt=None, side=p, speed=None)
            self.t = t_open
            self.feed_land(bid, z, t_open)
            self.phys[bid] = z

    return Gen(rng, board, header, opts)


# ------------------------------------------------------------------ driver

def run_demo(mode="official", seed=None, speed=3.0, players="random", view=False, out=None,
             board_name=None, port=0, open_browser=True, answers=None, linger=True, stop=None, on_url=None,
             firmware="micropython", world=None):
    """Play one simulated game live; returns the exit status (0: the game
    was played, whoever won; the terminal says who).

    view: also serve the page (bakumat view's server) and open a browser.
    answers: a queue.Queue of human throws (zone id, or None for a miss);
    by default they come from stdin and from clicks on the page.
    linger: with view, keep serving after the game until Ctrl-C.
    stop: a threading.Event that ends the game early.
    on_url: called with the page's address once it is served.
    firmware: "micropython" (the firmware app on the virtual board, the
    real interpreter) or "cpython" (the same sensing and referee modules
    imported here: quicker to start, for tests).
    board_name: the board folder (None: DEMO_BOARD).
    world: the simulated physics (host_tools/sim/worlds.py; None: the
    board's nominal world, else the default)."""
    out = out or sys.stdout
    if players not in PLAYERS:
        raise UserError("--players: expected one of %s, got %r" % (", ".join(PLAYERS), players))
    if speed < 0:
        raise UserError("--speed must be >= 0 (0: as fast as possible), got %s" % speed)
    if seed is None:
        seed = random.randrange(1, 100000)
    board = demo_board(board_name, world)
    rng = random.Random("demo:%s:%s" % (mode, seed))
    header = make_header(mode, rng)
    if firmware not in FIRMWARES:
        raise UserError("firmware: expected one of %s, got %r" % (", ".join(FIRMWARES), firmware))
    stop = stop or threading.Event()
    mat = VBoardMat(board, header) if firmware == "micropython" else FirmwareMat(board, header)
    try:
        return _run(mat, board, header, mode, seed, speed, players, view, out, port, open_browser, answers,
                    linger, stop, on_url, firmware)
    finally:
        mat.close()


def demo_board(board_name=None, world=None):
    """The board definition the demo plays: board_name (default DEMO_BOARD)
    in `world` (default: its mat's nominal world), with the kernel table
    of that world (host_tools/boards/kernels.py), as `bakumat bench
    sensing` senses."""
    from host_tools.boards import kernels
    from host_tools.sim import worlds
    board = boards.load(board_name or DEMO_BOARD)
    try:
        if world:
            worlds.offered(world)           # a retired world stops here, in one line
        name, _why = worlds.choose(world, board, None)
        board = worlds.with_world(board, name)
    except worlds.WorldError as e:
        raise UserError("--world: %s" % e)
    return kernels.for_board(board, name)


def _run(mat, board, header, mode, seed, speed, players, view, out, port, open_browser, answers, linger, stop,
         on_url, firmware):
    from host_tools.webview import state as wstate
    term = Terminal(out, board, header, mat)
    names = [p["name"] for p in header["players"]]
    term.write("BakuMat demo: %s game on board %s (mat %s, world %s), seed %s, speed %gx, firmware under %s%s" % (
        header.get("mode", "official"), board["name"], board.get("mat", board["name"]), board.get("world"), seed, speed,
        "the micropython binary (virtual board)" if firmware == "micropython" else "CPython",
        "" if players == "random" else "; you are %s" % names[HUMAN]))
    for i, p in enumerate(header["players"]):
        term.write("  %s: %s" % (p["name"], ", ".join("%s (%s, %d G)" % (b["id"], b["attr"], b["g"])
                                                      for b in p["bakugan"])))
    srv = None
    if players == "human" and answers is None:
        answers = queue.Queue()
        _stdin_answers(answers, board, out)
    waiting = {"bid": None, "src": None}

    if view:
        from host_tools.webview import server

        def on_throw(body):
            if answers is None:
                raise server.ApiError(403, "no human player in this game")
            if not waiting.get("open"):
                return {"ok": False, "error": "not your turn to throw yet"}
            if body.get("miss"):
                if waiting["bid"] is None:
                    return {"ok": False, "error": "place a gate card first: click a free zone"}
                answers.put(None)
                return {"ok": "missed"}
            z = body.get("zone")
            if type(z) is not int or not any(zz["id"] == z for zz in board["zones"]):
                raise server.ApiError(400, "zone: expected a zone number of this board")
            answers.put(z)
            if waiting["bid"] is None:
                return {"ok": "gate card put on zone %d" % z}
            return {"ok": "%s thrown at zone %d" % (waiting["bid"], z)}

        src = server.LiveSource("demo: %s game, seed %s" % (header.get("mode", "official"), seed),
                                wstate.board_json(board), on_throw=on_throw if players == "human" else None)
        src.set_tracker(mat.tracker)
        src.lock = mat.lock
        waiting["src"] = src
        srv = server.start(src, port=port)
        term.write("the mat in your browser: %s" % srv.url)
        if on_url is not None:
            on_url(srv.url)
        if open_browser:
            from host_tools.webview.server import open_browser as ob
            ob(srv.url, out)

    pacer = Pacer(speed, stop)
    why = None  # why the game ends without the board's referee declaring it over
    try:
        if players == "random":
            why = _play_random(board, header, seed, mat, pacer, term, stop)
        else:
            _play_human(board, header, seed, mat, pacer, term, answers, waiting, stop)
        if stop.is_set() and not mat.over:
            why = why or "the demo was stopped"
        if not mat.over and not stop.is_set():
            why = why or "the players finished but the board's referee did not end the game"
            mat.finish()
            term.update()
    finally:
        if srv is not None:
            srv.source.running = False
    v = mat.view()
    if v["winner"] is not None:
        term.write("winner: %s, declared by the board's referee (seed %s)" % (names[v["winner"]], seed))
    elif why:
        term.write("no winner (seed %s): %s" % (seed, why))
    else:
        term.write("no winner (seed %s): the board's referee ended the game without one" % seed)
    if srv is not None:
        if linger and not stop.is_set():
            term.write("the page stays at %s  (Ctrl-C to stop)" % srv.url)
            try:
                while not stop.is_set():
                    stop.wait(0.5)
            except KeyboardInterrupt:
                pass
        srv.shutdown()
        srv.server_close()
    return 0


def _stdin_answers(answers, board, out):
    """Read throws typed in the terminal: a zone number, or m for a miss."""
    ids = set(z["id"] for z in board["zones"])

    def reader():
        try:
            for line in sys.stdin or ():
                s = line.strip().lower()
                if s in ("m", "miss"):
                    answers.put(None)
                elif s.isdigit() and int(s) in ids:
                    answers.put(int(s))
                elif s.isdigit():
                    out.write("no zone %s: the zones are %d..%d (help lists what you can type)\n"
                              % (s, min(ids), max(ids)))
                    out.flush()
                elif s:
                    answers.put(s)      # gate ..., BAKUGAN ZONE, ability ..., ok, help: the generator reads it
        except (OSError, ValueError):  # no readable stdin (closed, or captured by a test runner)
            pass
        answers.put(EOF)
    th = threading.Thread(target=reader, name="demo-stdin", daemon=True)
    th.start()


def _render_stable(board, sc, seed, header, until=0):
    """(frames, controls) of the scenario so far, the same frames for the
    times already played however the game grows (sim.run_stable)."""
    from host_tools import sim
    res = sim.run_stable(board, sc, seed, header, until=until)
    return res.frames, res.controls


def _play_random(board, header, seed, mat, pacer, term, stop):
    """Simulated players who watch the mat and correct it the table's way
    (host_tools/demo/demo_players.py), played up to the end of the game. Returns
    why the game stops short of the board's referee ending it, or None."""
    from host_tools.demo import demo_players
    from host_tools.sim import game as sgame
    rng = random.Random("game:%s" % (seed,))
    opts = dict(sgame.DEFAULTS)
    opts["max_throws"] = None  # play until someone wins
    pos = {"t": -1}

    def catch_up(gen):
        if stop.is_set():
            raise demo_players.GiveUp("the demo was stopped")
        # up to just before now: what the players do at gen.t comes after their look
        end = gen.t - 1
        if end <= pos["t"]:
            return
        frames, controls = _render_stable(board, gen.sc, seed, header, until=end)
        mat.run_span(frames, controls, pos["t"], end, pacer, term)
        pos["t"] = end

    def say(gen, text):
        term.update()
        term.write("%8.3fs  %s" % (gen.t / 1000.0, text))

    gen = demo_players.WatchingGen(rng, board, sgame.game_header(rng, header), opts, mat, catch_up, say)
    why = None
    try:
        gen.play()
    except demo_players.MatOver:
        pass
    except demo_players.GiveUp as e:
        why = "the players gave up: %s" % (e,)
    if stop.is_set():
        return "the demo was stopped"
    if not mat.over:
        frames, controls = _render_stable(board, gen.sc, seed, header)
        mat.run_span(frames, controls, pos["t"], frames[-1][0], pacer, term)
    rec = gen.g.view()
    if mat.over and (rec["phase"] != "over" or rec["winner"] != mat.view()["winner"]):
        names = [p["name"] for p in header["players"]]
        term.write("note: the board's referee ended the game; by the players' own record %s" % (
            "it was not over yet" if rec["phase"] != "over" else
            "the winner is %s" % (names[rec["winner"]] if rec["winner"] is not None else "nobody")))
    c = gen.corrections
    if any(c.values()):
        term.write("players' corrections: %d undo, %d Bakugan put down again, %d played instead of a misread one, "
                   "%d controls given again" % (c["undo"], c["replace"], c["swap"], c["again"]))
    if why is None and not mat.over and gen.stopped not in (None, "over"):
        why = {"guard": "the simulated players stopped after %d moves" % sgame.GUARD_STEPS,
               "stuck": "the simulated players had no Bakugan left to throw",
               "max_throws": "the simulated players reached their throw limit"}.get(gen.stopped, gen.stopped)
    return why


def _play_human(board, header, seed, mat, pacer, term, answers, waiting, stop):
    from host_tools.sim import game as sgame
    rng = random.Random("game:%s" % (seed,))
    opts = dict(sgame.DEFAULTS)
    opts["long_idle"] = 0.0
    pos = {"t": -1}

    def catch_up(gen):
        # render what the players did so far and play it up to now
        frames, controls = _render_stable(board, gen.sc, seed, header)
        mat.run_span(frames, controls, pos["t"], gen.t, pacer, term)
        pos["t"] = gen.t

    def ask(gen, prompt, bid):
        """What the person answers: a zone (typed or clicked on the page),
        None for a miss, or a line of text; None when no answer can come."""
        catch_up(gen)
        if stop.is_set():
            return None
        gate = prompt is not None and prompt.startswith("place a gate")
        if bid is None and not gate and waiting.get("closed"):
            return None     # no terminal: what only typing can answer (abilities) is left to the mat
        if prompt is None:
            click = " (or click it on the page)" if waiting["src"] is not None else ""
            prompt = ("your throw with %s: type a zone number%s, BAKUGAN ZONE for another, m for a miss, "
                      "help for everything you can do; gate cards lie on zones %s"
                      % (bid, click, ", ".join(str(z) for z in sorted(gen.cards)) or "none"))
        term.write(">>> " + prompt)
        waiting["bid"] = bid
        waiting["open"] = bid is not None or gate      # a click on the page answers these
        if waiting["src"] is not None:
            waiting["src"].extra = {"throw": bid} if bid is not None else \
                {"prompt": "place a gate card: click a free zone"} if gate else {}
        z = None
        while not stop.is_set():
            try:
                z = answers.get(timeout=0.2)
            except queue.Empty:
                continue
            if z is not EOF:
                break
            z = None
            waiting["closed"] = True
            if waiting["src"] is None:
                term.write("no more input (stdin closed): the demo stops")
                stop.set()
            elif not waiting["open"]:
                break
            else:
                term.write("(stdin closed: click the zone on the page)")
        waiting["bid"] = None
        waiting["open"] = False
        if waiting["src"] is not None:
            waiting["src"].extra = {}
        pacer.anchor(gen.t)
        return z

    gen = _human_generator(rng, board, header, opts, ask, term.write)
    gen.play()
    if stop.is_set():
        return
    frames, controls = _render_stable(board, gen.sc, seed, header)
    mat.run_span(frames, controls, pos["t"], frames[-1][0], pacer, term)
