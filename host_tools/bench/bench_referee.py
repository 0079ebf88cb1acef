"""Referee replay throughput, in full games per second, on CPython and on
the micropython binary. A benchmark that prints figures, not a test."""
import os
import subprocess
import sys
import tempfile
import time

from host_tools import fwpath, mpscripts
from host_tools.gen import gamegen


def corpus(n=200):
    return [gamegen.to_lines(*gamegen.random_game(seed)) for seed in range(n)]


def bench_cpython(texts, rounds=5):
    fwpath.ensure()
    from store import eventlog
    logs = [t.splitlines(keepends=True) for t in texts]
    best = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        for lines in logs:
            eventlog.replay(lines, None)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return len(logs) / best


def bench_engine_only(texts, rounds=5):
    """Without JSON parsing and validation: events already decoded."""
    fwpath.ensure()
    import json
    import referee
    games = []
    for text in texts:
        lines = text.splitlines()
        games.append((json.loads(lines[0]), [json.loads(x) for x in lines[1:]]))
    best = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        for hdr, evs in games:
            g = referee.new_game(hdr)
            for e in evs:
                g.feed(e)
            g.finish()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return len(games) / best


def micropython_exe():
    cand = os.path.join(os.path.dirname(sys.executable), "micropython")
    return cand if os.path.exists(cand) else "micropython"


def bench_micropython(texts, rounds=2):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, t in enumerate(texts):
            p = os.path.join(d, "g%d.ndjson" % i)
            with open(p, "w") as f:
                f.write(t)
            paths.append(p)
        r = subprocess.run([micropython_exe(), mpscripts.path("replay_logs.py"), fwpath.FIRMWARE_DIR,
                            "--bench", str(rounds)] + paths, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("micropython failed: " + r.stderr[-500:])
        _, games, _, ms = r.stdout.split()
        return int(games) / (int(ms) / 1000.0)


def main(argv=()):
    texts = corpus()
    n_events = sum(t.count("\n") - 1 for t in texts)
    print("referee replay benchmark: %d generated games, %.1f input events per game"
          % (len(texts), n_events / len(texts)))
    print("  CPython %s, parse+validate+referee: %8.0f games/s" % (sys.version.split()[0], bench_cpython(texts)))
    print("  CPython, referee only (pre-parsed):  %8.0f games/s" % bench_engine_only(texts))
    print("  MicroPython unix port, parse+referee: %7.0f games/s" % bench_micropython(texts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
