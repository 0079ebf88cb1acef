"""Run firmware test modules under the `micropython` binary.

    micropython tests/mp_runner.py tests/firmware test_engine test_eventlog

Puts firmware/ and tests/ on sys.path, imports each module, runs its
TestCases with mpunit, prints `RESULT <module> passed failed skipped` per
module and exits 1 if anything failed. tests/test_micropython_suite.py calls it.
"""
import sys

import mpunit


def main(argv):
    here = argv[0].rsplit("/", 1)[0] if "/" in argv[0] else "."
    sys.path.insert(0, here)
    sys.path.insert(0, here + "/../firmware")
    testdir = argv[1]
    sys.path.insert(0, testdir)
    # Let test modules `import unittest` find mpunit.
    sys.modules["unittest"] = mpunit
    bad = 0
    for name in argv[2:]:
        try:
            mod = __import__(name)
        except Exception as e:
            print("FAIL import", name, type(e).__name__, e)
            print("RESULT", name, 0, 1, 0)
            bad += 1
            continue
        p, f, s = mpunit.run_module(mod)
        print("RESULT", name, p, f, s)
        bad += f
    sys.exit(1 if bad else 0)


main(sys.argv)
