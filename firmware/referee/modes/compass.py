"""黄金罗盘 Golden Compass (rule sheet 000): four base cards in the centre,
each over one quadrant's battle card; after every battle the base cards turn
one quadrant clockwise with the Bakugan on them (a `rotate` output event
tells the sensing layer); three own Bakugan on three different cards win.
Rules and decisions: docs/modes/compass.md."""
from referee.errors import SetupError
from referee.modes.variant import Variant

# The base cards' zones on the reference mat in clockwise order (top-left,
# top-right, bottom-right, bottom-left quadrant); a turn moves RING[i] to
# RING[i + 1].
RING = (5, 6, 10, 9)
SPREAD = 3  # own Bakugan on different cards that win


class Game(Variant):
    MODE = "compass"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2
    KIT = (("bakugan", 3, "3个爆丸"), ("cards", 2, "2张基础卡"))

    def check_header(self, header):
        players = header["players"]
        for i in range(self.n):
            if len(players[i]["bakugan"]) < SPREAD:
                raise SetupError("players[%d].bakugan: Golden Compass needs %d Bakugan per player" % (i, SPREAD))
            if len(players[i]["gates"]) < 2:
                raise SetupError("players[%d].gates: Golden Compass needs 2 cards per player" % i)

    def opening(self, p):
        return 2

    def setup_zones(self, p):
        return RING

    def zone_role(self, z):
        return "quadrant"

    def roles(self):
        r = {}
        for z in RING:
            r[z] = [None, "base"]
        return r

    def after_battle(self, z, win, lose, t):
        self.send_back(lose, "lost the battle", t)
        self.rotate(t)

    def rotate(self, t):
        """The four base cards turn one quadrant clockwise with the Bakugan
        standing on them; the battle cards (the field) stay."""
        moved = {}
        for i in range(4):
            a = RING[i]
            if a in self.stand:
                moved[RING[(i + 1) % 4]] = self.stand.pop(a)
        for z in RING:
            if z in moved:
                self.stand[z] = moved[z]
                for b in moved[z]:
                    self.loc[b] = z
                    self.expect_back(b)
        self.emit("rotate", t, (("moves", [[RING[i], RING[(i + 1) % 4]] for i in range(4)]),))

    def check_end(self, t):
        order = [(self.turn + i) % self.n for i in range(self.n)]
        for p in order:
            zs = []
            for b in self.standing(p):
                if self.loc[b] not in zs:
                    zs.append(self.loc[b])
            if len(zs) >= SPREAD:
                self.declare(p, t, "%d Bakugan on %d different cards" % (SPREAD, SPREAD))
                return
