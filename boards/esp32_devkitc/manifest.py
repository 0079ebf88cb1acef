# Frozen-bytecode manifest for a custom MicroPython build of this board
# (boards/README.md: `make BOARD_DIR=<this folder>` in ports/esp32).
# MicroPython's own port manifest first (asyncio, neopixel, ...), then the
# BakuMat app from firmware/, which is the board's root: frozen modules keep
# the same top-level names (`import referee`, `from sense import pipeline`).
# tests/host/test_manifest.py compiles every module named here with mpy-cross
# and checks that every firmware module is named.
include("$(PORT_DIR)/boards/manifest.py")

FW = "$(BOARD_DIR)/../../firmware"

package("hw", base_path=FW)
package("link", base_path=FW)
package("referee", base_path=FW)
package("runtime", base_path=FW)
package("sense", base_path=FW)
package("show", base_path=FW)
package("store", base_path=FW)
package("table", base_path=FW)
module("match.py", base_path=FW)
module("app.py", base_path=FW)
module("maint.py", base_path=FW)
module("version.py", base_path=FW)
# main.py is frozen too: MicroPython runs a frozen main.py when the
# filesystem has none, so a freshly flashed custom build starts the app.
module("main.py", base_path=FW)
