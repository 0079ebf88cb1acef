# Runs under the unix port's micropython (host_tools/savelayouts.py): what
# a save costs the chip's flash on littlefs (vfs.VfsLfs2, MicroPython's
# defaults, as the ESP32's filesystem) for several ways of storing the
# game's events, on a RAM block device shaped like the chip's flash (4 KB
# erase blocks) that counts erases and bytes programmed. argv: firmware
# dir, number of saves. Prints "LAYOUT name setup_erases erases... /
# bytes..." per layout, one figure per save; then "NEWGAME erases bytes
# sweep_erases sweep_bytes": the store's next game_start after those saves
# (its directories and header, then the old game's files removed: the
# sweep's share apart). Then "SIGS name setup_erases erases... / bytes... /
# bytes read... / reads...":
# the sensing's lesson saves (8 Bakugan's signatures, 1-2 of them changed
# by each of argv[3] (default 40) lessons) on the flash of a game in
# progress, as one sigs.json (temp file and rename: the store before) and
# as the store's sig/ files now (rewritten in place), and (for comparison,
# not the store) those files each written with a temp file and a rename.
import os
import sys
import vfs

sys.path.insert(0, sys.argv[1])
from store.state import State    # noqa: E402
from store import safe           # noqa: E402
from flashdev import Flash       # noqa: E402  beside this script

N = int(sys.argv[2])
EV = {"t": 123456, "ev": "land", "zone": 7, "bakugan": "drago-red", "by": "mat"}
HEADER = {"bakumat": "events", "players": [{"name": "player %d" % i, "deck": ["x" * 12] * 12} for i in range(2)]}
DEV = [None]
LINE = b'{"t": 123456, "ev": "land", "zone": 7, "bakugan": "drago-red", "by": "mat"}\n'


def run(name, setup, save):
    try:
        vfs.umount("/f")
    except OSError:
        pass
    d = Flash(64)
    DEV[0] = d
    vfs.VfsLfs2.mkfs(d)
    vfs.mount(vfs.VfsLfs2(d), "/f")
    e0 = d.erases
    ctx = setup()
    se = d.erases - e0
    er = []
    pr = []
    for i in range(N):
        e0, p0 = d.erases, d.prog
        save(ctx, i)
        er.append(d.erases - e0)
        pr.append(d.prog - p0)
    print("LAYOUT", name, se, " ".join(str(x) for x in er), "/", " ".join(str(x) for x in pr))


def store_setup():
    st = State("/f")
    st.game_start(HEADER)
    return st


def v1_setup():
    safe.write_json("/f/game.ndj", HEADER)   # board-state v1: the events appended to game.ndj


run("append", v1_setup, lambda st, i: safe.append("/f/game.ndj", LINE))


def open_setup():
    v1_setup()
    return open("/f/game.ndj", "ab")


def open_save(f, i):
    f.write(LINE)
    f.flush()


run("open_flush", open_setup, open_save)


def pre_setup():
    v1_setup()
    f = open("/f/game.ndj", "ab")
    f.write(b" " * (len(LINE) * N))       # room for every event, written ahead
    f.close()
    return os.stat("/f/game.ndj")[6] - len(LINE) * N


def pre_save(at, i):
    f = open("/f/game.ndj", "r+b")
    f.seek(at + i * len(LINE))
    f.write(LINE)
    f.close()


run("preextended", pre_setup, pre_save)


def files_setup(k):
    def setup():
        v1_setup()
        for j in range(k):
            os.mkdir("/f/e%d" % j)
        return k
    return setup


def files_save(k, i):
    f = open("/f/e%d/%d" % (i % k, i), "wb")
    f.write(LINE)
    f.close()


run("files1", files_setup(1), files_save)
ST = [None]


def store_files4():
    ST[0] = store_setup()
    return ST[0]


run("files4", store_files4, lambda st, i: st.game_append(EV))   # the store now (board-state v2)

# the next game on that flash: what the setup tick's save costs, and the
# old game's removal in it
st = ST[0]
d = DEV[0]
sweep = st.game_sweep
SW = [0, 0]


def counted():
    e0, p0 = d.erases, d.prog
    sweep()
    SW[0] += d.erases - e0
    SW[1] += d.prog - p0


st.game_sweep = counted
e0, p0 = d.erases, d.prog
st.game_start(HEADER)
print("NEWGAME", d.erases - e0, d.prog - p0, SW[0], SW[1])


# ------------------------------------------------------------ signatures
NL = int(sys.argv[3]) if len(sys.argv) > 3 else 40
BAKUGAN = ("drago", "serpenoid", "saurus", "tigrerra", "falconeer", "gargonoid", "skyress", "hydranoid")


def sig_values():
    """8 learnt levels as the sensing keeps them (running means: floats of
    full precision)."""
    v = {}
    for j in range(len(BAKUGAN)):
        v[BAKUGAN[j]] = (j - 3.5) * 173.0 / 7.0 + 1.0 / (j + 3)
    return v


def lessons():
    """The signatures after each lesson: entry i % 8 changes, and every
    other lesson one more."""
    v = sig_values()
    out = []
    for i in range(NL):
        v = dict(v)
        for b in (BAKUGAN[i % 8],) + ((BAKUGAN[(3 * i + 1) % 8],) if i % 2 else ()):
            v[b] = v[b] + (v[b] * 0.01 + 1.0) / (i + 2)
        out.append(v)
    return out


def sig_run(name, save):
    d = Flash(64)
    try:
        vfs.umount("/f")
    except OSError:
        pass
    vfs.VfsLfs2.mkfs(d)
    vfs.mount(vfs.VfsLfs2(d), "/f")
    st = State("/f")
    st.game_start(HEADER)
    for i in range(20):
        st.game_append(EV)                  # a game in progress
    st.save_calibration({"zero": [2180] * 24})
    e0 = d.erases
    save(st, sig_values())                  # what the mat learnt before
    se = d.erases - e0
    er = []
    pr = []
    rb = []
    rn = []
    for v in lessons():
        e0, p0, b0, n0 = d.erases, d.prog, d.read_bytes, d.reads
        save(st, v)
        er.append(d.erases - e0)
        pr.append(d.prog - p0)
        rb.append(d.read_bytes - b0)
        rn.append(d.reads - n0)
    print("SIGS", name, se, " ".join(str(x) for x in er), "/", " ".join(str(x) for x in pr), "/",
          " ".join(str(x) for x in rb), "/", " ".join(str(x) for x in rn))
    vfs.umount("/f")


sig_run("sigs_json", lambda st, v: st.save("sigs.json", v))      # the store before: one file, temp and rename
sig_run("sig_files", lambda st, v: st.save_signatures(v))        # the store now: sig/, the entries that changed



def sig_rename(st, v):
    """sig/'s files as the store writes them, but each with a temp file and
    a rename (store.safe.write; the store's first sig/ version). Not the
    store."""
    import json

    from store import safe
    from store.state import sig_name
    held = RENAMED
    for b in v:
        if held.get(b) != v[b]:
            safe.write("/f/sig/" + sig_name(b), json.dumps([b, v[b]]) + "\n")
            held[b] = v[b]


RENAMED = {}
sig_run("sig_rename", sig_rename)
