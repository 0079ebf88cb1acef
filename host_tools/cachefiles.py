"""Files the host tools keep only to save time (compiled .mpy files, the
finite plate's site tables, the slab kernels): written whole or not at all,
and a cache that cannot be written (read-only, full) only costs time.

    cachefiles.store(path, lambda tmp: shutil.copyfile(src, tmp))
    table = cachefiles.load_or_build(path, np.load, build, np.save, ".npy")
"""
import os

try:
    import fcntl
    HAVE_FLOCK = True
except ImportError:  # not POSIX: no lock, processes may build the same file twice
    HAVE_FLOCK = False


def store(path, write, suffix=""):
    """write(tmp) a temporary file beside path (its name ends in suffix),
    then put it in place in one step; any OSError leaves the cache as it was."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = "%s.%d.tmp%s" % (path, os.getpid(), suffix)
        write(tmp)
        os.replace(tmp, path)
    except OSError:
        pass


def _load(path, load):
    if not os.path.exists(path):
        return None
    try:
        return load(path)
    except (OSError, ValueError, KeyError):
        return None  # a damaged cache file is rebuilt


class _Lock:
    """An exclusive lock on path's '.lock' file beside it, for the time a
    build takes; a lock that cannot be had (no folder, no fcntl) is none."""

    def __init__(self, path):
        self.path = path + ".lock"
        self.f = None

    def __enter__(self):
        if HAVE_FLOCK:
            try:
                os.makedirs(os.path.dirname(self.path), exist_ok=True)
                self.f = open(self.path, "a")
                fcntl.flock(self.f, fcntl.LOCK_EX)
            except OSError:
                self.close()
        return self

    def close(self):
        if self.f is not None:
            self.f.close()  # closing releases the lock
            self.f = None

    def __exit__(self, *exc):
        self.close()
        return False


def load_or_build(path, load, build, save, suffix=""):
    """load(path) if the cache holds it, else build() and save(tmp, value) it
    there. Processes that want the same file at once (the test suite's
    workers, two commands) take turns on a lock beside it: one builds, the
    others wait and load what it saved, so a table is built once."""
    got = _load(path, load)
    if got is not None:
        return got
    with _Lock(path):
        got = _load(path, load)
        if got is None:
            got = build()
            store(path, lambda tmp: save(tmp, got), suffix)
    return got
