"""The numbers behind hardware/sensing-physics.md, computed from the field
model and the reference mat (CPython only).

    python -m host_tools.sim.physics          # print the generated tables

The doc carries the output between `<!-- physics:begin -->` and
`<!-- physics:end -->`; tests/host/test_sim_physics_doc.py checks that it is
up to date, so every figure there comes from this code and the board data.
"""
import math

from host_tools import boards
from host_tools.sim import field as F

# ESP32 ADC1 at 11 dB, 12 bit: about 0..3.1 V full scale, linear 0.15..2.45 V.
ADC_FULL_SCALE_V = 3.1
ADC_LINEAR_V = (0.15, 2.45)
VCC = 3.3
# DRV5055 at 3.3 V: sensitivity mV/mT per grade (datasheet, 3.3 V column).
DRV5055_3V3 = (("A1", 60.0), ("A2", 30.0), ("A3", 15.0), ("A4", 7.5))
TILT_WORST = 25.0  # deg: a piece's own lean plus a bad landing
INSET_MM = 9.0  # the magnet's centre stays this far inside the card's edge
GRID = 13  # positions per card axis for the worst-case search
# One ADC read from MicroPython with the mux already set (field notes: 25-100 us).
READ_US = (25.0, 50.0, 100.0)
MUX_SET_US = 20.0  # four select pins written, once per mux input (shared by the 6 ADC pins)
LAYOUTS = {
    "2x2 (4)": [(-16, -22), (16, -22), (-16, 22), (16, 22)],
    "2x3 (6)": [(-16, -30), (16, -30), (-16, 0), (16, 0), (-16, 30), (16, 30)],
    "3x3 (9)": [(x, y) for x in (-20, 0, 20) for y in (-30, 0, 30)],
}


def counts_per_mT(mv_per_mt):
    return mv_per_mt * 4095.0 / (ADC_FULL_SCALE_V * 1000.0)


def _tilts():
    return F.tilted_axes(TILT_WORST, 8)


class Mat:
    """The reference mat's physical numbers, read from the board definition."""

    def __init__(self, board=None):
        b = board or boards.load("reference")
        self.b = b
        self.card_top = float(b["sensor_plane_to_card_top_mm"])
        self.card = b["card"]
        self.plate = dict(b["plate"])
        self.plate_z = self.card_top - self.plate["depth_mm"]
        self.cpm = float(b["sensor"]["counts_per_mT"])
        self.noise = float(b["sensor"]["noise_counts_rms"])
        mg = b["magnet"]
        self.m_min, self.m_max = mg["moment_Am2"]
        self.h_min, self.h_max = mg["above_card_mm"]
        z0 = b["zones"][0]
        self.zone_w, self.zone_h = z0["w"], z0["h"]
        z1 = b["zones"][1]
        z4 = [z for z in b["zones"] if z["x"] == z0["x"] and z["y"] > z0["y"]][0]
        self.pitch_x = z1["x"] - z0["x"]
        self.pitch_y = z4["y"] - z0["y"]
        self.rect = (-self.plate["w"] / 2.0, -self.plate["h"] / 2.0, self.plate["w"] / 2.0, self.plate["h"] / 2.0)
        cx = z0["x"] + z0["w"] / 2.0
        cy = z0["y"] + z0["h"] / 2.0
        self.layout = [(s["x"] - cx, s["y"] - cy) for s in b["sensors"] if s["zone"] == 0]

    def bz(self, m, u, px, py, mag_h, sx, sy, plate=None):
        """mT at sensor (sx, sy) of a magnet standing at (px, py) on the card centred at 0, 0."""
        return F.plate_bz(m, u[0], u[1], u[2], px, py, self.card_top + mag_h, sx, sy, plate or self.plate, self.rect,
                          self.plate_z)

    def positions(self):
        hw = self.card["w"] / 2.0 - INSET_MM
        hh = self.card["h"] / 2.0 - INSET_MM
        for i in range(GRID):
            for j in range(GRID):
                yield (-hw + 2 * hw * i / (GRID - 1), -hh + 2 * hh * j / (GRID - 1))

    def zone_signal(self, m, mag_h, layout, plate=None, offset=(0.0, 0.0)):
        """Worst case over positions on the card and tilts: (zone-sum SNR, largest
        single-sensor |counts|) for sensors at `layout` shifted by `offset`."""
        worst_snr = 1e9
        worst_max = 1e9
        n = len(layout)
        for px, py in self.positions():
            for u in _tilts():
                vals = [self.cpm * self.bz(m, u, px, py, mag_h, sx + offset[0], sy + offset[1], plate)
                        for sx, sy in layout]
                snr = abs(sum(vals)) / (self.noise * math.sqrt(n))
                mx = max(abs(v) for v in vals)
                worst_snr = min(worst_snr, snr)
                worst_max = min(worst_max, mx)
        return worst_snr, worst_max

    def typical_snr(self, m, mag_h, layout, plate=None):
        """Median over positions (upright magnet) of the zone-sum SNR."""
        n = len(layout)
        vals = []
        for px, py in self.positions():
            v = [self.cpm * self.bz(m, (0, 0, 1), px, py, mag_h, sx, sy, plate) for sx, sy in layout]
            vals.append(abs(sum(v)) / (self.noise * math.sqrt(n)))
        vals.sort()
        return vals[len(vals) // 2]

    def crosstalk(self, m, mag_h, layout, plate=None):
        """Worst case over positions and tilts of the strongest magnet: the
        neighbouring zones' (zone-sum SNR, largest single-sensor |counts|)."""
        worst_snr = 0.0
        worst_max = 0.0
        n = len(layout)
        for off in ((self.pitch_x, 0.0), (0.0, self.pitch_y), (self.pitch_x, self.pitch_y)):
            for px, py in self.positions():
                for u in _tilts():
                    vals = [self.cpm * self.bz(m, u, px, py, mag_h, sx + off[0], sy + off[1], plate)
                            for sx, sy in layout]
                    worst_snr = max(worst_snr, abs(sum(vals)) / (self.noise * math.sqrt(n)))
                    worst_max = max(worst_max, max(abs(v) for v in vals))
        return worst_snr, worst_max


def figures(board=None):
    """Every figure the doc quotes, as a dict."""
    mat = Mat(board)
    f = {}
    f["card_top_mm"] = mat.card_top
    f["h_min_mm"] = mat.card_top + mat.h_min
    f["h_max_mm"] = mat.card_top + mat.h_max
    f["zero_cross_min_mm"] = math.sqrt(2) * f["h_min_mm"]
    f["zero_cross_max_mm"] = math.sqrt(2) * f["h_max_mm"]
    f["bare_axis_strong_mT"] = F.axis_bz(mat.m_max, f["h_min_mm"])
    f["bare_axis_weak_mT"] = F.axis_bz(mat.m_min, f["h_max_mm"])
    f["plate_axis_strong_mT"] = mat.bz(mat.m_max, (0, 0, 1), 0, 0, mat.h_min, 0, 0)
    f["plate_axis_weak_mT"] = mat.bz(mat.m_min, (0, 0, 1), 0, 0, mat.h_max, 0, 0)
    f["sheet_weak_mT"] = F.capture_bz(mat.m_min, 1.0, mat.card_top + mat.h_max - mat.plate_z,
                                      mat.plate["w"] * mat.plate["h"], mat.plate["capture"])
    f["sheet_strong_mT"] = F.capture_bz(mat.m_max, 1.0, mat.card_top + mat.h_min - mat.plate_z,
                                        mat.plate["w"] * mat.plate["h"], mat.plate["capture"])
    # sensor and ADC
    grades = []
    for g, mv in DRV5055_3V3:
        cpm = counts_per_mT(mv)
        zero = VCC / 2.0
        up = (ADC_LINEAR_V[1] - zero) * 1000.0 / mv
        down = (zero - ADC_LINEAR_V[0]) * 1000.0 / mv
        grades.append((g, mv, cpm, up, down, mat.noise / cpm))
    f["grades"] = grades
    f["zero_counts"] = VCC / 2.0 / ADC_FULL_SCALE_V * 4095.0
    f["cpm_A1"] = counts_per_mT(60.0)
    f["strong_peak_counts"] = f["plate_axis_strong_mT"] * mat.cpm + f["sheet_strong_mT"] * mat.cpm
    f["linear_headroom_counts"] = (ADC_LINEAR_V[1] - VCC / 2.0) * 4095.0 / ADC_FULL_SCALE_V
    # rolling ball on the bare mat: magnet 5 mm above the mat top at its lowest
    from host_tools.sim import bakugan as B
    mat_top = mat.card_top - mat.card["thickness_mm"]
    f["ball_low_mm"] = mat_top + B.BALL_RADIUS - B.MAGNET_RADIUS
    f["ball_bare_mT"] = F.axis_bz(mat.m_max, f["ball_low_mm"])
    # coverage and crosstalk per layout and plate case
    nominal = dict(mat.plate)
    low = dict(mat.plate, capture=nominal["capture"] / 2.0)
    none = dict(mat.plate, capture=0.0)
    cases = (("nominal", nominal), ("half capture", low), ("no capture", none))
    rows = []
    for name, lay in LAYOUTS.items():
        for cname, plate in cases:
            s_snr, s_max = mat.zone_signal(mat.m_min, mat.h_max, lay, plate)
            typ = mat.typical_snr((mat.m_min + mat.m_max) / 2.0, (mat.h_min + mat.h_max) / 2.0, lay, plate)
            x_snr, x_max = mat.crosstalk(mat.m_max, mat.h_min, lay, plate)
            rows.append((name, cname, typ, s_snr, s_max, x_snr, x_max))
    f["coverage"] = rows
    f["layout_is_2x3"] = sorted(mat.layout) == sorted(LAYOUTS["2x3 (6)"])
    # scan timing
    n = len(mat.b["sensors"])
    muxes = 16
    scans = []
    for r in READ_US:
        ms = (n * r + muxes * MUX_SET_US) / 1000.0
        scans.append((r, ms, 100.0 * ms * mat.b["rate_hz"] / 1000.0))
    f["channels"] = n
    f["scan"] = scans
    f["rate_hz"] = mat.b["rate_hz"]
    f["frame_ms"] = 1000.0 / mat.b["rate_hz"]
    return f


def markdown(f=None):
    f = f or figures()
    out = []
    out.append("Heights above the sensor plane: card top %.1f mm; standing magnet h = %.1f..%.1f mm;"
               " Bz of a vertical dipole changes sign %.1f..%.1f mm off axis (1.41 h)."
               % (f["card_top_mm"], f["h_min_mm"], f["h_max_mm"], f["zero_cross_min_mm"], f["zero_cross_max_mm"]))
    out.append("")
    out.append("| case | Bz straight below |")
    out.append("|---|---|")
    out.append("| strongest magnet, lowest, no card | %.1f mT |" % f["bare_axis_strong_mT"])
    out.append("| weakest magnet, highest, no card | %.1f mT |" % f["bare_axis_weak_mT"])
    out.append("| strongest magnet on a card (plate model) | %.2f mT |" % f["plate_axis_strong_mT"])
    out.append("| weakest magnet on a card (plate model) | %.2f mT |" % f["plate_axis_weak_mT"])
    out.append("| plate underside, weakest / strongest (captured flux, anywhere under the plate) | %.3f / %.3f mT |"
               % (f["sheet_weak_mT"], f["sheet_strong_mT"]))
    out.append("| closed ball rolling on the bare mat, magnet at its lowest (%.1f mm) | %.0f mT |"
               % (f["ball_low_mm"], f["ball_bare_mT"]))
    out.append("")
    out.append("| DRV5055 grade at 3.3 V | mV/mT | counts/mT | linear range up / down (mT) | noise (mT rms) |")
    out.append("|---|---|---|---|---|")
    for g, mv, cpm, up, down, nz in f["grades"]:
        out.append("| %s | %.1f | %.1f | +%.1f / -%.1f | %.3f |" % (g, mv, cpm, up, down, nz))
    out.append("")
    out.append("Zero field reads %.0f counts; the strongest standing magnet peaks at %.0f counts above it, "
               "inside the %.0f counts of linear headroom." % (f["zero_counts"], f["strong_peak_counts"],
                                                               f["linear_headroom_counts"]))
    out.append("")
    out.append("| sensors per zone | plate | typical magnet, median spot: zone SNR "
               "| weakest magnet, worst spot and tilt: zone SNR | its largest sensor (counts) "
               "| strongest magnet, worst spot: neighbour zone SNR | its largest sensor (counts) |")
    out.append("|---|---|---|---|---|---|---|")
    for name, cname, typ, s_snr, s_max, x_snr, x_max in f["coverage"]:
        out.append("| %s | %s | %.1f | %.1f | %.1f | %.2f | %.1f |" % (name, cname, typ, s_snr, s_max, x_snr, x_max))
    out.append("")
    out.append("| ADC read (us) | scan of %d channels (ms) | share of a %.0f ms frame at %s Hz |"
               % (f["channels"], f["frame_ms"], f["rate_hz"]))
    out.append("|---|---|---|")
    for r, ms, pct in f["scan"]:
        out.append("| %.0f | %.1f | %.0f %% |" % (r, ms, pct))
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
