"""Magnetic field model of a Bakugan magnet over the mat (CPython only).

Units: positions and heights in mm (the board frame, z up from the sensor
plane), dipole moments in A*m^2, fields in mT. Only Bz matters: the sensors
are single-axis Hall sensors lying flat in the sensor plane (z = 0).

Two terms (hardware/sensing-physics.md explains the choice and the numbers):

- the dipole itself, `dipole_bz`: B = mu0/(4 pi) (3 r (m.r)/r^5 - m/r^3);
- when the magnet stands over a gate card, the card's steel plate changes it:
  `plate_bz` = the attenuated, spread local field (the dipole's field
  continued upward by `spread_mm`, i.e. blurred by a Poisson kernel, times
  `attenuation`) + the flux the plate captures and lets out of its underside,
  a sheet of magnetic charge over the plate rectangle whose field at a sensor
  is B_sheet * Omega / (2 pi) (Omega = solid angle the plate subtends).
"""
import math

# mu0/(4 pi) = 1e-7 T m/A; with r in mm and B in mT: 1e-7 * 1e9 * 1e3 = 1e5.
K_MT = 1.0e5
MU0_4PI = 1.0e-7
# Flux of a vertical dipole m at height d through the disc of a plane where
# Bz has the dipole's sign (radius sqrt(2) d): mu0 m / 2 * R^2/(R^2+d^2)^1.5
# = 0.19245 mu0 m / d. A high-permeability plate doubles it (image dipole).
_CORE_FLUX = 2.0 * 0.5 * 2.0 / (3.0 * math.sqrt(3.0))  # 0.3849, times mu0 m / d


def tilted_axes(tilt_deg, n):
    """A magnet's axis upright, then leaning tilt_deg in n directions
    evenly around: [(ux, uy, uz)], n + 1 unit vectors."""
    out = [(0.0, 0.0, 1.0)]
    t = math.radians(tilt_deg)
    for k in range(n):
        a = k * 2.0 * math.pi / n
        out.append((math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)))
    return out


def dipole_bz(m, ux, uy, uz, mx, my, mz, sx, sy, sz=0.0):
    """Bz in mT at sensor (sx, sy, sz) of a dipole of moment m (A m^2) along the
    unit vector (ux, uy, uz), centred at (mx, my, mz) mm."""
    dx = sx - mx
    dy = sy - my
    dz = sz - mz
    r2 = dx * dx + dy * dy + dz * dz
    if r2 < 1e-6:
        r2 = 1e-6
    r = math.sqrt(r2)
    mdotr = ux * dx + uy * dy + uz * dz
    return K_MT * m * (3.0 * dz * mdotr / r2 - uz) / (r2 * r)


def rect_solid_angle(x1, y1, x2, y2, px, py, dz):
    """Solid angle (sr) subtended by the rectangle [x1,x2]x[y1,y2] lying dz mm
    above the point (px, py). 2 pi under a very large rectangle."""
    if dz <= 0:
        dz = 1e-6

    def f(x, y):
        return math.atan2(x * y, dz * math.sqrt(x * x + y * y + dz * dz))

    ax = x1 - px
    bx = x2 - px
    ay = y1 - py
    by = y2 - py
    return f(bx, by) - f(ax, by) - f(bx, ay) + f(ax, ay)


def capture_bz(m, uz, height_above_plate, area_mm2, capture):
    """Mean field (mT) leaving the underside of a plate of area_mm2 that
    captures the fraction `capture` of the flux the magnet's near pole sends
    into it (signed like the dipole's vertical component)."""
    d = max(height_above_plate, 1.0)
    # Flux (Wb) = 0.3849 mu0 m uz / d[m]; B = flux / area[m^2] in T.
    flux = _CORE_FLUX * 4.0 * math.pi * MU0_4PI * m * uz / (d * 1e-3)
    return capture * flux / (area_mm2 * 1e-6) * 1e3


def plate_bz(m, ux, uy, uz, mx, my, mz, sx, sy, plate, rect, plate_z):
    """Bz (mT) at sensor (sx, sy, 0) of a magnet standing over a card whose
    steel plate covers `rect` = (x1, y1, x2, y2) at height plate_z.
    plate: dict with attenuation, spread_mm, capture."""
    local = plate["attenuation"] * dipole_bz(m, ux, uy, uz, mx, my, mz + plate["spread_mm"], sx, sy)
    cap = plate.get("capture", 0.0)
    if cap:
        x1, y1, x2, y2 = rect
        b0 = capture_bz(m, uz, mz - plate_z, (x2 - x1) * (y2 - y1), cap)
        local += b0 * rect_solid_angle(x1, y1, x2, y2, sx, sy, plate_z) / (2.0 * math.pi)
    return local


def axis_bz(m, h):
    """On-axis Bz (mT) of a vertical dipole h mm above the sensor."""
    return 2.0 * K_MT * m / (h * h * h)


def zero_crossing_ratio():
    """Lateral distance / height where a vertical dipole's Bz changes sign: sqrt(2)."""
    return math.sqrt(2.0)
