"""Per-zone sensor traces read from the firmware's sensing pipeline after
every frame: each channel's deviation from its baseline (counts), the
zone's energy E (the sum the pipeline compares with its threshold), the
threshold itself, and the moments the pipeline decided (land, leave,
fault). Shared by the web view (GET /api/traces) and `bakumat plot`.

Everything comes from the pipeline's probes (sense/pipeline.py):
`trigger(zi)` gives E (the sum over the zone's healthy channels of
max(0, |dev - settled| - dead band)) and the coherent sum C (|sum of
(dev - settled)|), `thresholds(zi)` what they are compared with (a window
opens when either is over its threshold), `deviation(c)` each channel.
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
        self.zch = [pipeline.channels(zi) for zi in range(nz)]
        self.dev = [[array("i") for _ in self.zch[zi]] for zi in range(nz)]
        self.energy = [array("i") for _ in range(nz)]
        self.thr = [array("i") for _ in range(nz)]
        self.csum = [array("i") for _ in range(nz)]
        self.cthr = [array("i") for _ in range(nz)]
        self.decisions = [[] for _ in range(nz)]

    def zone_of(self, ch):
        return self._chzone.get(ch)

    def sample(self, t):
        p = self.p
        if not p.running():
            return
        self.t.append(t)
        deviation = p.deviation
        for zi, chs in enumerate(self.zch):
            lst = self.dev[zi]
            for j, c in enumerate(chs):
                lst[j].append(deviation(c))
            e, csum = p.trigger(zi)
            on, con = p.thresholds(zi)
            self.energy[zi].append(e)
            self.thr[zi].append(on)
            self.csum[zi].append(csum)
            self.cthr[zi].append(con)

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
                "dead_band": self.p.dead_band(),
                "coherent": list(self.csum[zi]),
                "coherent_threshold": max(self.cthr[zi]) if self.cthr[zi] else None,
                "decisions": self.decisions[zi]}

    def busiest_zone(self):
        """The zone with the most decisions (what a person wants to see first)."""
        best = None
        for zi, d in enumerate(self.decisions):
            if best is None or len(d) > len(self.decisions[best]):
                best = zi
        return self.zone_ids[best] if best is not None else None
