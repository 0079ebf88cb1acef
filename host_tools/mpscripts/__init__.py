"""Scripts that run under the `micropython` binary (not imported by CPython)."""
import os

DIR = os.path.dirname(os.path.abspath(__file__))


def path(name):
    return os.path.join(DIR, name)
