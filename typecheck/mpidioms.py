"""CPython-only idioms that neither ruff nor the stubs catch (the stubs copy
CPython's builtins): str methods MicroPython lacks, and keyword arguments to
builtins that take positional arguments only on MicroPython. Each entry was
checked against the real unix-port binary (which has more than the ESP32
build; `center` is missing on the ESP32's feature level).

    .venv/bin/python typecheck/mpidioms.py firmware     # exit 1 on findings
"""
import ast
import os
import sys

# str/bytes methods absent from MicroPython
MISSING_METHODS = {
    "removeprefix", "removesuffix", "isascii", "casefold", "zfill", "ljust", "rjust", "center",
    "expandtabs", "format_map", "swapcase", "maketrans", "translate", "isidentifier",
    "isprintable", "isalnum", "isdecimal", "isnumeric", "capitalize", "title",
}
# builtins -> the keyword arguments MicroPython accepts (others raise TypeError)
BUILTIN_KWARGS = {
    "print": {"sep", "end", "file"},
    "int": set(), "sum": set(), "zip": set(), "round": set(), "bytes": set(), "range": set(),
    "str": set(), "bytearray": set(), "divmod": set(), "pow": set(), "isinstance": set(),
}
# methods of str/bytes that take no keyword arguments on MicroPython
NO_KWARG_METHODS = {
    "split", "rsplit", "strip", "lstrip", "rstrip", "encode", "decode", "startswith", "endswith",
    "find", "rfind", "index", "rindex", "replace", "join", "count", "partition", "rpartition",
    "splitlines", "hex",
}


def check_source(text, path="<string>"):
    """[(path, line, message)] for one module's source."""
    out = []
    tree = ast.parse(text, path)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func
        kws = [k.arg for k in node.keywords if k.arg is not None]
        if isinstance(fn, ast.Attribute):
            if fn.attr in MISSING_METHODS:
                out.append((path, node.lineno, ".%s() does not exist in MicroPython" % fn.attr))
            elif fn.attr in NO_KWARG_METHODS and kws:
                out.append((path, node.lineno, ".%s(%s=...): MicroPython's str/bytes methods take no keyword "
                            "arguments" % (fn.attr, kws[0])))
        elif isinstance(fn, ast.Name) and fn.id in BUILTIN_KWARGS:
            bad = [k for k in kws if k not in BUILTIN_KWARGS[fn.id]]
            if bad:
                out.append((path, node.lineno, "%s(%s=...): MicroPython's %s() does not take that keyword"
                            % (fn.id, bad[0], fn.id)))
    return out


def check_tree(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for n in sorted(names):
            if n.endswith(".py"):
                p = os.path.join(d, n)
                with open(p, encoding="utf-8") as f:
                    out.extend(check_source(f.read(), p))
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv) or ["firmware"]
    found = []
    for root in argv:
        found.extend(check_tree(root))
    for path, line, msg in found:
        print("%s:%d: %s" % (path, line, msg))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
