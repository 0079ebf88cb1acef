"""The mat page in real headless Chromium (Debian's package via Playwright),
as a person uses it: a log's timeline scrubbed back and forth, a live
simulated game refereed by the firmware, a human throw by clicking a zone,
and a raw log's sensor traces. What is drawn is checked against what the
firmware's referee and sensing pipeline decided."""
import io
import json
import os
import re
import threading
import time
import urllib.request

import pytest

from browserkit import Browser
from host_tools import boards, fwpath
from host_tools.webview import server, timeline

SAMPLE = os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


def zone_bakugan(page, zone):
    return page.get_attribute('#mat g.zone[data-zone="%d"]' % zone, "data-bakugan")


def wait_until(fn, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = fn()
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


def test_log_timeline_scrubs_back_and_forth(browser):
    tl = timeline.load(SAMPLE, boards.REFERENCE)
    srv = server.start(server.LogSource(tl))
    page = browser.page()
    try:
        page.goto(srv.url)
        page.wait_for_selector("#status")
        final = tl.steps[-1]["state"]["view"]
        names = [p["name"] for p in tl.header["players"]]
        # a log opens on its first step, the game clock in mm:ss; the slider goes to the end
        assert re.match(r"step 0/\d+ +\d\d:\d\d$", page.inner_text("#pos")), page.inner_text("#pos")
        last = len(tl.steps) - 1
        page.eval_on_selector("#scrub", "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }", str(last))
        wait_until(lambda: page.inner_text("#pos").startswith("step %d/" % last), what="the last step")
        assert page.inner_text("#status") == "%s wins!" % names[final["winner"]]
        assert page.get_attribute("#status", "data-winner") == str(final["winner"])
        # the captured gates per player, as the referee counted them
        for i in range(len(names)):
            assert "%d/3 gates" % len(final["captured"][i]) in page.inner_text('.player[data-player="%d"]' % i)
        # a step where a Bakugan opened on a zone (and stayed): scrub there with the slider
        i, b, z = next((i, m.group(1), int(m.group(2))) for i, s in enumerate(tl.steps)
                       for m in [re.search(r"opens (\S+) on zone (\d+)", " ".join(s["out"]))]
                       if m and "captures" not in " ".join(s["out"]))
        page.eval_on_selector("#scrub", "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }", str(i))
        assert b in zone_bakugan(page, z).split()
        assert page.inner_text("#pos").startswith("step %d/" % i)
        assert page.get_attribute('#events li.now', "data-step") == str(i)
        lit = page.get_attribute('#mat circle[data-led="%d"]' % tl.page_board["leds"]["zones"][z][0], "data-rgb")
        assert lit != "#000000"  # the zone's LEDs are lit while a Bakugan stands there
        # one step back with the keyboard: before the landing the zone had no Bakugan
        page.keyboard.press("ArrowLeft")
        assert page.inner_text("#pos").startswith("step %d/" % (i - 1))
        assert b not in (zone_bakugan(page, z) or "").split()
        # and forward again by clicking the event in the list
        page.click('#events li.in[data-step="%d"]' % i)
        assert b in zone_bakugan(page, z).split()
        # the start: set-up, nothing on the mat
        page.eval_on_selector("#scrub", "e => { e.value = 0; e.dispatchEvent(new Event('input')); }")
        assert page.inner_text("#status").startswith("Set-up")
        assert page.query_selector_all("#mat g.bak") == []
        assert page.errors == [] and page.offline_requests == []
    finally:
        page.close()
        srv.shutdown()
        srv.server_close()


def test_live_demo_in_the_browser(browser, tmp_path):
    from host_tools.demo.demo_game import run_demo
    urls = []
    stop = threading.Event()
    out = io.StringIO()
    th = threading.Thread(target=run_demo, kwargs=dict(seed=5, speed=25, view=True, open_browser=False, out=out,
                                                       on_url=urls.append, stop=stop, linger=True), daemon=True)
    th.start()
    page = browser.page()
    try:
        wait_until(lambda: urls, 20, "the demo's server")
        page.goto(urls[0])
        # the first Bakugan drawn standing on a zone, while the game runs
        page.wait_for_selector("#mat g.bak", timeout=60000)
        g = page.query_selector("#mat g.zone[data-bakugan]:not([data-bakugan=''])")
        zone = int(g.get_attribute("data-zone"))
        bak = g.get_attribute("data-bakugan").split()[0]
        text = out.getvalue()
        assert re.search(r"opens %s on zone %d\b" % (re.escape(bak), zone), text), (bak, zone)
        assert page.inner_text("#live") in ("live", "finished")
        # the end of the game: the page shows the firmware referee's verdict
        page.wait_for_function("document.getElementById('live').textContent === 'finished'", timeout=120000)
        wait_until(lambda: "winner" in out.getvalue(), 10, "the demo's verdict in the terminal")
        with urllib.request.urlopen(urls[0] + "api/state") as r:
            st = json.loads(r.read())
        names = [p["name"] for p in st["header"]["players"]]
        w = st["view"]["winner"]
        status = page.inner_text("#status")
        if w is None:
            assert "no winner" in out.getvalue()
        else:
            assert status == "%s wins!" % names[w]
            assert "winner: %s" % names[w] in out.getvalue()
        # every zone the referee has a gate on is drawn with that gate and those Bakugan
        for z, info in st["view"]["zones"].items():
            sel = '#mat g.zone[data-zone="%s"]' % z
            assert page.get_attribute(sel, "data-gate") == info["gate"]
            assert (page.get_attribute(sel, "data-bakugan") or "").split() == info["bakugan"]
        page.screenshot(path=str(tmp_path / "live.png"))
        assert page.errors == [] and page.offline_requests == []
    finally:
        stop.set()
        page.close()
        th.join(30)


def test_human_throws_by_clicking_a_zone(browser):
    from host_tools.demo.demo_game import run_demo
    urls = []
    stop = threading.Event()
    out = io.StringIO()
    # the Hall mat, as test_webview.py's human demo: a person's throws read right there (the amr2 mat still
    # names many a chosen Bakugan as another, issue 16); the clicks are what this is about
    th = threading.Thread(target=run_demo, kwargs=dict(seed=7, speed=0, players="human", view=True,
                                                       open_browser=False, out=out, on_url=urls.append,
                                                       stop=stop, linger=False, board_name=boards.REFERENCE),
                          daemon=True)
    th.start()
    page = browser.page()
    try:
        wait_until(lambda: urls, 20, "the demo's server")
        page.goto(urls[0])
        page.wait_for_selector("#human", state="visible")
        # the person's opening gate card: a click on a free zone
        page.wait_for_function("document.getElementById('hint').textContent.indexOf('place a gate card') === 0",
                               timeout=60000)
        free = page.evaluate("Array.from(document.querySelectorAll('#mat g.zone')).filter("
                             "g => !g.getAttribute('data-gate')).map(g => +g.getAttribute('data-zone'))")
        gz = [z for z in free if 4 <= z < 12][0]
        page.click('#mat g.zone[data-zone="%d"] rect.zr' % gz, force=True)
        wait_until(lambda: re.search(r"places .* on zone %d\b" % gz, out.getvalue()), 60, "the gate card")
        page.wait_for_function("document.getElementById('hint').textContent.indexOf('your throw with') === 0",
                               timeout=60000)
        bak = re.match(r"your throw with (\S+):", page.inner_text("#hint")).group(1)
        # throw at a zone where a gate card lies and nobody stands
        zone = int(page.get_attribute('#mat g.zone[data-gate][data-bakugan=""]', "data-zone"))
        human = out.getvalue().splitlines()[1].split(":")[0].strip()
        page.click('#mat g.zone[data-zone="%d"] rect.zr' % zone, force=True)
        want = re.compile(r"%s opens %s on zone %d\b" % (re.escape(human), re.escape(bak), zone))
        wait_until(lambda: want.search(out.getvalue()), 60, "the firmware to see the throw on zone %d" % zone)
        page.wait_for_function("Array.from(document.querySelectorAll('#events li')).some("
                               "e => e.textContent.indexOf(' opens %s on zone %d') >= 0)" % (bak, zone), timeout=20000)
        assert page.errors == []
    finally:
        stop.set()
        page.close()
        th.join(30)


@pytest.fixture(scope="module")
def raw_log(tmp_path_factory):
    from host_tools.sim import game, world
    b = boards.load(boards.REFERENCE)
    sc = game.random_game(11, b, max_throws=6, long_idle=0.0)
    res = world.run(b, sc, seed=11)
    p = tmp_path_factory.mktemp("raw") / "game.raw.ndjson"
    with open(p, "w") as f:
        for line in res.raw_lines(sc.header):
            f.write(line + "\n")
    return str(p)


def test_raw_log_sensor_traces(browser, raw_log):
    tl = timeline.load(raw_log)
    srv = server.start(server.LogSource(tl))
    page = browser.page()
    try:
        page.goto(srv.url)
        page.wait_for_selector("#traces polyline.energy")
        z0 = tl.probe.busiest_zone()
        assert page.inner_text("#tz") == "zone %d" % z0
        d = tl.traces(z0)
        assert len(page.query_selector_all("#traces polyline.ch")) == len(d["channels"])
        assert len(page.query_selector_all("#traces line.dec")) == len(d["decisions"])
        # click another zone: its traces replace the first
        other = next(z["id"] for z in tl.page_board["zones"] if z["id"] != z0)
        page.click('#mat g.zone[data-zone="%d"] rect.zr' % other, force=True)
        page.wait_for_function("document.getElementById('tz').textContent === 'zone %d'" % other)
        assert len(page.query_selector_all("#traces line.dec")) == len(tl.traces(other)["decisions"])
        # the cursor follows the timeline (the log opens on its first step: go to the end first)
        page.eval_on_selector("#scrub", "e => { e.value = e.max; e.dispatchEvent(new Event('input')); }")
        x_end = float(page.get_attribute("#traces line.cursor", "x1"))
        page.eval_on_selector("#scrub", "e => { e.value = 1; e.dispatchEvent(new Event('input')); }")
        assert float(page.get_attribute("#traces line.cursor", "x1")) < x_end
        assert page.errors == [] and page.offline_requests == []
    finally:
        page.close()
        srv.shutdown()
        srv.server_close()


class BoardApi(server.Source):
    """Answers exactly what the board's own web server answers
    (firmware/link/webapp.py), to show that the page draws the board's
    states too: no /api/info, no LED layout, events without text."""

    def __init__(self, app):
        self.app = app

    def info(self):
        raise server.ApiError(404, "no such API")

    def state(self, since=None):
        return json.loads(self.app.state("" if since is None else "since=%d" % since))


def test_page_draws_the_boards_own_api(browser):
    fwpath.ensure()
    from link.webapp import WebApp
    from referee.journal import Journal
    from table.controller import Table
    from store import eventlog
    with open(SAMPLE) as f:
        items = list(eventlog.iter_log(f.readlines()))
    header = items[0][1]
    box = []
    table = Table(Journal(header, lambda out: box[0].on_event(out)))
    bd = boards.load(boards.REFERENCE)
    app = WebApp(bd, table, lambda: 0, leds=lambda: [[0, 0, 32]] * 68)
    box.append(app)
    for _, ev in items[1:12]:
        table.feed(ev)
    srv = server.start(BoardApi(app))
    page = browser.page()
    try:
        page.goto(srv.url)
        view = json.loads(app.state(""))["view"]
        page.wait_for_selector("#status")
        zones = {int(z): info for z, info in view["zones"].items()}
        assert zones
        for z, info in zones.items():
            sel = '#mat g.zone[data-zone="%d"]' % z
            page.wait_for_selector(sel + '[data-gate="%s"]' % info["gate"])
            assert (page.get_attribute(sel, "data-bakugan") or "").split() == info["bakugan"]
        listed = [e.inner_text() for e in page.query_selector_all("#events li")]
        assert len(listed) == app.seq  # every output event listed, worded by the page itself
        assert "Dan places gate dan-gold on zone 6" in listed[0]
        # the mat unsure who landed last: the laptop page says whom it asks
        land = [ev for _, ev in items[1:12] if ev["ev"] == "land"][-1]
        table.sensed({"ev": "unsure", "t": land["t"], "zone": land["zone"], "bakugan": land["bakugan"], "alt": "x"})
        who = header["players"][table.question[3]]["name"]
        want = "The mat asks %s who landed on zone %d: %s or x?" % (who, land["zone"], land["bakugan"])
        page.wait_for_function("document.getElementById('ask').textContent === %s" % json.dumps(want))
        table.question = None
        page.wait_for_function("document.getElementById('ask').textContent === ''")
        # more of the game: the page polls and follows
        for _, ev in items[12:]:
            table.feed(ev)
        view = json.loads(app.state(""))["view"]
        for i, caps in enumerate(view["captured"]):
            want = " %d/%d gates" % (len(caps), header.get("target", 3))
            page.wait_for_function("document.querySelector('.player[data-player=\"%d\"] .caps').textContent"
                                   ".indexOf(%s) === 0" % (i, json.dumps(want)), timeout=10000)
        if view["winner"] is not None:
            assert page.inner_text("#status") == "%s wins!" % header["players"][view["winner"]]["name"]
        # the one 404 is /api/info, which the board does not have (the page then polls)
        assert [e for e in page.errors if "404" not in e] == [] and page.offline_requests == []
    finally:
        page.close()
        srv.shutdown()
        srv.server_close()


def test_view_live_shows_what_the_phone_page_shows(browser):
    """`bakumat view --live` on a board: the players' names, decks and G
    values, from the board's own header (its `header` request), as its phone
    page shows them."""
    from host_tools.device.link import open_link
    from host_tools.vboard import VBoard
    from host_tools.webview import livelink, server
    with open(os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")) as f:
        header = json.loads(f.readline())
    with VBoard(boards.load(boards.REFERENCE), lockstep=False) as vb:
        with open_link(vb.url) as link:
            assert link.request("cfg", header, timeout=10)[1]["ok"]
            assert link.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6},
                                timeout=10)[1]["ok"]
        src, watcher = livelink.source(port=vb.url)
        srv = server.start(src, port=0)
        page = browser.page()
        try:
            with urllib.request.urlopen(srv.url + "api/state") as r:
                st = json.loads(r.read())
            assert [p["name"] for p in st["header"]["players"]] == ["Dan", "Runo"]
            page.goto(srv.url)
            page.wait_for_selector('#mat g.zone[data-gate="dan-gold"]', timeout=30000)
            text = page.inner_text("body")
            for word in ("Dan", "Runo", "drago", "tigrerra", "450"):
                assert word in text, (word, text[:2000])
            assert page.errors == [] and page.offline_requests == []
        finally:
            page.close()
            srv.shutdown()
            srv.server_close()
            watcher.close()
