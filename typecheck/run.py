"""Type-check BakuMat with mypy: firmware/ against each board's MicroPython
stubs (micropython-stubs family, the version board.json pins), host_tools/
against normal CPython typing. See typecheck/README.md.

    .venv/bin/python typecheck/run.py                 # every profile
    .venv/bin/python typecheck/run.py esp32_devkitc   # one board
    .venv/bin/python typecheck/run.py host
    .venv/bin/python typecheck/run.py --install       # only install the stubs

Stubs are installed (pip --target) into <venv>/mpstubs/<board>/, one folder
per board because every stub package provides the same module names
(machine, esp32, ...). They are reinstalled when board.json's pin changes.
Exit status 0 when every profile has zero errors.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FIRMWARE = os.path.join(REPO, "firmware")
BOARDS = os.path.join(REPO, "boards")
HOST_EXCLUDE = r"^host_tools/mpscripts/"   # MicroPython scripts run by the unix port

# Project idioms the firmware must use (common brief) that mypy reports:
# the `const` fallback for CPython,
#     try: from micropython import const
#     except ImportError:
#         def const(x): return x
# redefines `const` with another signature. (path regex, line regex, message regex)
ACCEPTED = [
    (r".*", r"^\s*def const\(\w+\):", r"All conditional function variants must have identical signatures"),
]


def venv_dir():
    return sys.prefix


def board_folders():
    out = []
    for name in sorted(os.listdir(BOARDS)):
        bj = os.path.join(BOARDS, name, "board.json")
        if os.path.isfile(bj):
            with open(bj, encoding="utf-8") as f:
                info = json.load(f).get("bakumat", {})
            if info.get("stubs"):
                out.append((name, info["stubs"]))
    return out


def stubs_dir(board):
    return os.path.join(venv_dir(), "mpstubs", board)


def install_stubs(board, requirement, quiet=True):
    """pip install REQUIREMENT into the board's stub folder unless it is there."""
    d = stubs_dir(board)
    stamp = os.path.join(d, ".bakumat-requirement")
    try:
        with open(stamp, encoding="utf-8") as f:
            if f.read().strip() == requirement:
                return d
    except OSError:
        pass
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--upgrade",
           "--target", d, requirement]
    if quiet:
        cmd.insert(4, "--quiet")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("could not install %s: %s" % (requirement, (r.stderr or r.stdout).strip()[-2000:]))
    with open(stamp, "w", encoding="utf-8") as f:
        f.write(requirement + "\n")
    return d


def _line(path, lineno, cache={}):
    if path not in cache:
        try:
            with open(os.path.join(REPO, path), encoding="utf-8") as f:
                cache[path] = f.read().splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[lineno - 1] if 0 < lineno <= len(lines) else ""


_ERR = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?:\d+:)? (?P<kind>error|note): (?P<msg>.*)$")


def parse(output, stub_root=None):
    """mypy output -> (errors, stub_errors, accepted): lists of readable lines.
    Errors inside the installed stubs are the stubs' own (not ours)."""
    errors, stub_errors, accepted = [], [], []
    for raw in output.splitlines():
        m = _ERR.match(raw)
        if not m or m.group("kind") != "error":
            continue
        path = m.group("path")
        absp = os.path.abspath(os.path.join(REPO, path))
        if stub_root and absp.startswith(os.path.abspath(stub_root) + os.sep):
            stub_errors.append(raw)
            continue
        src = _line(path, int(m.group("line")))
        if any(re.search(p, path) and re.search(lr, src) and re.search(mr, m.group("msg"))
               for p, lr, mr in ACCEPTED):
            accepted.append(raw)
            continue
        errors.append(raw)
    return errors, stub_errors, accepted


def _mypy(args, env_path):
    env = dict(os.environ)
    env["MYPYPATH"] = os.pathsep.join(env_path)
    env.pop("PYTHONPATH", None)
    cmd = [sys.executable, "-m", "mypy", "--no-error-summary", "--show-error-codes",
           "--no-pretty", "--no-color-output"] + args
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=env)
    if r.returncode not in (0, 1):
        raise RuntimeError("mypy failed to run (exit %d):\n%s%s" % (r.returncode, r.stdout, r.stderr))
    return r.stdout + r.stderr


def check_board(board, requirement):
    """Type-check firmware/ against BOARD's stubs -> (errors, stub_errors, accepted)."""
    d = install_stubs(board, requirement)
    out = _mypy(["--config-file", os.path.join(HERE, "mypy-firmware.ini"),
                 "--custom-typeshed-dir", d,
                 "--cache-dir", os.path.join(venv_dir(), "mypy-cache", board),
                 "firmware"], [d, FIRMWARE])
    return parse(out, d)


def check_host():
    """Type-check host_tools/ with CPython's typeshed -> (errors, [], [])."""
    out = _mypy(["--config-file", os.path.join(HERE, "mypy-host.ini"),
                 "--cache-dir", os.path.join(venv_dir(), "mypy-cache", "host"),
                 "--exclude", HOST_EXCLUDE, "host_tools"], [FIRMWARE])
    return parse(out)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    boards = board_folders()
    if "--install" in argv:
        for b, req in boards:
            print("%s: %s in %s" % (b, req, install_stubs(b, req, quiet=False)))
        return 0
    want = [a for a in argv if not a.startswith("-")] or [b for b, _r in boards] + ["host"]
    total = 0
    for name in want:
        if name == "host":
            errors, stub_errors, accepted = check_host()
        else:
            req = dict(boards).get(name)
            if req is None:
                print("unknown profile %r (boards: %s, or host)" % (name, ", ".join(b for b, _r in boards)))
                return 2
            errors, stub_errors, accepted = check_board(name, req)
        for e in errors:
            print(e)
        print("== %s: %d errors (%d accepted idioms, %d inside the stubs ignored)"
              % (name, len(errors), len(accepted), len(stub_errors)))
        total += len(errors)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
