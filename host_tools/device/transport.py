"""Talking to a board: raw serial (pyserial) and file operations (mpremote).

    s = transport.open_serial(port)                # pyserial object, clear errors
    mp = transport.Mpremote(port)
    mp.exec("print(1)")                            # -> "1\\n"
    mp.read_text("/.bakumat-manifest.json")        # -> str or None
    mp.copy([(local, "/sense/pipeline.mpy"), ...], on_file=cb)
    mp.remove(["/old.py"]); mp.reset()

`port` is a device path (/dev/ttyUSB0, COM3) or a pyserial URL
(socket://127.0.0.1:PORT for `bakumat vboard`). File operations run the
real `mpremote` command (`mpremote connect PORT resume ...`: `resume`, so no
soft reset that would restart the app under a running watchdog); its
failures become UserErrors that say what to do.
"""
import os
import subprocess
import sys

from host_tools.device import ports
from host_tools.errors import UserError


def open_serial(port, baudrate=115200, timeout=0.05):
    """Open `port` with pyserial (exclusively for local devices)."""
    import serial
    try:
        s = serial.serial_for_url(port, do_not_open=True, baudrate=baudrate, timeout=timeout,
                                  exclusive=not ports.is_url(port))
        s.open()
    except (serial.SerialException, OSError, ValueError) as e:
        raise ports.open_error(e, port)
    return s


def check_port(port):
    """Open and close `port` once: a clear error now beats mpremote's later."""
    open_serial(port).close()


def mpremote_exe():
    cand = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if os.path.exists(cand):
        return [cand]
    return [sys.executable, "-m", "mpremote"]


class Mpremote:
    """The real mpremote, one subprocess per batch of operations."""

    def __init__(self, port, timeout=120, exe=None):
        self.port = port
        self.timeout = timeout
        self.exe = list(exe) if exe else mpremote_exe()
        self.calls = 0

    def _argv(self, ops):
        argv = self.exe + ["connect", self.port, "resume"]
        for i, op in enumerate(ops):
            if i:
                argv.append("+")
            argv.extend(op)
        return argv

    def run(self, ops, on_line=None, timeout=None):
        """Run mpremote with the chained operations `ops` (lists of args);
        stdout lines go to on_line as they come. Returns stdout text."""
        self.calls += 1
        argv = self._argv(ops)
        try:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL, text=True, errors="replace")
        except OSError as e:
            raise UserError("cannot run mpremote (%s): install the project with its dependencies" % e)
        out = []
        try:
            if on_line is None:
                so, se = p.communicate(timeout=timeout or self.timeout)
                out.append(so)
            else:
                # stdout line by line (progress), stderr after
                for line in p.stdout:
                    out.append(line)
                    on_line(line.rstrip("\n"))
                se = p.stderr.read()
                p.wait(timeout=timeout or self.timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise UserError("the board at %s stopped answering (mpremote timed out after %d s)"
                            % (self.port, timeout or self.timeout))
        text = "".join(out)
        if p.returncode != 0:
            raise self._error(text, se)
        return text

    def _error(self, out, err):
        both = (err or "") + "\n" + (out or "")
        low = both.lower()
        if "failed to access" in low or "could not open port" in low or "no such file" in low and "connect" in low:
            # Ask pyserial directly for the precise reason.
            try:
                check_port(self.port)
            except UserError as e:
                return e
            return UserError("mpremote could not open %s (it may be in use by another program)" % self.port)
        if "could not enter raw repl" in low or "timeout waiting for" in low:
            return UserError("the board at %s does not answer at the MicroPython prompt: is MicroPython "
                             "installed (`bakumat flash`)? Press RESET on the board and try again." % self.port)
        if "traceback" in low:
            last = [l for l in both.strip().splitlines() if l.strip()]
            return UserError("the board raised an error: %s" % (last[-1] if last else "?"))
        last = [l for l in (err or out or "").strip().splitlines() if l.strip()]
        return UserError("mpremote failed on %s: %s" % (self.port, last[-1] if last else "no output"))

    # ------------------------------------------------------------ operations
    def exec(self, code, timeout=None):
        return self.run([["exec", code]], timeout=timeout)

    def read_text(self, path):
        """Text of a file on the board, or None if it does not exist."""
        code = ("import sys\ntry:\n f=open(%r)\nexcept OSError:\n sys.stdout.write('\\x15')\nelse:\n"
                " sys.stdout.write('\\x06'+f.read());f.close()" % path)
        out = self.exec(code)
        if out.startswith("\x15"):
            return None
        if not out.startswith("\x06"):
            raise UserError("unexpected answer reading %s on the board: %r" % (path, out[:80]))
        return out[1:]

    def copy(self, pairs, on_file=None, batch=24):
        """Copy local files to the board: pairs of (local path, board path).
        Parent folders must exist (see makedirs). on_file(board_path) after each."""
        pairs = list(pairs)
        for k in range(0, len(pairs), batch):
            chunk = pairs[k:k + batch]
            ops = [["fs", "cp", "-f", local, ":" + remote] for local, remote in chunk]
            by_local = {}
            for local, remote in chunk:
                by_local.setdefault(local, []).append(remote)

            def line(text):
                # mpremote prints "cp LOCAL :REMOTE" before each copy
                if on_file is not None and text.startswith("cp "):
                    parts = text.split(" ")
                    if len(parts) >= 3 and parts[-1].startswith(":"):
                        on_file(parts[-1][1:])
            self.run(ops, on_line=line)

    def makedirs(self, dirs):
        if not dirs:
            return
        code = ("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass" % (sorted(dirs),))
        self.exec(code)

    def remove(self, paths):
        if not paths:
            return
        code = ("import os\nfor p in %r:\n try:\n  os.remove(p)\n except OSError:\n  pass" % (sorted(paths),))
        self.exec(code)

    def reset(self):
        """Hard reset (machine.reset()); the app starts again from main.py."""
        self.run([["reset"]])
