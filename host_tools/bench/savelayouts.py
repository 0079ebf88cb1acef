"""What a game save costs the chip's flash, by how the events are stored
(issue #17: a save must not hold up the scan). Measured on littlefs under
the unix port's micropython (mpscripts/savelayouts.py: MicroPython's
littlefs defaults on a counting RAM device shaped like the chip's flash),
projected with chiptime's flash figures (4 KB erase 45 ms, 256-byte page
0.4 ms). An erase stops the CPU on an ESP32 (code runs from the flash),
so a save with an erase holds up the scan by at least 45 ms.

    python -m host_tools.bench.savelayouts [N]

Then the sensing's lesson saves (what the mat learnt of a Bakugan: 8
Bakugan's signatures, 1-2 of them changed by each of 40 lessons, on the
flash of a game in progress): one sigs.json (temp file and rename, the
store before) against the store's sig/ files now (one small file a
Bakugan, only the changed ones written).
"""
import os
import subprocess
import sys

from host_tools import fwpath, mpscripts
from host_tools.bench import chiptime

LAYOUTS = (
    ("append", "append to game.ndj in place, closed after each event (board-state v1, the store before)"),
    ("open_flush", "game.ndj kept open, flushed after each event"),
    ("preextended", "game.ndj written ahead with room for the events, each overwritten in place"),
    ("files1", "one small file per event (kept inline in its directory's metadata), one directory"),
    ("files4", ("one small file per event over 4 directories made when the game starts (board-state v2: "
                "the store now; setup: sig/ made too, on a fresh filesystem)")),
)


SIG_LAYOUTS = (
    ("sigs_json", "one sigs.json {bakugan id: value}, temp file and rename (the store before)"),
    ("sig_files", ("sig/<id>: a small file a Bakugan, the changed ones only, rewritten in place (open \"w\", write, "
                   "close: littlefs commits at close; the store now)")),
    ("sig_rename", "the same files each written with a temp file and a rename (not the store)"),
)
LESSONS = 40


def measure(n=40, lessons=LESSONS):
    """{layout: (setup erases, [erases per save], [bytes programmed per save])}, and under "newgame" the
    store's next game_start after files4's saves: (erases, bytes, the old game's removal's erases, bytes);
    the lesson saves' layouts (SIG_LAYOUTS) the same way as the events' (setup: the 8 signatures' first
    save), with two more lists: [bytes read per save], [reads (littlefs's block device calls) per save]."""
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    r = subprocess.run([exe, "-X", "heapsize=4M", mpscripts.path("savelayouts.py"), fwpath.FIRMWARE_DIR, str(n),
                        str(lessons)], capture_output=True, text=True, timeout=120)
    out = {}
    for line in r.stdout.splitlines():
        if line.startswith(("LAYOUT ", "SIGS ")):
            head, prog = line.split(" ", 1)[1].split(" / ", 1)
            parts = head.split()
            out[parts[0]] = (int(parts[1]), [int(x) for x in parts[2:]]) + \
                tuple([int(x) for x in p.split()] for p in prog.split(" / "))
        elif line.startswith("NEWGAME "):
            out["newgame"] = tuple(int(x) for x in line.split()[1:])
    if r.returncode != 0 or len(out) != len(LAYOUTS) + 1 + len(SIG_LAYOUTS):
        raise RuntimeError("savelayouts failed: %s" % (r.stdout + r.stderr).strip()[-400:])
    return out


def _rows(res, layouts, out, reads=False):
    out.write("  %-11s %7s %10s %9s %10s %9s %9s%s  %s\n"
              % ("layout", "setup", "erases/sv", "saves w/", "bytes/sv", "mean ms", "worst ms",
                 " %10s %8s" % ("KB read/sv", "reads/sv") if reads else "", ""))
    for name, what in layouts:
        se, er, pr = res[name][:3]
        n = len(er)
        ms = [chiptime.flash_ops_us(e, p) / 1000.0 for e, p in zip(er, pr)]
        rd = ""
        if reads:
            rb, rn = res[name][3:5]
            rd = " %10.1f %8.0f" % (sum(rb) / 1024.0 / n, sum(rn) / float(n))
        out.write("  %-11s %7d %10.2f %9d %10.0f %9.1f %9.1f%s  %s\n"
                  % (name, se, sum(er) / float(n), sum(1 for e in er if e), sum(pr) / float(n),
                     sum(ms) / n, max(ms), rd, what))


def report(res, out):
    n = len(next(iter(res.values()))[1])
    out.write("flash per save of an 80-byte event, %d saves after a 1 KB header (littlefs, MicroPython's "
              "defaults; ms on the chip at 45 ms per 4 KB erase, 0.4 ms per 256-byte page):\n" % n)
    _rows(res, LAYOUTS, out)
    e, p, se, sp = res["newgame"]
    out.write("  the next game (files4, the store's game_start after those %d saves): %d erases, %d bytes "
              "programmed, %.1f ms of flash in the setup tick; of which removing the old game's %d files and 4 "
              "directories: %d erases, %d bytes, %.1f ms\n"
              % (n, e, p, chiptime.flash_ops_us(e, p) / 1000.0, n, se, sp, chiptime.flash_ops_us(se, sp) / 1000.0))
    out.write("flash per lesson save (the sensing's signatures: 8 Bakugan, 1-2 changed a lesson, %d lessons on the "
              "flash of a game in progress; setup: the 8 signatures' first save; read: what littlefs read back "
              "meanwhile (its block device's reads, 32 bytes and up), which the ms leave out):\n" % len(res["sig_files"][1]))
    _rows(res, SIG_LAYOUTS, out, reads=True)


def main(argv=None):
    argv = argv or []
    report(measure(int(argv[0]) if argv else 40), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
