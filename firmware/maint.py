"""Maintenance mode: the board boots to the REPL without starting the app
or the watchdog, so mpremote can copy files without a reset in the middle
(an ESP32 watchdog cannot be stopped and survives soft resets).

Enter: the link's `maint {"on": true}` request (the app writes the flag and
hard-resets), or `import maint; maint.enter()` at the REPL.
Leave: `import maint; maint.leave()` then `machine.reset()` (bakumat deploy
does this). Details: docs/runtime.md.
"""
from store.state import State


def active(root=""):
    return State(root).maint()


def enter(root=""):
    State(root).set_maint(True)


def leave(root=""):
    State(root).set_maint(False)
