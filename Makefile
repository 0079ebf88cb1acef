# Every target does its own set-up: a virtual environment in .venv with the
# project installed (editable, so host_tools finds firmware/ beside it), and
# tools/mp32's node packages (package-lock.json) for the 32-bit heap figures.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.demo

.PHONY: demo test setup bench clean browser

# The browser tests drive Debian's chromium (never a downloaded browser).
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

$(STAMP): pyproject.toml boards/*/board.json tools/mp32/package-lock.json
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python typecheck/run.py --install
	# the 32-bit MicroPython (WebAssembly port, from npm) for the heap benchmark
	cd tools/mp32 && npm ci --silent
	touch $(STAMP) $(DEMO_STAMP)

# the demo needs the project and its runtime dependencies only (no test
# tools, no type stubs, no node packages)
$(DEMO_STAMP): pyproject.toml boards/*/board.json
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(DEMO_STAMP)

setup: $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/bakumat demo

browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }

# The suite runs on TEST_WORKERS pytest-xdist workers, a test file to a
# worker (a file's tests share their virtual boards and caches). Four on two
# cores: most tests wait on a subprocess (micropython, mpremote, chromium).
TEST_WORKERS ?= 4

test: $(STAMP) browser
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: $(STAMP)
	$(BIN)/bakumat bench all

clean:
	rm -rf $(VENV) build *.egg-info tools/mp32/node_modules
