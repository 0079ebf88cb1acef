"""bakumat register [BAKUGAN ...]: teach the mat each Bakugan.

For each Bakugan in turn the command names a zone, sends the board a
`register` control event ("the next Bakugan that settles on zone Z is
this one") and waits until the board reports it landing there; then asks
for it to be taken off. The board keeps what it learnt (its signature
store). Without names, the Bakugan of the game on the board are taught
(or of --game FILE: a header, event log or raw log)."""
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
        if not names:
            header = None
            if args.game:
                from host_tools.commands.game import header_from_file
                header = header_from_file(args.game)
            else:
                header = bl.state().get("header")
            if not header:
                raise UserError("which Bakugan? name them (`bakumat register drago tigrerra`), or pass --game FILE, "
                                "or start a game first (`bakumat game new`)")
            names = bakugan_of(header)
        zones = [z["id"] for z in bl.board["zones"]] if bl.board else list(range(16))
        if args.zone is not None and args.zone not in zones:
            raise UserError("--zone: no zone %d on this board" % args.zone)
        taught = []
        for i, b in enumerate(names):
            z = args.zone if args.zone is not None else zones[i % len(zones)]
            _, r = bl.request("ctl", {"ev": "register", "bakugan": b, "zone": z})
            if not r.get("ok", True):
                raise UserError("the board refused to learn %s: %s" % (b, r.get("why")))
            err.write("%s: put a gate card on zone %d and open %s on it\n" % (b, z, b))
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
                err.write("  warning: %s reads like %s: in a game the mat may take one for the other when "
                          "both may land (a Bakugan with another magnet avoids it)\n" % (b, ", ".join(got["alike"])))
            if wait_for(bl, lambda t, body: t == "mat" and body.get("ev") == "leave" and body.get("zone") == z,
                        args.timeout) is None:
                raise UserError("%s: still on zone %d after %.0f s: take it off, then teach the next one "
                                "(learnt so far: %s)" % (b, z, args.timeout, ", ".join(taught + [b])))
            taught.append(b)
        print("taught %d Bakugan: %s" % (len(taught), ", ".join(taught)))
    return 0
