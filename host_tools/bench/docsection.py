"""A doc's section a bench command writes: the lines between a begin and an
end marker (HTML comments, invisible in the rendered markdown) are the
command's figures; the rest of the file stays as it was. So a doc's table
is what the command printed, never copied by hand."""
import os

from host_tools.errors import UserError


def section(path, begin, end):
    """(text, start, stop) of the file's section between the markers;
    UserError naming the problem when the file cannot be read or has no
    such section."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise UserError("--doc %s: %s" % (path, getattr(e, "strerror", None) or e))
    a = text.find(begin)
    b = text.find(end, a + 1) if a >= 0 else -1
    if a < 0 or b < 0:
        raise UserError("--doc %s: no section for the table (a line %r, the table's place, then a line %r)"
                        % (path, begin, end))
    return text, a + len(begin), b


def write(path, begin, end, lines):
    """Put `lines` between the markers (section()'s UserError otherwise);
    the file is replaced whole, never left half written."""
    text, a, b = section(path, begin, end)
    new = text[:a] + "\n" + "\n".join(lines) + "\n" + text[b:]
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(new)
    os.replace(tmp, path)
