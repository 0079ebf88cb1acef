"""Files the host tools keep only to save time (compiled .mpy files, the
finite plate's site tables): written whole or not at all, and a cache that
cannot be written (read-only, full) only costs time.

    cachefiles.store(path, lambda tmp: shutil.copyfile(src, tmp))
"""
import os


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
