"""Run the firmware unit tests (tests/firmware/test_*.py) again under the
real `micropython` binary, one pytest case per module."""
import os

import pytest

from mptools import HERE, micropython

FW_TESTS = os.path.join(HERE, "firmware")
# The reference board's 8 MB of PSRAM: the app's tests boot it with the
# kernel table (a chip's heap is measured by host_tools/bench/heap32.py, not here)
HEAP = "8M"
MODULES = sorted(f[:-3] for f in os.listdir(FW_TESTS) if f.startswith("test_") and f.endswith(".py"))


@pytest.mark.parametrize("module", MODULES)
def test_under_micropython(module):
    r = micropython([os.path.join(HERE, "mp_runner.py"), FW_TESTS, module], heapsize=HEAP)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    result = [line for line in out.splitlines() if line.startswith("RESULT ")]
    assert result, out
    _, name, passed, failed, skipped = result[-1].split()
    assert int(failed) == 0, out
    assert int(passed) > 0, out
