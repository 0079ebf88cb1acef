"""The firmware's heap at 32 bits: a whole simulated game on the MicroPython
WebAssembly port (npm `@micropython/micropython-webassembly-pyscript`,
installed by `make setup` into tools/mp32), whose objects have an ESP32's
sizes (4-byte pointers and words, 16-byte GC blocks).

Why this method: that port grows its heap instead of failing, and collects
garbage only when control is back in JavaScript (its gc.collect() only asks
for one). So the game runs one loop tick per call from JavaScript
(tools/mp32/run.mjs): at the start of each tick the heap holds exactly what
is live (a precise collection, no stack to scan), at its end that plus all
the tick allocated. The largest of the latter is what a chip's heap must
hold if it never collects inside a tick (an upper bound: a chip collects
when an allocation fails, so it can do with less, never with less than the
most live). The heap's growth is thus no error in the figures. The largest
block allocated comes from micropython.mem_info() after every tick.

Differences from an ESP32, all small and said in the report: Python frames
live on this port's separate "pystack" (on an ESP32 a call whose state is
larger than 11 words takes a short-lived heap block); floats are doubles (one
16-byte block, as a single-precision float on an ESP32).

    run(board, res, header, phone=False, rom=False, frozen=False) -> dict of figures
"""
import json
import os
import shutil
import struct
import subprocess
import tempfile

from host_tools import fwpath, mpscripts
from host_tools.device import mpybuild
from host_tools.errors import UserError

TOOLS_DIR = os.path.join(fwpath.REPO_DIR, "tools", "mp32")
RUNNER = os.path.join(TOOLS_DIR, "run.mjs")
PACKAGE = os.path.join(TOOLS_DIR, "node_modules", "@micropython", "micropython-webassembly-pyscript")

# what app.main imports on a board (app pulls in the rest), the official
# mode (imported when its game starts), and what the phone page adds
MODULES = ("app", "hw", "hw.lis2", "hw.strip", "hw.stdio", "referee.modes.official", "maint", "version")
PHONE_MODULES = ("runtime.phone", "link.httpd", "link.webapp", "link.pageboard")
TAIL_TICKS = 50          # after the last frame: the end request, and time to send its answers


def available():
    """None when the 32-bit port is installed, else why not (one line)."""
    if shutil.which("node") is None:
        return "node is not installed (the 32-bit heap check runs MicroPython's WebAssembly port under node)"
    if not os.path.isdir(PACKAGE):
        return "the 32-bit MicroPython is not installed in tools/mp32: run `make setup`"
    return None


def version():
    with open(os.path.join(PACKAGE, "package.json")) as f:
        return json.load(f)["version"]


def _host_stream(res, header, period):
    """The host's bytes as (due tick, bytes): cfg at once, each control at
    its time, `end` after the last frame (as the bench on the virtual board)."""
    fwpath.ensure()
    from link import codec
    t0 = res.frames[0][0]
    out = [(0, codec.encode(1, "cfg", header))]
    seq = 1
    for c in res.controls:
        body = dict(c)
        body.pop("t", None)
        seq += 1
        out.append(((c["t"] - t0) // period + 1, codec.encode(seq, "ctl", body)))
    seq += 1
    out.append((len(res.frames) + TAIL_TICKS // 2, codec.encode(seq, "end", {})))
    return out, seq


def _chip_native(fw):
    """Viper modules (left as source by mpybuild without an arch) compiled
    for the ESP32 (xtensawin), as deploy puts them on the chip: this port
    refuses such a .mpy at its header (no native emitter: the plain loops
    run), where compiling the source would leave its parsed names in the
    heap. On the chip their machine code goes to executable RAM, outside
    the GC heap (esp_native_code_commit)."""
    for root, _, names in os.walk(fw):
        for n in names:
            p = os.path.join(root, n)
            if n.endswith(".py") and mpybuild.needs_native(p):
                rel = os.path.relpath(p, fw)
                r = subprocess.run([mpybuild.mpy_cross(), "-march=xtensawin", "-s", rel, "-o", p[:-3] + ".mpy", p],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    raise UserError("mpy-cross -march=xtensawin failed on %s: %s" % (rel, r.stderr.strip()))
                os.remove(p)


def _romfs(src, dest):
    """A ROMFS image of the compiled tree (what `mpremote romfs build` makes)."""
    import contextlib
    import io
    from mpremote import romfs
    code = dest + ".d"
    shutil.copytree(src, code, ignore=shutil.ignore_patterns("web"))
    with contextlib.redirect_stdout(io.StringIO()):
        data = romfs.make_romfs(code, mpy_cross=False)
    shutil.rmtree(code)
    with open(dest, "wb") as f:
        f.write(data)


def mpy_names(path):
    """The names a compiled module interns when loaded: the qstr table at
    the head of its .mpy file (format v6: 'M', version, features, small-int
    bits, then n_qstr, n_obj and each qstr as a varint length << 1 and its
    bytes and a 0, or an odd varint for a name already in the interpreter's
    static pool, left out here). A frozen image keeps exactly these in its
    ROM qstr pool."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] != b"M\x06":
        raise UserError("%s: not a version 6 .mpy file" % path)
    pos = [4]

    def uint():
        v = 0
        while True:
            b = data[pos[0]]
            pos[0] += 1
            v = (v << 7) | (b & 0x7F)
            if not b & 0x80:
                return v
    n_qstr = uint()
    uint()                     # n_obj
    out = []
    for _ in range(n_qstr):
        n = uint()
        if n & 1:
            continue
        n >>= 1
        out.append(data[pos[0]:pos[0] + n].decode())
        pos[0] += n + 1
    return out


def frozen_names(fw):
    """Every name the compiled tree's modules would put in a frozen image's
    ROM qstr pool (sorted, without repeats)."""
    names = set()
    for root, dirs, files in os.walk(fw):
        dirs[:] = [d for d in dirs if d != "web"]
        for n in files:
            if n.endswith(".mpy"):
                names.update(mpy_names(os.path.join(root, n)))
    return sorted(names)


def run(board, res, header, phone=False, rom=False, heapsize=256 * 1024, timeout=900, unix=None, stack=False,
        plain=False, frozen=False):
    """Play the game on the 32-bit port. rom: the code in a ROMFS image
    (run in place, as from an image's ROMFS partition) instead of .mpy files
    loaded into the heap. frozen: the ROMFS layout with the app's names
    (the compiled modules' qstr tables, frozen_names) interned before the
    baseline, so that their pools are not counted: a frozen image keeps
    them in flash (its ROM qstr pool); names made at run time still count
    (docs/runtime.md says what else this assumes). unix: the path of the unix port's
    micropython binary to run the same game under instead (for stage
    timings: the WebAssembly port's clock has only millisecond steps; its
    heap figures are x86-64's, not reported). stack: on the port's settrace
    build, the deepest Python call and the C and Python stacks' use there
    (its heap figures then hold the tracer's garbage: not for the heap).
    plain: (unix) the per-frame loops without their viper kernels; a viper
    run also times both in the same process (feed_*, loops_*: us x 100
    per frame, mpscripts/heap32.py _loops). Returns {"base", "code", "live", "peak",
    "maxblk", "worst_tick", "ticks", "out": decoded frames, ...}; raises
    UserError when the game did not run to its end."""
    why = available() if unix is None else None
    if why:
        raise UserError(why)
    rom = rom or frozen
    if unix is not None and rom:
        raise ValueError("ROMFS runs only on the WebAssembly port")
    period = 1000 // board["rate_hz"]
    tmp = tempfile.mkdtemp(prefix="bakumat-heap32-")
    try:
        fw = os.path.join(tmp, "fw")
        mpybuild.build(fw)
        if unix is None:
            _chip_native(fw)
        n_names = 0
        if frozen:
            names = frozen_names(fw)
            n_names = len(names)
            with open(os.path.join(tmp, "names.json"), "w") as f:
                json.dump(names, f)
        if rom:
            _romfs(fw, os.path.join(tmp, "rom.img"))
            for name in os.listdir(fw):
                if name not in ("web",):
                    p = os.path.join(fw, name)
                    shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
        with open(os.path.join(tmp, "board.json"), "w") as f:
            json.dump(board, f, sort_keys=True, separators=(",", ":"))
        with open(os.path.join(tmp, "frames.bin"), "wb") as f:
            for _, counts in res.frames:
                f.write(struct.pack("<%dH" % len(counts), *counts))
        stream, last_seq = _host_stream(res, header, period)
        with open(os.path.join(tmp, "host.bin"), "wb") as f:
            for due, data in stream:
                f.write(struct.pack("<II", due, len(data)) + data)
        shutil.copyfile(mpscripts.path("pystone.py"), os.path.join(tmp, "pystone.py"))
        shutil.copyfile(mpscripts.path("looptime.py"), os.path.join(tmp, "looptime.py"))
        shutil.copyfile(mpscripts.path("i2cbus.py"), os.path.join(tmp, "i2cbus.py"))
        shutil.copyfile(mpscripts.path("spibus.py"), os.path.join(tmp, "spibus.py"))
        shutil.copyfile(mpscripts.path("i2cnop.py"), os.path.join(tmp, "i2cnop.py"))
        ticks = len(res.frames) + TAIL_TICKS
        mods = list(MODULES) + (list(PHONE_MODULES) if phone else [])
        wasm = unix is None
        with open(os.path.join(tmp, "params.json"), "w") as f:
            json.dump({"ticks": ticks, "phone": phone, "modules": mods, "wasm": wasm, "stack": stack, "plain": plain,
                       "intern": "names.json" if frozen else None,
                       "path": ("/rom" if rom else "/bench/fw") if wasm else fw}, f)
        if wasm:
            cmd = ["node", RUNNER, "--heapsize", str(heapsize), "--dir", tmp,
                   "--script", mpscripts.path("heap32.py"), "--out", "out.bin", "--out", "ticks.bin"]
            if rom:
                cmd += ["--romfs", os.path.join(tmp, "rom.img")]
            if stack:
                cmd += ["--variant", "settrace"]
        else:
            # the heap of an N8R8's GC in PSRAM (about 8 MB), at 64 bits:
            # the app's gc.threshold then collects about as often as there
            cmd = [unix, "-X", "heapsize=16M", mpscripts.path("heap32.py")]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=TOOLS_DIR if wasm else tmp)
        fig = {"qstr": []}
        for line in r.stdout.splitlines():
            if line.startswith("qstr pool:"):
                fig["qstr"].append(dict((k.strip(), int(v)) for k, v in (x.split("=") for x in line[10:].split(","))))
            parts = line.split()
            if len(parts) == 3 and parts[0] in ("HEAP32", "MP32") and parts[2].lstrip("-").isdigit():
                fig[parts[1]] = int(parts[2])
        if r.returncode != 0 or "peak" not in fig:
            tail = [x for x in (r.stdout + r.stderr).splitlines() if x.strip()][-3:]
            raise UserError("the 32-bit run failed: %s" % (" | ".join(tail) or "no output"))
        fig["out"] = _decode(os.path.join(tmp, "out.bin"))
        fig["tick_records"] = _ticks(os.path.join(tmp, "ticks.bin"))
        _check(fig["out"], last_seq)
        fig["rom_bytes"] = os.path.getsize(os.path.join(tmp, "rom.img")) if rom else 0
        fig["frozen_names"] = n_names
        if frozen:
            _chip_name_pools(fig)
        return fig
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _chip_name_pools(fig):
    """A frozen run: the names made after the base (module names interned
    at import, e.g. 'referee.modes.official', and ROMFS paths a frozen
    image does not make) went into the room left in this port's last name
    pool, which is not counted. On a chip the ROM pool is full and says it
    holds at most 10 entries (mpy_tool.py: qstr_pool_alloc), so they take
    new heap pools of 20, 40, 80... entries of 6 bytes (a 4-byte pointer, a
    hash byte, a length byte) after a 24-byte header: added to the figures
    (their text is counted already)."""
    q = fig["qstr"]
    n = q[-1]["n_qstr"] - q[0]["n_qstr"] if len(q) >= 2 else 0
    extra, alloc = 0, 10
    while n > 0:
        alloc *= 2
        extra += (24 + 6 * alloc + 15) // 16 * 16
        n -= alloc
    fig["runtime_names"] = q[-1]["n_qstr"] - q[0]["n_qstr"] if len(q) >= 2 else 0
    fig["name_pools"] = extra
    for k in ("code", "live", "peak", "setup"):
        fig[k] += extra


def _ticks(path):
    """[(scan, sense, link, show, tx us, strip writes, tx bytes, events, saves,
    save us, game file bytes, flash erases, flash bytes programmed, heap
    bytes allocated)] per tick."""
    with open(path, "rb") as f:
        data = f.read()
    n = len(data) // 56
    return [struct.unpack_from("<14i", data, 56 * i) for i in range(n)]


def _decode(path):
    fwpath.ensure()
    from link.codec import Decoder
    frames = []
    dec = Decoder(lambda seq, typ, body: frames.append((seq, typ, body)), None, max_len=1 << 16)
    with open(path, "rb") as f:
        dec.feed(f.read())
    return frames


def _check(frames, end_seq):
    """The game ran as on the virtual board: cfg accepted, no failure logged,
    the end request answered and the game's end sent."""
    logs = [b.get("msg") for _, typ, b in frames if typ == "log"]
    if logs:
        raise UserError("the 32-bit run logged: %s" % "; ".join(str(x) for x in logs[:2]))
    acks = dict((seq, b) for seq, typ, b in frames if typ in ("ack", "err"))
    if acks.get(1, {}).get("ok") is not True:
        raise UserError("the 32-bit run: the game was refused: %s" % (acks.get(1),))
    if acks.get(end_seq, {}).get("ok") is not True:
        raise UserError("the 32-bit run: no answer to the end request")
    if not any(typ == "game" and b.get("ev") == "end" for _, typ, b in frames):
        raise UserError("the 32-bit run: the game did not reach its end")


def import_order(roots):
    """The firmware modules roots import at their top level, each after
    the modules it imports (what a board imports at boot; imports inside
    functions, such as the referee's other modes, are left out)."""
    import ast
    fw = fwpath.FIRMWARE_DIR
    files = {}
    for root, dirs, names in os.walk(fw):
        for n in names:
            if n.endswith(".py") and n not in ("main.py", "boot.py"):
                mod = os.path.relpath(os.path.join(root, n), fw)[:-3].replace(os.sep, ".")
                files[mod[:-9] if mod.endswith(".__init__") else mod] = os.path.join(root, n)

    def deps(m):
        with open(files[m]) as f:
            tree = ast.parse(f.read())
        names = []
        for node in tree.body:
            for nd in (node.body + node.handlers[0].body if isinstance(node, ast.Try) else [node]):
                if isinstance(nd, ast.Import):
                    names += [a.name for a in nd.names]
                elif isinstance(nd, ast.ImportFrom) and nd.module:
                    names += [nd.module] + [nd.module + "." + a.name for a in nd.names]
        out = []
        for d in names:
            parts = d.split(".")
            out += [p for p in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if p in files and p != m]
        return out

    order = []
    seen = set()

    def visit(m):
        if m not in seen:
            seen.add(m)
            for d in deps(m):
                visit(d)
            order.append(m)
    for r in roots:
        visit(r)
    return order


def modules(phone=True, rom=True, timeout=300):
    """The heap each firmware module adds when imported at 32 bits (ROMFS
    image or .mpy files), apart from the interned names' pools it grew.
    Returns {"modules": [(object bytes, name, name-pool bytes, new names)]
    largest first, "qstr": {n_pool, n_qstr, n_str_data_bytes,
    n_total_bytes} at the end, "not_loaded": [names]}."""
    why = available()
    if why:
        raise UserError(why)
    order = import_order(list(MODULES) + (list(PHONE_MODULES) if phone else []))
    tmp = tempfile.mkdtemp(prefix="bakumat-heapmods-")
    try:
        fw = os.path.join(tmp, "fw")
        mpybuild.build(fw)
        _chip_native(fw)
        cmd = ["node", RUNNER, "--heapsize", str(512 * 1024), "--dir", tmp, "--script",
               mpscripts.path("heapmods.py")]
        if rom:
            _romfs(fw, os.path.join(tmp, "rom.img"))
            shutil.rmtree(fw)
            cmd += ["--romfs", os.path.join(tmp, "rom.img")]
        with open(os.path.join(tmp, "params.json"), "w") as f:
            json.dump({"path": "/rom" if rom else "/bench/fw", "modules": order}, f)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=TOOLS_DIR)
        mods, qstr, skipped = [], {}, []
        prev = None
        for line in r.stdout.splitlines():
            if line.startswith("MOD "):
                _, name, n = line.split()
                mods.append([int(n), name, 0, 0])
            elif line.startswith("NOTLOADED "):
                skipped.append(line.split()[1])
            elif line.startswith("qstr pool:"):
                qstr = dict((k.strip(), int(v)) for k, v in (x.split("=") for x in line[10:].split(",")))
                if prev is not None and mods:
                    mods[-1][2] = qstr["n_total_bytes"] - prev["n_total_bytes"]
                    mods[-1][3] = qstr["n_qstr"] - prev["n_qstr"]
                prev = qstr
        if r.returncode != 0 or not qstr:
            raise UserError("the 32-bit module run failed: %s" % (r.stdout + r.stderr).strip()[-300:])
        # (heap the module's objects took, name, its names' pool bytes, its new names)
        rows = sorted(((n - q, name, q, k) for n, name, q, k in mods), reverse=True)
        return {"modules": rows, "qstr": qstr, "not_loaded": skipped}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------- figures

KB = 1024
PSRAM_N8R8 = 8 * 1024 * KB
# The targets of issue #17, as (name, rom, phone, figure, limit, why).
TARGETS = (
    ("reference board (S3 N8R8, .mpy as deploy installs it)", False, True, "whole", PSRAM_N8R8 // 2,
     "the game's heap, setup included, in at most half the N8R8's 8 MB PSRAM, where the "
     "ESP32_GENERIC_S3-SPIRAM_OCT image keeps its GC heap (internal RAM stays with ESP-IDF and Wi-Fi)"),
)

# What `bakumat deploy` asks of a board's heap before copying, by code kind:
# the 32-bit peak during play without the phone page of the reference
# board's game (its kernel table is most of it; the page adds about 30 KB,
# and Wi-Fi its own memory outside the GC heap), rounded up.
# tests/host/test_heap32.py checks these against a fresh measurement: never
# below it, never stale.
NEED = {"mpy": 1040 * KB, "rom": 1000 * KB, "frozen": 1392 * KB}
PHONE_EXTRA = 44 * KB      # said in deploy's refusal: what the phone page adds at most


def figure(fig, what):
    """'live': most live between ticks; 'play': peak during play; 'whole':
    the larger of that and the setup tick's bound."""
    if what == "whole":
        return max(fig["peak"], fig["setup"])
    return fig[what]


LABELS = (".mpy in the heap (deploy)", "ROMFS image", "frozen image")


def play_alloc(fig):
    """Bytes the game's play allocated: every tick's but the setup tick's."""
    return max(0, fig.get("alloc_total", 0) - fig.get("alloc_setup", 0))


def report(runs, out):
    """runs: {(kind, phone): figures}, kind 0 (False): .mpy, 1 (True):
    ROMFS, 2: frozen. Writes the table and the targets."""
    out.write("  %-42s %7s %7s %7s %9s %9s %8s\n"
              % ("code kind", "code", "data", "live", "peak play", "setup tk", "largest"))
    for (rom, phone), f in sorted(runs.items()):
        label = LABELS[int(rom)] + (" + phone page" if phone else "")
        out.write("  %-42s %7.1f %7.1f %7.1f %9.1f %9.1f %8.1f\n"
                  % (label, f["code"] / 1024.0, (f["live"] - f["code"]) / 1024.0, f["live"] / 1024.0,
                     f["peak"] / 1024.0, f["setup"] / 1024.0, f["maxblk"] / 1024.0))
    out.write("  (KB. code: the imported modules; data: the game's live data at its largest; live: both; peak "
              "play: live plus all one tick allocated, the worst tick after setup; setup tk: the same for the "
              "tick that set the game up, whose float garbage the app collects itself on a chip but this port "
              "only after the tick: an upper bound; largest: the largest single block the heap held; frozen: the "
              "ROMFS run with the app's names interned before the base, as a frozen image's ROM name pool, plus "
              "the chip's pools for the names made at run time: docs/runtime.md)\n")
    fz = [f for (rom, _), f in sorted(runs.items()) if rom == 2]
    if fz:
        out.write("  frozen: %d names of the app's compiled modules interned before the base (a frozen image's ROM "
                  "pool); %s names made at run time, their pools as a chip makes them (%s bytes) added\n"
                  % (fz[0]["frozen_names"], "/".join(str(f["runtime_names"]) for f in fz),
                     "/".join(str(f["name_pools"]) for f in fz)))
    f = runs.get((False, True))
    if f is not None and f.get("gc_us") is not None and f.get("pystones"):
        from host_tools.bench import chiptime
        name, ps, _ = chiptime.CHIPS[0]
        out.write("  GC pause: one full collection of the heap the game left (%.0f KB, %.0f KB live at most) took "
                  "%.2f ms here, %.1f ms on the %s by the pystone ratio (%d/s here) from internal RAM; a heap "
                  "in PSRAM is slower (micropython #8428: about 100 ms). The game allocated %.0f KB in all "
                  "(a configured game on an empty mat: nothing, below); app.main's gc.threshold collects after a quarter of the free heap is "
                  "allocated (about %.0f KB in the N8R8's PSRAM): about %.1f such pauses in a game like this one; "
                  "of the %.0f KB, the setup tick's %.0f KB (the app collects itself after it), play's %.0f KB: "
                  "%.1f pauses in play\n"
                  % (f["total"] / 1024.0, f["live"] / 1024.0, f["gc_us"] / 1000.0,
                     f["gc_us"] * f["pystones"] / float(ps) / 1000.0, name, f["pystones"],
                     f.get("alloc_total", 0) / 1024.0, PSRAM_N8R8 / 4 / 1024.0,
                     f.get("alloc_total", 0) / (PSRAM_N8R8 / 4.0),
                     f.get("alloc_total", 0) / 1024.0, f.get("alloc_setup", 0) / 1024.0,
                     play_alloc(f) / 1024.0, play_alloc(f) / (PSRAM_N8R8 / 4.0)))
    for name, rom, phone, what, limit, why in TARGETS:
        f = runs.get((rom, phone))
        if f is None:
            continue
        v = figure(f, what)
        out.write("  target %s: %.1f KB of %.1f KB: %s (%s; the most live %.1f KB)\n"
                  % (name, v / 1024.0, limit / 1024.0, "met" if v <= limit else "NOT MET", why,
                     f["live"] / 1024.0))
