"""Connecting a command to the app on a board over the serial link.

    with boardlink.connect(args.port) as bl:      # port chosen/explained by host_tools.device.ports
        bl.version     # the app's `version` reply (fw, proto, board, mpy)
        bl.board       # the board definition it runs (boards.load), or None
        bl.link        # host_tools.device.link.HostLink
        bl.state()     # the `state` reply body

Errors are UserErrors that say what to do: the port cannot be opened (busy,
permission), or nothing answers the link (no app deployed, or the board
sits at the REPL).
"""
import sys

from host_tools.device import ports, transport
from host_tools.errors import UserError


def add_port_argument(p):
    p.add_argument("--port", help="serial port or socket://HOST:PORT (default: the one ESP32 board found by USB id; "
                   "$BAKUMAT_PORT)")


class BoardLink:
    def __init__(self, port, link, version, board, via=None):
        self.port = port
        self.via = via          # the board's own port, when this link goes through a monitor
        self.link = link
        self.version = version
        self.board = board
        self.rx_bytes = 0

    def close(self):
        self.link.close()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def lost_error(self, e):
        """The UserError for a link that went away under a command."""
        hint = ""
        if ports.is_url(self.port):
            # the virtual board serves one program at a time; a monitor shares it
            hint = (" (to watch and act at once, keep one `bakumat monitor` on the board: the other commands "
                    "act through it)")
        return UserError("lost the connection to the board on %s (%s): unplugged, reset, or another program "
                         "took the port%s" % (self.port, e, hint))

    def request(self, typ, body=None, timeout=5.0):
        from host_tools.device.link import LinkError
        try:
            return self.link.request(typ, body, timeout=timeout)
        except (OSError, EOFError) as e:
            raise self.lost_error(e)
        except LinkError as e:
            if e.err_code == "unknown":
                raise UserError("the firmware on the board (%s) does not know the request %r: update it with "
                                "`bakumat deploy`" % (self.version.get("fw"), typ))
            raise

    def request_json(self, typ, text, timeout=5.0):
        """request() with a body that is JSON text already (compact, so a big
        game header fits the board's frame limit)."""
        from host_tools.device.link import REPLIES, LinkError
        link = self.link
        try:
            seq = link.send_json(typ, text)
            _, rtyp, rbody = link.wait_for(lambda f: f[0] == seq and f[1] in REPLIES, timeout)
        except (OSError, EOFError) as e:
            raise self.lost_error(e)
        if rtyp == "err":
            raise LinkError("board refused %s: %s: %s" % (typ, rbody.get("code"), rbody.get("msg")),
                            rbody.get("code"), rbody)
        return rtyp, rbody

    def state(self):
        return self.request("state")[1]

    def frames(self, timeout=0.05):
        """Pump the link once; return the non-reply frames that arrived."""
        from host_tools.device.link import REPLIES
        try:
            self.rx_bytes += self.link.pump(timeout)
        except (OSError, EOFError) as e:
            raise self.lost_error(e)
        out = [f for f in self.link.inbox if f[1] not in REPLIES]
        self.link.inbox.clear()
        return out


def connect(port=None, board_name=None, timeout=3.0, quiet=False):
    """The link to the app on `port` (ports.choose when None). When a
    `bakumat monitor` holds that port and shares it, the link goes through
    the monitor (host_tools/device/linkshare.py) rather than taking the
    port from it."""
    port = ports.choose(port, quiet=quiet)
    from host_tools.device.link import HostLink, LinkError
    from host_tools.device import linkshare
    via = None
    m = linkshare.holder(port)
    if m is not None:
        # (said nowhere: the command's output is the same, and the monitor shows what it did)
        via, port = port, m["share"]
    stream = transport.open_serial(port)
    link = HostLink(stream)
    try:
        try:
            _, v = link.request("version", timeout=timeout)
        except LinkError:
            tail = "\n".join(link.console.strip().splitlines()[-4:])
            raise UserError("the app does not answer on %s: is it deployed (`bakumat deploy`) and running? "
                            "A board left at the MicroPython prompt needs a reset (or `bakumat deploy`)%s"
                            % (port, (". The board printed:\n" + tail) if tail else ""))
        board = None
        name = board_name or v.get("board")
        if name:
            from host_tools import boards
            try:
                board = boards.load(name)
            except UserError:
                if board_name:
                    raise
                sys.stderr.write("note: the board runs board definition %r, unknown here\n" % name)
        return BoardLink(port, link, v, board, via)
    except BaseException:
        link.close()
        raise
