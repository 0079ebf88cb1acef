"""bakumat wifi ap|join|show|off: the board's Wi-Fi for the phone page.

Writes the board's /wifi.json (docs/formats/wifi-v1.md), which the firmware
reads once at boot (hw/esp32.py, wifi_listener):

  ap    [--ssid S] [--password P]   the board opens an access point, protected
                                    by P or by a password made at random (--open:
                                    an open one, only when asked for by name)
  join  --ssid S --password P       the board joins a network
  show  [--reveal]                  what the board holds: whether a password is set
                                    (nothing about it), read from the running app
                                    with no restart; with --reveal the password
                                    (read through mpremote)
  off                               remove wifi.json: no Wi-Fi, no page

Changes go like `bakumat deploy`, through mpremote: the running app is asked for
maintenance mode first, the file goes to wifi.json.tmp and is renamed over
wifi.json (a cut never leaves half a file), then the board restarts so the
app reads it (--no-reset: leave it in maintenance mode). `--password -`
reads the password from the standard input (kept out of the shell history).
The password is never printed back, except by `show --reveal`.
"""
import argparse
import base64
import json
import secrets
import sys

from host_tools.device import ports, transport
from host_tools.errors import UserError

PATH = "wifi.json"
DEFAULT_SSID = "BakuMat"
_MARK = "@@bakumat-wifi "

PORT_HELP = "serial port or socket://HOST:PORT (default: the one ESP32 board found by USB id; $BAKUMAT_PORT)"


def add_arguments(p):
    p.add_argument("--port", help=PORT_HELP)
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    sub.required = True
    a = sub.add_parser("ap", help="the board opens its own access point (phones join it; page at http://192.168.4.1/)")
    a.add_argument("--ssid", default=DEFAULT_SSID, help="network name (default %s)" % DEFAULT_SSID)
    pw = a.add_mutually_exclusive_group()
    pw.add_argument("--password", help="WPA2 password, 8 to 63 characters (default: one made at random; "
                                       "bakumat wifi show --reveal shows it); - reads it from stdin")
    pw.add_argument("--open", action="store_true", help="an open access point: anyone nearby can join it")
    j = sub.add_parser("join", help="the board joins a network")
    j.add_argument("--ssid", required=True, help="the network's name")
    j.add_argument("--password", required=True, help="its WPA2 password, 8 to 63 characters; - reads it from stdin")
    sh = sub.add_parser("show", help="show the board's Wi-Fi settings (whether a password is set; --reveal: it)")
    sh.add_argument("--reveal", action="store_true", help="print the password itself")
    sub.add_parser("off", help="remove the board's Wi-Fi settings (no access point, no phone page)")
    for sp in sub.choices.values():
        # --port also after the action; SUPPRESS keeps the one given before it
        sp.add_argument("--port", default=argparse.SUPPRESS, help=PORT_HELP)
        if sp is not sub.choices["show"]:
            sp.add_argument("--no-reset", action="store_true",
                            help="leave the board in maintenance mode (it reads wifi.json at its next boot)")
        sp.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for the app after the reset (20)")


# ------------------------------------------------------------------ validation

def check_ssid(ssid):
    if not isinstance(ssid, str) or ssid == "":
        raise UserError("--ssid: the network name is empty (1 to 32 bytes)")
    n = len(ssid.encode("utf-8"))
    if n > 32:
        raise UserError("--ssid: %r is %d bytes long in UTF-8; a network name has at most 32" % (ssid, n))
    if any(ord(c) < 32 or ord(c) == 127 for c in ssid):
        raise UserError("--ssid: the network name contains a control character")
    return ssid


def check_password(pw):
    """A WPA2 passphrase: 8 to 63 printable ASCII characters. The message
    never repeats it."""
    if len(pw) < 8 or len(pw) > 63:
        raise UserError("--password: a WPA2 password has 8 to 63 characters, this one has %d" % len(pw))
    bad = [c for c in pw if not 32 <= ord(c) <= 126]
    if bad:
        raise UserError("--password: a WPA2 password is printable ASCII only (character %d is not)"
                        % (pw.index(bad[0]) + 1))
    return pw


def read_password(value, stdin=None):
    if value != "-":
        return value
    line = (stdin or sys.stdin).readline()
    if not line:
        raise UserError("--password -: nothing on the standard input")
    return line.rstrip("\r\n")


KEY_CHARS = "abcdefghjkmnpqrstuvwxyz23456789"    # as the board's (hw/esp32.py ap_key)
KEY_LEN = 14


def new_key():
    """A WPA2 password made at random: 14 of 31 easily read symbols, 69 bits."""
    return "".join(secrets.choice(KEY_CHARS) for _ in range(KEY_LEN))


def config(mode, ssid, password, open_ap=False):
    """The wifi.json document (docs/formats/wifi-v1.md), validated. An
    access point without a password gets one made at random, unless it is
    asked for open by name (open_ap)."""
    ssid = check_ssid(ssid)
    if open_ap:
        return {"version": 1, "mode": "ap", "ssid": ssid, "key": "", "open": True}
    if password is None or password == "":
        if mode == "sta":
            raise UserError("join: --password is required (the board joins WPA2 networks)")
        key = new_key()
    else:
        key = check_password(password)
    return {"version": 1, "mode": mode, "ssid": ssid, "key": key}


def masked(cfg):
    """Whether there is a password: nothing about it (not its length)."""
    if cfg.get("key"):
        return "set (bakumat wifi show --reveal shows it)"
    if cfg.get("open") is True or cfg.get("mode") == "sta":
        return "none (an open access point)" if cfg.get("mode") != "sta" else "none"
    return "none yet: the board makes one at its next start (bakumat wifi show --reveal then)"


def describe(cfg, reveal=False):
    """Lines describing a wifi.json document, the password masked (shown
    with reveal)."""
    if not isinstance(cfg, dict):
        return ["wifi.json on the board is not a JSON object: the board opens no Wi-Fi"]
    mode = cfg.get("mode") or "ap"
    ssid = cfg.get("ssid") or DEFAULT_SSID
    lines = ["mode       %s" % ("join a network" if mode == "sta" else "access point"),
             "ssid       %s" % ssid,
             "password   %s" % (cfg.get("key") if reveal and cfg.get("key") else masked(cfg))]
    if cfg.get("version") != 1:
        lines.append("version    %r (this bakumat writes version 1)" % (cfg.get("version"),))
    if mode == "sta":
        lines.append("page       at the address %s gives the board" % ssid)
    else:
        lines.append("page       http://192.168.4.1/ once a phone joins %s" % ssid)
    return lines


# ------------------------------------------------------------------ the board

def write_script(doc):
    """MicroPython code writing doc to wifi.json.tmp, then renaming it over
    wifi.json (the data travels base64-encoded: no quoting, and the password
    is not in the script's clear text)."""
    data = base64.b64encode(json.dumps(doc, sort_keys=True).encode("utf-8")).decode()
    tmp = PATH + ".tmp"
    return ("import binascii, os\n_f=open(%r,'wb')\n_f.write(binascii.a2b_base64(%r))\n_f.close()\n"
            "try:\n os.rename(%r,%r)\nexcept OSError:\n os.remove(%r)\n os.rename(%r,%r)\n"
            "print(%r)\n" % (tmp, data, tmp, PATH, PATH, tmp, PATH, _MARK + "written"))


REMOVE = ("import os\ntry:\n os.remove(%r)\n print(%r)\nexcept OSError:\n print(%r)\n"
          % (PATH, _MARK + "removed", _MARK + "absent"))


def _marked(out):
    for line in out.splitlines():
        if line.startswith(_MARK):
            return line[len(_MARK):].strip()
    raise UserError("unexpected answer from the board: %r" % out[-200:])


def _show_from_app(port):
    """`show` through the running app's `wifi` request (no restart): the
    lines to print, or None when no app with that request answers (then the
    file is read through mpremote as before)."""
    from host_tools.device.link import LinkError, open_link
    try:
        link = open_link(port)
    except (LinkError, OSError):
        return None
    try:
        try:
            link.request("version", timeout=1.5)
            _, r = link.request("wifi", timeout=3.0)
        except LinkError:
            return None         # no app answering, or firmware without the request
    finally:
        link.close()
    if not r.get("present"):
        return ["no %s on the board: no Wi-Fi, no phone page (bakumat wifi ap or join)" % PATH]
    if not r.get("valid"):
        raise UserError("%s on the board is not valid JSON (write it again with bakumat wifi ap or join)" % PATH)
    # the app says only whether a password is set (never the password, nor its length)
    cfg = {"version": r.get("version"), "mode": r.get("mode"), "ssid": r.get("ssid"),
           "key": "set" if r.get("key_set") else "", "open": r.get("open") is True}
    return describe(cfg)


def run(args):
    from host_tools.device import maintenance
    out = sys.stdout
    err = sys.stderr
    doc = None
    if args.action == "ap":
        pw = None if args.password is None else read_password(args.password)
        doc = config("ap", args.ssid, pw, open_ap=args.open)
    elif args.action == "join":
        doc = config("sta", args.ssid, read_password(args.password))
    port = ports.choose(args.port)
    transport.check_port(port)
    if args.action == "show" and not args.reveal:
        from host_tools.device.linkshare import holder
        m = holder(port)            # a monitor holds the port: ask through it
        shown = _show_from_app(m["share"] if m else port)
        if shown is not None:
            # read-only: the running app answered, nothing was restarted
            for line in shown:
                out.write(line + "\n")
            return 0
    from host_tools.device.linkshare import refuse_if_held
    refuse_if_held(port, "`wifi %s`" % args.action)
    in_maint = maintenance.ask_maintenance(port, err)
    mp = transport.Mpremote(port, timeout=60)
    if args.action == "show":
        text = mp.read_text(PATH)
    elif args.action == "off":
        gone = _marked(mp.exec(REMOVE)) == "removed"
    else:
        if _marked(mp.exec(write_script(doc))) != "written":
            raise UserError("the board did not confirm writing %s" % PATH)
    if getattr(args, "no_reset", False):
        err.write("left the board in maintenance mode (--no-reset): it reads %s at its next boot\n" % PATH)
    else:
        maintenance.restart(mp, in_maint, err)
        maintenance.confirm_app(port, None, args.timeout, err)
    if args.action == "show":
        if text is None:
            out.write("no %s on the board: no Wi-Fi, no phone page (bakumat wifi ap or join)\n" % PATH)
            return 0
        try:
            cfg = json.loads(text)
        except ValueError:
            raise UserError("%s on the board is not valid JSON (write it again with bakumat wifi ap or join)"
                            % PATH) from None
        for line in describe(cfg, reveal=args.reveal):
            out.write(line + "\n")
    elif args.action == "off":
        out.write("removed %s: the board opens no Wi-Fi\n" % PATH if gone else
                  "no %s on the board: its Wi-Fi was already off\n" % PATH)
    else:
        out.write("wrote %s:\n" % PATH)
        for line in describe(doc):
            out.write("  " + line + "\n")
        if doc["mode"] == "ap" and not doc["key"]:
            out.write("  (an open access point: anyone nearby can join it)\n")
        elif doc["mode"] == "ap" and args.password is None:
            out.write("  (a password made at random: phones need it to join; bakumat wifi show --reveal shows it)\n")
    return 0
