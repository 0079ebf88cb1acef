"""3 and 4 players (rules sheet 004, "rules for several players"): the
official game around a table. Turns go clockwise, which is the order of
header.players; abilities only by the two players of a battle (the engine's
rule already); rule 7 (all one's Bakugan standing) as in the official game,
"opponent" meaning any other player. When two battling players want to play
a card at once, the one whose turn comes next goes first: priority() gives
that order and view()["priority"] shows it. The trimmed effect vocabulary
commutes, so the order in the log never changes a result.
Decisions: docs/modes/multi.md."""
from referee.engine import Engine
from referee.modes import switch


class Game(Engine):
    MODE = "multi"
    MIN_PLAYERS = 3
    MAX_PLAYERS = 4

    @classmethod
    def variant(cls, header):
        return switch.variant(cls, header)

    def priority(self):
        """Players of the pending battle in the order they may play cards:
        with 2 players the one whose turn it is first (official sheet), with
        3-4 the one whose turn comes next first (several-players sheet)."""
        bt = self.battle
        if bt is None:
            return []
        a = self.bak_owner[bt[1]]
        d = self.bak_owner[bt[2]]
        if a == d:
            return [a]
        if self.n == 2:
            q = self.turn
        else:
            q = self.next_player(self.turn)
        order = []
        for _ in range(self.n):
            if (q == a or q == d) and q not in order:
                order.append(q)
            q = self.next_player(q)
        return order

    def view(self):
        v = Engine.view(self)
        v["priority"] = self.priority()
        return v
