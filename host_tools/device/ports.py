"""Finding the board's serial port and explaining why a port cannot be used.

    dev = ports.choose(args.port)        # prints which port it picked
    ports.open_error(exc, dev)           # -> UserError with the fix

A board is recognised by the USB vendor id of its USB-serial chip
(Espressif's native USB, Silicon Labs CP210x, WCH CH340, FTDI). `--port`
(or the BAKUMAT_PORT environment variable) overrides the search and also
accepts pyserial URLs such as socket://127.0.0.1:PORT (the virtual board).
"""
import errno
import os
import sys

from host_tools.errors import UserError

# USB vendor id -> what sits between the ESP32 and the USB cable.
KNOWN_VIDS = {
    0x303A: "Espressif native USB",
    0x10C4: "Silicon Labs CP210x",
    0x1A86: "WCH CH340/CH9102",
    0x0403: "FTDI",
}

ENV = "BAKUMAT_PORT"

_FIX_DIALOUT = ("add your user to the group that owns serial ports, then log out and back in: "
                "`sudo usermod -aG dialout $USER` (Arch/Manjaro: uucp)")
_HOLDERS = ("close the other program (a serial monitor, Thonny, the Arduino IDE, screen/minicom, "
            "another bakumat or mpremote)")


def is_url(port):
    return "://" in port


def comports():
    """pyserial's list of serial ports (a function so tests can replace it)."""
    from serial.tools import list_ports
    return list(list_ports.comports())


def describe(info):
    vid = getattr(info, "vid", None)
    pid = getattr(info, "pid", None)
    parts = []
    if vid is not None:
        parts.append(KNOWN_VIDS.get(vid, "USB"))
        parts.append("%04X:%04X" % (vid, pid or 0))
    desc = getattr(info, "description", None)
    if desc and desc != "n/a" and desc != info.device:
        parts.append(desc)
    sn = getattr(info, "serial_number", None)
    if sn:
        parts.append("serial " + sn)
    return ", ".join(parts) if parts else "no USB information"


def candidates(infos=None):
    """Ports whose USB vendor id is a known ESP32 USB-serial chip, sorted."""
    infos = comports() if infos is None else infos
    found = [i for i in infos if getattr(i, "vid", None) in KNOWN_VIDS]
    return sorted(found, key=lambda i: i.device)


def choose(port=None, infos=None, out=None, quiet=False):
    """The port to use: `port` (or $BAKUMAT_PORT) when given, else the one
    board found by USB id. Says which one it chose on `out` (stderr)."""
    out = sys.stderr if out is None else out
    if not port:
        port = os.environ.get(ENV) or None
    if port:
        return port
    infos = comports() if infos is None else infos
    found = candidates(infos)
    if len(found) == 1:
        if not quiet:
            out.write("using %s (%s)\n" % (found[0].device, describe(found[0])))
        return found[0].device
    if not found:
        others = [i for i in infos if i not in found]
        msg = ["no ESP32 board found (looked for USB-serial chips: %s)."
               % ", ".join(sorted(set(KNOWN_VIDS.values())))]
        if others:
            msg.append("Other serial ports present: %s." % "; ".join(
                "%s (%s)" % (i.device, describe(i)) for i in sorted(others, key=lambda i: i.device)))
            msg.append("If one of them is the board, pass it with --port.")
        msg.append("Check that the board is plugged in with a data cable (some cables only charge), "
                   "that the USB-serial driver is installed, or pass --port PORT "
                   "(socket://127.0.0.1:PORT for `bakumat vboard`).")
        raise UserError(" ".join(msg))
    raise UserError("several boards found: %s. Choose one with --port PORT." % "; ".join(
        "%s (%s)" % (i.device, describe(i)) for i in found))


def _errno_of(exc):
    for e in (exc, getattr(exc, "__cause__", None), getattr(exc, "__context__", None)):
        n = getattr(e, "errno", None)
        if type(n) is int:
            return n
    return None


def open_error(exc, port):
    """A UserError explaining why `port` could not be opened (exc: the
    SerialException/OSError from pyserial, or any error text)."""
    text = str(exc)
    low = text.lower()
    n = _errno_of(exc)
    if "exclusively lock" in low or n == errno.EBUSY or "resource busy" in low or "access is denied" in low:
        return UserError("port %s is in use by another program: %s, then try again "
                         "(on Linux, `fuser %s` names it)." % (port, _HOLDERS, port))
    if n in (errno.EACCES, errno.EPERM) or "permission denied" in low:
        return UserError("permission denied opening %s: %s." % (port, _FIX_DIALOUT))
    if is_url(port) and ("refused" in low or n == errno.ECONNREFUSED):
        return UserError("nothing answers at %s (is `bakumat vboard` running, and on that port?)" % port)
    if n == errno.ENOENT or "no such file" in low or "filenotfounderror" in low:
        return UserError("no such port %s (board unplugged? `bakumat ports` lists the serial ports)" % port)
    if "invalid url" in low or "expected" in low and is_url(port):
        return UserError("bad port URL %s: %s" % (port, text))
    return UserError("cannot open port %s: %s" % (port, text))
