"""A board's stored game (docs/formats/board-state-v2.md, and v1) as an
event log v1 (docs/formats/event-log-v1.md), read from a copy of the board's
filesystem (a folder: the virtual board's work directory, or files copied
off a board) with the firmware's own reader (store.state):

    lines = boardstate.event_log("/path/to/board")   # [] without a game
    boardstate.write_event_log("/path/to/board", "game.ndjson")
    boardstate.signatures("/path/to/board")           # {bakugan id: value} learnt

`bakumat replay` reads what write_event_log writes. Nothing here reads
game.ndj's lines itself: the events of a v2 game are files beside it.
"""
import json

from host_tools import fwpath


def stored_game(root):
    """(header, [events]) of the game stored under root, or None."""
    fwpath.ensure()
    from store.state import State
    return State(root).game_load()


def signatures(root):
    """The Bakugan signatures the board learnt ({bakugan id: value}; {}
    without any), as the board loads them (sig/'s files over an earlier
    firmware's sigs.json)."""
    fwpath.ensure()
    from store.state import State
    return State(root).load_signatures()


def event_log(root):
    """The stored game as the lines (each ending with a newline) of an event
    log v1, header first; [] without a game."""
    g = stored_game(root)
    if g is None:
        return []
    header, events = g
    h = dict(header)
    h["bakumat"] = "events"
    h["version"] = 1
    return [json.dumps(h) + "\n"] + [json.dumps(e) + "\n" for e in events]


def write_event_log(root, path):
    lines = event_log(root)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.writelines(lines)
    return len(lines)
