"""龙争虎斗 (rule sheet 000): each player lays 4 cards in a row and puts
their Bakugan on them "as the player likes" (several on one card allowed);
a Bakugan thrown from its card at a guarded card of the other side battles
with both cards' values. longhu_support and normandy build on this module.
Rules and decisions: docs/modes/longhu.md."""
from referee.errors import Reject, SetupError
from referee.modes.variant import Variant

# Each player's row of cards: player 0 at the bottom, player 1 at the top.
ROWS = ((12, 13, 14, 15), (0, 1, 2, 3))


class Game(Variant):
    MODE = "longhu"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    STATE = Variant.STATE + ("home",)
    KIT = (("bakugan", 4, "爆丸4个"), ("cards", 4, "4张基础卡"))

    def check_header(self, header):
        players = header["players"]
        for i in range(self.n):
            ng = len(players[i]["gates"])
            if ng > len(ROWS[i]):
                raise SetupError("players[%d].gates: %s lays at most %d cards per player in the row, got %d" % (
                    i, self.MODE, len(ROWS[i]), ng))
            if ng < 1:
                raise SetupError("players[%d].gates: %s needs at least one card per player" % (i, self.MODE))

    def init_state(self):
        self.home = {}  # Bakugan -> the zone of its own card

    def opening(self, p):
        return len(self.header["players"][p]["gates"])

    def setup_zones(self, p):
        return ROWS[p]

    def setup_done(self):
        return len(self.home) == len(self.bak_ids)

    def setup_waiting(self):
        w = [self.names[i] for i in range(self.n) if self.owe[i] > 0]
        if w:
            return "%s must place their cards first" % ", ".join(w)
        w = [self.names[i] for i in range(self.n) if self.unplaced(i)]
        return "%s must place their Bakugan on their cards first" % ", ".join(w)

    def unplaced(self, p):
        return [b for b in self.bak_ids if self.bak_owner[b] == p and b not in self.home]

    def setup_land(self, b, z, t):
        p = self.bak_owner[b]
        if b in self.home:
            raise Reject("%s is already placed on zone %d" % (b, self.home[b]))
        g = self.field.get(z)
        if g is None or self.gate_owner[g] != p:
            raise Reject("%s goes on one of %s's own cards, not zone %d" % (b, self.names[p], z))
        # "在4张卡片中可随玩家自己喜好放置爆丸": several on one card allowed
        self.put(b, z)
        self.home[b] = z
        self.emit("stand", t, (("player", p), ("bakugan", b), ("zone", z)))
        self.maybe_start(t)

    def setup_expects(self):
        for p in range(self.n):
            if self.unplaced(p):
                return (p, [b for b in self.bak_ids if b not in self.home])
        return (self.turn, [])

    def throwable(self, p):
        return self.standing(p)

    def check_throw(self, b):
        if self.loc[b] < 0:
            raise Reject("%s is out of play" % b)

    def targets(self, b):
        # the opponent's guarded positions (a card taken from under a
        # Bakugan leaves its position guarded: docs/modes/longhu.md)
        o = 1 - self.bak_owner[b]
        return [z for z in ROWS[o] if self.own_on(o, z)]

    def target_problem(self, b, z):
        if z not in self.targets(b):
            return "zone %d holds no guarded card of %s" % (z, self.names[1 - self.bak_owner[b]])
        return None

    def zone_owner(self, z):
        return 0 if z in ROWS[0] else 1

    def zone_role(self, z):
        return "row"

    def roles(self):
        r = {}
        for p in range(2):
            for z in ROWS[p]:
                r[z] = [p, "row"]
        return r

    def battle_cards(self, b, z, att):
        # Both fighters count both cards: the one under the defender (the
        # battle zone) and the attacker's own card it was thrown from.
        cards = [self.field[z]] if z in self.field else []
        h = self.home[att]
        if h in self.field:
            cards.append(self.field[h])
        return cards

    def after_battle(self, z, win, lose, t):
        att = self.last_battle[1]
        h = self.home[att]
        pw = self.bak_owner[win]
        if lose == att:
            lz, wz = h, z
        else:
            lz, wz = z, h
        self.seize(pw, lose, t)
        if lz in self.field:
            self.take_card(pw, lz, "battle", t)
        self.winner_done(win, wz, t)
        if wz in self.field:
            self.void_card(wz, "the winner's card", t)
        for x in (z, h):
            if not self.stand.get(x):
                self.deactivate(x)

    def winner_done(self, win, wz, t):
        """"战斗过的胜方爆丸及卡片作废": the winner's Bakugan is out of play
        (longhu_support keeps it)."""
        self.retire(win, "won a battle", t)

    def check_end(self, t):
        # normandy's "当一方先输完爆丸或游戏卡，该局游戏结束"
        for p in range(self.n):
            if not self.standing(p):
                self.final(t, "%s has no Bakugan left" % self.names[p])
                return
            if not [z for z in ROWS[p] if z in self.field]:
                self.final(t, "%s has no card left" % self.names[p])
                return
