"""Why the sensing decided when it did: `bakumat replay --why RAW`.

The replay runs the board's pipeline with its wait hook set
(Pipeline.on_wait): each frame on which a zone had a still field but the
pipeline did not decide yet says why (a reason code). Per zone, consecutive
waits make an episode; the decision that ends it (land, leave, ...) is
printed with how long it waited and for what, and an episode that ends
without any decision (the field went away, or was taken as the zone's new
empty state) is printed as NOT DECIDED: the answer to "why was this landing
missed?". A legend of the reasons seen, with the pipeline's settings, ends
the report.
"""

# reason code -> (what it means, the pipeline settings it names)
REASONS = {
    "ambiguous": ("the level reads between Bakugan: decided once one of them has a posterior of "
                  "%(fit_decide_p)s, or once the "
                  "level has held still %(max_wait_ms)s ms (then the thrower may be asked)"),
    "mismatch": "the level matches no expected Bakugan closely enough (z above %(match_z)s)",
    "identity": "no Bakugan named yet for this level",
    "ramp": "the level is below a stronger candidate's and may still be opening: waits %(ramp_ms)s ms",
    "trend": "the level was still moving (a Bakugan still opening or settling): the window started again",
    "lesson": "a Bakugan being taught: its level must hold still %(lesson_ms)s ms",
    "lift": "part of a standing Bakugan's field dropped: waits %(lift_ms)s ms in case it is being lifted",
    "tail": ("a standing Bakugan's field went and what is left fades like a lift's tail (the Bakugan still "
             "above the card): waits %(tail_ms)s ms before calling it a leave"),
    "residue": ("a standing Bakugan's field went but something is left: waits %(lift_ms)s ms to tell a leave "
                "from a Bakugan of the other polarity arriving (%(residue_ms)s ms when the referee expects the "
                "lift: its tail lasts longer)"),
    "leave": "a leave waits for %(leave_quiet_ms)s ms of still frames before it is taken",
    "unexplained": ("a steady field nothing explains (a knock, a closed ball, a Bakugan the referee does not "
                    "expect there): taken as the zone's new empty state after %(absorb_ms)s ms"),
}


# `identity` is also said on every frame an identification waited for one
# of these: not counted again then
_NAMED = ("ambiguous", "mismatch", "ramp")


class Episode:
    """A zone's waits between two decisions."""

    def __init__(self, t):
        self.t0 = t
        self.last = t
        self.frames = 0
        self.named = -1     # the last frame an identification said why it waited
        self.counts = {}
        self.order = []
        self.detail = {}

    def add(self, t, reason, who, x):
        if self.frames == 0 or t != self.last:
            self.frames += 1
        self.last = t
        if reason in _NAMED:
            self.named = t
        elif reason == "identity" and self.named == t:
            return False
        if reason not in self.counts:
            self.counts[reason] = 0
            self.order.append(reason)
        self.counts[reason] += 1
        if who is not None:
            self.detail[reason] = (who, x)
        return True


class Waits:
    """Each zone's waits since its last decision (add: Pipeline.on_wait);
    stale() hands back the episodes that went quiet for gap_ms."""

    def __init__(self, zone_ids, gap_ms=600):
        self.zone_ids = list(zone_ids)
        self.gap = gap_ms
        self.now = 0
        self.open = {}      # zone id -> Episode

    def add(self, zi, reason, who, x):
        """Counted? (identity after a named reason is not)"""
        z = self.zone_ids[zi]
        ep = self.open.get(z)
        if ep is None:
            ep = self.open[z] = Episode(self.now)
        return ep.add(self.now, reason, who, x)

    def take(self, z):
        """The zone's episode, now decided (or None)."""
        return self.open.pop(z, None)

    def stale(self, t):
        """Before the frame at t: [(zone id, episode)] quiet for gap_ms, removed."""
        self.now = t
        out = []
        for z in sorted(self.open):
            if t - self.open[z].last > self.gap:
                out.append((z, self.open.pop(z)))
        return out


class Explainer:
    """Collects the pipeline's waits and decisions and writes the report.
    gap_ms: a zone's waits this far apart are two episodes; an episode of
    fewer than min_frames frames that ends without a decision (a field that
    stirred and went on) is only counted. A zone whose field kept stirring
    over its threshold for stir_ms without ever holding still (nothing to
    decide on: a closed ball, a weak or wobbling field) is reported too."""

    def __init__(self, out, pipeline, zone=None, gap_ms=600, min_frames=3, stir_ms=300):
        self.p = pipeline
        self.out = out
        self.zone_ids = list(pipeline.zone_ids)
        self.params = pipeline.params
        self.only = zone
        self.gap = gap_ms
        self.min_frames = min_frames
        self.stir_ms = stir_ms
        self.w = Waits(self.zone_ids, gap_ms)
        self.stirs = {}     # zone id -> [first, last, count, strongest E, threshold] of stirs nothing explained
        self.was = bytearray(len(self.zone_ids))   # each zone's `burst` after the last frame
        self.lines = []     # (t, n, text): written in time order at finish()
        self.seen = []      # the reasons met, for the legend
        self.decisions = 0
        self.waited = 0
        self.undecided = 0
        self.brief = 0
        self.unstill = 0

    def tick(self, t):
        """Before each frame: the frame's time; episodes gone quiet end."""
        for z, ep in self.w.stale(t):
            self._undecided(z, ep)
        for z in sorted(self.stirs):
            st = self.stirs[z]
            if t - st[1] > self.gap:
                del self.stirs[z]
                self._stirred(z, st)

    def after(self, t):
        """After each frame: the zones whose field stirred over their
        threshold (Pipeline.stir)."""
        p = self.p
        was = self.was
        for zi in range(len(was)):
            peak = p.stir(zi)
            b = 1 if peak >= 0 else 0
            if b:
                z = self.zone_ids[zi]
                st = self.stirs.get(z)
                if st is None:
                    st = self.stirs[z] = [t, t, 0, 0, p.thresholds(zi)[0]]
                if not was[zi]:
                    st[2] += 1
                st[1] = t
                if peak > st[3]:
                    st[3] = peak
            was[zi] = b

    def wait(self, zi, reason, who, x):
        """Pipeline.on_wait."""
        z = self.zone_ids[zi]
        self.stirs.pop(z, None)     # it held still: the wait says the rest
        if self.only is not None and z != self.only:
            return
        if self.w.add(zi, reason, who, x) and reason not in self.seen:
            self.seen.append(reason)

    def sensed(self, ev):
        """The pipeline's sink: a decision."""
        z = ev.get("zone")
        self.stirs.pop(z, None)
        if self.only is not None and z != self.only:
            return
        self.decisions += 1
        ep = self.w.take(z) if z is not None else None
        what = _decision(ev)
        if ep is None:
            self._line(ev["t"], z, what)
        else:
            self.waited += 1
            self._line(ev["t"], z, "%s, after waiting %d ms (from %.3f s): %s"
                       % (what, ev["t"] - ep.t0, ep.t0 / 1000.0, reasons(ep)))

    def finish(self):
        for z, ep in self.w.stale(self.w.now + self.gap + 1):
            self._undecided(z, ep)
        for z in sorted(self.stirs):
            self._stirred(z, self.stirs[z])
        self.stirs = {}
        w = self.out.write
        self.lines.sort()
        for _, _, text in self.lines:
            w(text)
        w("\n%s, %d of them after waiting; %s never decided (and %d that held under %d frames);"
          " %s that never held still\n"
          % (_n(self.decisions, "decision"), self.waited, _n(self.undecided, "still field"), self.brief,
             self.min_frames, _n(self.unstill, "field")))
        if self.seen:
            w("\nwhy the pipeline waits:\n")
            for r in self.seen:
                w("  %-11s %s\n" % (r, REASONS.get(r, "(no description)") % self.params))

    def _undecided(self, z, ep):
        if ep.frames < self.min_frames:
            self.brief += 1
            return
        self.undecided += 1
        self._line(ep.t0, z, "NOT DECIDED: a still field from %.3f s to %.3f s, then no decision: %s"
                   % (ep.t0 / 1000.0, ep.last / 1000.0, reasons(ep)))

    def _stirred(self, z, st):
        if self.only is not None and z != self.only:
            return
        if st[1] - st[0] < self.stir_ms:
            return      # a ball passing over, a knock
        self.unstill += 1
        self._line(st[0], z, "NEVER STILL: the field stirred over the threshold %d times from %.3f s to %.3f s "
                   "(strongest E %d, threshold %d, or the coherent sum's) and never held still %d ms: nothing to decide on "
                   "(a ball rolling, a closed ball, a weak or wobbling field)"
                   % (st[2], st[0] / 1000.0, st[1] / 1000.0, st[3], st[4], self.params["dwell_ms"]))

    def _line(self, t, z, text):
        self.lines.append((t, len(self.lines), "%8.3f s  zone %-3s %s\n" % (t / 1000.0, "-" if z is None else z, text)))


def reasons(ep):
    """An episode's waits, the most frequent first: "ambiguous x8 (most like
    tigrerra, 93.1% likely); trend x1"."""
    parts = []
    for r in sorted(ep.order, key=lambda r: -ep.counts[r]):
        s = "%s x%d" % (r, ep.counts[r])
        d = ep.detail.get(r)
        if d is not None and r == "ambiguous":
            s += " (most like %s, %.1f%% likely)" % (d[0], 100.0 * d[1])
        elif d is not None and r == "mismatch":
            s += " (most like %s, z %.1f)" % (d[0], d[1])
        parts.append(s)
    return "; ".join(parts)


def _n(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def _decision(ev):
    k = ev.get("ev")
    who = ev.get("bakugan") or "a Bakugan"
    if k == "land":
        return "%s %s" % ("taught" if ev.get("learned") else "land", who)
    if k == "leave":
        return "leave %s" % who
    if k == "ident":
        return "it is %s after all" % who
    if k == "unsure":
        return "not sure it is %s (or %s): the thrower is asked" % (who, ev.get("alt"))
    if k == "unland":
        return "no landing after all (a ball that paused)"
    if k == "roll":
        return "a ball rolled across"
    if k == "fault":
        return "fault: channel %s %s" % (ev.get("ch"), ev.get("kind"))
    return str(k)
