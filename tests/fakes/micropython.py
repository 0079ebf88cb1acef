"""Fake of MicroPython's `micropython` module for CPython. TEST CODE: DO NOT
UPLOAD TO A BOARD. const/native/viper are identities; schedule() runs the
callback at once; heap_lock() nests like the real one but does not stop
allocation (CPython cannot), so allocation is measured under the real
micropython binary instead (host_tools/bench/bench_runtime.py)."""
_FAKE = True
_lock_depth = 0


def const(x):
    return x


def native(f):
    return f


def viper(f):
    return f


def schedule(fn, arg):
    fn(arg)


def heap_lock():
    global _lock_depth
    _lock_depth += 1
    return _lock_depth - 1


def heap_unlock():
    global _lock_depth
    _lock_depth = max(0, _lock_depth - 1)
    return _lock_depth


def kbd_intr(c):
    pass


def mem_info(*a):
    print("mem: (fake micropython module, no figures on CPython)")


def alloc_emergency_exception_buf(n):
    pass
