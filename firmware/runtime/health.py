"""What the board counts about itself, as the `health` request reports it.

The loop's counters (scans, late ticks, the worst tick, failing ticks),
the channels found faulty, the saves that failed and, when profiling is on
(bench runtime), the per-stage loop times and the heap each tick
allocated. Every part that reports a problem to the host (a `log` frame)
does it through log(), and every part that does work in a tick (an event,
a message, output) says so with worked(): a tick without work is a quiet
tick, whose allocation the profile counts (the goal is none).
"""
import gc
from array import array

# stage indices for the per-stage timing (bench runtime)
STAGES = ("scan", "sense", "link", "show", "tx")


class Health:
    def __init__(self, board, link, profile=False):
        self.board = board
        self.link = link
        self.boot_ms = board.clock.ticks_ms()
        self.scans = 0
        self.ticks = 0
        self.overruns = 0            # ticks that started more than a period late
        self.loop_us_max = 0         # the longest whole tick
        self.failing_ticks = 0       # ticks in a row with a failing stage (the watchdog's count)
        self.faults = []             # the channels found faulty
        self.save_errors = 0
        self.profile = profile
        self.stage_us = array("i", [0] * len(STAGES))     # profile: each stage's time, summed
        self.stage_max = array("i", [0] * len(STAGES))    # ... and its longest
        self.busy = False     # profile: this tick did work (its allocation is not quiet)
        self.quiet_ticks = 0         # profile: ticks without any event, message or output
        self.quiet_alloc_ticks = 0   # ... of which allocated heap
        self.quiet_alloc = 0
        self.quiet_alloc_max = 0
        self.alloc_busy = 0

    def worked(self):
        self.busy = True

    def log(self, msg):
        """A `log` frame to the host: a problem the board got over."""
        self.busy = True
        self.link.send("log", {"msg": msg})

    def save_failed(self, msg=None):
        """A save to the store failed; msg: logged."""
        self.save_errors += 1
        if msg is not None:
            self.log(msg)

    def fault(self, ch):
        if ch not in self.faults:
            self.faults.append(ch)

    def stage(self, i, us):
        """Profile: stage i took us in this tick."""
        self.stage_us[i] += us
        if us > self.stage_max[i]:
            self.stage_max[i] = us

    def tick_alloc(self, a0, a1):
        """Profile: the heap allocated from a0 to a1 in this tick (both
        gc.mem_alloc(); a1 < a0: a collection ran, nothing counted)."""
        if a1 >= a0:
            if self.busy:
                self.alloc_busy += a1 - a0
            else:
                self.quiet_ticks += 1
                if a1 > a0:
                    self.quiet_alloc_ticks += 1
                    self.quiet_alloc += a1 - a0
                    if a1 - a0 > self.quiet_alloc_max:
                        self.quiet_alloc_max = a1 - a0

    def report(self, saves, events):
        """The `health` reply's body (docs/formats/serial-protocol-v1.md);
        saves: the store's, events: the game's."""
        b = self.board
        link = self.link
        clock = b.clock
        return {"uptime_ms": clock.ticks_diff(clock.ticks_ms(), self.boot_ms),
                "cause": b.reset_cause, "scans": self.scans, "overruns": self.overruns,
                "loop_us_max": self.loop_us_max, "mem_free": gc.mem_free() if hasattr(gc, "mem_free") else None,
                "rx_frames": link.dec.frames, "rx_errors": link.dec.errors,
                "rx_garbage": link.dec.garbage, "err_dropped": link.err_dropped,
                "rx_stale": link.stale,
                "tx_drops": link.tx_drops, "faults": list(self.faults),
                "wdt": b.wdt is not None, "saves": saves, "save_errors": self.save_errors,
                "events": events, "ticks": self.ticks,
                "stages": dict((STAGES[i], [self.stage_us[i], self.stage_max[i]]) for i in range(len(STAGES)))
                if self.profile else None,
                "alloc": {"quiet_ticks": self.quiet_ticks, "quiet_alloc_ticks": self.quiet_alloc_ticks,
                          "quiet_alloc_bytes": self.quiet_alloc, "quiet_alloc_max": self.quiet_alloc_max,
                          "busy_alloc_bytes": self.alloc_busy} if self.profile else None}
