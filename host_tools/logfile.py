"""Reading log files from disk for the host tools: bytes to str lines with a
clear error for bad UTF-8 or an unreadable file, and the log's kind."""
import json

from host_tools.errors import UserError


def read_lines(path):
    """The file's lines (with their newlines) as str; UserError naming the
    file and line if it cannot be read or is not UTF-8."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise UserError("%s: no such file" % path)
    except IsADirectoryError:
        raise UserError("%s: is a directory, not a log file" % path)
    except PermissionError:
        raise UserError("%s: permission denied" % path)
    except OSError as e:
        raise UserError("%s: cannot read (%s)" % (path, e.strerror or e))
    lines = data.splitlines(keepends=True)
    out = []
    for i, raw in enumerate(lines, 1):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise UserError("%s: line %d: not valid UTF-8" % (path, i))
    return out


def kind_of(lines):
    """'events', 'raw' or None: what the header line says, without checking."""
    for line in lines:
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError:
                return None
            return obj.get("bakumat") if isinstance(obj, dict) else None
    return None
