"""What a save costs the chip's flash by layout (host_tools/bench/savelayouts.py,
littlefs under the real micropython binary): the facts docs/runtime.md
builds on. The store's append in place erases a 4 KB block on every save
(littlefs copies the file's last block); one small file per event over
directories made when the game starts erases nothing during play."""
from host_tools.bench import savelayouts


def test_save_layouts_on_littlefs():
    res = savelayouts.measure(40)
    setup, er, pr = res["append"]
    assert len(er) == 40 and min(er) >= 1, er          # the store now: an erase per save
    setup, er, pr = res["files4"]
    assert sum(er) == 0 and max(pr) < 512, (er, pr)     # inline files: a page or two per save
    assert setup >= 4                                   # the directories' erases, when the game starts
    # an open file flushed, or room written ahead, does not avoid it
    assert min(res["open_flush"][1]) >= 1 and min(res["preextended"][1]) >= 1
