"""抢滩登陆战2 Beach Landing 2 (rule sheet 000): beach plus item cards: each
player sets one item card in their area; in a battle both may play their set
item, the attacker choosing first; the winner takes the loser's set item
(scored) and loses their own; both set a new one. Rules and decisions:
docs/modes/beach2.md."""
from referee.engine import SETUP
from referee.errors import Reject
from referee.modes import beach


class Game(beach.Game):
    MODE = "beach2"
    ABILITIES = "set_item"
    MAX_ABILITIES = 3
    STATE = beach.Game.STATE + ("set_item", "swapped")

    def init_state(self):
        self.swapped = []  # players who swapped their item since the round ended
        self.set_item = [None] * self.n
        for p in range(self.n):
            av = self.available_items(p)
            if av:
                self.set_item[p] = av[0]

    def item_gone(self, p, c):
        if [p, c] in self.void_i:
            return True
        for q in range(self.n):
            if [p, c] in self.prizes[q]:
                return True
        return False

    def available_items(self, p):
        """Item cards still in p's hand (not set, used up or taken)."""
        return [c for c in self.abil_ids[p] if c != self.set_item[p] and not self.item_gone(p, c)]

    def on_item(self, ev, t):
        p = self._player(ev)
        card = ev["card"]
        if card not in self.abil[p]:
            raise Reject("%s has no item card %r" % (self.names[p], card))
        if card == self.set_item[p]:
            raise Reject("item %s is already set" % card)
        if self.item_gone(p, card):
            raise Reject("item %s is out of %s's hand" % (card, self.names[p]))
        # "每回合结束，玩家可以…选择道具卡替换": once per player when a round
        # is over (the throw, its battle and refill done), or at set-up
        if self.phase != SETUP:
            if self.refills:
                raise Reject("items are swapped at the end of a round: %s must refill zone %d first" % (
                    self.names[self.refills[0][0]], self.refills[0][1]))
            if p in self.swapped:
                raise Reject("%s has already swapped an item at the end of this round" % self.names[p])
            self.swapped.append(p)
        self.set_item[p] = card
        self.emit("item", t, (("player", p), ("card", card)))

    def new_turn(self, t):
        self.swapped = []

    def on_pass(self, ev, t):
        p = self._player(ev)
        bt = self.battle
        if bt is None:
            raise Reject("nothing to pass outside a battle")
        if p != self.bak_owner[bt[1]] and p != self.bak_owner[bt[2]]:
            raise Reject("%s is not in this battle" % self.names[p])
        if p in self.acted:
            raise Reject("%s has already decided for this battle" % self.names[p])
        self.acted.append(p)
        self.emit("pass", t, (("player", p),))

    def check_ability(self, p, card):
        beach.Game.check_ability(self, p, card)
        if card != self.set_item[p]:
            raise Reject("only the item set in %s's area (%s) may be played" % (self.names[p], self.set_item[p]))
        a = self.bak_owner[self.battle[1]]
        if p != a and a not in self.acted:
            raise Reject("the attacker %s chooses first (ability or pass)" % self.names[a])

    def after_battle(self, z, win, lose, t):
        beach.Game.after_battle(self, z, win, lose, t)
        pw = self.bak_owner[win]
        pl = self.bak_owner[lose]
        c = self.set_item[pl]
        if c is not None:
            self.prizes[pw].append([pl, c])
            self.emit("prize", t, (("player", pw), ("card", c)))
        c = self.set_item[pw]
        if c is not None:
            self.void_i.append([pw, c])
            self.emit("void", t, (("what", "item"), ("id", c), ("reason", "the winner's item")))
        for p in (pw, pl):
            self.set_item[p] = None
            av = self.available_items(p)
            if av:
                self.set_item[p] = av[0]
                self.emit("item", t, (("player", p), ("card", av[0])))

    def view(self):
        v = beach.Game.view(self)
        v["items"] = list(self.set_item)
        return v
