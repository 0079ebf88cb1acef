import os
import sys

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
    in the module reuse what the first compiled, other modules start clean."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BAKUMAT_CACHE", str(tmp_path_factory.mktemp("cache")))
        yield
