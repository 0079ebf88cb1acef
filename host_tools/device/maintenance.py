"""The app's maintenance mode, as deploy and wifi use it: ask the running app
for it over the link (so its watchdog cannot reset the board while files are
copied), leave it with a hard reset, and wait for the app to answer again.

    in_maint = maintenance.ask_maintenance(port, out)   # True if the app agreed
    ...                                                 # mpremote work
    maintenance.restart(mp, in_maint, out)              # leave it, reset the board
    v = maintenance.confirm_app(port, fw, timeout, out) # the app's `version` reply
"""
import time

from host_tools.device import ports, transport
from host_tools.errors import UserError


def wait_for_port(port, timeout=15.0):
    """After a hard reset a native-USB board re-enumerates: wait until the
    port opens again (a URL is returned at once)."""
    if ports.is_url(port):
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            transport.check_port(port)
            return
        except UserError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def ask_maintenance(port, out, timeout=1.5):
    """Ask the running app for maintenance mode. True if the app agreed."""
    from host_tools.device.link import LinkError, open_link
    try:
        link = open_link(port)
    except LinkError:
        return False
    try:
        try:
            _, v = link.request("version", timeout=timeout)
        except LinkError:
            out.write("the app does not answer on the link (no app yet?): mpremote will interrupt the board "
                      "with Ctrl-C\n")
            return False
        out.write("app %s answers; asking it for maintenance mode\n" % v.get("fw"))
        try:
            link.request("maint", {"on": True}, timeout=3.0)
        except LinkError as e:
            out.write("the app refused maintenance mode (%s): mpremote will interrupt it with Ctrl-C\n" % e)
            return False
    finally:
        link.close()
    settle(port)
    return True


def confirm_app(port, fw, timeout, out):
    """Wait for the app to answer `version` after the reset; check fw."""
    from host_tools.device.link import LinkError, open_link
    wait_for_port(port, timeout)
    deadline = time.monotonic() + timeout
    link = None
    last_console = ""
    try:
        while True:
            if link is None:
                try:
                    link = open_link(port)
                except LinkError:
                    link = None
            if link is not None:
                try:
                    _, v = link.request("version", timeout=1.0)
                    break
                except LinkError:
                    last_console = link.console
            if time.monotonic() > deadline:
                tail = "\n".join(last_console.strip().splitlines()[-6:])
                raise UserError("the app did not answer within %.0f s after the reset%s"
                                % (timeout, (": the board printed:\n" + tail) if tail else
                                   " (see its output with `mpremote connect %s repl`)" % port))
            if link is None:
                time.sleep(0.2)
    finally:
        if link is not None:
            link.close()
    if fw is not None and v.get("fw") != fw:
        raise UserError("the board answers with firmware %r, expected %r: the new app did not start "
                        "(deploy again with --force)" % (v.get("fw"), fw))
    out.write("app %s is up (board %s, protocol %s)\n" % (v.get("fw"), v.get("board"), v.get("proto")))
    return v


def app_version(port, timeout=1.5):
    """The running app's `version` reply (it names its board), or None when
    no app answers (as `bakumat diag info` asks it)."""
    from host_tools.device.link import LinkError, open_link
    try:
        link = open_link(port)
    except LinkError:
        return None
    try:
        return link.request("version", timeout=timeout)[1]
    except LinkError:
        return None
    finally:
        link.close()


# machine.reset() as mpremote's `reset` does it; the virtual board (unix port,
# no machine.reset) is reset through its side channel ('R', hw/vboard.py).
RESET = """import time
time.sleep_ms(100)
try:
    import machine
    machine.reset()
except AttributeError:
    import hw.vboard
    hw.vboard.side().send(82, 2)
"""


def restart(mp, in_maint, out):
    """Leave maintenance mode and hard-reset (mpremote's own `reset` way:
    exec without waiting for an answer the reset would cut)."""
    out.write("restarting the board\n")
    try:
        mp.run([["exec", "try:\n import maint\n maint.leave()\nexcept ImportError:\n pass\n"],
                ["exec", "--no-follow", RESET]], timeout=30)
    except UserError:
        pass    # the reset may cut the connection under mpremote


def settle(port, quiet_s=0.5, max_s=8.0):
    """After the app reboots into maintenance mode: wait for the port to come
    back and for the boot messages to stop, so mpremote meets a REPL."""
    wait_for_port(port, max_s)
    deadline = time.monotonic() + max_s
    try:
        s = transport.open_serial(port, timeout=0.1)
    except UserError:
        return
    try:
        last = time.monotonic()
        while time.monotonic() < deadline:
            if s.read(256):
                last = time.monotonic()
            elif time.monotonic() - last >= quiet_s:
                return
    finally:
        s.close()
