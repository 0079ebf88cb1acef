"""Which class plays a header of modes official, big and multi: the mode's
own, or (when the header uses an extra rule: traps, gear, game level,
evolution, pure attribute) its extension from referee/modes/extras.py,
imported only then. See docs/modes/official-extras.md."""

_PLAYER_KEYS = ("traps", "gear", "evolutions")
_CARD_KEYS = (("bakugan", ("pure",)), ("gates", ("colour", "level")), ("abilities", ("level",)))


def wanted(header):
    """True if the header uses any extra rule."""
    if "season" in header:
        return True
    players = header.get("players")
    if type(players) is not list:
        return False
    for p in players:
        if type(p) is not dict:
            continue
        for k in _PLAYER_KEYS:
            if k in p:
                return True
        for key, fields in _CARD_KEYS:
            items = p.get(key)
            if type(items) is list:
                for x in items:
                    if type(x) is dict:
                        for f in fields:
                            if f in x:
                                return True
    return False


def variant(cls, header):
    if type(header) is not dict or not wanted(header):
        return cls
    from referee.modes import extras
    return extras.variant(cls)
