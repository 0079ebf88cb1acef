# Runs under the micropython binary:
#   micropython replay_logs.py FIRMWARE_DIR [--bench N] LOG...
# Replays each event log through the firmware's referee and prints, per log,
# a line "== LOG" then the output events as NDJSON (the same encoder the host
# uses), or with --bench N replays all logs N times without printing and
# reports "games G seconds S".
import sys
import time

sys.path.insert(0, sys.argv[1])
from referee import events  # noqa: E402
from store import eventlog  # noqa: E402

args = sys.argv[2:]
bench = 0
if args and args[0] == "--bench":
    bench = int(args[1])
    args = args[2:]

if bench:
    logs = []
    for p in args:
        with open(p) as f:
            logs.append(f.read().split("\n"))
    for lines in logs:
        for i in range(len(lines) - 1):
            lines[i] += "\n"
    t0 = time.ticks_ms()
    n = 0
    for _ in range(bench):
        for lines in logs:
            eventlog.replay(lines, None)
            n += 1
    dt = time.ticks_diff(time.ticks_ms(), t0)
    print("games", n, "ms", dt)
else:
    write = sys.stdout.write
    def sink(o):
        write(events.encode_json(o))
        write("\n")
    for p in args:
        write("== " + p + "\n")
        with open(p) as f:
            try:
                eventlog.replay(f, sink)
            except eventlog.LogError as e:
                write("error: " + str(e) + "\n")
