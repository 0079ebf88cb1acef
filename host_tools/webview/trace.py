"""Per-zone sensor traces read from the firmware's sensing pipeline after
every frame: each channel's deviation from its baseline (counts), the
zone's energy E (the sum the pipeline compares with its threshold), the
threshold itself, and the moments the pipeline decided (land, leave,
fault). Shared by the web view (GET /api/traces) and `bakumat plot`.

E is recomputed here from the pipeline's own arrays with the pipeline's
formula (sense/pipeline.py, `feed`): E = sum over the zone's healthy
channels of max(0, |dev - settled| - dead band), compared with `on_t`; and,
when the pipeline has one (`con_t`), the coherent sum C = |sum of
(dev - settled)| compared with its own threshold. A window opens when
either is over its threshold. If the pipeline ever offers a probe of its
own, use it instead.
"""
from array import array


class Probe:
    def __init__(self, pipeline, board):
        self.p = pipeline
        self.board = board
        self.zone_ids = list(pipeline.zone_ids)
        self._zi = {}
        for i, z in enumerate(self.zone_ids):
            self._zi[z] = i
        self._chzone = {}
        for s in board["sensors"]:
            self._chzone[s["ch"]] = s["zone"]
        self.t = array("i")
        nz = len(self.zone_ids)
        self.zch = [list(pipeline.zch[zi]) for zi in range(nz)]
        self.dev = [[array("i") for _ in self.zch[zi]] for zi in range(nz)]
        self.energy = [array("i") for _ in range(nz)]
        self.thr = [array("i") for _ in range(nz)]
        self.coh = hasattr(pipeline, "con_t")
        self.csum = [array("i") for _ in range(nz)]
        self.cthr = [array("i") for _ in range(nz)]
        self.decisions = [[] for _ in range(nz)]
        from sense import pipeline as mod
        self._sb = getattr(mod, "_SB", 8)

    def zone_of(self, ch):
        return self._chzone.get(ch)

    def sample(self, t):
        p = self.p
        if not p.started:
            return
        self.t.append(t)
        dev = p.dev
        svf = p.svf
        bad = p.bad
        db = p.db
        sb = self._sb
        on_t = p.on_t
        coh = self.coh
        con_t = p.con_t if coh else None
        for zi, chs in enumerate(self.zch):
            e_sum = 0
            e_sig = 0
            lst = self.dev[zi]
            for j, c in enumerate(chs):
                d = dev[c]
                lst[j].append(d)
                if bad[c]:
                    continue
                e = d - (svf[c] >> sb)
                e_sig += e
                if e < 0:
                    e = -e
                if e > db:
                    e_sum += e - db
            self.energy[zi].append(e_sum)
            self.thr[zi].append(on_t[zi])
            if coh:
                self.csum[zi].append(e_sig if e_sig >= 0 else -e_sig)
                self.cthr[zi].append(con_t[zi])

    def decision(self, ev):
        z = ev.get("zone")
        if z is None and "ch" in ev:
            z = self.zone_of(ev["ch"])
        zi = self._zi.get(z)
        if zi is not None:
            d = {"t": ev["t"], "ev": ev["ev"]}
            for k in ("bakugan", "ch", "kind", "learned"):
                if k in ev:
                    d[k] = ev[k]
            self.decisions[zi].append(d)

    def zone_json(self, zone):
        zi = self._zi.get(zone)
        if zi is None:
            return None
        thr = self.thr[zi]
        return {"zone": zone, "t": list(self.t),
                "channels": [{"ch": c, "dev": list(self.dev[zi][j])} for j, c in enumerate(self.zch[zi])],
                "energy": list(self.energy[zi]),
                "threshold": max(thr) if thr else 0,
                "thresholds": list(thr) if thr and min(thr) != max(thr) else None,
                "dead_band": self.p.db,
                "coherent": list(self.csum[zi]) if self.coh else None,
                "coherent_threshold": max(self.cthr[zi]) if self.coh and self.cthr[zi] else None,
                "decisions": self.decisions[zi]}

    def busiest_zone(self):
        """The zone with the most decisions (what a person wants to see first)."""
        best = None
        for zi, d in enumerate(self.decisions):
            if best is None or len(d) > len(self.decisions[best]):
                best = zi
        return self.zone_ids[best] if best is not None else None
