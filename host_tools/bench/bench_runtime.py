"""bakumat bench runtime: the firmware's budgets, measured on the real
`micropython` binary (the virtual board, lockstep clock). Prints figures.

    bakumat bench runtime [quick] [seed=N] [board=B]
    python -m host_tools.bench.bench_runtime [--seed N] [--quick] [--board B]

The board (default the reference board, boards.REFERENCE: esp32s3_devkitc1_lis2,
its sensors on SPI) has its scan projected from its bus transactions
(host_tools/bench/chiptime.py).

0. The heap at 32 bits, as an ESP32 would use it (host_tools/bench/heap32.py: the
   MicroPython WebAssembly port): code, data, live and peak, with .mpy code
   in the heap (as deploy installs it) and from a ROMFS image, with and
   without the phone page, against the issue #17 target.
1. A whole simulated official game (every frame and control of the
   scenario, then `end`) on the virtual board with the app
   compiled to .mpy (as `bakumat deploy` puts it on a board), in a 64 KB heap
   (`micropython -X heapsize=64K`), and the smallest heap in which the same
   game runs to its end (bisection, 4 KB steps).
2. What that heap holds: the loaded code (imports only) versus the game's
   data, so the figure can be carried over to an ESP32, where frozen or
   ROMFS modules keep the code in flash.
3. Steady state: how many quiet loop ticks (no event, no message, no
   output) allocated heap at all (goal: none).
4. Loop time per frame by stage (scan, sense, link, show, tx): mean and
   worst, in microseconds, under the micropython binary.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

from host_tools import boards, fwpath, sim
from host_tools.device import mpybuild

BOARD = boards.REFERENCE
GC_PSRAM_MS = 100    # one full collection of a heap in PSRAM, the pessimistic pause (micropython #8428)
MODULES = ("app", "hw", "hw.vboard", "hw.vparts", "hw.strip", "hw.stdio", "link.codec", "link.server", "store.state",
           "show.feedback", "referee", "referee.events", "referee.engine", "referee.modes.official",
           "sense.pipeline", "sense.signature", "match", "maint", "version")


def sample_header():
    with open(os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")) as f:
        return json.loads(f.readline())


def play_game(board, res, header, heapsize=None, mpy_dir=None, profile=False, budget=None):
    """Run the game; return (ok, why, health, wall seconds)."""
    from host_tools.errors import UserError
    from host_tools.vboard import VBoard
    vb = VBoard(board, lockstep=True, heapsize=heapsize, mpy_dir=mpy_dir, profile=profile, heap_budget=budget)
    vb.max_resets = 2            # a board that keeps crashing has failed: do not wait for every frame
    t0 = time.monotonic()
    done = threading.Event()
    dead = []
    try:
        try:
            vb.start(timeout=20)
        except UserError:
            return False, "did not boot: " + _last_error(vb.console_text()), None, 0.0
        threading.Thread(target=_watch_dead, args=(vb, done, dead), daemon=True).start()
        link = vb.link()
        try:
            replies = vb.play(res.frames, res.controls, link, header=header, ack_ms=3000)
            wall = time.monotonic() - t0
            _, end = vb.request(link, "end")
            _, health = vb.request(link, "health")
        except UserError as e:
            if dead:
                text = vb.console_text()
                # (the error of the traceback: what the REPL made of the link's frames after it says nothing)
                return False, "the app stopped: " + _last_error(text[:text.find(">>> ")]), None, time.monotonic() - t0
            return False, "%s: %s" % (e, _last_error(vb.console_text())), None, time.monotonic() - t0
        kinds = [b.get("ev") for _, typ, b in link.take("game")]
        logs = [b.get("msg") for _, typ, b in link.take("log")]
        if vb.resets:
            return False, "the board restarted (%s): %s" % (vb.resets, _last_error(vb.console_text())), health, wall
        if replies and replies[0][1].get("ok") is not True:
            return False, "the game was refused: %s" % (replies[0][1],), health, wall
        if "MemoryError" in vb.console_text() or logs:
            return False, "; ".join(logs[:2]) or _last_error(vb.console_text()), health, wall
        if end.get("ok") is not True or "end" not in kinds:
            return False, "the game did not reach its end", health, wall
        return True, "", health, wall
    finally:
        done.set()
        vb.stop()


def _watch_dead(vb, done, dead):
    """An app that died (a traceback, then the REPL prompt: no watchdog runs
    yet when App() itself fails) leaves a board that never advances: make
    the lockstep wait give up at once (it stops after more than max_resets
    restarts) instead of after its 10-minute timeout."""
    while not done.wait(0.2):
        con = vb.console
        if b"Traceback" in con and b"\n>>> " in con:
            dead.append(True)
            vb.max_resets = -1
            return


def _last_error(text):
    lines = [x for x in text.splitlines() if "Error" in x or "error" in x]
    return lines[-1].strip()[:200] if lines else text.strip().splitlines()[-1][:200] if text.strip() else "(no output)"


def idle_alloc(board, header, mpy_dir, seconds=30):
    """A configured game on an empty, quiet mat: the pure steady state."""
    from host_tools.vboard import VBoard
    vb = VBoard(board, lockstep=True, mpy_dir=mpy_dir, profile=True)
    try:
        vb.start()
        link = vb.link()
        vb.request(link, "cfg", header)
        vb.run_for(2000, link)
        _, h0 = vb.request(link, "health")
        vb.run_for(int(seconds * 1000), link)
        _, h1 = vb.request(link, "health")
        a0, a1 = h0["alloc"], h1["alloc"]
        return (a1["quiet_ticks"] - a0["quiet_ticks"], a1["quiet_alloc_ticks"] - a0["quiet_alloc_ticks"],
                a1["quiet_alloc_bytes"] - a0["quiet_alloc_bytes"])
    finally:
        vb.stop()


BREAKDOWN = """
import sys, gc, json, time
sys.path.insert(0, %(mpy)r)
import app, match, link.server, show.feedback, hw.strip
from runtime.boarddef import compact, expand
from referee.journal import Journal
import referee
referee.load("official")
gc.collect()
base = [gc.mem_alloc()]
def m(label):
    gc.collect()
    x = gc.mem_alloc()
    print("PART", label, x - base[0])
    base[0] = x
def full():
    f = open(%(board)r)
    d = json.load(f)
    f.close()
    return d
def load():
    return compact(full())   # in a function: nothing on this frame keeps the whole definition
bd = load()
gc.collect()
m("board definition as the app keeps it")
def header():
    f = open(%(header)r)
    h = json.load(f)
    f.close()
    return h
h = header()
gc.collect()
m("game header (players, decks)")
lk = link.server.Link(None, time)
m("serial link (2 KB RX frame, 4 KB TX ring)")
class NP:
    ORDER = (1, 0, 2, 3)
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
        self.bpp = 3
    def __len__(self):
        return self.n
def feedback():
    d = full()     # the feedback takes what it needs from the whole definition
    return show.feedback.Feedback(hw.strip.Strip(NP(d["wiring"]["led"]["count"])), None, time, d)
fb = feedback()
m("feedback (LED state, strip buffer)")
g = Journal(h, None)
m("referee game and journal")
mt = match.Match(expand(bd), g, None)
m("sensing pipeline (Match)")
"""


def breakdown(mpy_dir, board, header):
    """Heap held by each part of a configured game (unix x86-64)."""
    tmp = tempfile.mkdtemp(prefix="bakumat-bench-")
    bpath = os.path.join(tmp, "board.json")
    hpath = os.path.join(tmp, "header.json")
    with open(bpath, "w") as f:
        json.dump(board, f)
    with open(hpath, "w") as f:
        json.dump(header, f)
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    r = subprocess.run([exe, "-X", "heapsize=2M", "-c", BREAKDOWN % {"mpy": mpy_dir, "board": bpath, "header": hpath}],
                       capture_output=True, text=True, timeout=60)
    out = []
    for line in r.stdout.splitlines():
        if line.startswith("PART "):
            label, n = line[5:].rsplit(" ", 1)
            out.append((label, int(n)))
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)
    return out


def code_size(mpy_dir, heap="1M"):
    """Heap taken by importing the app's modules (.mpy), after a collection."""
    script = ("import gc, sys\nsys.path.insert(0, %r)\ngc.collect()\nb = gc.mem_alloc()\n"
              "for m in %r:\n    __import__(m)\ngc.collect()\nprint('CODE', gc.mem_alloc() - b)\n"
              % (mpy_dir, list(MODULES)))
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    r = subprocess.run([exe, "-X", "heapsize=%s" % heap, "-c", script], capture_output=True, text=True, timeout=60,
                       cwd=mpy_dir)
    for line in r.stdout.splitlines():
        if line.startswith("CODE "):
            return int(line.split()[1])
    return None


def heap32_section(board, res, header, out, quick=False):
    """The heap as an ESP32 would use it (host_tools/bench/heap32.py)."""
    from host_tools.bench import heap32
    why = heap32.available()
    if why:
        out.write("\nheap at 32 bits: not measured: %s\n" % why)
        return None
    out.write("\nheap at 32 bits (MicroPython %s WebAssembly port: 4-byte pointers and 16-byte GC blocks as on an "
              "ESP32; the same game, one loop tick per call, exact collection between ticks):\n" % heap32.version())
    runs = {}
    # quick: the reference board's own path only (.mpy files in the heap, as
    # deploy installs them, with the phone page); else also ROMFS and frozen
    # code (a board without PSRAM) and each without the page
    for rom in ((False,) if quick else (False, True, 2)):          # .mpy, ROMFS, frozen (heap32.report)
        for phone in ((True,) if quick else (False, True)):
            runs[(rom, phone)] = heap32.run(board, res, header, phone=phone, rom=bool(rom), frozen=rom == 2)
    heap32.report(runs, out)
    if board.get("kernels"):
        out.write("  (a kernel board: this port has no native emitter, so the fit runs its plain loops "
                  "(sense/fitplain.py), whose products over 2^30 are long ints on the heap, and its binascii is "
                  "micropython-lib's Python one: both add garbage within a tick that the chip's viper kernels and C "
                  "binascii do not make. The most live between ticks is exact; peak play, setup and the count of "
                  "collections a game makes are upper bounds)\n")
    if quick:
        return runs
    modules_section(runs, out)
    st = heap32.run(board, res, header, phone=True, stack=True)
    out.write("  stack: the deepest Python call in a tick is %d levels (the bench's own 2 included); there, at 32 "
              "bits (the port's settrace build), %.1f KB of C stack and %.1f KB of Python frames: %.1f KB of the "
              "ESP32's 15,360-byte task stack (%d bytes a level on average). The port's C stack counts only "
              "what wasm keeps in memory (Xtensa keeps more of a frame on its stack): read the depth against "
              "the limit, about %d bytes a level\n"
              % (st["stack_depth"], st["stack_c"] / 1024.0, st["stack_py"] / 1024.0,
                 (st["stack_c"] + st["stack_py"]) / 1024.0, (st["stack_c"] + st["stack_py"]) // st["stack_depth"],
                 15360 // st["stack_depth"]))
    return runs


def modules_section(runs, out):
    """Where the ROMFS code's heap goes (with the phone page): each
    module's objects and the interned names' pools, at 32 bits."""
    from host_tools.bench import heap32
    m = heap32.modules(phone=True, rom=True)
    m0 = heap32.modules(phone=False, rom=True)
    objs = sum(r[0] for r in m["modules"])
    q = m["qstr"]
    phone = [r for r in m["modules"] if r[1] in heap32.PHONE_MODULES]
    out.write("  where the ROMFS code's heap goes (modules imported one at a time at 32 bits, the phone page's "
              "included): the modules' objects (functions, classes, dicts: the bytecode stays in the image) %.1f "
              "KB; the interned names' pools %.1f KB (%d names, %.1f KB of text; a ROMFS or .mpy module adds its "
              "names to the heap, a frozen one keeps them in flash; a pool grows by doubling: %d pools). "
              "Largest, objects + names (KB): %s. The phone page's modules: %.1f KB of objects, %.1f KB of "
              "names (without them %d names in %d pools, %.1f KB)%s\n"
              % (objs / 1024.0, q["n_total_bytes"] / 1024.0, q["n_qstr"], q["n_str_data_bytes"] / 1024.0,
                 q["n_pool"], ", ".join("%s %.1f + %.1f" % (name, n / 1024.0, qb / 1024.0)
                                        for n, name, qb, _ in m["modules"][:8]),
                 sum(r[0] for r in phone) / 1024.0, sum(r[2] for r in phone) / 1024.0, m0["qstr"]["n_qstr"],
                 m0["qstr"]["n_pool"], m0["qstr"]["n_total_bytes"] / 1024.0,
                 "; not loaded here (no native emitter: the plain loops run): %s" % ", ".join(m["not_loaded"])
                 if m["not_loaded"] else ""))
    f = runs.get((True, True))
    f0 = runs.get((True, False))
    if f is not None and f0 is not None:
        out.write("  the phone page with ROMFS code: %.1f KB more live (code %.1f, data %.1f: the web server's "
                  "client buffers, the web app's state), %.1f KB more at the peak\n"
                  % ((f["live"] - f0["live"]) / 1024.0, (f["code"] - f0["code"]) / 1024.0,
                     ((f["live"] - f["code"]) - (f0["live"] - f0["code"])) / 1024.0,
                     (f["peak"] - f0["peak"]) / 1024.0))


def bus_of(board):
    """(kind, wiring section) of the board's sensor bus: "i2c", "spi", or
    None for sensors read by the ADC."""
    w = board["wiring"]
    for kind in ("i2c", "spi"):
        if w.get(kind):
            return kind, w[kind]
    return None


def scan_bus_us(board, f, bound):
    """What one frame's bus costs the chip at a bound ("low", "high") of
    chiptime.CALL_US, from the transactions the run counted (its bits on
    the wire, the calls and the chip selects); None for an ADC board."""
    from host_tools.bench import chiptime
    bus = bus_of(board)
    if bus is None:
        return None
    kind, sec = bus
    i = chiptime.BOUNDS.index(bound)
    if kind == "i2c":
        return chiptime.i2c_scan_us(f["scan_i2c_writes"], f["scan_i2c_reads"], sec.get("freq", 400000),
                                    chiptime.CALL_US["i2c"][i])
    return chiptime.spi_scan_us(f["scan_spi_calls"], f["scan_spi_bytes"] / max(1, f["scan_spi_calls"]),
                                sec.get("freq", chiptime.SPI_HZ), chiptime.CALL_US["spi"][i],
                                f.get("scan_spi_selects", 0), chiptime.CALL_US["pin"][i])


def time_section(board, res, header, out, runs=2, quick=False):
    """Stage times as the chips would take them (host_tools/bench/chiptime.py):
    the same game under the micropython binary with pystone in the same
    run, projected by the ratio of pystones; with the per-frame loops'
    viper kernels (as the chips run them) and, unless quick, without them
    for comparison. The bus is charged at the high per-call bound in the
    table, at the low bound on a line of its own. Returns (projection at
    the high bound, at the low bound, the run's figures)."""
    from host_tools.bench import chiptime, heap32
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    n_leds = board["wiring"].get("led", {}).get("count", 0)
    bus = bus_of(board)

    def projected(plain, bound="high"):
        figs = [heap32.run(board, res, header, phone=True, unix=exe, plain=plain) for _ in range(runs)]
        recs = chiptime.merge_min([f["tick_records"] for f in figs])
        f = max(figs, key=lambda f: f["pystones"])
        for key in ("feed_plain_us100", "feed_viper_us100", "loops_plain_us100", "loops_viper_us100"):
            if key in f:           # the least of the runs (the machine's load only adds)
                f[key] = min(g[key] for g in figs)
        f["scan_loop_us"] = min(g["scan_loop_us100"] for g in figs) / 100.0
        return f, recs, chiptime.project(recs, f["pystones"], f["scan_loop_us"], f["scan_reads"], n_leds,
                                         setup_tick=f["setup_tick"], scan_hw_us=scan_bus_us(board, f, bound))

    f, recs, proj = projected(False)
    fp, proj_plain = (None, None) if quick else projected(True)[::2]
    out.write("\nloop time projected onto the chips (the game with the phone page on the micropython binary, "
              "the per-frame loops as viper kernels, least of %d runs per tick; pystone here %d/s in the same "
              "runs; the heap collected %d times in the game, between ticks, as the app's gc.threshold would "
              "on a chip; times in ms):\n" % (runs, f["pystones"], f.get("collections", 0)))
    out.write("  %-20s %6s %6s %6s %6s %6s | %6s %6s %6s %6s | %7s %7s %7s\n"
              % ("chip", "scan", "sense", "link", "show", "tx", "quiet", "p50", "p99", "worst", "event", "save",
                 "setup"))
    for name, ps, src in chiptime.CHIPS:
        p = proj[name]
        st = p["stages"]
        out.write("  %-20s %6.2f %6.2f %6.2f %6.2f %6.2f | %6.2f %6.2f %6.2f %6.2f | %7.1f %7.1f %7.0f\n"
                  % ((name,) + tuple(x / 1000.0 for x in st) +
                     (p["quiet_mean"] / 1000.0, p["quiet_p50"] / 1000.0, p["quiet_p99"] / 1000.0,
                      p["quiet_max"] / 1000.0,
                      p["event_max"] / 1000.0, p["save_max"] / 1000.0, p["setup"] / 1000.0)))
    p0 = proj[chiptime.CHIPS[0][0]]
    out.write("  (stages: the quiet tick's mean; quiet (mean)/p50/p99/worst: whole quiet ticks (%d: no event, "
              "output or save; they include the ticks where the sensing works on a change it then absorbs); "
              "event, save: the worst "
              "tick deciding a game event (%d) / writing the store (%d); setup: the tick of the cfg request. "
              "scan = the scan loop projected + %s; show adds %d LEDs x %d us per strip write; "
              "tx adds the UART's wait past its %d-byte FIFO at 115,200 baud)\n"
              % (p0["n_quiet"], p0["n_event"], p0["n_save"],
                 "its bus transactions (below)" if bus else "%d read_u16 x %d us" % (f["scan_reads"], chiptime.ADC_US),
                 n_leds, chiptime.LED_US, chiptime.FIFO))
    lo = None
    if bus:
        kind, sec = bus
        lo = chiptime.project(recs, f["pystones"], f["scan_loop_us"], 0, n_leds,
                              setup_tick=f["setup_tick"], scan_hw_us=scan_bus_us(board, f, "low"))
        if kind == "i2c":
            what = ("%d writes (a mux's channel) and %d reads of 6 bytes (a sensor's x, y, z) a frame at %d kHz"
                    % (f["scan_i2c_writes"], f["scan_i2c_reads"], sec.get("freq", 400000) // 1000))
        else:
            what = ("%d transfers (%d bytes in all) and %d chip-select pin writes a frame at %.0f MHz"
                    % (f["scan_spi_calls"], f["scan_spi_bytes"], f.get("scan_spi_selects", 0),
                       sec.get("freq", chiptime.SPI_HZ) / 1e6))
        s_lo, s_hi = scan_bus_us(board, f, "low"), scan_bus_us(board, f, "high")
        out.write("  the scan on %s: %s: %.2f ms of bus a frame at the low per-call bound (%d us a call), %.2f ms "
                  "at the high bound (%d us: hardware/parts.json \"bus_calls\"), the latter in the table. At the "
                  "low bound the quiet tick is %s\n"
                  % (kind.upper(), what, s_lo / 1000.0, chiptime.CALL_US[kind][0], s_hi / 1000.0,
                     chiptime.CALL_US[kind][1],
                     ", ".join("%s %.2f ms" % (name, lo[name]["quiet_mean"] / 1000.0) for name, _, _ in chiptime.CHIPS)))
        out.write("  target scan <= 5 ms a frame at the high bound (a quarter of the 20 ms frame): %.2f ms, %s\n"
                  % (s_hi / 1000.0, "met" if s_hi <= 5000 else "NOT MET"))
    out.write("  pystones/s on the chips:\n")
    for name, ps, src in chiptime.CHIPS:
        out.write("    %-20s %5d  %s\n" % (name, ps, src))
    if proj_plain is not None:
        out.write("  the same game with the plain-Python per-frame loops (pystone %d/s), quiet tick (sense stage): "
                  "%s\n" % (fp["pystones"], ", ".join("%s %.2f (%.2f) ms"
                                                      % (name, proj_plain[name]["quiet_mean"] / 1000.0,
                                                         proj_plain[name]["stages"][1] / 1000.0)
                                                      for name, _, _ in chiptime.CHIPS)))
    gain = None
    if f.get("loops_viper_us100"):
        fpl, fvi = f["feed_plain_us100"] / 100.0, f["feed_viper_us100"] / 100.0
        lpl, lvi = f["loops_plain_us100"] / 100.0, f["loops_viper_us100"] / 100.0
        gain = lpl / lvi
        out.write("  the per-frame loops (sense.viperloops) on a quiet frame, this process: Frames.feed %.1f us plain, "
                  "%.1f us with the viper kernels (%.1fx); the loops alone %.1f us plain, %.2f us as viper kernels "
                  "(%.1fx)%s. Assumed: the chips' viper runs these loops that much faster than their bytecode "
                  "too (so viper time is projected by the same pystone ratio; no published Xtensa figure for "
                  "such loops). What that assumption may cost:\n"
                  % (fpl, fvi, fpl / fvi, lpl, lvi, gain,
                     "" if not f.get("loops_events") else " (the frames were not quiet: %d events)" % f["loops_events"]))
    for name, limit in ((chiptime.CHIPS[0][0], 10000), (chiptime.CHIPS[1][0], 10000)):
        q = proj[name]["quiet_mean"]
        floor = chiptime.viper_floor(q, limit, f.get("loops_viper_us100", 0) / 100.0, proj[name]["ratio"], gain) \
            if gain else None
        out.write("  target quiet tick on %s <= %.0f ms: %.2f ms, %s%s%s\n"
                  % (name, limit / 1000.0, q / 1000.0, "met" if q <= limit else "NOT MET",
                     "" if proj_plain is None else " (plain loops: %.2f ms)" % (proj_plain[name]["quiet_mean"] / 1000.0),
                     "; still met were the chip's viper gain on the loops only %.1fx (here %.1fx)" % (floor, gain)
                     if floor else ""))
        if proj[name]["n_still"]:
            out.write("    of those quiet ticks, the %d where the sensing decided nothing (no heap allocated: a "
                      "decision allocates, the per-frame path does not): mean %.2f ms, p99 %.2f ms; the other %d, "
                      "where it worked on a change it then absorbed or waited on, bring the mean up\n"
                      % (proj[name]["n_still"], proj[name]["still_mean"] / 1000.0, proj[name]["still_p99"] / 1000.0,
                         proj[name]["n_quiet"] - proj[name]["n_still"]))
    secs = len(recs) * 1.0 / board["rate_hz"]
    sent = sum(r[6] for r in recs)
    out.write("  serial: the game sent %.0f B/s, %.1f %% of a 115,200 baud line (target <= 50 %%); at most %d bytes "
              "in one tick (the FIFO's room: %d)\n"
              % (sent / secs, 100.0 * sent * 10 / secs / 115200, max(r[6] for r in recs), chiptime.FIFO))
    if f.get("save_n"):
        out.write("  game saves: %d (board-state v2: an event is a small file of its own, 4 directories made when "
                  "the game starts; a new game writes the header, game.ndj, anew), the file written up to %d bytes; "
                  "here %.2f ms at most (the firmware, littlefs and the stand-in flash driver; the first two projected in the tick). The board's "
                  "files are on littlefs over a RAM device shaped like the chip's flash, which counts what a tick "
                  "erases and programs: at most %d erases and %d bytes programmed in a tick (the setup tick "
                  "included), %.1f ms of flash on a chip (4 KB erase 45 ms, 256-byte page 0.4 ms: W25Q32JV "
                  "datasheet, typical), inside the tick: the save column above counts it\n"
                  % (f["save_n"], f["save_bytes"], f["save_max"] / 1000.0, f.get("save_erases", 0),
                     f.get("save_prog", 0),
                     chiptime.flash_ops_us(f.get("save_erases", 0), f.get("save_prog", 0)) / 1000.0))
        play = [r for i, r in enumerate(recs) if i != f.get("setup_tick", -1)]
        sv = [r for r in play if r[8] > 0]
        w = max(sv or play, key=lambda r: chiptime.flash_ops_us(r[11], r[12]) if len(r) > 12 else 0)
        if len(w) > 12:
            n = max(1, sum(r[8] for r in sv))
            evw = max([r for r in sv if r[7] > 0] or [w], key=lambda r: chiptime.flash_ops_us(r[11], r[12]))
            out.write("  the save tick with the most flash work (the setup tick apart): %d erases, %d bytes programmed "
                      "(%.1f ms), %d saves, %d events; the worst with a game event: %d erases, %d bytes (%.1f ms); "
                      "per save (%d in %d ticks): %.2f erases, %.0f bytes programmed on average; flash outside "
                      "save ticks: %d erases\n"
                      % (w[11], w[12], chiptime.flash_ops_us(w[11], w[12]) / 1000.0, w[8], w[7], evw[11], evw[12],
                         chiptime.flash_ops_us(evw[11], evw[12]) / 1000.0, n, len(sv),
                         sum(r[11] for r in sv) * 1.0 / n, sum(r[12] for r in sv) * 1.0 / n,
                         sum(r[11] for r in play if r[8] == 0)))
    for what, r in (("event", p0["event_rec"]), ("save", p0["save_rec"])):
        if r is None:
            continue
        # what the worst event/save tick is made of (the first chip): the
        # decision (sense) and the flash are the parts that can be cut
        k = p0["ratio"]
        save_us = r[9] if len(r) > 10 else 0
        flash = chiptime.flash_ops_us(r[11], r[12]) if len(r) > 12 else 0
        out.write("  the worst %s tick on %s, ms: scan %.1f, sense %.1f, link %.1f (an event the sensing "
                  "decided counts in sense, a control's in link: the referee step, its outputs and the save), show "
                  "%.1f, tx %.1f, less the stand-in flash driver's time here (%.1f: the harness's Python; the flash "
                  "projected instead), flash %.1f "
                  "(%d erases, %d bytes programmed); %d events, %d saves in it. A decision's cost on the chip's "
                  "clock, tick by tick: `bakumat bench sensing --chip-clock`\n"
                  % (what, chiptime.CHIPS[0][0], p0["stages"][0] / 1000.0, r[1] * k / 1000.0, r[2] * k / 1000.0,
                     (r[3] * k + r[5] * n_leds * chiptime.LED_US) / 1000.0,
                     (r[4] * k + chiptime.serial_stall_us(r[6], 115200)) / 1000.0, save_us * k / 1000.0,
                     flash / 1000.0, r[11] if len(r) > 12 else 0, r[12] if len(r) > 12 else 0, r[7], r[8]))
    o = p0["over20"]
    out.write("  ticks of play over 20 ms on %s: %d (%d of the %d deciding a game event, %d of the %d saving); the "
              "median event tick %.1f ms, save tick %.1f ms\n"
              % (chiptime.CHIPS[0][0], o[0], o[1], p0["n_event"], o[2], p0["n_save"], p0["event_p50"] / 1000.0,
                 p0["save_p50"] / 1000.0))
    for name, _, _ in chiptime.CHIPS:
        p = proj[name]
        w = max(p["event_max"], p["save_max"])
        out.write("  target no event/save tick over 20 ms on %s: worst %.1f ms, %s\n"
                  % (name, w / 1000.0, "met" if w <= 20000 else "NOT MET"))
    return proj, lo, f


def summary(name_of_board, board, proj, proj_low, hruns, game_s, out):
    """One line per chip: the quiet tick and its stages at the high
    per-call bound (the low bound's beside it), the worst tick deciding a
    game event or saving, and the garbage collections a game makes in the
    reference board's PSRAM heap, each at the pessimistic pause."""
    from host_tools.bench import chiptime, heap32
    h = (hruns or {}).get((False, True))
    n_gc = None if h is None else heap32.play_alloc(h) / (heap32.PSRAM_N8R8 / 4.0)
    setup_kb = 0.0 if h is None else h.get("alloc_setup", 0) / 1024.0
    frames = max(1, int(game_s * board.get("rate_hz", 50)))
    per_frame = None if h is None else heap32.play_alloc(h) / float(frames)
    out.write("\nsummary (board %s, projected; bus calls at the high per-call bound of hardware/parts.json; GC "
              "pauses at %d ms each, a heap in PSRAM: micropython #8428):\n" % (name_of_board, GC_PSRAM_MS))
    for name, _, _ in chiptime.CHIPS:
        p = proj[name]
        st = p["stages"]
        low = "" if proj_low is None else " (%.1f at the low bound)" % (proj_low[name]["quiet_mean"] / 1000.0)
        gc = ("not measured" if n_gc is None else
              "%.1f in a game of %.0f s of play (%.0f ms in all; %.0f bytes a frame of play, the setup tick's "
              "%.0f KB apart: the app collects after it)" % (n_gc, game_s, n_gc * GC_PSRAM_MS, per_frame, setup_kb))
        out.write("  %s: quiet tick %.1f ms (scan %.1f, sense %.1f, link %.1f, show %.1f, tx %.1f)%s; worst decision "
                  "tick %.1f ms, worst save tick %.1f ms; GC pauses %s\n"
                  % (name, p["quiet_mean"] / 1000.0, st[0] / 1000.0, st[1] / 1000.0, st[2] / 1000.0, st[3] / 1000.0,
                     st[4] / 1000.0, low, p["event_max"] / 1000.0, p["save_max"] / 1000.0, gc))
    return n_gc, per_frame


DOC_BEGIN = "<!-- bakumat bench runtime --quick --doc: the table below is written by the command -->"
DOC_END = "<!-- end of the table bakumat bench runtime writes -->"


def doc_table(name_of_board, seed, proj, proj_low, n_gc, per_frame, game_s):
    """The markdown table `--doc` writes: per chip, the scan and the quiet
    tick at the high per-call bound (the low bound's in brackets), the
    worst decision tick, the collections and the bytes a frame of play."""
    from host_tools.bench import chiptime
    out = ["`bakumat bench runtime --quick --board %s --seed %d` (a %.0f s official game), projected:" %
           (name_of_board, seed, game_s), "",
           "| chip | scan | quiet tick | worst decision tick | GC pauses a game (%d ms each in PSRAM) | "
           "bytes a frame of play |" % GC_PSRAM_MS,
           "|---|---:|---:|---:|---:|---:|"]
    for name, _, _ in chiptime.CHIPS:
        p = proj[name]
        lo = (proj_low or {}).get(name) or {}
        scan = "%.1f ms" % (p["stages"][0] / 1000.0)
        if lo.get("stages"):
            scan += " (%.1f)" % (lo["stages"][0] / 1000.0)
        quiet = "%.1f ms" % (p["quiet_mean"] / 1000.0)
        if "quiet_mean" in lo:
            quiet += " (%.1f)" % (lo["quiet_mean"] / 1000.0)
        out.append("| %s | %s | %s | %.1f ms | %s | %s |" % (
            name, scan, quiet, max(p["event_max"], p["save_max"]) / 1000.0,
            "not measured" if n_gc is None else "%.1f" % n_gc,
            "not measured" if per_frame is None else "%.0f" % per_frame))
    return out


def doc_section(path):
    """docsection.section of the runtime table's markers."""
    from host_tools.bench import docsection
    return docsection.section(path, DOC_BEGIN, DOC_END)


def write_doc(path, lines):
    """Put `lines` in the doc's runtime table section, the rest as it was."""
    from host_tools.bench import docsection
    docsection.write(path, DOC_BEGIN, DOC_END, lines)


def bisect_kb(run, lo, hi, step=4):
    """Smallest k (KB, multiple of step) in (lo, hi] with run(k) true,
    given run(hi) true; (k, largest failing)."""
    while hi - lo > step:
        mid = (lo + hi) // 2 // step * step
        if mid <= lo:
            break
        if run(mid):
            hi = mid
        else:
            lo = mid
    return hi, lo


def main(argv=None):
    p = argparse.ArgumentParser(prog="bakumat bench runtime", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1, help="simulated game (default 1)")
    p.add_argument("--quick", action="store_true",
                   help="a first figure in a few minutes: the .mpy path with the phone page only, one timed run, "
                        "no plain-loop comparison, no stack depth, no smallest-heap search")
    p.add_argument("--board", default=BOARD, help="the board (default %s, the reference board)" % BOARD)
    p.add_argument("--doc", metavar="FILE",
                   help="write the summary's table into FILE's marked section (docs/runtime.md: the figures "
                        "there are this command's)")
    # `bakumat bench runtime quick seed=3` as well as --quick --seed 3
    args = p.parse_args(["--" + a if not a.startswith("-") and (a == "quick" or "=" in a) else a
                         for a in (argv or [])])
    out = sys.stdout
    board = boards.offered(args.board)
    if args.doc:
        doc_section(args.doc)       # a file without the section is refused before minutes of work
    if bus_of(board) is not None:
        # a mat designed in a computed world: the board fits its kernel table,
        # as deploy installs it (the nominal world's)
        from host_tools.bench.bench_sensing import with_detector
        board = with_detector(board)
    header = sample_header()
    sc = sim.random_game(args.seed, board, header)
    res = sim.run(board, sc, seed=args.seed, header=sc.header)
    header = dict(sc.header)
    game_s = (res.frames[-1][0] - res.frames[0][0]) / 1000.0
    out.write("runtime benchmark: board %s, simulated official game seed %d: %.0f s of play, %d frames at %d Hz, "
              "%d control events\n" % (args.board, args.seed, game_s, len(res.frames), board["rate_hz"],
                                       len(res.controls)))
    hruns = heap32_section(board, res, header, out, quick=args.quick)
    proj, proj_low, figs = time_section(board, res, header, out, runs=1 if args.quick else 2, quick=args.quick)
    from host_tools.bench import savelayouts
    out.write("\n")
    savelayouts.report(savelayouts.measure(80), out)
    out.write("  (an erase stops an ESP32's CPU, which runs its code from that flash: a save with one holds up the "
              "scan by 45 ms or more; files4 makes its erases when the game starts. docs/runtime.md)\n")
    with tempfile.TemporaryDirectory(prefix="bakumat-mpy-") as mpy:
        mpybuild.build(mpy)
        code = code_size(mpy)

        # loop time and allocation, default heap, profiling on
        ok, why, h, wall = play_game(board, res, header, mpy_dir=mpy, profile=True)
        if not ok:
            out.write("  the game did not run: %s\n" % why)
            return 1
        ticks = h["ticks"]
        out.write("\nloop time per frame on the micropython binary (unix port, x86-64), %d ticks\n"
                  "(scan here = one side-channel round trip to the simulator, not ADC reads):\n" % ticks)
        out.write("  %-8s %9s %9s\n" % ("stage", "mean us", "worst us"))
        total = 0
        for name in ("scan", "sense", "link", "show", "tx"):
            s, mx = h["stages"][name]
            total += s
            out.write("  %-8s %9.1f %9d\n" % (name, s / float(ticks), mx))
        out.write("  %-8s %9.1f %9d   (worst whole tick; period %d ms)\n"
                  % ("total", total / float(ticks), h["loop_us_max"], 1000 // board["rate_hz"]))
        out.write("  late ticks (overruns): %d; wall time for the game: %.1f s (%.0fx real time)\n"
                  % (h["overruns"], wall, game_s / wall if wall else 0))
        a = h["alloc"]
        out.write("\nduring the game: %d quiet ticks (no event, message or output), %d of them allocated heap "
                  "(%d bytes in all, at most %d in one: the pipeline working on a change it then absorbed); "
                  "ticks with events allocated %d bytes in all\n"
                  % (a["quiet_ticks"], a["quiet_alloc_ticks"], a["quiet_alloc_bytes"], a["quiet_alloc_max"],
                     a["busy_alloc_bytes"]))

        n, na, nb = idle_alloc(board, header, mpy)
        out.write("steady state on an empty mat with a game configured: %d ticks, %d allocated heap (%d bytes)\n"
                  % (n, na, nb))

        def smallest(run, start, step=4, top=4096):
            """(smallest k in steps of `step` KB with run(k) true, largest
            failing k), searching up by doubling from `start` first."""
            lo, hi = 0, None
            k = start
            while hi is None:
                if run(k):
                    hi = k
                else:
                    lo = k
                    if k >= top:
                        return None, lo
                    k *= 2
            if hi == start:
                lo = step
            return bisect_kb(run, lo, hi, step)

        # (a) the ESP32 way: code frozen / in ROMFS, run from flash, so the
        # heap holds only the game's data. Emulated: load the code, then
        # leave only the budget free.
        # (a board without PSRAM's budgets: not in --quick, which is the reference board's path)
        out.write("\nheap for the game's data (code loaded first, as frozen modules run from flash on the ESP32):\n")
        if not args.quick:
            okb, whyb, _, _ = play_game(board, res, header, mpy_dir=mpy, budget="64K")
            out.write("  whole game with 64 KB of heap left after the code: %s\n"
                      % ("runs to its end" if okb else "FAILS: " + whyb))
            k, lo = smallest(lambda k: play_game(board, res, header, mpy_dir=mpy, budget="%dK" % k)[0], 64)
            out.write("  smallest heap left after the code in which the whole game runs: %s KB (fails at %d KB); "
                      "goal on the ESP32 <= 48 KB\n" % (k, lo))

        parts = breakdown(mpy, board, header)
        if parts:
            out.write("  what a configured game holds (unix x86-64: pointers and object headers are twice an "
                      "ESP32's):\n")
            for label, n in parts:
                out.write("    %-42s %6.1f KB\n" % (label, n / 1024.0))
            out.write("    %-42s %6.1f KB\n" % ("total", sum(n for _, n in parts) / 1024.0))

        # (b) literally `micropython -X heapsize=...` with the .mpy code in
        # the heap too (the unix port cannot freeze modules; x86-64 objects
        # are about twice an ESP32's 32-bit ones)
        out.write("\nliteral heap (-X heapsize) with the .mpy code loaded into it (unix x86-64):\n")
        if code is not None:
            out.write("  the loaded modules alone take %.1f KB\n" % (code / 1024.0))
        if not args.quick:
            ok64, why64, _, _ = play_game(board, res, header, heapsize="64K", mpy_dir=mpy)
            out.write("  whole game in -X heapsize=64K: %s\n" % ("runs to its end" if ok64 else "FAILS: " + why64))
            k, lo = smallest(lambda k: play_game(board, res, header, heapsize="%dK" % k, mpy_dir=mpy)[0], 64)
            out.write("  smallest -X heapsize in which the whole game runs: %s KB (fails at %d KB)\n" % (k, lo))
    n_gc, per_frame = summary(args.board, board, proj, proj_low, hruns, game_s, out)
    if args.doc:
        write_doc(args.doc, doc_table(args.board, args.seed, proj, proj_low, n_gc, per_frame, game_s))
        out.write("the table in %s is written\n" % args.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
