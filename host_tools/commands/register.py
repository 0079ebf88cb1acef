"""bakumat register [BAKUGAN ...]: teach the mat each Bakugan.

For each Bakugan in turn the command names a zone, sends the board a
`register` control event ("the next Bakugan that settles on zone Z is
this one") and waits until the board reports it landing there; then asks
for it to be taken off. The board keeps what it learnt (its signature
store). Without names, the Bakugan of the game on the board are taught
(or of --game FILE: a header, event log or raw log).

A lesson whose magnet reads like another registered Bakugan's (the land
event's `alike`: the mat would ask about a landing of one when the other
may land too) is reported in words: when both are one player's, the mat
cannot tell them apart (only the game does, when one of them is already
used) and will ask which one landed; the fix is to swap one of them for a
Bakugan with another magnet. Across players the game tells them apart
(only the thrower's own may land)."""
import sys
import time

from host_tools.device import boardlink
from host_tools.errors import UserError


def add_arguments(p):
    boardlink.add_port_argument(p)
    p.add_argument("bakugan", nargs="*", help="Bakugan ids to teach (default: every Bakugan of the game)")
    p.add_argument("--game", metavar="FILE", help="take the Bakugan from this game file instead")
    p.add_argument("--zone", type=int, help="teach every Bakugan on this zone (default: a different zone each)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for each Bakugan (default 60)")


def bakugan_of(header):
    out = []
    for p in header.get("players") or []:
        for b in p.get("bakugan") or []:
            out.append(b["id"])
    return out


def owners(header):
    """bakugan id -> the name of the player who has it."""
    out = {}
    for i, p in enumerate((header or {}).get("players") or []):
        for b in p.get("bakugan") or []:
            out[b["id"]] = p.get("name") or "player %d" % (i + 1)
    return out


def alike_words(b, alike, own):
    """What a lesson of b that reads like the ids in `alike` means to the
    players: (lines to print, [(b, other)] pairs of one player's)."""
    lines = []
    pairs = []
    mine = [a for a in alike if own.get(a) is not None and own.get(a) == own.get(b)]
    theirs = [a for a in alike if own.get(a) is not None and own.get(a) != own.get(b)]
    unknown = [a for a in alike if own.get(a) is None or own.get(b) is None]
    for a in mine:
        pairs.append((b, a))
        lines.append("  warning: the mat cannot tell %s from %s (both %s's: their magnets read alike); when one of "
                     "them lands it will ask which. To avoid that, swap %s for a Bakugan with another magnet "
                     "and teach that one" % (b, a, own[b], b))
    if unknown:
        lines.append("  warning: %s reads like %s: if one player has both, the mat cannot tell them apart and will "
                     "ask which one landed (swap one for a Bakugan with another magnet to avoid it)"
                     % (b, ", ".join(unknown)))
    if theirs:
        lines.append("  note: %s reads like %s: the game tells them apart, only the thrower's "
                     "own Bakugan may land" % (b, ", ".join("%s (%s's)" % (a, own[a]) for a in theirs)))
    return lines, pairs


def wait_for(bl, pred, timeout, _left=[]):
    """The first frame matching pred; frames that came after it in the same
    read are kept for the next call (a quick lift follows its landing)."""
    deadline = time.monotonic() + timeout
    while True:
        while _left:
            seq, typ, body = _left.pop(0)
            if pred(typ, body):
                return body
        if time.monotonic() >= deadline:
            return None
        _left.extend(bl.frames(0.1))


def run(args):
    err = sys.stderr
    with boardlink.connect(args.port) as bl:
        names = list(args.bakugan)
        header = None
        if args.game:
            from host_tools.commands.game import header_from_file
            header = header_from_file(args.game)
        else:
            # the game on the board (`state` names only the players: its decks come with `header`);
            # also when the Bakugan are named: whose they are says which pairs matter
            _, ack = bl.request("header")
            header = ack.get("header") if type(ack) is dict else None
        if not names:
            if not header:
                raise UserError("which Bakugan? name them (`bakumat register drago tigrerra`), or pass --game FILE, "
                                "or start a game first (`bakumat game new`)")
            names = bakugan_of(header)
            if not args.game:
                # the game's Bakugan the mat has not learnt yet (naming one teaches it again)
                known = bl.state().get("taught") or []
                if [b for b in names if b in known]:
                    err.write("already taught: %s (name one to teach it again)\n"
                              % ", ".join(b for b in names if b in known))
                names = [b for b in names if b not in known]
                if not names:
                    err.write("the mat knows every Bakugan of the game\n")
                    return 0
        zones = [z["id"] for z in bl.board["zones"]] if bl.board else list(range(16))
        if args.zone is not None and args.zone not in zones:
            raise UserError("--zone: no zone %d on this board" % args.zone)
        own = owners(header)
        taught = []
        same = []      # one player's pairs the mat cannot tell apart
        for i, b in enumerate(names):
            z = args.zone if args.zone is not None else zones[i % len(zones)]
            _, r = bl.request("ctl", {"ev": "register", "bakugan": b, "zone": z})
            if not r.get("ok", True):
                raise UserError("the board refused to learn %s: %s" % (b, r.get("why")))
            # the middle: a lesson read there is the best signature (the
            # fitted moment's spread, docs/sensing-pipeline.md "Lessons")
            err.write("%s: put a gate card on zone %d and open %s on it, in the card's middle\n" % (b, z, b))
            got = wait_for(bl, lambda t, body: t == "mat" and body.get("ev") == "land" and body.get("zone") == z,
                           args.timeout)
            if got is None:
                raise UserError("%s: nothing landed on zone %d within %.0f s (taught so far: %s)"
                                % (b, z, args.timeout, ", ".join(taught) or "none"))
            if got.get("bakugan") not in (None, b):
                raise UserError("%s: the board saw %s on zone %d instead" % (b, got.get("bakugan"), z))
            err.write("  learnt %s; take it off\n" % b)
            if got.get("alike"):
                # the pipeline found the signature close to others' (sensed-events-v1, `alike`)
                lines, pairs = alike_words(b, got["alike"], own)
                for line in lines:
                    err.write(line + "\n")
                same.extend(pairs)
            if wait_for(bl, lambda t, body: t == "mat" and body.get("ev") == "leave" and body.get("zone") == z,
                        args.timeout) is None:
                raise UserError("%s: still on zone %d after %.0f s: take it off, then teach the next one "
                                "(learnt so far: %s)" % (b, z, args.timeout, ", ".join(taught + [b])))
            taught.append(b)
        print("taught %d Bakugan: %s" % (len(taught), ", ".join(taught)))
        for b, a in same:
            print("the mat cannot tell %s's %s and %s apart: it will ask which one landed; swap one of them for a "
                  "Bakugan with another magnet to avoid the questions" % (own[b], b, a))
    return 0
