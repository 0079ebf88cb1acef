"""Deterministic JSON text, byte-identical on CPython and MicroPython.

MicroPython's dicts do not keep insertion order and its json.dumps does not
escape non-ASCII, so output that must match across interpreters goes through
here: objects are written from (key, value) pair tuples in the given order,
plain dicts with their keys sorted, strings with only the escapes JSON needs
(non-ASCII stays UTF-8). Floats are not used by the firmware and are refused.
"""


def _str(s):
    if '"' not in s and "\\" not in s:
        for ch in s:
            if ch < " ":
                break
        else:
            return '"' + s + '"'
    out = []
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch < " ":
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def dumps(v):
    """Encode v: None/bool/int/str, list, dict (keys sorted), or Pairs."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    t = type(v)
    if t is int:
        return str(v)
    if t is str:
        return _str(v)
    if t is Pairs:
        return "{" + ", ".join([_str(k) + ": " + dumps(x) for k, x in v.items]) + "}"
    if t is dict:
        return "{" + ", ".join([_str(str(k)) + ": " + dumps(v[k]) for k in sorted(v)]) + "}"
    if t is list or t is tuple:
        return "[" + ", ".join([dumps(x) for x in v]) + "]"
    raise ValueError("cannot encode %s" % t.__name__)


class Pairs:
    """An ordered JSON object: Pairs((("a", 1), ("b", 2)))."""

    def __init__(self, items):
        self.items = items
