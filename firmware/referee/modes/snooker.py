"""爆丸斯诺克 Bakugan Snooker (rule sheet 000): any number of players each
shoot a round of 6 throws in turn at 6 cards; a Bakugan that opens on a card
scores the card's points (its HSP); after every player's round the highest
total wins. Rules and decisions: docs/modes/snooker.md."""
from referee.errors import SetupError
from referee.modes.variant import Variant, _show

SHOTS = 6


class Game(Variant):
    MODE = "snooker"
    MIN_PLAYERS = 1
    MAX_PLAYERS = 6
    HSP_DEFAULT = 1  # a card without "hsp" scores one point
    RELAND = True  # a shot may open again on the card it was picked up from
    STATE = Variant.STATE + ("shots", "points", "hits")
    # "准备6张基地卡，爆丸6个": 6 cards in all; each player shoots the 6
    # Bakugan (one set may be listed under every player with other ids).
    KIT = (("bakugan", 6, "爆丸6个"), ("cards", 6, "准备6张基地卡"))
    KIT_TOTAL = ("cards",)
    # The sheet says only "最分数高的获胜" (the highest score wins).
    END_NOTE = "scoring and tie-break are the project's own, the sheet gives none: docs/modes/snooker.md"

    def check_header(self, header):
        s = header.get("shots", SHOTS)
        if type(s) is not int or s < 1:
            raise SetupError("header.shots: expected a positive integer, got %s" % _show(s))
        if not self.gate_ids:
            raise SetupError("header.players: snooker needs at least one card (players[].gates)")

    def init_state(self):
        self.n_shots = self.header.get("shots", SHOTS)
        self.shots = [0] * self.n
        self.points = [0] * self.n
        self.hits = [0] * self.n

    def opening(self, p):
        return len(self.header["players"][p]["gates"])

    def zone_role(self, z):
        return "target"

    def throwable(self, p):
        return [b for b in self.bak_ids if self.bak_owner[b] == p]

    def check_throw(self, b):
        pass  # from the hand or picked up from a card

    def throw_failed(self, b, reason, t):
        p = self.bak_owner[b]
        if self.loc[b] >= 0:
            self._vacate(b)
        self.emit("miss", t, (("player", p), ("bakugan", b), ("reason", reason)))
        self.shot(p, b, None, 0, t)

    def double(self, p, b, z, own, t):
        self.stood(p, b, z, t)

    def arrive(self, b, z, t):
        # No battles: every Bakugan may open on any card.
        p = self.bak_owner[b]
        self.put(b, z)
        self.emit("stand", t, (("player", p), ("bakugan", b), ("zone", z)))
        self.stood(p, b, z, t)
        self.end_turn(t)

    def stood(self, p, b, z, t):
        self.hits[p] += 1
        self.shot(p, b, z, self.hsp[self.field[z]], t)

    def shot(self, p, b, z, pts, t):
        self.shots[p] += 1
        self.points[p] += pts
        self.emit("shot", t, (("player", p), ("bakugan", b), ("zone", z), ("points", pts),
                              ("total", self.points[p]), ("left", self.n_shots - self.shots[p])))

    def turn_done(self):
        return self.shots[self.turn] >= self.n_shots

    def new_turn(self, t):
        # The previous round's Bakugan are picked up from the cards.
        for b in self.bak_ids:
            if self.loc[b] >= 0:
                self._vacate(b)

    def check_end(self, t):
        for p in range(self.n):
            if self.shots[p] < self.n_shots:
                return
        for b in self.bak_ids:
            if self.loc[b] >= 0:
                self._vacate(b)
        self.final(t, "every player shot %d times" % self.n_shots)

    def score(self, p):
        return self.points[p]

    def tiebreak(self, p):
        return self.hits[p]
