"""Power-loss safety of the board's stored state, proven on the real
MicroPython littlefs driver (vfs.VfsLfs2) over a RAM block device, with the
power cut at every block write of a game's worth of saves: the store alone
(tests/mp/powercut.py), then the app itself through a game with its resume,
an `end`, refused `cfg`s and a full filesystem (tests/mp/powercut_app.py).
The scripts do the work; this checks their verdicts."""
import os
import re

import pytest

from mptools import FIRMWARE, HERE, micropython

SCRIPT = os.path.join(HERE, "mp", "powercut.py")


def run(mode, saves, tmp_path):
    r = micropython([SCRIPT, FIRMWARE, mode, str(saves), str(tmp_path)], heapsize="512K", timeout=300)
    out = r.stdout + r.stderr
    m = re.search(r"RESULT mode=(\w+) saves=(\d+) writes=(\d+) cuts=(\d+) ok=(\d+) bad=(\d+) stepscut=(\d+) redo=(\d+) "
                  r"mixed=(\d+)", out)
    assert m, out[-3000:]
    return r.returncode, [int(x) for x in m.groups()[1:]], out


@pytest.mark.parametrize("mode,saves", [("cut", 60), ("torn", 25)])
def test_state_is_always_old_or_new(mode, saves, tmp_path):
    # two games (board-state v2): the events' saves, the second game's
    # start over the first one's events (its removal included), signatures
    # (sig/: the first save replaces an earlier firmware's sigs.json) and
    # calibration
    rc, (nsaves, writes, cuts, ok, bad, stepscut, redo, mixed), out = run(mode, saves, tmp_path)
    assert rc == 0, out[-3000:]
    assert bad == 0
    assert nsaves == saves + 1
    # every block write of every save was a cut point, every save had some
    # (an event's save is a page or two: few writes), and after a cut that
    # left the old state the store took the step again to the new one
    assert cuts == writes and stepscut == nsaves and cuts > 3 * nsaves
    assert ok == cuts and redo >= nsaves
    # some cuts fell between two Bakugan's files of a lesson: each one's
    # signature its old or its new value, and the lesson taken again
    assert mixed > 0


def test_harness_catches_an_unsafe_writer(tmp_path):
    # remove-then-write with a flush in the middle: must be caught
    rc, (nsaves, writes, cuts, ok, bad, stepscut, redo, _mixed), out = run("naive", 8, tmp_path)
    assert rc == 0, out[-3000:]
    assert bad > 0


def test_the_app_resumes_the_saved_game_after_a_cut_at_every_write(tmp_path):
    r = micropython([os.path.join(HERE, "mp", "powercut_app.py"), FIRMWARE, HERE, str(tmp_path)],
                    heapsize="2M", timeout=600)
    out = r.stdout + r.stderr
    m = re.search(r"RESULT steps=(\d+) writes=(\d+) cuts=(\d+) ok=(\d+) bad=(\d+) saving=(\d+) stepscut=(\d+) "
                  r"mixed=(\d+)", out)
    assert m, out[-3000:]
    steps, writes, cuts, ok, bad, saving, stepscut, mixed = [int(x) for x in m.groups()]
    print("app power-cut campaign: %d steps, %d cut points, %d resumed as saved" % (steps, cuts, ok))
    assert r.returncode == 0 and bad == 0, out[-3000:]
    # every block write of every step a cut point; every step that saves
    # had some (an event's save is a page or two: few writes)
    assert cuts == writes and ok == cuts
    assert saving >= steps - 3 and stepscut == saving and cuts > 2 * steps
    assert "FULL ok" in out
    # a lesson's save cut between two Bakugan's files: resumed, each one's
    # signature its old or its new value
    assert mixed > 0
