"""The app's saves under a power cut at every block write (MicroPython).

    micropython tests/mp/powercut_app.py FIRMWARE_DIR TESTS_DIR TMPDIR [mode]

Drives the real app (firmware/app.py on the fake board, tests/fwharness.py)
on littlefs (vfs.VfsLfs2) over a RAM block device (tests/mp/ramflash.py)
through a game: `cfg`, controls from the link and landings from the
sensing, the phone page's claims, a `cfg` refused by the header check and
one refused by the mode's own check mid-game, `end` with a battle pending,
an input after the end, a new game over the ended one and its first
input. For every step and every block write of it: the
power fails there, the board boots again on the flash as it was left and
resumes. Checked each time: the stored files are byte for byte the ones
before or after the step (the signatures as the store loads them: each
Bakugan's its value before or after the step, a lesson's save cut between
two Bakugan's files leaving one new and the other old); the resumed game equals a host replay of the
stored log (the game as the store's reader gives it, board-state v2: the
header in game.ndj, an event per file; through store.eventlog, what
`bakumat replay` reads) and the game as it was before or after the step;
the filesystem takes a save. Then a full filesystem (the next event's
directory full too): an input that cannot be saved is refused and the live
game stays the saved one. Prints "RESULT steps=N writes=N cuts=N ok=N bad=N saving=N stepscut=N mixed=N"
(saving: the steps that change the stored files; stepscut: the steps with a
cut point; mixed: the cuts that left a lesson's save in part)
and "FULL ok" (or BAD lines); exits 1 on any bad state.
"""
import sys
import os
import vfs

FW, TESTS, TMPDIR = sys.argv[1], sys.argv[2], sys.argv[3]
MODE = sys.argv[4] if len(sys.argv) > 4 else "cut"
sys.path.insert(0, FW)
sys.path.insert(0, TESTS)
sys.path.insert(0, TESTS + "/mp")
import json  # noqa: E402

from ramflash import RAMBlockDev, PowerCut  # noqa: E402
from fwharness import Rig, load_board, REPO  # noqa: E402
from store import safe  # noqa: E402
from store import eventlog  # noqa: E402
from store.state import State  # noqa: E402
from referee.journal import Journal  # noqa: E402

NB = 24          # 96 KB of flash: room for the game (its 4 event directories), the free space littlefs needs
ROOT = "/x"
FILES = ("claims.json",)
BOARD = load_board()


def sample():
    f = open(REPO + "/host_tools/samples/official.ndjson")
    h = json.loads(f.readline())
    evs = [json.loads(f.readline()) for _ in range(8)]
    f.close()
    del h["bakumat"]
    del h["version"]
    return h, evs


def script():
    header, evs = sample()
    steps = [("cfg", header)]
    for i in range(len(evs)):
        ev = evs[i]
        steps.append(("land" if ev["ev"] == "land" else "ctl", ev))
        if i == 2:
            steps.append(("claims", ["0123456789abcdef", None]))
        if i == 5:
            steps.append(("sigs", {"drago": 1234, "tigrerra": -987}))
        if i == 6:
            steps.append(("sigs", {"drago": 1234, "tigrerra": -990.5, "dragonoid x": 7.75}))
    deep = dict(header)
    deep["mode"] = "compass"     # a good header, but not for this mode
    steps.append(("cfgbad", {"mode": "official", "players": []}))
    steps.append(("cfgbad", deep))
    steps.append(("end", {}))
    steps.append(("late", {"ev": "gate", "player": 1, "gate": "runo-copper", "zone": 2}))
    # a new game over the ended one's events (their files removed), and its first input
    steps.append(("cfg", header))
    steps.append(("land" if evs[0]["ev"] == "land" else "ctl", evs[0]))
    return steps


def apply(app, step):
    k, a = step
    if k == "cfg" or k == "cfgbad":
        app.requests.handle(1, "cfg", a)
    elif k == "end":
        app.requests.handle(1, "end", {})
    elif k == "ctl" or k == "late":
        body = {}
        for key in a:
            if key != "t":
                body[key] = a[key]
        app.requests.handle(1, "ctl", body)
    elif k == "land":
        app.session.rec.feed({"t": app.session.now(), "ev": "land", "zone": a["zone"], "bakugan": a["bakugan"]})
    elif k == "claims":
        app.session.keep_claims(a)
    elif k == "sigs":
        app.store.save_signatures(a)
    app.link.drain_all()


def log_lines():
    """The stored game as event log v1 lines, through the store's reader
    (what the board resumes; the host's equivalent: host_tools/logs/boardstate)."""
    import json as j
    return [j.dumps(obj) + "\n" for _, obj in State(ROOT).game_lines()]


def snap():
    """The stored game's lines, the other files' bytes, and the signatures
    as the store loads them (the board's next game is taught them)."""
    return ("".join(log_lines()),) + tuple(safe.read(ROOT + "/" + name) for name in FILES) + \
        (State(ROOT).load_signatures(),)


def sigs_between(got, a, b):
    """got's files are a's or b's but for the signatures, where each
    Bakugan's is a's or b's (a lesson's save cut between two files)."""
    if got[:-1] not in (a[:-1], b[:-1]):
        return False
    for k in got[-1]:
        if k not in a[-1] and k not in b[-1]:
            return False
    for k in set(list(a[-1]) + list(b[-1])):
        if got[-1].get(k) not in (a[-1].get(k), b[-1].get(k)):
            return False
    return True


def live(app):
    """The board's game as it stands: (view, stored events it counts)."""
    return (app.session.game.view() if app.session.game is not None else None, app.session.events)


def replayed():
    """A host replay of the stored log (as bakumat replay reads it, without
    its final finish): (view, events), or (None, 0) without a game."""
    lines = log_lines()
    if not lines:
        return None, 0
    j = None
    n = 0
    for lineno, obj in eventlog.iter_log(lines, deep=False):
        if j is None:
            j = Journal(obj)
        else:
            if not j.feed(obj):
                raise ValueError("stored line %d rejected on replay" % lineno)
            n += 1
    return j.view(), n


def boot(data):
    bd = RAMBlockDev(data, MODE, NB)
    vfs.mount(vfs.VfsLfs2(bd), ROOT)
    return bd, Rig(BOARD, ROOT)


def down():
    try:
        vfs.umount(ROOT)
    except Exception:
        pass


def cp(j):
    return "%s/acp%d.bin" % (TMPDIR, j)


def main():
    steps = script()
    bd = RAMBlockDev(None, MODE, NB)
    vfs.VfsLfs2.mkfs(bd)
    flash = bd.data
    exp = []
    bad0 = 0
    for j in range(len(steps) + 1):
        with open(cp(j), "wb") as f:     # the flash before step j
            f.write(flash)
        bd, rig = boot(flash)
        exp.append((snap(), live(rig.app)))
        if j < len(steps):
            apply(rig.app, steps[j])
            games = set(n.split(".")[0] for n in os.listdir(ROOT) if n[:2] == "ev")
            if steps[j][0] == "cfg" and games != set(["ev%d" % rig.app.store.game]):
                print("BAD step", j, "a new game left other games' event directories:", games)
                bad0 += 1
        rig = None
        down()
    bad = bad0
    saving = 0
    # the script did what it says: each game step saved, the refused ones not
    for j in range(len(steps)):
        k = steps[j][0]
        same = exp[j][0] == exp[j + 1][0]
        saving += not same
        if (k in ("cfgbad", "late")) != same:
            print("BAD script step", j, k, "stored files", "unchanged" if same else "changed")
            bad += 1
    over = exp[[s[0] for s in steps].index("end") + 1]
    if over[1][0]["phase"] != "over" or '"ev": "end"' not in over[0][0]:
        print("BAD script: the game is not over after end")
        bad += 1
    ok = cuts = writes = stepscut = mixed = 0
    for j in range(len(steps)):
        cut = 0
        while True:
            with open(cp(j), "rb") as f:
                f.readinto(flash)
            bd, rig = boot(flash)
            base = bd.writes
            bd.cut_at = base + cut
            try:
                apply(rig.app, steps[j])
                completed = True
            except PowerCut:
                completed = False
            rig = None
            down()
            if completed:
                writes += bd.writes - base
                break
            stepscut += not cut
            cuts += 1
            try:
                bd2, rig2 = boot(flash)      # power back: the flash as it was left
            except Exception as e:
                print("BAD step", j, steps[j][0], "cut", cut, "no boot:", repr(e))
                bad += 1
                cut += 1
                down()
                continue
            try:
                got = snap()
                have = live(rig2.app)
                host = replayed()
            except Exception as e:
                got = have = host = ("error", repr(e))
            which = 0 if got == exp[j][0] else (1 if got == exp[j + 1][0] else -1)
            if which < 0 and steps[j][0] == "sigs" and sigs_between(got, exp[j][0], exp[j + 1][0]):
                which = 0 if got[:-1] == exp[j][0][:-1] else 1
                mixed += 1
            if which < 0 and steps[j][0] == "cfg" and got == (exp[j][0][0], None) + exp[j][0][2:]:
                # a new game drops the phones' claims before it saves its
                # header (session.new_game): a cut in between leaves the old
                # game without claims, never the new one with the old game's
                which = 0
            if which < 0 or have != exp[j + which][1] or host != have:
                bad += 1
                if bad <= 5:
                    print("BAD step", j, steps[j][0], "cut at write", cut, "files", which,
                          "live", have, "replay", host)
            else:
                ok += 1
            try:
                rig2.app.store.save_calibration({"after": cut})
                if rig2.app.store.load_calibration() != {"after": cut}:
                    raise ValueError("a save after the cut did not stick")
            except Exception as e:
                bad += 1
                print("BAD step", j, "cut", cut, "filesystem unusable after the cut:", repr(e))
            rig2 = None
            down()
            cut += 1
    bad += full(steps)
    for j in range(len(steps) + 1):
        os.remove(cp(j))
    print("RESULT steps=%d writes=%d cuts=%d ok=%d bad=%d saving=%d stepscut=%d mixed=%d"
          % (len(steps), writes, cuts, ok, bad, saving, stepscut, mixed))
    sys.exit(1 if bad else 0)


def junk(prefix, n, size):
    """Small files prefix<n>, prefix<n + 1>, ... of size bytes until the
    filesystem refuses one; returns the next n."""
    while True:
        try:
            f = open(prefix + "%d" % n, "wb")
            n += 1
            f.write(bytes(size))
            f.close()
        except OSError:
            return n


def fill():
    """Fill the filesystem: big writes, then smaller ones, then small
    files (littlefs keeps small files inline in metadata blocks)."""
    n = 0
    for size in (4096, 512, 64, 8):
        try:
            f = open(ROOT + "/junk%d" % n, "wb")
        except OSError:
            break
        n += 1
        try:
            while True:
                f.write(bytes(size))
        except OSError:
            pass
        try:
            f.close()
        except OSError:
            pass
    n = junk(ROOT + "/junk", n, 100)
    # what littlefs still finds (a block freed by compaction): to the last one
    for _ in range(8):
        if os.statvfs(ROOT)[3] == 0:
            break
        try:
            f = open(ROOT + "/junk%d" % n, "wb")
            n += 1
            try:
                while True:
                    f.write(bytes(256))
            except OSError:
                pass
            f.close()
        except OSError:
            pass


def full(steps):
    """A full filesystem mid-game: the input is refused, nothing changes."""
    j = [s[0] for s in steps].index("end")
    flash = bytearray(RAMBlockDev(None, MODE, NB).data)
    with open(cp(j), "rb") as f:
        f.readinto(flash)
    bd, rig = boot(flash)
    app = rig.app
    # a file kept open takes the last free block: an event is appended in
    # place, and littlefs frees the old last block of the file at each
    # append, so one free block is enough for appends for ever
    hold = open(ROOT + "/junk-hold", "wb")
    fill()
    # an event is a small file in its directory's metadata block: fill the
    # next one's directory too, so that its save needs a block
    st = app.store
    d = ROOT + "/ev%d.%d" % (st.game, st.events % 4)
    junk(d + "/junk", 0, 60)
    try:
        while True:
            hold.write(bytes(256))
    except OSError:
        pass
    before = snap()
    was = live(app)
    app.session.last_reject = None
    apply(app, ("ctl", {"ev": "resolve"}))
    why = app.session.last_reject or ""
    bad = 0
    if snap() != before or live(app) != was or replayed() != was or "not saved" not in why:
        print("BAD full filesystem: files", snap() == before, "live", live(app) == was, "why", why)
        bad += 1
    try:
        hold.close()
    except OSError:
        pass
    for name in os.listdir(ROOT):
        if name.startswith("junk"):
            os.remove(ROOT + "/" + name)
    for name in os.listdir(d):
        if name.startswith("junk"):
            os.remove(d + "/" + name)
    apply(app, ("ctl", {"ev": "resolve"}))
    if live(app)[1] != was[1] + 1 or replayed() != live(app):
        print("BAD full filesystem: no save once there was room again")
        bad += 1
    rig = None
    down()
    if not bad:
        print("FULL ok")
    return bad


main()
