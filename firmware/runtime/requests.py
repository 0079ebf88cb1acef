"""The link's requests (docs/formats/serial-protocol-v1.md): one handler
per request type, found in HANDLERS (as mpremote's command table).

    r = Requests(board, link, session, store, feedback, health)
    r.handle(seq, "ping", {})         # the loop, for each message it takes

A handler answers at once (`ack`, `err` or its own reply type), except
`test`, which answers when the self-test is over, and `raw`, `maint` and
`reset`, whose effect waits until the answer is out (after_reply()).
"""
import json
import sys

import referee
from referee import header as game_header
from version import FW as FW_VERSION

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

PROTO = const(1)
BAUDS = (115200, 230400, 460800, 921600)   # line speeds `raw` may switch to
CONTROLS = ("gate", "miss", "ability", "resolve", "choose", "register", "undo", "which")


def _mpy_version():
    impl = sys.implementation
    v = getattr(impl, "version", None)
    if v:
        return "%s %d.%d.%d" % (impl.name, v[0], v[1], v[2])
    return impl.name


class Requests:
    def __init__(self, board, link, session, store, feedback, board_health):
        self.board = board
        self.link = link
        self.session = session
        self.store = store
        self.feedback = feedback
        self.board_health = board_health
        self.stream_frames = False   # `raw` on: every scan goes to the host
        self.new_baud = 0            # a line speed `raw` asked for, set once its answer is out
        self.restart = None          # "maint" or "reset", done once its answer is out
        self.selftest = None         # the `test` running (runtime.selftest.SelfTest)

    def handle(self, seq, typ, body):
        self.board_health.worked()
        h = HANDLERS.get(typ)
        if h is None:
            return self.link.reply(seq, "err", {"code": "unknown", "msg": "unknown request type %r" % typ})
        h(self, seq, body)

    def after_reply(self):
        """What a request asked for once its answer is out: the line's new
        speed (the ack went at the old one), a restart."""
        if self.new_baud and not self.link.pending_tx():
            self.board.set_baud(self.new_baud)
            self.new_baud = 0
        if self.restart is not None:
            self.link.drain_all()
            if self.restart == "maint":
                self.store.set_maint(True)
            self.board.reset()

    def selftest_step(self, now):
        if not self.selftest.step(now):
            self.selftest = None

    # ----------------------------------------------------------- handlers
    def ping(self, seq, body):
        self.link.reply(seq, "pong", {"t": self.board.clock.ticks_ms(), "boot": self.link.boot})

    def version(self, seq, body):
        self.link.reply(seq, "version", {"fw": FW_VERSION, "proto": PROTO, "board": self.session.bd.get("name"),
                                         "mpy": _mpy_version()})

    def health(self, seq, body):
        self.link.reply(seq, "health", self.board_health.report(self.store.saves, self.session.events))

    def wifi(self, seq, body):
        self.link.reply(seq, "ack", self._wifi())

    def header(self, seq, body):
        # the game's header (players, decks): what a live view names and draws
        s = self.session
        self.link.reply(seq, "ack", {"ok": True, "header": s.header if s.game is not None else None})

    def state(self, seq, body):
        s = self.session
        now = self.board.clock.ticks_ms()
        self.link.reply(seq, "state", {"configured": s.game is not None, "events": s.events, "now": now,
                                       "t": s.gtime(now) if s.game else 0,
                                       "view": s.game.view() if s.game is not None else None,
                                       "asking": s.table.asking_json() if s.table is not None and
                                       s.game is not None else None,
                                       "taught": s.taught() if s.game is not None else None,
                                       "names": [p["name"] for p in s.header["players"]]
                                       if s.game is not None else None})

    def cfg(self, seq, body):
        link = self.link
        if type(body) is not dict:
            return link.reply(seq, "err", {"code": "bad", "msg": "cfg: the body must be an event-log header object"})
        # checked before the running game is touched: a refused
        # configuration leaves it playing
        try:
            cls = referee.load(body.get("mode"))
            game_header.check(body, cls.MIN_PLAYERS, cls.MAX_PLAYERS)
        except referee.SetupError as e:
            return link.reply(seq, "err", {"code": "setup", "msg": str(e)})
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            return link.reply(seq, "err", {"code": "setup", "msg": "bad header: %s" % e})
        err = None
        try:
            self.session.new_game(body)
        except referee.SetupError as e:
            err = {"code": "setup", "msg": str(e)}
        except (KeyError, TypeError, ValueError) as e:
            err = {"code": "setup", "msg": "bad header: %s" % e}
        except OSError as e:
            self.board_health.save_failed()
            err = {"code": "store", "msg": "game not saved: %s" % e}
        except MemoryError:
            err = {"code": "memory", "msg": "not enough memory for this game"}
        if err is not None:
            # the mode's own deeper checks failed once the old game was
            # freed (a board has room for one): it comes back from the
            # store, where it is unchanged
            self.session.restore()
            return link.reply(seq, "err", err)
        link.reply(seq, "ack", {"ok": True})

    def ctl(self, seq, body):
        link = self.link
        s = self.session
        ev = body.get("ev") if type(body) is dict else None
        # the common controls, plus whatever control events the mode in
        # play accepts (reveal, trap, pick, item...); never a landing
        known = ev in CONTROLS or (s.game is not None and ev != "land" and ev in s.game.INPUTS)
        if not known:
            allowed = list(CONTROLS)
            if s.game is not None:
                allowed += [k for k in s.game.INPUTS if k != "land" and k not in CONTROLS]
            return link.reply(seq, "err", {"code": "bad", "msg": "ctl: ev must be one of %s" % ", ".join(allowed)})
        if s.game is None:
            return link.reply(seq, "err", {"code": "nogame", "msg": "no game: send cfg first"})
        if s.control(body):
            link.reply(seq, "ack", {"ok": True})
        else:
            link.reply(seq, "ack", {"ok": False, "why": s.last_reject or "rejected"})

    def end(self, seq, body):
        s = self.session
        if s.game is None:
            return self.link.reply(seq, "err", {"code": "nogame", "msg": "no game: send cfg first"})
        if not s.end():
            return self.link.reply(seq, "ack", {"ok": False, "why": s.last_reject or "the game is over"})
        self.link.reply(seq, "ack", {"ok": True})

    def raw(self, seq, body):
        link = self.link
        if type(body) is not dict or type(body.get("on")) is not bool:
            return link.reply(seq, "err", {"code": "bad", "msg": "raw: body must be {\"on\": true|false}"})
        baud = body.get("baud")
        if baud is not None and baud not in BAUDS:
            return link.reply(seq, "err", {"code": "bad", "msg": "raw: baud must be one of %s" %
                                           ", ".join([str(b) for b in BAUDS])})
        self.stream_frames = body["on"]
        r = {"ok": True}
        if baud is not None and self.board.can_set_baud():
            r["baud"] = baud             # the host follows once it has this ack
            self.new_baud = baud
        match = self.session.match
        if self.stream_frames and match is not None:
            # what the next scan, the first one streamed, is measured
            # against: a replay of the recording resumes from it
            b = match.pipeline.baselines()
            if b is not None:
                r["frames"] = b[0]
                r["base"] = b[1]
            # ... and the Bakugan it knows by their magnet (lessons taught before)
            r["sigs"] = match.pipeline.signatures()
            # ... and the world of the kernel table its fit uses (a replay fits the same)
            kw = match.pipeline.kernel_world()
            if kw is not None:
                r["kernels"] = kw
        link.reply(seq, "ack", r)

    def cal(self, seq, body):
        # `cal {"plate": {...}}` keeps what `bakumat diag plate` measured of
        # the real gate cards beside the zeros; a plain `cal` keeps it too
        link = self.link
        old = self.store.load_calibration() or {}
        if type(body) is dict and "plate" in body:
            old["plate"] = body["plate"]
            if self._save_calibration(seq, old):
                link.reply(seq, "ack", {"ok": True})
            return
        frame = self.board.scanner.frame
        zero = list(frame)
        cal = {"zero": zero}
        if "plate" in old:
            cal["plate"] = old["plate"]
        if not self._save_calibration(seq, cal):
            return
        if self.session.match is not None:
            self.session.match.pipeline.start(zero)
        link.reply(seq, "ack", {"ok": True, "channels": len(zero)})

    def _save_calibration(self, seq, cal):
        """Store cal; a failed save is answered (and counted) here."""
        try:
            self.store.save_calibration(cal)
        except OSError as e:
            self.board_health.save_failed()
            self.link.reply(seq, "ack", {"ok": False, "why": "not saved: %s" % e})
            return False
        return True

    def test(self, seq, body):
        what = body.get("what") if type(body) is dict else None
        if what not in ("leds", "buzzer"):
            return self.link.reply(seq, "err", {"code": "bad", "msg": "test: what must be leds or buzzer"})
        from runtime.selftest import SelfTest
        self.selftest = SelfTest(what, seq, self.board, self.feedback, self.link)

    def maint(self, seq, body):
        if type(body) is not dict or body.get("on") is not True:
            return self.link.reply(seq, "err", {"code": "bad", "msg": "maint: body must be {\"on\": true} "
                                                "(leave with maint.leave() at the REPL)"})
        self.link.reply(seq, "ack", {"ok": True, "msg": "rebooting into maintenance mode"})
        self.restart = "maint"

    def reset(self, seq, body):
        self.link.reply(seq, "ack", {"ok": True})
        self.restart = "reset"

    def _wifi(self):
        """The Wi-Fi setting (wifi.json, docs/formats/wifi-v1.md) as read now,
        the password never sent, nor anything about it but whether one is
        set. Read-only, no restart."""
        try:
            with open(self.store.path("wifi.json")) as f:
                text = f.read()
        except OSError:
            return {"ok": True, "present": False}
        try:
            cfg = json.loads(text)
        except ValueError:
            return {"ok": True, "present": True, "valid": False}
        if type(cfg) is not dict:
            return {"ok": True, "present": True, "valid": False}
        key = cfg.get("key") or ""
        return {"ok": True, "present": True, "valid": True, "version": cfg.get("version"), "mode": cfg.get("mode"),
                "ssid": cfg.get("ssid"), "key_set": bool(key), "open": cfg.get("open") is True}


# request type -> handler(requests, seq, body): each handler is named for its request
HANDLERS = {
    "ping": Requests.ping,
    "version": Requests.version,
    "health": Requests.health,
    "wifi": Requests.wifi,
    "header": Requests.header,
    "state": Requests.state,
    "cfg": Requests.cfg,
    "ctl": Requests.ctl,
    "end": Requests.end,
    "raw": Requests.raw,
    "cal": Requests.cal,
    "test": Requests.test,
    "maint": Requests.maint,
    "reset": Requests.reset,
}
