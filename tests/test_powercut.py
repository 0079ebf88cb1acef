"""Power-loss safety of the board's stored state, proven on the real
MicroPython littlefs driver (vfs.VfsLfs2) over a RAM block device, with the
power cut at every block write of a game's worth of saves
(tests/mp/powercut.py does the work; this checks its verdict)."""
import os
import re

import pytest

from mptools import FIRMWARE, HERE, micropython

SCRIPT = os.path.join(HERE, "mp", "powercut.py")


def run(mode, saves, tmp_path):
    r = micropython([SCRIPT, FIRMWARE, mode, str(saves), str(tmp_path)], heapsize="512K", timeout=300)
    out = r.stdout + r.stderr
    m = re.search(r"RESULT mode=(\w+) saves=(\d+) writes=(\d+) cuts=(\d+) ok=(\d+) bad=(\d+)", out)
    assert m, out[-3000:]
    return r.returncode, [int(x) for x in m.groups()[1:]], out


@pytest.mark.parametrize("mode,saves", [("cut", 60), ("torn", 25)])
def test_state_is_always_old_or_new(mode, saves, tmp_path):
    rc, (nsaves, writes, cuts, ok, bad), out = run(mode, saves, tmp_path)
    assert rc == 0, out[-3000:]
    assert bad == 0
    assert nsaves == saves + 1
    # every block write of every save was a cut point
    assert cuts == writes and cuts > 10 * nsaves
    assert ok == cuts


def test_harness_catches_an_unsafe_writer(tmp_path):
    # remove-then-write with a flush in the middle: must be caught
    rc, (nsaves, writes, cuts, ok, bad), out = run("naive", 8, tmp_path)
    assert rc == 0, out[-3000:]
    assert bad > 0
