"""bakumat game new|load|status|input|end: the game on the board.

  new     start a game: players and decks from --deck files (one JSON object
          per player: name, bakugan, gates, abilities, as in the event-log
          header), or the bundled sample decks; --mode, --first, --target,
          --kit (the variant modes: the set each player brings, where it
          differs from the rule sheet's, e.g. --kit cards=5,bakugan=3)
  load    start the game described by FILE: a header JSON, an event log or a
          raw log (their first line)
  status  the board's view of the game: the mat, turn, captures (--json)
  input   send one control event (gate, miss, ability, resolve, choose,
          register) as JSON, e.g. '{"ev":"resolve"}'
  end     end the game now (the board resolves what is pending)
  modes   the game modes (one list for demo, game new, record, deploy)

The header is checked here with the referee's own code before it is sent,
so a bad deck is reported with the field that is wrong."""
import json
import os
import sys

from host_tools import fwpath
from host_tools.device import boardlink
from host_tools.logs import termmat
from host_tools.errors import UserError

SAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples")


def add_arguments(p):
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    n = sub.add_parser("new", help="start a game with decks and a mode")
    n.add_argument("--deck", action="append", default=[], metavar="FILE",
                   help="a player's deck (JSON: name, bakugan, gates, abilities); once per player, in seat order")
    n.add_argument("--mode", default="official", help="game mode (default official; `bakumat game modes` lists them)")
    n.add_argument("--first", type=int, help="index of the player who throws first")
    n.add_argument("--target", type=int, help="gates to capture to win")
    n.add_argument("--kit", metavar="KEY=N,...",
                   help="variant modes: the set each player brings when it is not the rule sheet's "
                        "(bakugan, cards, attributes; 0: any number), e.g. cards=5,bakugan=3")
    ld = sub.add_parser("load", help="start the game described by a header, event log or raw log file")
    ld.add_argument("file")
    st = sub.add_parser("status", help="show the game on the board")
    st.add_argument("--json", action="store_true", help="the `state` reply as JSON")
    i = sub.add_parser("input", help="send one control event (JSON)")
    i.add_argument("event", help='e.g. \'{"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 4}\'')
    sub.add_parser("end", help="end the game now")
    sub.add_parser("modes", help="list the game modes (the same list for demo, game new, record, deploy --mode)")
    for name, sp in sub.choices.items():
        if name != "modes":
            boardlink.add_port_argument(sp)


def _read_json(path, what):
    # the host readers' shared limits (line length, nesting, finite numbers)
    from host_tools.logs.logfile import read_json_file
    return read_json_file(path)


def sample_header(mode):
    """The bundled sample game of a mode (host_tools/modes.py: one list of
    modes for every command; UserError for an unknown one)."""
    from host_tools import modes
    return modes.sample(mode)


def build_header(args):
    if args.deck:
        players = [_read_json(d, "deck") for d in args.deck]
        for d, pl in zip(args.deck, players):
            if type(pl) is not dict:
                raise UserError("%s: a deck is one JSON object (name, bakugan, gates, abilities)" % d)
        from host_tools import modes
        header = {"mode": modes.referee_mode(args.mode), "players": players}
        extra = modes.sample(args.mode)
        for k in extra:
            if k not in header and k not in ("bakumat", "version", "first", "target", "players"):
                header[k] = extra[k]        # a mode's own header fields (extras: season)
    else:
        s = sample_header(args.mode)
        # (extras: the sample's header, the official mode with its season)
        header = dict((k, s[k]) for k in s if k not in ("bakumat", "version", "first"))
    if args.first is not None:
        header["first"] = args.first
    if args.target is not None:
        header["target"] = args.target
    if getattr(args, "kit", None):
        header["kit"] = parse_kit(args.kit)
    return header


def parse_kit(text):
    """--kit cards=5,bakugan=3 -> {"cards": 5, "bakugan": 3} (the referee
    checks the keys and values against the mode)."""
    kit = {}
    for item in text.split(","):
        k, eq, v = item.strip().partition("=")
        try:
            kit[k.strip()] = int(v)
        except ValueError:
            raise UserError("--kit: expected KEY=N (e.g. cards=5), got %r" % item.strip())
        if not eq or not k.strip():
            raise UserError("--kit: expected KEY=N (e.g. cards=5), got %r" % item.strip())
    return kit


_NOT_GAME = ("bakumat", "version", "game", "state", "board", "rate_hz", "channels", "max_counts", "baseline", "signatures",
             "kernel_world")


def header_from_file(path):
    h = _read_json(path, "game file")
    if type(h) is not dict:
        raise UserError("%s: line 1: expected a JSON object (a game header)" % path)
    # the game's fields (a mode's own ones too, e.g. extras' season), not the log's
    out = dict((k, h[k]) for k in h if k not in _NOT_GAME)
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
    from host_tools.device.link import codec
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
    names = st.get("names")
    if bl.board is not None and view:
        print(termmat.draw(bl.board, view, names=names))
    print(termmat.status_line(view, names))
    if view:
        print("%d input events accepted" % (st.get("events") or 0))
        taught = st.get("taught")
        if taught is not None:
            print("taught: %s" % (", ".join(taught) or "none"))


def board_words(bl):
    """The mat's words for the game on the board: its header (decks, so
    abilities are said with their effect), else the players' names only."""
    from host_tools.words import Words
    try:
        _, ack = bl.request("header")
    except UserError:
        ack = None                      # an older firmware: no `header` request
    header = ack.get("header") if type(ack) is dict else None
    if type(header) is dict and header.get("players"):
        return Words(header)
    return Words(names=bl.state().get("names"))


def _event(text):
    from host_tools.logs.logfile import loads
    try:
        ev = loads(text)
    except UserError as e:
        raise UserError("the event is not valid JSON: %s" % e)
    if type(ev) is not dict or "ev" not in ev:
        raise UserError('an event is a JSON object with "ev", e.g. {"ev": "resolve"}')
    return ev


def run(args):
    if args.action == "modes":
        from host_tools import modes
        print(" ".join(modes.names()))
        return 0
    # the arguments first: a bad deck, file or event is named before the board is touched
    header = ev = None
    if args.action == "new":
        header = build_header(args)
    elif args.action == "load":
        header = header_from_file(args.file)
    elif args.action == "input":
        ev = _event(args.event)
    if header is not None:
        cfg_body(check_header(header))
    with boardlink.connect(args.port) as bl:
        if header is not None:
            send_header(bl, header)
        elif args.action == "status":
            show(bl, args.json)
        elif args.action in ("input", "end"):
            words = board_words(bl)
            _, body = bl.request("ctl", ev) if args.action == "input" else bl.request("end", {})
            for _, typ, b in bl.link.take("game"):
                if typ == "game" and b.get("ev") == "reject" and not body.get("ok", True):
                    continue        # said once, below
                print(termmat.describe(typ, b, words))
            if not body.get("ok", True):
                print("not allowed: %s" % body.get("why"), file=sys.stderr)
                return 1
    return 0
