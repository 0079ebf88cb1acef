"""What the board keeps across power loss (docs/formats/board-state-v1.md):

    game.ndj    the game in progress, as an event log v1: the header line,
                then every input event the referee accepted, one per line.
                After a reboot the board replays it (the referee is
                deterministic), so it resumes exactly after the last event
                whose save completed.
    sigs.json   registered Bakugan signatures {bakugan id: value}
    calib.json  sensor calibration (whatever the pipeline exports)
    claims.json the phone page's claims of this game {"codes": [token or
                null per side]} (link/webapp.py): a reset keeps every phone
                on its side; removed when a new game starts
    maint       present = boot into maintenance mode (docs/runtime.md)

Every write goes through store.safe: temp file + rename, except an event,
which is appended to game.ndj in place (safe.append: one short write, no
copy of the game; a part line a failed append left at the end is dropped,
at boot and before the next append: docs/formats/board-state-v1.md).
"""
import json

from store import safe

GAME = "game.ndj"
SIGS = "sigs.json"
CALIB = "calib.json"
MAINT = "maint"
CLAIMS = "claims.json"


class StoreError(Exception):
    pass


class State:
    def __init__(self, root=""):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self._buf = bytearray(256)
        self.saves = 0
        self.errors = 0
        self.torn = 0              # part lines dropped from the game's end
        self._check_tail = False   # an append failed: its part line may be there

    def path(self, name):
        return self.root + name

    def cleanup(self):
        """At boot: drop temp files a power cut left behind."""
        for name in (GAME, SIGS, CALIB, MAINT, CLAIMS):
            safe.remove_quietly(self.path(name) + safe.TMP)
        try:
            self._mend()
        except OSError:
            self._check_tail = True

    def _mend(self):
        """Drop a part line an append left at the game's end (a failed
        write: its event was never acknowledged)."""
        p = self.path(GAME)
        if not safe.tail_ok(p):
            safe.cut_tail(p, self._buf)
            self.torn += 1
        self._check_tail = False

    # -------------------------------------------------------------- game
    def game_start(self, header):
        h = {}
        for k in header:
            h[k] = header[k]
        h["bakumat"] = "events"
        h["version"] = 1
        safe.write_json(self.path(GAME), h)
        self._check_tail = False
        self.saves += 1

    def game_append(self, ev):
        """Add one accepted event: appended in place (the rest of the file
        is not copied: a save's flash work is the file's last block)."""
        if self._check_tail:
            self._mend()
        try:
            safe.append(self.path(GAME), (json.dumps(ev) + "\n").encode())
        except OSError:
            self._check_tail = True
            raise
        self.saves += 1

    def game_exists(self):
        return safe.exists(self.path(GAME))

    def game_lines(self):
        """Iterate (line number, object) over the stored game, header first;
        nothing if there is none. StoreError names a broken line."""
        try:
            f = open(self.path(GAME), "rb")
        except OSError:
            return
        try:
            n = 0
            while True:
                line = f.readline()
                if not line:
                    break
                n += 1
                if line[-1] != 10:
                    break          # a part line a failed append left (never acknowledged)
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except ValueError:
                    raise StoreError("%s line %d: not JSON" % (GAME, n))
                if type(obj) is not dict:
                    raise StoreError("%s line %d: not an object" % (GAME, n))
                yield n, obj
        finally:
            f.close()

    def game_load(self):
        """(header, [events]) or None: for tests and the host; the board
        replays with game_lines() without holding the list."""
        header = None
        events = []
        for n, obj in self.game_lines():
            if header is None:
                header = obj
            else:
                events.append(obj)
        if header is None:
            return None
        return header, events

    # ---------------------------------------------------- small objects
    def save(self, name, obj):
        safe.write(self.path(name), json.dumps(obj))
        self.saves += 1

    def load(self, name, default=None):
        data = safe.read(self.path(name))
        if data is None:
            return default
        try:
            return json.loads(data)
        except ValueError:
            raise StoreError("%s: not JSON" % name)

    def save_signatures(self, sigs):
        self.save(SIGS, sigs)

    def load_signatures(self):
        return self.load(SIGS, {})

    def save_calibration(self, calib):
        self.save(CALIB, calib)

    def load_calibration(self):
        return self.load(CALIB)

    def save_claims(self, codes):
        """The phone page's claims (a list, one token or None per side);
        None: the claims are dropped (a new game)."""
        if codes is None:
            safe.remove_quietly(self.path(CLAIMS))
        else:
            self.save(CLAIMS, {"codes": codes})

    def load_claims(self):
        try:
            c = self.load(CLAIMS)
        except StoreError:
            return None
        return c.get("codes") if type(c) is dict else None

    # ------------------------------------------------------ maintenance
    def maint(self):
        return safe.exists(self.path(MAINT))

    def set_maint(self, on):
        if on:
            safe.write(self.path(MAINT), "maintenance mode: delete this file (maint.leave()) to run the app\n")
        else:
            safe.remove_quietly(self.path(MAINT))
