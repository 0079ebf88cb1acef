"""What a save costs the chip's flash by layout (host_tools/bench/savelayouts.py,
littlefs under the real micropython binary): the facts docs/runtime.md
builds on. Board-state v1's append in place erases a 4 KB block on every
save (littlefs copies the file's last block); one small file per event over
directories made when the game starts (board-state v2, the store's own
game_start and game_append) erases nothing during play: its erases fall in
the setup tick, the previous game's removal with them. The sensing's lesson
saves: one sigs.json (temp file and rename, the store before) erased a
block on every one; a small file per Bakugan in sig/, only the changed ones
written (the store's save_signatures), erases only when sig/'s metadata
block is compacted."""
from host_tools.bench import savelayouts


def test_save_layouts_on_littlefs():
    res = savelayouts.measure(40)
    setup, er, pr = res["append"]
    assert len(er) == 40 and min(er) >= 1, er          # board-state v1: an erase per save
    setup, er, pr = res["files4"]
    assert len(er) == 40
    assert sum(er) == 0 and max(pr) < 512, (er, pr)     # the store now: a page or two per save
    assert setup >= 4                                   # the directories' erases, when the game starts
    # the next game: its directories and header, and the old game's 40
    # files and 4 directories removed, all in the setup tick
    e, p, se, sp = res["newgame"]
    assert e >= 5 and 0 < sp < p and se <= e, res["newgame"]
    # an open file flushed, or room written ahead, does not avoid it
    assert min(res["open_flush"][1]) >= 1 and min(res["preextended"][1]) >= 1


def test_lesson_saves_on_littlefs():
    res = savelayouts.measure(40)
    setup, er, pr, rb, rn = res["sigs_json"]
    assert len(er) == 40 and min(er) >= 1, er          # the store before: an erase per lesson
    old_pr, old_rb = pr, rb
    setup, er, pr, rb, rn = res["sig_files"]
    assert len(er) == 40 and len(rb) == len(rn) == 40
    assert setup == 0, setup                            # sig/ made when the game started
    # a lesson rewrites its 1-2 files inline in sig/'s metadata: an erase
    # only when that block is compacted
    assert sum(er) <= 3 and max(er) <= 1, er
    assert max(pr) <= 1024 and sum(pr) < sum(old_pr), pr
    # and littlefs reads back less than for the one file
    assert sum(rb) < sum(old_rb), (rb, old_rb)
    # each with a temp file and a rename (not the store): more erases, and
    # littlefs reads the directory back for every rename (the ms leave the
    # reads out)
    setup, rer, _rpr, rrb, _rrn = res["sig_rename"]
    assert sum(rer) >= sum(er) and sum(rrb) > 4 * sum(rb), (rer, rrb)
    assert res["files4"][0] >= 5                        # the 4 directories and sig/, when the game starts
