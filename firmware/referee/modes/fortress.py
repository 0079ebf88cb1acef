"""终极堡垒 Ultimate Fortress (rule sheets 000 and 001): each player has a
fortress card, an attack card and two defence cards; Bakugan enter on their
own fortress and move card to card along fixed paths; a battle consumes a
fortress or defence card, which the loser refills; taking the opponent's
fortress wins, and so does the opponent running out of cards to refill.
Rules and decisions: docs/modes/fortress.md."""
from referee.engine import UNUSED
from referee.errors import SetupError
from referee.modes.variant import Variant
from referee import header as _header

FORTRESS = "fortress"
ATTACK = "attack"
DEFENCE = "defence"

# Per player: fortress zone, attack zone, defence zones (in front of the
# fortress, in front of the attack card). Player 0 holds the bottom half of
# the reference mat, player 1 the top half; fortresses and attack cards
# face each other diagonally and the defence cards fill the centre.
F = (12, 3)
A = (15, 0)
D = ((9, 10), (6, 5))
SETUP_CARDS = 4


def _role(z):
    for p in range(2):
        if z == F[p]:
            return (p, FORTRESS)
        if z == A[p]:
            return (p, ATTACK)
        if z in D[p]:
            return (p, DEFENCE)
    return None


class Game(Variant):
    MODE = "fortress"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2

    KIT = (("cards", 7, "7张对战卡"), ("bakugan", 3, "3个不同属性的爆丸"), ("attributes", 3, "3个不同属性的爆丸"))

    def check_header(self, header):
        players = header["players"]
        self.gate_effect = {}
        for i in range(self.n):
            gates = players[i]["gates"]
            if len(gates) < SETUP_CARDS:
                raise SetupError("players[%d].gates: Ultimate Fortress needs at least %d cards per player to set up" % (
                    i, SETUP_CARDS))
            for j in range(len(gates)):
                eff = gates[j].get("effect")
                if eff is not None:
                    _header.check_effect(eff, "players[%d].gates[%d].effect" % (i, j))
                    self.gate_effect[gates[j]["id"]] = eff

    def opening(self, p):
        return SETUP_CARDS

    def setup_zones(self, p):
        return (F[p], A[p], D[p][0], D[p][1])

    def zone_owner(self, z):
        r = _role(z)
        return None if r is None else r[0]

    def zone_role(self, z):
        r = _role(z)
        return None if r is None else r[1]

    def roles(self):
        r = {}
        for p in range(2):
            for z in self.setup_zones(p):
                r[z] = list(_role(z))
        return r

    # ------------------------------------------------------------- throws
    def throwable(self, p):
        return [b for b in self.bak_ids if self.bak_owner[b] == p and (self.loc[b] == UNUSED or self.loc[b] >= 0)]

    def check_throw(self, b):
        pass  # from the launch point or from the card it stands on

    def reach(self, b):
        """Cards b may be thrown to from where it is (the sheet's paths)."""
        p = self.bak_owner[b]
        o = 1 - p
        w = self.loc[b]
        if w < 0:
            return [F[p]]
        owner, role = _role(w)
        if role == FORTRESS:
            return [D[p][0], D[p][1], A[p], A[o]]
        if role == DEFENCE and owner == p:
            return [D[o][0], D[o][1], A[p], A[o]]
        if role == DEFENCE:
            return [F[o], A[p], A[o]]
        if w == A[p]:
            return [F[o], D[o][0], D[o][1], A[o]]
        return [F[o], D[o][0], D[o][1]]

    def targets(self, b):
        p = self.bak_owner[b]
        return [z for z in self.reach(b) if len(self.own_on(p, z)) < 2]

    def target_problem(self, b, z):
        p = self.bak_owner[b]
        if _role(z) is None:
            return "no card on zone %d" % z
        if z not in self.reach(b):
            w = self.loc[b]
            if w < 0:
                return "a Bakugan enters on its own fortress (zone %d)" % F[p]
            return "zone %d (%s) cannot be reached from zone %d (%s)" % (z, _role(z)[1], w, _role(w)[1])
        if len(self.own_on(p, z)) >= 2:
            return "two of %s's Bakugan already stand on zone %d" % (self.names[p], z)
        return None

    def double(self, p, b, z, own, t):
        self.stood(p, b, z, t)  # up to two own Bakugan per card

    def stood(self, p, b, z, t):
        if z == F[1 - p]:
            self.declare(p, t, "takes the fortress")

    # ------------------------------------------------------------- battle
    def _from_attack_card(self, att):
        w = self.prev.get(att, UNUSED)
        if w >= 0 and _role(w)[1] == ATTACK and w in self.field:
            return self.field[w]
        return None

    def battle_cards(self, b, z, att):
        cards = [self.field[z]] if z in self.field else []
        if b == att:
            g = self._from_attack_card(att)
            if g is not None:
                cards.append(g)
        return cards

    def card_effects(self, b, z, att):
        g = self._from_attack_card(att)
        if g is not None and g in self.gate_effect:
            return [(self.bak_owner[att], self.gate_effect[g])]
        return []

    def after_battle(self, z, win, lose, t):
        pw = self.bak_owner[win]
        pl = self.bak_owner[lose]
        for o in list(self.stand.get(z, ())):
            if o != win and o != lose:
                self.step_back(o, t)
        self.send_back(lose, "lost the battle", t)
        if z == F[pl]:
            self.declare(pw, t, "takes the fortress")
            return
        if _role(z)[1] != ATTACK:
            self.void_card(z, "consumed by the battle", t)
            if not self.owe_refill(pl, z, t):
                self.declare(pw, t, "%s has no card left to refill zone %d" % (self.names[pl], z))

    def step_back(self, b, t):
        """The Bakugan that did not fight goes back to the card it was
        thrown from, or to the launch point when that card is not free."""
        p = self.bak_owner[b]
        w = self.prev.get(b, UNUSED)
        z = self.loc[b]
        if w >= 0 and w != z and len(self.stand.get(w, ())) == len(self.own_on(p, w)) and len(self.own_on(p, w)) < 2:
            self.lift(b)
            self.put(b, w)
            self.prev[b] = UNUSED
            self.expect_back(b)
            self.emit("move", t, (("bakugan", b), ("from", z), ("to", w)))
            return
        self.send_back(b, "stepped back", t)
