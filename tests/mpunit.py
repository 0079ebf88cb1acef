"""A small subset of `unittest` for the MicroPython unix port, which has none.

Firmware tests are written against the `unittest` API:

    try:
        import unittest
    except ImportError:  # MicroPython
        import mpunit as unittest

CPython (pytest) runs them with the real unittest; tests/mp_runner.py runs
the same files under the `micropython` binary with this module.
Only what the firmware tests use is here: TestCase with setUp/tearDown,
assertEqual/NotEqual/True/False/Is/IsNone/IsNotNone/In/NotIn/Raises/
LessEqual/GreaterEqual, skipTest, and `main()`.
"""


class SkipTest(Exception):
    pass


class _Raises:
    def __init__(self, exc):
        self.expected = exc
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is None:
            raise AssertionError("%s not raised" % self.expected.__name__)
        if issubclass(et, self.expected):
            self.exception = ev
            return True
        return False


class TestCase:
    def setUp(self):
        pass

    def tearDown(self):
        pass

    def skipTest(self, why):
        raise SkipTest(why)

    def fail(self, msg=None):
        raise AssertionError(msg or "failed")

    def assertEqual(self, a, b, msg=None):
        if not a == b:
            raise AssertionError(msg or "%r != %r" % (a, b))

    def assertNotEqual(self, a, b, msg=None):
        if a == b:
            raise AssertionError(msg or "%r == %r" % (a, b))

    def assertTrue(self, x, msg=None):
        if not x:
            raise AssertionError(msg or "%r is not true" % (x,))

    def assertFalse(self, x, msg=None):
        if x:
            raise AssertionError(msg or "%r is not false" % (x,))

    def assertIs(self, a, b, msg=None):
        if a is not b:
            raise AssertionError(msg or "%r is not %r" % (a, b))

    def assertIsNone(self, x, msg=None):
        if x is not None:
            raise AssertionError(msg or "%r is not None" % (x,))

    def assertIsNotNone(self, x, msg=None):
        if x is None:
            raise AssertionError(msg or "unexpected None")

    def assertIn(self, a, b, msg=None):
        if a not in b:
            raise AssertionError(msg or "%r not in %r" % (a, b))

    def assertNotIn(self, a, b, msg=None):
        if a in b:
            raise AssertionError(msg or "%r in %r" % (a, b))

    def assertLessEqual(self, a, b, msg=None):
        if not a <= b:
            raise AssertionError(msg or "%r > %r" % (a, b))

    def assertGreaterEqual(self, a, b, msg=None):
        if not a >= b:
            raise AssertionError(msg or "%r < %r" % (a, b))

    def assertLess(self, a, b, msg=None):
        if not a < b:
            raise AssertionError(msg or "%r >= %r" % (a, b))

    def assertGreater(self, a, b, msg=None):
        if not a > b:
            raise AssertionError(msg or "%r <= %r" % (a, b))

    def assertRaises(self, exc, func=None, *args, **kw):
        ctx = _Raises(exc)
        if func is None:
            return ctx
        with ctx:
            func(*args, **kw)


def run_module(mod):
    """Run every TestCase in a module; print one line per failure and a
    summary; return (passed, failed, skipped)."""
    passed = failed = skipped = 0
    for name in sorted(dir(mod)):
        cls = getattr(mod, name)
        try:
            ok = isinstance(cls, type) and issubclass(cls, TestCase) and cls is not TestCase
        except TypeError:
            ok = False
        if not ok:
            continue
        for meth in sorted(dir(cls)):
            if not meth.startswith("test"):
                continue
            case = cls()
            label = "%s.%s.%s" % (mod.__name__, name, meth)
            try:
                case.setUp()
                try:
                    getattr(case, meth)()
                finally:
                    case.tearDown()
                passed += 1
            except SkipTest as e:
                skipped += 1
                print("SKIP", label, e)
            except Exception as e:
                failed += 1
                print("FAIL", label, type(e).__name__, e)
    return passed, failed, skipped


def main():
    import sys
    mod = sys.modules["__main__"]
    p, f, s = run_module(mod)
    print("%d passed, %d failed, %d skipped" % (p, f, s))
    if f:
        sys.exit(1)
