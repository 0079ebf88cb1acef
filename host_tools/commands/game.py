"""bakumat game new|load|status|input|end: the game on the board.

  new     start a game: players and decks from --deck files (one JSON object
          per player: name, bakugan, gates, abilities, as in the event-log
          header), or the bundled sample decks; --mode, --first, --target
  load    start the game described by FILE: a header JSON, an event log or a
          raw log (their first line)
  status  the board's view of the game: the mat, turn, captures (--json)
  input   send one control event (gate, miss, ability, resolve, choose,
          register) as JSON, e.g. '{"ev":"resolve"}'
  end     end the game now (the board resolves what is pending)

The header is checked here with the referee's own code before it is sent,
so a bad deck is reported with the field that is wrong."""
import json
import os
import sys

from host_tools import boardlink, fwpath, termmat
from host_tools.errors import UserError

SAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples")


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    n = sub.add_parser("new", help="start a game with decks and a mode")
    n.add_argument("--deck", action="append", default=[], metavar="FILE",
                   help="a player's deck (JSON: name, bakugan, gates, abilities); once per player, in seat order")
    n.add_argument("--mode", default="official", help="game mode (default official)")
    n.add_argument("--first", type=int, help="index of the player who throws first")
    n.add_argument("--target", type=int, help="gates to capture to win")
    ld = sub.add_parser("load", help="start the game described by a header, event log or raw log file")
    ld.add_argument("file")
    st = sub.add_parser("status", help="show the game on the board")
    st.add_argument("--json", action="store_true", help="the `state` reply as JSON")
    i = sub.add_parser("input", help="send one control event (JSON)")
    i.add_argument("event", help='e.g. \'{"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 4}\'')
    sub.add_parser("end", help="end the game now")
    for sp in sub.choices.values():
        boardlink.add_port_argument(sp)


def _read_json(path, what):
    # the host readers' shared limits (line length, nesting, finite numbers)
    from host_tools.logfile import read_json_file
    return read_json_file(path)


def sample_header(mode):
    path = os.path.join(SAMPLES, mode + ".ndjson")
    if not os.path.exists(path):
        path = os.path.join(SAMPLES, "official.ndjson")
    h = _read_json(path, "sample")
    return h


def build_header(args):
    if args.deck:
        players = [_read_json(d, "deck") for d in args.deck]
        for d, pl in zip(args.deck, players):
            if type(pl) is not dict:
                raise UserError("%s: a deck is one JSON object (name, bakugan, gates, abilities)" % d)
        header = {"mode": args.mode, "players": players}
    else:
        s = sample_header(args.mode)
        header = {"mode": args.mode, "players": s["players"]}
        if "target" in s and s.get("mode") == args.mode:
            header["target"] = s["target"]
    if args.first is not None:
        header["first"] = args.first
    if args.target is not None:
        header["target"] = args.target
    return header


def header_from_file(path):
    h = _read_json(path, "game file")
    if type(h) is not dict:
        raise UserError("%s: line 1: expected a JSON object (a game header)" % path)
    out = dict((k, h[k]) for k in ("mode", "first", "target", "players") if k in h)
    if "players" not in out:
        raise UserError("%s: line 1: no 'players' in the header" % path)
    out.setdefault("mode", "official")
    return out


def check_header(header):
    """Validate with the referee (same code as the board): UserError naming the field."""
    fwpath.ensure()
    import referee
    full = {"bakumat": "events", "version": 1}
    full.update(header)
    try:
        referee.new_game(full, lambda o: None)
    except referee.SetupError as e:
        raise UserError("bad game: %s" % e)
    except (ImportError, KeyError, ValueError) as e:
        raise UserError("bad game: %s" % e)
    return full


def cfg_body(full):
    """The header as compact JSON for a `cfg` frame; UserError when the frame
    would exceed what the board accepts (serial protocol v1: 2048 bytes)."""
    from host_tools.link import codec
    text = json.dumps(full, separators=(",", ":"))
    n = len(codec.encode_json(65535, "cfg", text))
    if n > codec.MAX_LEN:
        raise UserError("this game is %d bytes as a `cfg` frame but the board accepts frames up to %d bytes "
                        "(serial protocol v1): use shorter names and ids, or fewer cards" % (n, codec.MAX_LEN))
    return text


def send_header(bl, header):
    full = check_header(header)
    bl.request_json("cfg", cfg_body(full))
    names = ", ".join(p.get("name", "P%d" % i) for i, p in enumerate(header["players"]))
    print("game started on the board: mode %s, players %s" % (header.get("mode"), names))
    line = untaught_line(header, bl.state().get("taught"))
    if line:
        print(line)


def untaught_line(header, taught):
    """What to say of the game's Bakugan the mat has not learnt (None: all
    taught, or a board too old to say)."""
    if taught is None:
        return None
    left = [b["id"] for p in header["players"] for b in p.get("bakugan", []) if b["id"] not in taught]
    if not left:
        return None
    return ("not taught yet: %s. The mat tells Bakugan apart by their magnets only once it has learnt them: "
            "`bakumat register`, or the teach box on the phone page, before the first throw" % ", ".join(left))


def show(bl, as_json):
    st = bl.state()
    if as_json:
        print(json.dumps(st, sort_keys=True))
        return
    view = st.get("view")
    if bl.board is not None and view:
        print(termmat.draw(bl.board, view))
    print(termmat.status_line(view))
    if view:
        print("%d input events accepted" % (st.get("events") or 0))
        taught = st.get("taught")
        if taught is not None:
            print("taught: %s" % (", ".join(taught) or "none"))


def _event(text):
    from host_tools.logfile import loads
    try:
        ev = loads(text)
    except UserError as e:
        raise UserError("the event is not valid JSON: %s" % e)
    if type(ev) is not dict or "ev" not in ev:
        raise UserError('an event is a JSON object with "ev", e.g. {"ev": "resolve"}')
    return ev


def run(args):
    # the file is read (and refused) before the board is asked anything
    loaded = header_from_file(args.file) if args.action == "load" else None
    if args.action == "input":
        loaded = _event(args.event)
    with boardlink.connect(args.port) as bl:
        if args.action == "new":
            send_header(bl, build_header(args))
        elif args.action == "load":
            send_header(bl, loaded)
        elif args.action == "status":
            show(bl, args.json)
        elif args.action == "input":
            _, body = bl.request("ctl", loaded)
            for _, typ, b in bl.link.take("game"):
                print(termmat.describe(typ, b))
            if not body.get("ok", True):
                print("rejected: %s" % body.get("why"), file=sys.stderr)
                return 1
        elif args.action == "end":
            bl.request("end", {})
            for _, typ, b in bl.link.take("game"):
                print(termmat.describe(typ, b))
    return 0
