# Runs under the micropython binary: the board's phone page server with a
# game, but no sensors (for tests and the memory benchmark):
#   micropython -X heapsize=64K web_board.py FIRMWARE_DIR HEADER_JSON PORT
# Prints "READY <port>" once listening, then "HEAP <min free> <mem_alloc>"
# every 200 ms of wall time. Loops like the board: service the server with a
# 2 ms budget per 10 ms tick.
import gc
import sys
import time

sys.path.insert(0, sys.argv[1])
import json  # noqa: E402
import socket  # noqa: E402

from link.httpd import HttpServer  # noqa: E402
from link.webapp import WebApp  # noqa: E402
from referee.journal import Journal  # noqa: E402
from table.controller import Table  # noqa: E402

with open(sys.argv[2]) as f:
    header = json.load(f)
port = int(sys.argv[3])
board = {"name": "reference", "zones": [{"id": i, "x": (i % 4) * 66, "y": (i // 4) * 92, "w": 62, "h": 88}
                                        for i in range(16)]}
t0 = time.ticks_ms()


def now():
    return time.ticks_diff(time.ticks_ms(), t0)


app = None


def sink(out):
    app.on_event(out)


table = Table(Journal(header, sink))
app = WebApp(board, table, now, leds=lambda: [[0, 0, 0]] * 8)
ls = socket.socket()
ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
ls.bind(socket.getaddrinfo("127.0.0.1", port)[0][-1])
ls.listen(4)
web_dir = sys.argv[1] + "/web"
srv = HttpServer(ls, app, time, web_dir, ("index.html", "mat.js", "mat.css"))
print("READY", port)
gc.collect()
min_free = gc.mem_free()
last = time.ticks_ms()
while True:
    start = time.ticks_ms()
    srv.service(time.ticks_add(start, 2))
    table.tick(now())
    f = gc.mem_free()
    if f < min_free:
        min_free = f
    if time.ticks_diff(start, last) >= 200:
        last = start
        print("HEAP", min_free, gc.mem_alloc(), srv.stats["served"], srv.stats["refused"], srv.stats["dropped"])
    time.sleep_ms(10 - min(10, time.ticks_diff(time.ticks_ms(), start)))
