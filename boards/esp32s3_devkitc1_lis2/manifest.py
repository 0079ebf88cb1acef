# Frozen-bytecode manifest for a custom MicroPython build of this board
# (boards/README.md: `make BOARD_DIR=<this folder>` in ports/esp32).
# MicroPython's own port manifest first (asyncio, neopixel, ...), then the
# BakuMat app (boards/app_manifest.py, the same for every board).
# tests/host/test_manifest.py compiles every module named here with mpy-cross
# and checks that every firmware module is named.
include("$(PORT_DIR)/boards/manifest.py")

include("$(BOARD_DIR)/../app_manifest.py")
