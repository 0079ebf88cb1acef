"""The table of the Chinese variant modes (base of modes/variant.py): the
cards' score values and item cards read from the header, zones that hold a
card position, pieces seized, put out of play or waiting to be put back by
hand, refills owed, players leaving, the final score and the view. The
rules (hooks and handlers) are in modes/variant.py.
"""
from referee.engine import Engine, OUT, OVER, UNUSED, USED
from referee.errors import SetupError
from referee import header as _header

ATTRIBUTES = _header.ATTRIBUTES


def _show(v):
    s = repr(v)
    return s if len(s) < 40 else s[:37] + "..."


class VariantState(Engine):
    CARD = ("card", "card")  # how rejects name the cards
    CARD_WHERE = ("on zone %d", "in the hand", "captured", "out of play")
    MAX_ABILITIES = 0
    HSP_DEFAULT = 0  # a card's score value when the header gives no "hsp"
    # Dynamic state besides the engine's, copied by the snapshot (State.STATE).
    STATE = ("active", "prev", "seized", "prizes", "void_b", "void_c", "void_i", "gone",
             "refills", "acted", "hsp", "put_back")
    # What the sheet has each player bring: ((key, count, the sheet's words),
    # ...), key "bakugan" or "cards" (exact counts) or "attributes" (at least
    # that many different attributes among a player's Bakugan).
    # The header's optional "kit" object sets another count (0: any) for
    # players who own other sets (docs/modes/README.md, "Header fields").
    KIT = ()
    KIT_TOTAL = ()  # keys counted over all players together (snooker's cards)

    def __init__(self, header, sink=None):
        """Reads the cards' score values and the item cards; sets up the
        variant's state (the rules' own header checks: Variant.__init__)."""
        Engine.__init__(self, header, sink)
        players = header["players"]
        n = self.n
        self.hsp = {}
        self.abil_attr = []
        self.abil_cmd = []
        self.abil_hsp = []
        for i in range(n):
            p = players[i]
            where = "players[%d]" % i
            gates = p["gates"]
            for j in range(len(gates)):
                gt = gates[j]
                v = gt.get("hsp", self.HSP_DEFAULT)
                if type(v) is not int or v < 0:
                    raise SetupError("%s.gates[%d].hsp: expected a non-negative integer, got %s" % (where, j, _show(v)))
                self.hsp[gt["id"]] = v
            abil = p.get("abilities", [])
            if len(abil) > self.MAX_ABILITIES:
                if self.MAX_ABILITIES == 0:
                    raise SetupError("%s.abilities: mode %s has no ability cards" % (where, self.MODE))
                raise SetupError("%s.abilities: mode %s allows at most %d per player, got %d" % (
                    where, self.MODE, self.MAX_ABILITIES, len(abil)))
            at = {}
            cmd = {}
            hs = {}
            for j in range(len(abil)):
                a = abil[j]
                w = "%s.abilities[%d]" % (where, j)
                aid = a["id"]
                v = a.get("attr")
                if v is not None and v not in ATTRIBUTES:
                    raise SetupError("%s.attr: unknown attribute %s (known: %s)" % (w, _show(v), ", ".join(ATTRIBUTES)))
                at[aid] = v
                v = a.get("command", aid)
                if type(v) is not str or not v:
                    raise SetupError("%s.command: expected a non-empty string, got %s" % (w, _show(v)))
                cmd[aid] = v
                v = a.get("hsp", 0)
                if type(v) is not int or v < 0:
                    raise SetupError("%s.hsp: expected a non-negative integer, got %s" % (w, _show(v)))
                hs[aid] = v
            self.abil_attr.append(at)
            self.abil_cmd.append(cmd)
            self.abil_hsp.append(hs)
        self.active = []  # zones with a card position, sorted
        self.prev = {}  # Bakugan -> where it was thrown from last (zone or UNUSED)
        self.seized = [[] for _ in range(n)]  # Bakugan taken by each player
        self.prizes = [[] for _ in range(n)]  # [owner, item card] taken by each player
        self.void_b = []  # Bakugan out of play, not scored
        self.void_c = []  # cards out of play
        self.void_i = []  # [owner, item card] out of play
        self.gone = [0] * n  # 1: the player has left the game
        self.refills = []  # [[player, zone]] cards owed, in order
        self.acted = []  # players who played a card or passed in this battle
        # Bakugan the referee has standing on a zone where the players still
        # have to put them by hand (after a failed throw from a card, a step
        # back, the compass turn): expects() offers them to identification,
        # and their landing there is a silent confirmation, not a throw.
        self.put_back = []

    def check_kit(self, header):
        """The sheet's counts (KIT), or the header's kit where it sets one."""
        kit = header.get("kit", {})
        if type(kit) is not dict:
            raise SetupError("header.kit: expected an object")
        keys = [k[0] for k in self.KIT]
        for k in kit:
            if k not in keys or type(kit[k]) is not int or kit[k] < 0:
                raise SetupError("header.kit.%s: mode %s counts %s, each a non-negative integer (0: any)" % (
                    k, self.MODE, ", ".join(keys) or "nothing"))
        players = header["players"]
        for (k, sheet, words) in self.KIT:
            want = kit.get(k, sheet)
            total = k in self.KIT_TOTAL
            got = 0
            for i in range(self.n):
                if k == "attributes":  # at least `want` different ones
                    seen = []
                    for b in players[i]["bakugan"]:
                        if b["attr"] not in seen:
                            seen.append(b["attr"])
                    got = len(seen)
                    bad = got < want
                else:
                    got = got + len(players[i]["gates" if k == "cards" else k]) if total else \
                        len(players[i]["gates" if k == "cards" else k])
                    bad = got != want and (not total or i == self.n - 1)
                if want and bad:
                    raise SetupError("%s: mode %s needs %d %s%s, got %d (%s)" % (
                        "header.players" if total else "players[%d].%s" % (i, "gates" if k == "cards" else "bakugan"),
                        self.MODE, want, "different attributes" if k == "attributes" else k,
                        " in all" if total else " per player", got,
                        "header.kit.%s" % k if k in kit else "the sheet: %s; header.kit.%s changes the count" % (words, k)))

    def skips(self, p):
        """True if p's turns are skipped: p has left (central-battlefield
        modes: or has no Bakugan in the hand, all standing on cards)."""
        return self.gone[p]

    def next_player(self, p):
        for i in range(1, self.n + 1):
            q = (p + i) % self.n
            if not self.skips(q):
                return q
        return p

    def own_on(self, p, z):
        return [o for o in self.stand.get(z, ()) if self.bak_owner[o] == p]

    def activate(self, z):
        if z not in self.active:
            self.active.append(z)
            self.active.sort()

    def deactivate(self, z):
        if z in self.active:
            self.active.remove(z)

    def put_card(self, p, gid, z, t):
        self.activate(z)
        Engine.put_card(self, p, gid, z, t)

    def _vacate(self, b):
        Engine._vacate(self, b)
        if b in self.put_back:
            self.put_back.remove(b)

    def expect_back(self, b):
        """b stands on its zone for the referee but must be put there by
        hand."""
        if b not in self.put_back:
            self.put_back.append(b)

    def lift(self, b):
        """Take b off the zone it stands on (it is being thrown or moved)."""
        self._vacate(b)

    def send_back(self, b, reason, t):
        """b goes back to its owner's launch point (the hand)."""
        self._vacate(b)
        self.emit("back", t, (("player", self.bak_owner[b]), ("bakugan", b), ("reason", reason)))

    def seize(self, p, b, t):
        """Player p takes Bakugan b (scored as its G, never thrown again)."""
        self._vacate(b)
        self.loc[b] = OUT
        self.seized[p].append(b)
        self.emit("seize", t, (("player", p), ("bakugan", b)))

    def retire(self, b, reason, t):
        """b leaves play without being scored (the sheets' 作废)."""
        self._vacate(b)
        self.loc[b] = OUT
        self.void_b.append(b)
        self.emit("void", t, (("what", "bakugan"), ("id", b), ("reason", reason)))

    def take_card(self, p, z, reason, t):
        """Player p captures the card on zone z (scored as its HSP); the
        zone keeps its position, waiting for a refill."""
        gid = self.field.pop(z)
        self.gloc[gid] = USED
        self.captured[p].append(gid)
        self.emit("capture", t, (("player", p), ("gate", gid), ("zone", z), ("reason", reason)))

    def void_card(self, z, reason, t):
        gid = self.field.pop(z)
        self.gloc[gid] = OUT
        self.void_c.append(gid)
        self.emit("void", t, (("what", "card"), ("id", gid), ("reason", reason)))

    def owe_refill(self, p, z, t):
        """p must place a card from the hand on zone z; False if p has none
        (or has left the game)."""
        if self.gone[p] or not self.gates_in_hand(p):
            return False
        self.refills.append([p, z])
        self.emit("refill", t, (("player", p), ("zone", z)))
        return True

    def keep(self, p, z, b, t, picked=False):
        """Of p's Bakugan on zone z, b stays; the others go back to the hand."""
        if picked:
            self.emit("picked", t, (("player", p), ("bakugan", b), ("for", "stay")))
        for o in self.own_on(p, z):
            if o != b:
                self.send_back(o, "one Bakugan per card", t)

    def leave(self, p, reason, t):
        """p leaves: what is left in the hand is out of play; Bakugan on
        the field still fight."""
        self.gone[p] = 1
        self.emit("leave", t, (("player", p), ("reason", reason)))
        for b in self.owned(p, UNUSED):
            self.retire(b, "left the game", t)
        for g in self.gates_in_hand(p):
            self.gloc[g] = OUT
            self.void_c.append(g)
            self.emit("void", t, (("what", "card"), ("id", g), ("reason", "left the game")))

    def lost(self, p):
        """Why p must leave (the sheet's 输完爆丸或卡片: all their Bakugan or
        all their cards lost: none in the hand and none on the field), or
        None."""
        if not self.owned(p, UNUSED) and not self.standing(p):
            return "lost all their Bakugan"
        if not self.gates_in_hand(p) and not [g for g in self.gate_ids
                                              if self.gate_owner[g] == p and self.gloc[g] >= 0]:
            return "lost all their cards"
        return None

    def leave_lost(self, t, owing=()):
        """Every player still in the game who has lost all their Bakugan
        or cards leaves, in seating order (but the players in `owing`)."""
        for p in range(self.n):
            if not self.gone[p] and p not in owing:
                why = self.lost(p)
                if why is not None:
                    self.leave(p, why, t)

    def check_leaves(self, t):
        """The central-battlefield rule (zhulu's sheet): "玩家输完爆丸或卡片
        则要退场": a player who has lost all their Bakugan (none in the hand
        or on the field) or all their cards (likewise) leaves; "当只剩一位
        玩家同时有爆丸和卡片时，该局游戏结束": with one player left the game
        is scored. A player whose Bakugan all stand on cards stays (skips()
        passes their turns); when nobody still in the game has a Bakugan in
        the hand, nobody can throw and the game is scored too. A player
        owing a refill places it first (baolie; zhulu's battles make the
        loser leave before a refill is owed: modes/zhulu.py)."""
        self.leave_lost(t, [r[0] for r in self.refills])
        left = [p for p in range(self.n) if not self.gone[p]]
        if len(left) <= 1:
            self.final(t, "one player left" if left else "no player left")
            return
        if not self.refills:
            for p in left:
                if self.owned(p, UNUSED):
                    return
            self.final(t, "no Bakugan left in any hand")

    def declare(self, p, t, reason=None):
        self.winner = p
        self.phase = OVER
        self.battle = None
        self.choice = None
        if reason is None:
            self.emit("win", t, (("player", p),))
        else:
            self.emit("win", t, (("player", p), ("reason", reason)))

    def score(self, p):
        s = 0
        for b in self.seized[p]:
            s += self.bak_g[b]
        for g in self.captured[p]:
            s += self.hsp[g]
        for (q, c) in self.prizes[p]:
            s += self.abil_hsp[q][c]
        return s

    def final(self, t, reason):
        """Game over by the rules: rank by score, then by tiebreak()."""
        scores = [self.score(p) for p in range(self.n)]
        left = [self.tiebreak(p) for p in range(self.n)]
        self.emit("score", t, (("scores", scores), ("left", left), ("reason", reason)))
        best = max(scores)
        cands = [p for p in range(self.n) if scores[p] == best]
        if len(cands) > 1:
            most = max([left[p] for p in cands])
            cands = [p for p in cands if left[p] == most]
        if len(cands) == 1:
            self.declare(cands[0], t)
            return
        self.phase = OVER
        self.battle = None
        self.choice = None
        self.emit("stalemate", t, (("reason", "draw: %s tie on score and pieces left" % " and ".join(
            [self.names[p] for p in cands])),))

    def zone_owner(self, z):
        g = self.field.get(z)
        return None if g is None else self.gate_owner[g]

    def zone_role(self, z):
        return "card"

    def roles(self):
        """{zone: [owner, role]} of the mode's fixed layout (for displays)."""
        return {}

    def tiebreak(self, p):
        """Second key of the final ranking: pieces left (own Bakugan and
        cards neither seized, captured nor out of play)."""
        k = 0
        for b in self.bak_ids:
            if self.bak_owner[b] == p and self.loc[b] != OUT:
                k += 1
        for g in self.gate_ids:
            if self.gate_owner[g] == p and self.gloc[g] != OUT and self.gloc[g] != USED:
                k += 1
        return k

    # ---------------------------------------------------------------- views
    def view(self):
        zones = {}
        for z in self.active:
            zones[z] = {"gate": self.field.get(z), "owner": self.zone_owner(z),
                        "bakugan": list(self.stand.get(z, ())), "role": self.zone_role(z)}
        bt, lb = self.view_battles()
        ch = None
        if self.choice is not None:
            ch = {"player": self.choice[0], "zone": self.choice[1]}
        return {
            "mode": self.MODE,
            "phase": ("setup", "play", "refill", "over")[self.phase],
            "turn": self.turn,
            "zones": zones,
            "roles": self.roles(),
            "captured": [list(c) for c in self.captured],
            "seized": [list(s) for s in self.seized],
            "scores": [self.score(p) for p in range(self.n)],
            "gone": [p for p in range(self.n) if self.gone[p]],
            "refills": [list(r) for r in self.refills],
            "put_back": [[b, self.loc[b]] for b in self.put_back],
            "winner": self.winner,
            "battle": bt,
            "choice": ch,
            "last_battle": lb,
        }

