"""bakumat calibrate: zero the sensors on an empty mat.

First listens to the raw frames to check that the mat is empty and every
channel is sane (a Bakugan or a magnet left on a zone would be learnt as
"zero"); then asks the board to take the current readings as its zero
(`cal` request), which the board saves."""
import sys

from host_tools.device import boardlink
from host_tools.logs import diagnose
from host_tools.commands import diag
from host_tools.errors import UserError


def add_arguments(p):
    boardlink.add_port_argument(p)
    p.add_argument("--board", help="board definition (default: the one the board reports)")
    p.add_argument("--force", action="store_true", help="calibrate even if some zone does not look empty")
    p.add_argument("--seconds", type=float, default=2.0, help="how long to check the mat first (default 2 s)")


def run(args):
    err = sys.stderr
    with boardlink.connect(args.port, args.board) as bl:
        board = diag.need_board(bl)
        err.write("checking that the mat is empty: take every Bakugan and magnet off\n")
        frames = diag.listen(bl, args.seconds, "Checking")
        rows = diagnose.classify(board, diagnose.channel_stats(frames))
        zero = board["sensor"]["zero_counts"]
        off = diagnose.offset_limit(board)
        busy = sorted(set(r["zone"] for r in rows if r["health"] != "dead"
                          and abs(r["baseline"] - zero) > off))
        broken = [r for r in rows if r["health"] in ("dead", "stuck", "noisy")]
        if busy and not args.force:
            raise UserError("zone(s) %s do not look empty (sensors far from their zero-field value): clear the mat "
                            "and try again, or pass --force" % ", ".join(str(z) for z in busy))
        for r in broken:
            err.write("warning: channel %d (zone %s) is %s\n" % (r["ch"], r["zone"], r["why"]))
        _, body = bl.request("cal", {}, timeout=30.0)
        if not body.get("ok", True):
            raise UserError("the board could not calibrate: %s" % body.get("why"))
        print("calibrated %s channels on an empty mat; the board saved it" % body.get("channels", len(rows)))
    return 0
