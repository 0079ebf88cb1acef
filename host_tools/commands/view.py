"""bakumat view: look at a mat in the browser (served on localhost only).

    bakumat view LOG                   event log or raw sensor log: a timeline to scrub
    bakumat view --live [--port PORT]  a board over serial (or socket://127.0.0.1:PORT
                                       for the virtual board), live
    bakumat view --vboard              the virtual board, live

The page is firmware/web/ (the same files the board serves); nothing is
fetched from the internet.
"""
import sys
import time

from host_tools.errors import UserError
from host_tools.webview.server import open_browser


def add_arguments(p):
    p.add_argument("log", nargs="?", help="event log or raw sensor log (NDJSON) to replay with a timeline")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--live", action="store_true", help="watch a board live over the serial link")
    src.add_argument("--vboard", action="store_true",
                     help="watch the virtual board (`bakumat vboard`, on its default port) live")
    p.add_argument("--port", help="with --live: serial port or socket://HOST:PORT (default: the one ESP32 board "
                   "found by USB id; $BAKUMAT_PORT)")
    p.add_argument("--header", help="with --live: the game's header (an event log or JSON file), for names "
                   "and decks when the board does not send them")
    p.add_argument("--board", help="board definition to draw on (default: an event log is drawn on the reference "
                   "board; a board says its own)")
    p.add_argument("--http", type=int, default=8765, metavar="PORT",
                   help="HTTP port on 127.0.0.1 (default 8765; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser, just print the address")
    p.add_argument("--verbose", action="store_true", help="log every HTTP request")


def serve_until_interrupted(srv, out=sys.stdout, banner=None, browser=False):
    try:
        if banner:
            out.write(banner + "\n")
            out.flush()
        if browser:
            open_browser(srv.url, out)
        while srv.thread.is_alive():
            time.sleep(0.5)
    except KeyboardInterrupt:
        out.write("\nstopped\n")
    finally:
        srv.shutdown()
        srv.server_close()
    return 0


def run(args):
    from host_tools.webview import server
    if not 0 <= args.http <= 65535:
        raise UserError("--http: %d is not a TCP port (0..65535)" % args.http)
    watcher = None
    if args.live or args.vboard:
        if args.log:
            raise UserError("give either a log file or --live/--vboard, not both")
        from host_tools.webview import livelink
        header = livelink.load_header(args.header) if args.header else None
        src, watcher = livelink.source(vboard=args.vboard, port=args.port, board_name=args.board, header=header)
    elif args.log:
        if args.port or args.header:
            raise UserError("--port and --header go with --live")
        from host_tools.webview import timeline
        src = server.LogSource(timeline.load(args.log, args.board))
    else:
        raise UserError("nothing to show: give a log file, --live [--port PORT] or --vboard")
    srv = server.start(src, port=args.http, verbose=args.verbose)
    try:
        return serve_until_interrupted(srv, banner="bakumat view: %s at %s  (Ctrl-C to stop)" % (src.title, srv.url),
                                       browser=not args.no_browser)
    finally:
        if watcher is not None:
            watcher.close()
