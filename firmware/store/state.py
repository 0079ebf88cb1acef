"""What the board keeps across power loss (docs/formats/board-state-v2.md):

    game.ndj    the game in progress: one line, its event log v1 header
                with the game's id ("game") and "state": 2 (its events are
                stored one file each, below)
    ev<id>.<k>/<i>  event i of game id (k = i % 4): one line, the input
                event the referee accepted. The 4 directories are made when
                the game starts; after a reboot the board replays the header
                and events 0, 1, 2... up to the first missing one (the
                referee is deterministic), so it resumes exactly after the
                last event whose save completed.
    sig/<name>  a learnt Bakugan signature, one file each: one line, the
                JSON [bakugan id, value]; <name> is the id itself when it is
                at most 32 of [A-Za-z0-9_-], else "%" and the hex of its
                UTF-8 bytes (sig_name). A save rewrites in place only the
                entries that changed (a lesson: 1-2 files, small enough to
                stay inline in the directory's metadata; littlefs commits
                each at close). The directory is made when a game
                starts (or at the first save).
    sigs.json   the signatures as the earlier firmware kept them, {bakugan
                id: value}: still read (sig/ wins over it) and replaced by
                sig/ at the first save
    calib.json  sensor calibration (whatever the pipeline exports)
    claims.json the phone page's claims of this game {"codes": [token or
                null per side]} (link/webapp.py): a reset keeps every phone
                on its side; removed when a new game starts
    maint       present = boot into maintenance mode (docs/runtime.md)

Every write goes through store.safe: temp file + rename, except an event,
which is a new small file written once and closed (littlefs commits it at
close: a cut leaves it absent, empty or whole; a file that is not a whole
line is no event). A game.ndj of board-state v1 (docs/formats/
board-state-v1.md: the events appended to it, no "state" field) is read as
well and a game resumed from it goes on appended in place (safe.append).
"""
import json
import os

from store import safe

GAME = "game.ndj"
SIGS = "sigs.json"
CALIB = "calib.json"
MAINT = "maint"
CLAIMS = "claims.json"
SIGDIR = "sig"
# a signature's file is named by its id when the id is only these and at
# most _PLAIN long; "%" (not one of them) starts the other names
_PLAIN_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"
_PLAIN = 32
# an id of more UTF-8 bytes than this is named by its SHA-256 ("=" and the
# hex): littlefs takes names of up to 255 bytes, the temp file's included
_HEX = 120
# the board-state version a game.ndj header carries ("state"); without it: 1
VERSION = 2


class StoreError(Exception):
    pass


def sig_name(bid):
    """The name of Bakugan bid's signature file in sig/."""
    if 0 < len(bid) <= _PLAIN:
        for c in bid:
            if c not in _PLAIN_CHARS:
                break
        else:
            return bid
    raw = bid.encode()
    pre = "%"
    if len(raw) > _HEX:
        import hashlib
        raw = hashlib.sha256(raw).digest()
        pre = "="
    return pre + "".join("%02x" % b for b in raw)


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
        self.game = None           # the stored game's id (None: board-state v1, events in game.ndj)
        self.events = 0            # the stored game's events (the next one's number)
        self._sig = None           # what sig/ holds {bakugan id: value} (None: not read yet)
        self._sigdir = False       # sig/ exists
        self._sigs_old = False     # a sigs.json (the earlier firmware's) is there

    def path(self, name):
        return self.root + name

    def cleanup(self):
        """At boot: drop temp files a power cut left behind."""
        for name in (GAME, SIGS, CALIB, MAINT, CLAIMS):
            safe.remove_quietly(self.path(name) + safe.TMP)
        d = self.path(SIGDIR)
        try:
            names = os.listdir(d)
        except OSError:
            names = ()
        for n in names:
            if n.endswith(safe.TMP):
                safe.remove_quietly(d + "/" + n)
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
    def _ev(self, i, g=None):
        """Event i's file (of game g: by default the stored one's); for
        i < 4, [:-2] is its directory."""
        return "%sev%d.%d/%d" % (self.root, self.game if g is None else g, i & 3, i)

    def _dirs(self):
        """(game id, path) of every event directory here."""
        for n in (os.listdir(self.root) if self.root else os.listdir()):
            i = n.find(".")
            if n[:2] == "ev" and i > 2:
                try:
                    yield int(n[2:i]), self.root + n
                except ValueError:
                    pass

    def game_start(self, header):
        """A new game: its 4 event directories, then its header (the switch:
        temp file and rename), then the previous game's directories go. A
        cut before the rename leaves the old game whole, after it the new
        one (empty directories or an old game's part left over are removed
        at the next new game)."""
        g = 1
        for i, d in self._dirs():
            if i >= g:
                g = i + 1
        for k in range(4):
            os.mkdir(self._ev(k, g)[:-2])
        try:
            self._sig_dir()        # its erase here, not in the tick of the first lesson
        except OSError:
            pass                   # (a full filesystem: the header's save says so)
        h = {}
        for k in header:
            h[k] = header[k]
        h["bakumat"] = "events"
        h["version"] = 1
        h["game"] = g
        h["state"] = VERSION
        safe.write_json(self.path(GAME), h)
        self._check_tail = False
        self.game = g
        self.events = 0
        self.saves += 1
        self.game_sweep()

    def game_sweep(self):
        """Remove every event directory but the stored game's (what a new
        game leaves of the previous one, or a cut of it)."""
        for g, d in list(self._dirs()):
            if g != self.game:
                try:
                    for n in os.listdir(d):
                        os.remove(d + "/" + n)
                    os.rmdir(d)
                except OSError:
                    pass

    def game_append(self, ev):
        """Add one accepted event: a file of its own, written once and
        closed (one small commit in its directory's metadata, no copy of
        the game); in a game of board-state v1, appended to game.ndj in
        place."""
        if self.game is None:
            if self._check_tail:
                self._mend()
            try:
                safe.append(self.path(GAME), (json.dumps(ev) + "\n").encode())
            except OSError:
                self._check_tail = True
                raise
        else:
            # a file a failed write left as this event (never acknowledged)
            # is replaced: "w" truncates it
            f = open(self._ev(self.events), "w")
            try:
                f.write(json.dumps(ev))
                f.write("\n")
            finally:
                f.close()
        self.events += 1
        self.saves += 1

    def game_exists(self):
        return safe.exists(self.path(GAME))

    def game_lines(self):
        """Iterate (line number, object) over the stored game as its event
        log v1: the header first (without the store's "game" and "state":
        self.game has the id), then the events (event i as line i + 2);
        nothing if there is none. StoreError names a broken line or event
        file. Sets self.game and self.events (how many were read)."""
        self.game = None
        self.events = 0
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
                if n == 1 and "state" in obj:
                    # board-state v2: the store's fields go, the rest is the
                    # game's event log v1 header
                    if obj.pop("state") != VERSION or type(obj.get("game")) is not int:
                        raise StoreError("%s: not board-state %d" % (GAME, VERSION))
                    self.game = obj.pop("game")
                elif n > 1:
                    if self.game is not None:
                        # an earlier firmware appended to a v2 game it read without its events
                        raise StoreError("%s line %d: an event inline in a board-state %d game" % (GAME, n, VERSION))
                    self.events += 1
                yield n, obj
        finally:
            f.close()
        if self.game is not None:
            while True:
                i = self.events
                line = safe.read(self._ev(i))
                if not line or line[-1] != 10:
                    break          # absent, or a save that did not complete: the game ends before it
                try:
                    obj = json.loads(line)
                except ValueError:
                    obj = None
                if type(obj) is not dict:
                    raise StoreError("%s: not a JSON object" % self._ev(i))
                self.events = i + 1
                yield i + 2, obj

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
        """Store sigs ({bakugan id: value}, all of them): only the entries
        whose value differs from what sig/ holds are written, each its own
        file rewritten in place (store.safe.overwrite: on littlefs a cut
        leaves each entry its old or its new value); an entry sig/ holds that sigs has not is
        removed. The first save after a sigs.json was read writes all its
        entries, then removes it (sig/ already wins over it)."""
        if self._sig is None:
            self.load_signatures()
        held = self._sig
        d = self.path(SIGDIR) + "/"
        wrote = 0
        for b in sigs:
            v = sigs[b]
            if b in held and held[b] == v:
                continue
            self._sig_dir()
            safe.overwrite(d + sig_name(b), json.dumps([b, v]) + "\n")
            held[b] = v
            wrote += 1
        if self._sigs_old:
            safe.remove_quietly(self.path(SIGS))
            self._sigs_old = False
            wrote += 1
        for b in [b for b in held if b not in sigs]:
            safe.remove_quietly(d + sig_name(b))
            del held[b]
            wrote += 1
        if wrote:
            self.saves += 1

    def _sig_dir(self):
        """Make sig/ unless it is there (a new game makes it: a directory's
        first metadata block is an erase, in the setup tick)."""
        if not self._sigdir:
            d = self.path(SIGDIR)
            try:
                os.mkdir(d)
            except OSError:
                if not safe.exists(d):
                    raise
            self._sigdir = True

    def load_signatures(self):
        """{bakugan id: value}: sig/'s entries over an earlier firmware's
        sigs.json. A file in sig/ that is not a whole entry (a temp file,
        anything unreadable) is skipped."""
        old = self.load(SIGS)
        self._sigs_old = old is not None
        out = {}
        if type(old) is dict:
            for b in old:
                out[b] = old[b]
        held = {}
        d = self.path(SIGDIR)
        try:
            names = os.listdir(d)
            self._sigdir = True
        except OSError:
            names = ()
            self._sigdir = False
        for n in names:
            if n.endswith(safe.TMP):
                continue
            data = safe.read(d + "/" + n)
            try:
                e = json.loads(data) if data else None
            except ValueError:
                continue
            if type(e) is not list or len(e) != 2 or type(e[0]) is not str \
                    or type(e[1]) not in (int, float) or sig_name(e[0]) != n:
                continue
            held[e[0]] = e[1]
            out[e[0]] = e[1]
        self._sig = held
        return out

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
