"""BakuMat host tools: the `bakumat` command line (CPython only).

One folder per job a user comes with (docs/host-tools.md): device/ (a board
on USB), vboard/ (the virtual board), sim/ (the magnetic simulator), boards/,
logs/, webview/, demo/, gen/, bench/; cli.py and commands/ are the command
table on top of them."""
__version__ = "0.1.0"
