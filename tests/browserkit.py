"""Real headless Chromium for the page tests: Debian's `chromium` package
driven by Playwright for Python, never a downloaded browser.

A missing browser or Playwright is a failure with the fix in the message,
never a skip: `make test` installs chromium (apt) and the dev extras.
"""
import os
import shutil
import tempfile

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path():
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        pytest.fail("Debian's chromium is missing (%s): the test set-up installs it with "
                    "`apt-get install -y chromium` (make test does)" % CHROMIUM, pytrace=False)
    return path


class Browser:
    """One Chromium with a fresh profile; pages record console errors."""

    def __init__(self):
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            pytest.fail("Playwright for Python is missing: pip install playwright "
                        "(a dev dependency; never run `playwright install`)", pytrace=False)
        self.profile = tempfile.mkdtemp(prefix="bakumat-chromium-")
        self._pw = sync_playwright().start()
        self.ctx = self._pw.chromium.launch_persistent_context(
            self.profile, executable_path=chromium_path(), headless=True, args=ARGS,
            viewport={"width": 1100, "height": 820})
        self.ctx.set_default_timeout(20000)

    def page(self):
        pg = self.ctx.new_page()
        pg.errors = []
        pg.on("pageerror", lambda e: pg.errors.append(str(e)))
        pg.on("console", lambda m: pg.errors.append(m.text) if m.type == "error" else None)
        pg.offline_requests = []
        pg.on("request", lambda r: pg.offline_requests.append(r.url)
              if not r.url.startswith(("http://127.0.0.1", "data:")) else None)
        return pg

    def close(self):
        try:
            self.ctx.close()
        finally:
            self._pw.stop()
            shutil.rmtree(self.profile, ignore_errors=True)
