"""Reading log files from disk for the host tools: bytes to str lines with a
clear error for bad UTF-8 or an unreadable file, and the log's kind.

The limits every host reader shares are here, so no command meets input
that ends in an internal error: a line is at most MAX_LINE characters (read
so, never more: `/dev/zero` is refused at its first megabyte), JSON nests at
most MAX_DEPTH deep, `NaN`/`Infinity` and lone surrogates (`"\\ud800"`) are
refused naming the line; `loads()` parses one JSON text under the same
rules. Messages that echo a value cut it (`cut`), and text shown to a
terminal has its control characters escaped (`escape`).
"""
import io
import json
import re

from host_tools.errors import UserError

MAX_LINE = 1 << 20       # characters in one line of a log (a raw header with its board is ~100 KB)
MAX_DEPTH = 64           # JSON nesting (a log's deepest is about 6)
MAX_ECHO = 200           # characters of a value echoed in a message
MAX_MESSAGE = 4000       # characters of a whole message

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")
_NONFINITE = re.compile(r"\b(NaN|Infinity)\b")
_LONE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                   r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_LONG = re.compile(r"\S{%d,}" % (MAX_ECHO + 1))


def cut(text, n=MAX_ECHO):
    """text, or its start and end with how much was left out between."""
    if len(text) <= n:
        return text
    keep = n - 40
    return "%s[... %d characters ...]%s" % (text[:keep], len(text) - keep - 20, text[-20:])


def message(text):
    """An error message as shown: long values in it cut, the whole cut to
    MAX_MESSAGE, control characters escaped."""
    if len(text) > MAX_ECHO:
        text = _LONG.sub(lambda m: cut(m.group()), text)
    return escape(cut(text, MAX_MESSAGE))


def escape(text):
    """Control characters (an ANSI escape in a player's name) and lone
    surrogates shown as escapes, never sent to a terminal."""
    return _CONTROL.sub(lambda m: "\\x%02x" % ord(m.group()) if ord(m.group()) < 256
                        else "\\u%04x" % ord(m.group()), text)


class LimitError(UserError):
    """A line breaks one of the shared limits: .line, .msg."""

    def __init__(self, line, msg):
        super().__init__("line %d: %s" % (line, msg))
        self.line = line
        self.msg = msg


def check_line(text, lineno):
    """The shared limits on one line of JSON text; LimitError naming the
    line (without the file: callers add it)."""
    if len(text) > MAX_LINE:
        raise LimitError(lineno, "longer than %d characters" % MAX_LINE)
    if "\\u" in text and _LONE.search(text):
        raise LimitError(lineno, "a \\u escape is half a surrogate pair, not a character")
    bare = _STRING.sub('""', text) if '"' in text else text
    m = _NONFINITE.search(bare)
    if m:
        raise LimitError(lineno, "%s is not a JSON number (only finite numbers are)" % m.group())
    depth = top = 0
    for b in _BRACKET.finditer(bare):
        if b.group() in "[{":
            depth += 1
            if depth > top:
                top = depth
                if top > MAX_DEPTH:
                    raise LimitError(lineno, "JSON nested more than %d deep" % MAX_DEPTH)
        else:
            depth -= 1


def _finite(s):
    x = float(s)
    if x - x != 0:       # inf (1e999): not a number anything here can use
        raise ValueError("number %s is out of range" % cut(s, 40))
    return x


def _constant(s):
    raise ValueError("%s is not a JSON number" % s)


def loads(text, lineno=1):
    """json.loads under the shared limits; UserError naming the line."""
    check_line(text, lineno)
    try:
        return json.loads(text, parse_float=_finite, parse_constant=_constant)
    except RecursionError:
        raise UserError("line %d: JSON nested too deep" % lineno)
    except ValueError as e:
        raise UserError("line %d: not valid JSON: %s" % (lineno, cut(str(getattr(e, "msg", e)), 80)))


def seconds(text):
    """An argparse type: a finite, non-negative number of seconds (the
    argument's error names it: `--from nan` is refused, not a crash)."""
    import argparse
    try:
        x = float(text)
    except ValueError:
        x = None
    if x is None or x - x != 0 or x < 0 or x > 1e9:
        raise argparse.ArgumentTypeError("expected seconds (a finite number from 0), got %r" % cut(text, 40))
    return x


def read_lines(path):
    """The file's lines (with their newlines) as str, each under the shared
    limits; UserError naming the file and line if it cannot be read, is
    not UTF-8 or breaks a limit."""
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        raise UserError("%s: no such file" % path)
    except IsADirectoryError:
        raise UserError("%s: is a directory, not a log file" % path)
    except PermissionError:
        raise UserError("%s: permission denied" % path)
    except OSError as e:
        raise UserError("%s: cannot read (%s)" % (path, e.strerror or e))
    out = []
    n = 0
    with f:
        while True:
            try:
                raw = f.readline(MAX_LINE + 1)
            except IsADirectoryError:
                raise UserError("%s: is a directory, not a log file" % path)
            except OSError as e:
                raise UserError("%s: cannot read (%s)" % (path, e.strerror or e))
            if not raw:
                break
            if len(raw) > MAX_LINE:
                raise UserError("%s: line %d: longer than %d bytes (not a log)" % (path, n + 1, MAX_LINE))
            for part in raw.splitlines(keepends=True):     # (a lone CR ends a line too)
                n += 1
                try:
                    text = part.decode("utf-8")
                except UnicodeDecodeError:
                    raise UserError("%s: line %d: not valid UTF-8" % (path, n))
                try:
                    check_line(text, n)
                except UserError as e:
                    raise UserError("%s: %s" % (path, e))
                out.append(text)
    return out


def read_json_file(path):
    """One JSON value from a file (a header or a deck: its first line, or
    the whole file), under the shared limits; UserError naming the file."""
    lines = read_lines(path)
    err = None
    for text in (lines[0] if lines else "", "".join(lines)):
        try:
            return json.loads(text, parse_float=_finite, parse_constant=_constant)
        except RecursionError:
            err = "JSON nested too deep"
        except ValueError as e:
            err = "line %s: not valid JSON: %s" % (getattr(e, "lineno", 1), cut(str(getattr(e, "msg", e)), 80))
    raise UserError("%s: %s" % (path, err))


KINDS = ("events", "raw")


def log_kind(lines, path):
    """'events' or 'raw', from the header line of the log read from `path`;
    otherwise the one UserError every command gives for a file that is not
    a BakuMat log, naming why."""
    first = next(((n, x) for n, x in enumerate(lines, 1) if x.strip()), None)
    if first is None:
        why = "the file is empty (no header line)"
    else:
        n, text = first
        try:
            obj = json.loads(text)
        except RecursionError:
            obj, why = None, "line %d: JSON nested too deep" % n
        except ValueError as e:
            obj, why = None, "line %d: not valid JSON (%s)" % (n, cut(str(getattr(e, "msg", e)), 80))
        if isinstance(obj, dict) and obj.get("bakumat") in KINDS:
            return obj["bakumat"]
        if obj is not None:
            why = "line %d: the header has no \"bakumat\" field" % n if not (
                isinstance(obj, dict) and "bakumat" in obj) else "line %d: the header's \"bakumat\" is %s" % (
                n, cut(json.dumps(obj["bakumat"]), 40))
    raise UserError("%s: not a BakuMat log: %s (an event log's header says \"bakumat\": \"events\", "
                    "a raw sensor log's \"raw\")" % (path, why))


def text_lines(lines):
    """lines as a text stream (for readers that take a file object)."""
    return io.StringIO("".join(lines))
