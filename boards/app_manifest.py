# The BakuMat app, frozen from firmware/ (the board's root: frozen modules
# keep the same top-level names, `import referee`, `from sense import
# pipeline`). Included by every board's manifest.py after MicroPython's own
# port manifest; $(BOARD_DIR) is the including board's folder.
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
