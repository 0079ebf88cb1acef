"""Progress bars for long host operations (flash, deploy, record).

    with Progress("Writing", total=nbytes, unit="B") as bar:
        bar.update(4096)        # or bar.set(done)
        bar.note("msg")          # a line above the bar (or a plain line)

A bar is drawn only when the stream is a terminal; otherwise the bar is
silent and only `note()` lines and the final summary line are written, so
logs and pipes get a few readable lines instead of carriage-return noise.
Redraws are rate-limited (10 per second) so a fast loop costs nothing.
"""
import sys
import time

_WIDTH = 28


def _human(n, unit):
    if unit == "B":
        for u in ("B", "KB", "MB", "GB"):
            if abs(n) < 1024 or u == "GB":
                return ("%d %s" % (n, u)) if u == "B" else ("%.1f %s" % (n, u))
            n /= 1024.0
    return "%d%s" % (n, (" " + unit) if unit else "")


class Progress:
    def __init__(self, label, total=None, unit="", stream=None, enabled=None, clock=time.monotonic):
        self.label = label
        self.total = total
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.done = 0
        self.clock = clock
        self.start = clock()
        self._last_draw = 0.0
        self._drawn = False
        self.closed = False

    # -- the bar ---------------------------------------------------------
    def update(self, n=1):
        self.set(self.done + n)

    def set(self, done, suffix=""):
        self.done = done
        if not self.enabled:
            return
        now = self.clock()
        final = self.total is not None and done >= self.total
        if not final and now - self._last_draw < 0.1 and self._drawn:
            return
        self._last_draw = now
        self._draw(suffix)

    def _draw(self, suffix=""):
        if self.total:
            frac = min(1.0, max(0.0, float(self.done) / self.total))
            fill = int(frac * _WIDTH)
            bar = "[" + "#" * fill + "-" * (_WIDTH - fill) + "]"
            text = "%s %s %3d%% %s/%s" % (self.label, bar, int(frac * 100),
                                          _human(self.done, self.unit), _human(self.total, self.unit))
        else:
            text = "%s %s" % (self.label, _human(self.done, self.unit))
        if suffix:
            text += " " + suffix
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self._drawn = True

    def note(self, text):
        """A line of text: above the bar on a terminal, else a plain line."""
        if self.enabled and self._drawn:
            self.stream.write("\r\x1b[K" + text + "\n")
            self._draw()
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self, summary=None):
        """End the bar; write `summary` (or a default line) once."""
        if self.closed:
            return
        self.closed = True
        secs = self.clock() - self.start
        if summary is None:
            summary = "%s: %s in %.1f s" % (self.label, _human(self.done, self.unit), secs)
        if self.enabled and self._drawn:
            self.stream.write("\r\x1b[K")
        if summary:
            self.stream.write(summary + "\n")
        self.stream.flush()

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        # On an error, end the bar line without a misleading summary.
        self.close(None if et is None else "")
        return False
