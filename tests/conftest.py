import os
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for p in (os.path.join(REPO, "firmware"), HERE, REPO):
    if p not in sys.path:
        sys.path.insert(0, p)


@pytest.fixture(scope="module")
def own_cache(tmp_path_factory):
    """A $BAKUMAT_CACHE of the test module's own (deploy's .mpy files, the
    plate's tables), shared by its tests and gone after it: later deploys
    in the module reuse what the first compiled, other modules start clean.
    Its kernels/ folder is the run's (the computed tables are no deploy state)."""
    d = tmp_path_factory.mktemp("cache")
    shared = os.environ.get("BAKUMAT_TEST_CACHE")
    if shared:
        os.makedirs(os.path.join(shared, "kernels"), exist_ok=True)
        os.symlink(os.path.join(shared, "kernels"), str(d / "kernels"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BAKUMAT_CACHE", str(d))
        yield


# One cache for the whole run ($BAKUMAT_CACHE: the plate's site tables, the
# slab kernels), shared by the pytest-xdist workers and the commands the tests
# start: a table is built once per run (host_tools/cachefiles.py locks each
# file while one process builds it), never read from the user's ~/.cache, and
# removed at the end. $BAKUMAT_TEST_CACHE names a folder to keep between runs.
def pytest_configure(config):
    if not os.environ.get("BAKUMAT_TEST_CACHE"):      # the controller, or a run without workers
        import tempfile
        os.environ["BAKUMAT_TEST_CACHE"] = tempfile.mkdtemp(prefix="bakumat-test-cache-")
        config._bakumat_own_cache = os.environ["BAKUMAT_TEST_CACHE"]
    os.environ["BAKUMAT_CACHE"] = os.environ["BAKUMAT_TEST_CACHE"]  # workers inherit the controller's
    if not hasattr(config, "workerinput"):
        # the reference board as deployed (its kernel table: about 7 s the
        # first time), for the firmware's tests under micropython
        import fwharness
        fwharness.write_board()
    config._bakumat_started = time.monotonic()


def pytest_unconfigure(config):
    own = getattr(config, "_bakumat_own_cache", None)
    if own:
        import shutil
        shutil.rmtree(own, ignore_errors=True)
        del os.environ["BAKUMAT_TEST_CACHE"]


def pytest_terminal_summary(terminalreporter, config):
    if hasattr(config, "workerinput"):
        return
    spent = time.monotonic() - config._bakumat_started
    workers = getattr(config.option, "numprocesses", None) or 1
    terminalreporter.write_line("suite time: %d min %02d s (%s worker%s)" % (
        spent // 60, spent % 60, workers, "" if workers == 1 else "s"))
