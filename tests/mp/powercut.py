"""Power cut at every block write of a game's worth of saves, on littlefs.

    micropython tests/mp/powercut.py FIRMWARE_DIR [mode] [saves] [tmpdir]

mode: "cut" (the write at the cut does not happen), "torn" (only the
first half of that write lands), "naive" (a deliberately unsafe writer that
rewrites files in place: the harness must catch it breaking the state).
Runs the board's real store (firmware/store, board-state v2: the header in
game.ndj, an event per file) on vfs.VfsLfs2 over a RAM block device shaped
like ESP32 flash (4 KB erase blocks), through two games: the second one
starts over the first one's events (its directories made, its header
saved, the first one's files removed), with the sensing's signature saves
(sig/, a file a Bakugan; the first one replaces the sigs.json an earlier
firmware left on the flash). For every cut point: the flash as the
previous step left it, run the step until the power fails, remount the
block device as it was left, load the state (the game through the store's
reader, as the board resumes it; the signatures as load_signatures()
gives them) and check it equals the state before or after the step that
was interrupted, except that a signatures save cut half-way may leave some
Bakugan with their new value and the others with their old one (each one
its old or its new value, never another); then check the store takes
that step again (the same state as without the cut; after a new game, no
event directory but its own) and the filesystem takes a save. Prints
"RESULT mode=M saves=N writes=N cuts=N ok=N bad=N stepscut=N redo=N mixed=N"
(stepscut: the steps that had a cut point; redo: the cut steps taken again;
mixed: the cuts that left a signatures save in part) and exits 1
on any bad state (except in naive mode, where it exits 1 if nothing was
caught).
"""
import sys
import os
import vfs
import hashlib

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
from store.state import State  # noqa: E402
from store import safe  # noqa: E402

MODE = sys.argv[2] if len(sys.argv) > 2 else "cut"
SAVES = int(sys.argv[3]) if len(sys.argv) > 3 else 60
TMPDIR = sys.argv[4] if len(sys.argv) > 4 else "/tmp"


from ramflash import RAMBlockDev as _Dev, PowerCut, BS, NBLOCKS  # noqa: E402


NB = 32          # 128 KB: two games' event directories (a metadata pair each) and room to spare


def RAMBlockDev(data=None):
    return _Dev(data, MODE, NB)


HEADER = {"mode": "official", "first": 0, "target": 3, "players": [
    {"name": "Dan", "bakugan": [{"id": "drago", "attr": "pyrus", "g": 450}],
     "gates": [{"id": "dan-gold", "bonus": {"pyrus": 100}}], "abilities": []},
    {"name": "Runo", "bakugan": [{"id": "tigrerra", "attr": "haos", "g": 440}],
     "gates": [{"id": "runo-gold", "bonus": {"haos": 100}}], "abilities": []}]}


HEADER2 = dict(HEADER)
HEADER2["target"] = 2


# what an earlier firmware left: its signatures in one file
OLD_SIGS = '{"drago": 999.5, "tigrerra": -799, "gorem": 33.25}'


def script():
    """The saves of two games: (kind, arg) steps."""
    steps = [("start", HEADER)]
    for i in range(SAVES):
        if i == SAVES * 2 // 3:
            steps.append(("start", HEADER2))     # a new game over the first one's events
        elif i % 15 == 7:
            # a lesson: two Bakugan's signatures change (the first one
            # writes sigs.json's entries into sig/ and removes it), one is
            # learnt for the first time from the second lesson on
            sigs = {"drago": 1000 + i + 0.125, "tigrerra": -800 - i, "gorem": 33.25}
            if i > 7:
                sigs["dragonoid x"] = 3.0 * i     # not a plain file name
            steps.append(("sigs", sigs))
        elif i % 20 == 11:
            steps.append(("calib", {"zero": [2180 + i] * 8}))
        else:
            steps.append(("ev", {"t": 1000 * i, "ev": "land", "zone": i % 16, "bakugan": "drago", "pad": "x" * (i % 37)}))
    return steps


class Naive(State):
    """Unsafe on purpose (what store.safe must never do): remove the old
    file first, then write the new one with a flush() in the middle."""
    def _rewrite(self, name, data):
        p = self.path(name)
        safe.remove_quietly(p)
        f = open(p, "wb")
        h = len(data) // 2
        f.write(data[:h])
        f.flush()
        f.write(data[h:])
        f.close()

    def game_start(self, header):
        import json
        h = dict(header)
        h["bakumat"] = "events"
        h["version"] = 1
        self._rewrite("game.ndj", (json.dumps(h) + "\n").encode())   # a v1 game file

    def game_append(self, ev):
        import json
        old = safe.read(self.path("game.ndj")) or b""
        self._rewrite("game.ndj", old + (json.dumps(ev) + "\n").encode())

    def save(self, name, obj):
        import json
        self._rewrite(name, json.dumps(obj).encode())

    def save_signatures(self, sigs):
        self.save("sigs.json", sigs)


def booted(cls):
    """The store as the board has it after a boot: the stored game and the
    signatures read."""
    st = cls("/x")
    st.game_load()
    st.load_signatures()
    return st


def apply(st, step):
    k, a = step
    if k == "start":
        st.game_start(a)
    elif k == "ev":
        st.game_append(a)
    elif k == "sigs":
        st.save_signatures(a)
    else:
        st.save_calibration(a)


def snapshot(st):
    """The stored game as the store's reader gives it (the header, then
    each event: what the board resumes; not its game id, which a new game
    taken again after a cut may change) and the exact bytes of
    calib.json, as SHA-256 digests (None: absent; a digest, not the bytes:
    60 checkpoints of a game would fill the heap); the signatures as the
    store loads them (a small dict)."""
    import json
    h = hashlib.sha256()
    n = 0
    for lineno, obj in st.game_lines():
        h.update(json.dumps(obj).encode())
        h.update(b"\n")
        n += 1
    data = safe.read(st.path("calib.json"))
    return (h.digest() if n else None, None if data is None else hashlib.sha256(data).digest(),
            st.load_signatures())


def between(got, a, b):
    """got is state a, or b, or (a signatures save cut half-way) a's or b's
    game and calibration with each Bakugan's signature a's or b's."""
    if got == a or got == b:
        return True
    if type(got[2]) is not dict or got[:2] not in (a[:2], b[:2]):
        return False
    for k in got[2]:
        if k not in a[2] and k not in b[2]:
            return False
    for k in set(list(a[2]) + list(b[2])):
        if got[2].get(k) not in (a[2].get(k), b[2].get(k)):
            return False
    return True


def ev_dirs(st):
    """The event directories on the flash that are not the stored game's."""
    return [n for n in os.listdir("/x") if n[:2] == "ev" and n.split(".")[0] != "ev%s" % st.game]


def main():
    bad0 = [0]
    steps = script()
    cls = Naive if MODE == "naive" else State
    # Run the whole game once without cuts: after each step keep the flash
    # image (a checkpoint) and the state it holds.
    bd = RAMBlockDev()
    vfs.VfsLfs2.mkfs(bd)
    vfs.mount(vfs.VfsLfs2(bd), "/x")
    safe.write("/x/sigs.json", OLD_SIGS)     # the earlier firmware's signatures
    vfs.umount("/x")
    flash = bd.data
    mixed = 0
    exp = []
    for j in range(len(steps) + 1):
        # Checkpoints (the flash before step j) go to the host's disk, not
        # the heap: megabytes of live bytes make every collection slow.
        with open("%s/cp%d.bin" % (TMPDIR, j), "wb") as f:
            f.write(flash)
        vfs.mount(vfs.VfsLfs2(bd), "/x")
        st = State("/x")
        exp.append(snapshot(st))
        if j and steps[j - 1][0] == "start" and ev_dirs(st):
            print("BAD step", j - 1, "start left other games' directories:", ev_dirs(st))
            bad0[0] += 1
        if j < len(steps):
            apply(booted(cls), steps[j])
        vfs.umount("/x")
    ok = cuts = writes = stepscut = redo = 0
    bad = bad0[0]
    # For every step: boot on the flash as the previous step left it, run
    # the step with the power failing at its 1st, 2nd, ... block write,
    # until the step completes without reaching the cut.
    for j in range(len(steps)):
        cut = 0
        while True:
            with open("%s/cp%d.bin" % (TMPDIR, j), "rb") as f:
                f.readinto(flash)
            bd = RAMBlockDev(flash)
            bd.cut_at = cut
            vfs.mount(vfs.VfsLfs2(bd), "/x")
            try:
                apply(booted(cls), steps[j])
                completed = True
            except PowerCut:
                completed = False
            try:
                vfs.umount("/x")
            except Exception:
                pass
            if completed:
                writes += bd.writes
                break
            if not cut:
                stepscut += 1
            cuts += 1
            bd2 = RAMBlockDev(flash)     # power back: the flash as it was left
            try:
                vfs.mount(vfs.VfsLfs2(bd2), "/x")
            except Exception as e:
                print("BAD step", j, "cut", cut, "mount failed:", e)
                bad += 1
                cut += 1
                continue
            st2 = State("/x")
            st2.cleanup()
            try:
                got = snapshot(st2)
            except Exception as e:
                got = ("error", repr(e), None)
            if between(got, exp[j], exp[j + 1]):
                ok += 1
                mixed += got != exp[j] and got != exp[j + 1]
            else:
                bad += 1
                if bad <= 5:
                    print("BAD step", j, steps[j][0], "cut at write", cut, "got", got, "want", exp[j], "or", exp[j + 1])
            if MODE != "naive" and got != exp[j + 1] and between(got, exp[j], exp[j + 1]):
                # the step did not happen (or a signatures save only in
                # part): the board takes it again, to the state it would
                # have had without the cut
                redo += 1
                try:
                    apply(st2, steps[j])
                    again = snapshot(st2)
                    if again != exp[j + 1]:
                        raise ValueError("state %s, want %s" % (again, exp[j + 1]))
                    if steps[j][0] == "start" and ev_dirs(st2):
                        raise ValueError("other games' directories left: %s" % ev_dirs(st2))
                except Exception as e:
                    bad += 1
                    print("BAD step", j, steps[j][0], "cut", cut, "the step again after the cut:", repr(e))
            try:
                st2.save_calibration({"after": cut})
                if st2.load_calibration() != {"after": cut}:
                    raise ValueError("save after the cut did not stick")
            except Exception as e:
                bad += 1
                print("BAD step", j, "cut", cut, "filesystem unusable after remount:", e)
            vfs.umount("/x")
            cut += 1
    for j in range(len(steps) + 1):
        os.remove("%s/cp%d.bin" % (TMPDIR, j))
    print("RESULT mode=%s saves=%d writes=%d cuts=%d ok=%d bad=%d stepscut=%d redo=%d mixed=%d"
          % (MODE, len(steps), writes, cuts, ok, bad, stepscut, redo, mixed))
    if MODE == "naive":
        sys.exit(0 if bad > 0 else 1)
    sys.exit(1 if bad else 0)


main()
