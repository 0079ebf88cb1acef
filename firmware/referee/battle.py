"""Battles: the arithmetic of a clash (G, card values, ability effects),
who wins, and the ability cards played in it. Engine (referee/engine.py)
subclasses it; the hooks here are listed there."""
from referee.errors import Reject
from referee.state import State


class Battle(State):
    ABILITY = "ability"  # how rejects name an ability card
    TIES_TO_ATTACKER = False

    def start_battle(self, z, attacker, defender, t):
        self.battle = [z, attacker, defender, []]
        self.acted = []  # players who played a card (or passed) in this battle
        self.emit("clash", t, (("zone", z), ("attacker", attacker), ("defender", defender)))

    def on_ability(self, ev, t):
        p = self._player(ev)
        card = ev["card"]
        if card not in self.abil[p]:
            raise Reject(self.no_card(p, card))
        if card in self.used_abil[p]:
            raise Reject("%s %s was already used this game" % (self.ABILITY, card))
        bt = self.battle
        if bt is None:
            raise Reject("%s %s outside a battle" % (self.ABILITY, card))
        if self.bak_owner[bt[1]] != p and self.bak_owner[bt[2]] != p:
            raise Reject("%s is not in this battle" % self.names[p])
        self.check_ability(p, card)
        self.used_abil[p].append(card)
        bt[3].append((p, card))
        if p not in self.acted:
            self.acted.append(p)
        self.emit("ability", t, (("player", p), ("card", card)))

    def no_card(self, p, card):
        """The reject when p has no ability card `card`."""
        return "%s has no ability card %r" % (self.names[p], card)

    def check_ability(self, p, card):
        """Modes add conditions (levels, attribute matching)."""
        pass

    def on_resolve(self, ev, t):
        if self.battle is None:
            raise Reject("no battle to resolve")
        self.resolve_battle(t)

    def battle_cards(self, b, z, att):
        """Cards whose value for b's attribute adds to b's power (att: the
        attacker). Official: the gate of the battle."""
        g = self.field.get(z)
        return [g] if g is not None else []

    def card_effects(self, b, z, att):
        """Extra (player, effect) pairs applying in this battle."""
        return []

    def battle_parts(self, b, opp, z, mods, att):
        """[G, cards, abilities] of Bakugan b against opp in the battle on
        zone z (mods: the (player, ability card) played; att: the attacker)."""
        p = self.bak_owner[b]
        attr = self.bak_attr[b]
        effects = [(q, self.abil[q][c]) for (q, c) in mods] + self.card_effects(b, z, att)
        ab = 0
        nullify = False
        for (q, eff) in effects:
            if q == p:
                if "g" in eff:
                    ab += eff["g"]
                if "attr" in eff:
                    attr = eff["attr"]
            elif "opp_g" in eff:
                ab += eff["opp_g"]
            if "nullify_gate" in eff:
                nullify = True
        cards = 0
        if not nullify:
            for g in self.battle_cards(b, z, att):
                cards += self.gate_bonus[g].get(attr, 0)
        return [self.bak_g[b], cards, ab]

    def battle_winner(self, attacker, defender, pa, pd):
        """Higher power wins; a tie goes to the one that stood first
        (official), or to the attacker (TIES_TO_ATTACKER: the variants)."""
        return attacker if pa > pd or (pa == pd and self.TIES_TO_ATTACKER) else defender

    def resolve_battle(self, t):
        z, att, dfd, mods = self.battle
        self.battle = None
        a = self.battle_parts(att, dfd, z, mods, att)
        d = self.battle_parts(dfd, att, z, mods, att)
        pa = a[0] + a[1] + a[2]
        pd = d[0] + d[1] + d[2]
        win = self.battle_winner(att, dfd, pa, pd)
        power = {}
        power[att] = pa
        power[dfd] = pd
        parts = {}
        parts[att] = [a[0], a[1], a[2]]
        parts[dfd] = [d[0], d[1], d[2]]
        self.last_battle = (z, att, dfd, parts, win)
        self.emit("battle", t, (("zone", z), ("attacker", att), ("defender", dfd), ("power", power),
                                ("parts", parts), ("winner", win)))
        self.after_battle(z, win, att if win == dfd else dfd, t)
        self.end_turn(t)

    def after_battle(self, z, winner, loser, t):
        """What the battle's result does to the pieces (rule 9: the winner
        takes the gate)."""
        self.capture(self.bak_owner[winner], z, "battle", t)
