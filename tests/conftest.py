import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
for p in (os.path.join(REPO, "firmware"), HERE, REPO):
    if p not in sys.path:
        sys.path.insert(0, p)
