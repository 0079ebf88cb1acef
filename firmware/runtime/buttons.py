"""The board's buttons: read every tick, debounced (table.buttons), each
gesture reported to the host and passed to the game (docs/table-play.md).

    panel = ButtonPanel(board.buttons, roles, link, session, phone)
    panel.poll(t)              # every tick, at game time t
"""
from table.buttons import Buttons, SHORT


class ButtonPanel:
    def __init__(self, buttons, roles, link, session, phone=None):
        """buttons: [(name, pin)] in hw order (active low); roles: per
        button, (player, OK|BACK) (runtime.boarddef.button_roles)."""
        self.buttons = buttons
        self.roles = roles
        self.link = link
        self.session = session
        self.phone = phone
        self.debounce = Buttons(len(buttons), self._gesture)

    def poll(self, t):
        """The pins (active low) as a bit mask, debounced by table.buttons."""
        b = self.buttons
        mask = 0
        for i in range(len(b)):
            if not b[i][1].value():
                mask |= 1 << i
        self.debounce.update(mask, t)

    def _gesture(self, i, gesture, t):
        """A debounced press: reported, then its meaning in the game state
        applied by the table."""
        self.link.send("mat", {"ev": "button", "name": self.buttons[i][0],
                               "press": "short" if gesture == SHORT else "long", "t": t})
        if self.phone is not None:
            self.phone.open_claim(self.roles[i][0])
        self.session.button(i, gesture, t)
