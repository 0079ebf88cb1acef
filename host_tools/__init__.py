"""BakuMat host tools: the `bakumat` command line (CPython only)."""
__version__ = "0.1.0"
