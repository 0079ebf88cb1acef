"""bakumat view: look at a mat in the browser (served on localhost only).

    bakumat view LOG            event log or raw sensor log: a timeline to scrub
    bakumat view --vboard       the virtual board, live
    bakumat view --serial PORT  a real board, live

The page is firmware/web/ (the same files the board serves); nothing is
fetched from the internet.
"""
import sys
import time
import webbrowser

from host_tools.errors import UserError


def add_arguments(p):
    p.add_argument("log", nargs="?", help="event log or raw sensor log (NDJSON) to replay with a timeline")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--vboard", action="store_true", help="watch the virtual board live")
    src.add_argument("--serial", metavar="PORT", help="watch a real board on this serial port live")
    p.add_argument("--board", help="board definition to draw an event log on (default: the first board folder)")
    p.add_argument("--port", type=int, default=8765, help="HTTP port on 127.0.0.1 (default 8765; 0 picks a free one)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser, just print the address")
    p.add_argument("--verbose", action="store_true", help="log every HTTP request")


def open_browser(url, out=sys.stdout):
    try:
        ok = webbrowser.open(url)
    except Exception:  # no browser configured: the address is printed anyway
        ok = False
    if not ok:
        out.write("(no browser found: open %s yourself)\n" % url)


def serve_until_interrupted(srv, out=sys.stdout):
    try:
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
    if args.vboard or args.serial:
        from host_tools.webview import livelink
        src = livelink.source(vboard=args.vboard, port=args.serial, board_name=args.board)
    elif args.log:
        from host_tools.webview import timeline
        tl = timeline.load(args.log, args.board)
        src = server.LogSource(tl)
    else:
        raise UserError("nothing to show: give a log file, --vboard or --serial PORT")
    if args.port < 0 or args.port > 65535:
        raise UserError("--port: %d is not a TCP port (0..65535)" % args.port)
    srv = server.start(src, port=args.port, verbose=args.verbose)
    print("bakumat view: %s at %s  (Ctrl-C to stop)" % (src.title, srv.url), flush=True)
    if not args.no_browser:
        open_browser(srv.url)
    return serve_until_interrupted(srv)
