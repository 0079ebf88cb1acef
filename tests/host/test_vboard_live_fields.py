"""The virtual board's console (vboard.Live) simulates the mat again at each
line and switches the sensors to the new simulation, shifted to meet the old
field. A Bakugan standing through such a switch and lifted afterwards must
leave the zone reading as it did empty: the simulations keep one sensor
model (with one generator for both, each new simulation drew other gains, and
the shift kept a standing Bakugan's gain difference, about 500 counts, on the
zone for good)."""
import statistics

from host_tools import boards
from host_tools import vboard as V
from host_tools.boards import kernels
from host_tools.sim import worlds


class Board:
    """What Live reads and sets of a virtual board (the frame source chain,
    the board time); no firmware runs here, the frames are looked at directly."""

    def __init__(self, board):
        self.board = board
        self.vnow = 1000
        self.source = V.IdleField(board)
        self._stop = True            # Live's sender thread: nothing to send

    def serial_write(self, data):
        pass


def zone_median(src, chans, t0, n=25):
    frames = [src.frame_at(t0 + 20 * k) for k in range(n)]
    return [statistics.median(f[c] for f in frames) for c in chans]


def test_a_bakugan_lifted_after_a_switch_leaves_its_zone_as_it_was():
    b = boards.load(boards.REFERENCE)
    b = kernels.for_board(worlds.with_world(b, worlds.nominal(b) or worlds.NOMINAL), None)
    chans = [s["ch"] for s in b["sensors"] if s["zone"] == 6]
    vb = Board(V.with_kernels(b))
    live = V.Live(vb)
    moments = []
    # no drift (what is left is noise); drago beside a sensor of its zone; a
    # throw elsewhere while it stands (its simulation draws more than the one
    # before); then both lifted
    lines = ("set drift 0", "card on zone 6", "place drago on zone 6, at (0, -19) mm", "card on zone 5",
             "throw falconeer -> zone 5", "remove drago", "remove falconeer")
    for line in lines:
        done = live.add(line)
        moments.append(done.switch)
        vb.vnow = done.switch + 3000
    empty = zone_median(vb.source, chans, moments[2] - 600)
    standing = zone_median(vb.source, chans, moments[4] + 2500)
    after = zone_median(vb.source, chans, moments[6] + 2500)
    # the Bakugan read on its zone (so a gain difference would show), and went
    assert max(abs(s - e) for s, e in zip(standing, empty)) > 5000, (standing, empty)
    # (what is left is the switches' own error, tens of counts: each shift
    # is a median over half a second of fields that meet almost exactly; the
    # gain difference left about 750 counts here)
    assert max(abs(a - e) for a, e in zip(after, empty)) < 150, (after, empty)
