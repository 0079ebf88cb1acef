"""The real firmware on the virtual board (the `micropython` binary), driven
only through simulated sensor frames and the serial link, as a host would
drive a real board; plus its fault behaviour (power cut, garbage on the
link, hung sensor bus, dead channel) and real mpremote against it."""
import json
import os
import subprocess

import pytest

from host_tools.logs import boardstate
from host_tools import boards, fwpath, sim
from host_tools.vboard import VBoard, with_kernels
from mptools import tool

fwpath.ensure()
from referee.events import encode_json  # noqa: E402
from show import palette  # noqa: E402
from show.feedback import led_layout  # noqa: E402
from match import Match  # noqa: E402
from referee.journal import Journal  # noqa: E402

BOARD = boards.REFERENCE


def sample_header():
    with open(os.path.join(fwpath.REPO_DIR, "host_tools", "samples", "official.ndjson")) as f:
        return json.loads(f.readline())


@pytest.fixture(scope="module")
def board():
    return with_kernels(boards.load(BOARD))   # the detector on its kernel table, as deploy installs it


def host_model(board, header, res):
    """The same firmware modules under CPython, fed the same frames and
    controls: the events the board must send."""
    host = []
    hg = Journal(header, lambda o: host.append(json.loads(encode_json(o))))
    m = Match(board, hg)
    ci = 0
    ctl = res.controls
    for t, fr in res.frames:
        while ci < len(ctl) and ctl[ci]["t"] <= t:
            m.control(dict(ctl[ci]))
            ci += 1
        m.frame(fr, t)
    return host


@pytest.fixture(scope="module")
def game(board):
    """A simulated official game that the sensing identifies well enough to
    reach a winner with no input refused on the way (the first such seed: identification quality is the
    pipeline's business, tested there; here the board must match the host)."""
    for seed in range(1, 12):
        sc = sim.random_game(seed, board, sample_header())
        res = sim.run(board, sc, seed=seed, header=sc.header)
        host = host_model(board, dict(sc.header), res)
        kinds = [e["ev"] for e in host]
        if "win" in kinds and "reject" not in kinds[:kinds.index("win")]:
            return sc, res, host
    pytest.fail("no simulated game with a winner in seeds 1..11")


@pytest.fixture
def vb(board):
    v = VBoard(board, lockstep=True)
    v.start()
    yield v
    v.stop()


def colour(c, level, cap):
    sc = level * cap // 255
    return (((c >> 16) & 255) * sc // 255, ((c >> 8) & 255) * sc // 255, (c & 255) * sc // 255)


def zone_rgb(buf, leds):
    # strip buffer is GRB
    return set((buf[3 * i + 1], buf[3 * i], buf[3 * i + 2]) for i in leds)


def test_official_game_plays_to_the_end(vb, board, game):
    sc, res, host = game
    header = dict(sc.header)
    link = vb.link()
    replies = vb.play(res.frames, res.controls, link, header=header)
    assert replies[0][1] == {"ok": True}                       # cfg
    _, st = vb.request(link, "state")
    offset = st["now"] - st["t"]                               # board clock - game time
    events = [b for _, typ, b in link.take("game")]
    kinds = [e["ev"] for e in events]
    assert "win" in kinds
    assert st["view"]["phase"] == "over"
    win_at = kinds.index("win")
    assert "reject" not in kinds[:win_at], [e for e in events if e["ev"] == "reject"]

    # landings were seen where the simulator opened the Bakugan, for the
    # right player (telling apart one player's own pieces is the sensing
    # pipeline's job: here the board must agree with the host model below)
    owner = {b["id"]: i for i, p in enumerate(header["players"]) for b in p["bakugan"]}
    stands = []
    for e in events[:win_at]:
        if e["ev"] == "stand":
            stands.append((e["zone"], e["player"]))
        elif e["ev"] == "undo" and e["undone"] == "land" and stands:
            stands.pop()    # a first guess the sensing amended (`ident`)
    truth = [(x["zone"], owner[x["bakugan"]]) for x in res.truth if x["ev"] == "open" and not x.get("lesson")]
    assert len(stands) >= 5
    it = iter(truth)
    assert all(s in it for s in stands), (stands, truth)     # an in-order subsequence

    # the firmware under MicroPython decides exactly what the same modules
    # decide on the host (CPython) from the same frames and controls
    def strip_t(evs):
        # (times: the board's clock is not the frames' one; `at` is the time
        # of an undone event)
        return [dict((k, v) for k, v in e.items() if k not in ("t", "at")) for e in evs]
    assert strip_t(events) == strip_t(host)

    # what the board stored is a valid event log that replays, on the host,
    # to exactly the events the board sent (rejected inputs are not stored)
    lines = [json.loads(x) for x in boardstate.event_log(vb.workdir)]
    out = []
    g = Journal(lines[0], lambda o: out.append(json.loads(encode_json(o))))
    for ev in lines[1:]:
        assert g.feed(ev), ev
    assert out == [e for e in events if e["ev"] != "reject"]

    # LEDs and buzzer: every landing lit its zone in the player's colour and
    # sounded, within one loop period of the decision
    period = 1000 // board["rate_hz"]
    cap = board["wiring"]["led"]["max_brightness"]
    zl, _ = led_layout(board)
    zone_index = {z["id"]: i for i, z in enumerate(board["zones"])}
    n_clash = 0
    for i, e in enumerate(events[:win_at]):
        if e["ev"] != "stand" or (i and events[i - 1]["ev"] == "undo"):
            continue   # (an amended landing: the same player's zone is lit already)
        T = e["t"] + offset
        writes = [(t, buf) for t, buf in vb.leds if T <= t <= T + period]
        assert writes, ("no LED write within %d ms of the landing at %d" % (period, T), events[i - 3:i + 3],
                        [(t, zone_rgb(b, zl[zone_index[e["zone"]]])) for t, b in vb.leds if T - 3000 < t < T + 3000])
        seen = zone_rgb(writes[0][1], zl[zone_index[e["zone"]]])
        own = colour(palette.PLAYER[e["player"]], palette.STAND_LEVEL, cap)
        clash = i + 1 < len(events) and events[i + 1]["ev"] == "clash"
        if clash:
            n_clash += 1
            other = colour(palette.PLAYER[1 - e["player"]], palette.STAND_LEVEL, cap)
            assert seen in ({own}, {other}), seen
        else:
            assert seen == {own}, (e, seen)
        assert [x for x in vb.tones if T <= x[0] <= T + period and x[2] > 0], "no sound for %s" % e
    assert n_clash >= 1
    # the winner: fanfare, then the whole mat in the winner's colour
    w = events[win_at]
    Tw = w["t"] + offset
    notes = []
    for t, f, d in vb.tones:
        if t >= Tw and d > 0 and (not notes or notes[-1] != f):
            notes.append(f)
    i = notes.index(523)
    assert notes[i:i + 4] == [523, 659, 784, 1046], notes     # the win cue, whole
    late = [buf for t, buf in vb.leds if t > Tw + 500]
    assert late
    win_col = palette.PLAYER[w["player"]]
    for buf in late[-3:]:
        for zi in range(len(zl)):
            for (r, gg, b) in zone_rgb(buf, zl[zi]):
                assert (r > 0) == (((win_col >> 16) & 255) > 0) and (b > 0) == ((win_col & 255) > 0)
    # the cap and the budget held all game long
    budget = board["wiring"]["led"]["budget_ma"]
    for t, buf in vb.leds:
        assert max(buf) <= cap
        assert len(buf) // 3 + sum(buf) * 20 // 255 <= budget
    _, h = vb.request(link, "health")
    assert h["overruns"] == 0 and h["tx_drops"] == 0 and h["save_errors"] == 0
    assert vb.resets == []


def test_power_cut_mid_game_resumes_where_it_was(vb, board, game):
    sc, res, _ = game
    link = vb.link()
    cut = len(res.frames) // 2
    frames = res.frames[:cut]
    ctl = [c for c in res.controls if c["t"] <= frames[-1][0]]
    vb.play(frames, ctl, link, header=dict(sc.header))
    _, before = vb.request(link, "state")
    assert before["events"] >= 3
    last_t = max(b["t"] for _, typ, b in link.take("game"))
    vb.power_cycle()
    link = vb.link()
    hello = []
    for _ in range(100):            # until the boot's hello has come through the bridge (a busy host is slow)
        vb.run_for(20, link)
        hello += [b for _, typ, b in link.take("hello")]
        if hello:
            break
    assert hello, "no hello within 2 s of board time after the power cut"
    assert hello[-1]["cause"] == "power"
    assert hello[-1]["resumed"] == before["events"]
    _, after = vb.request(link, "state")
    assert after["view"] == before["view"]
    assert after["t"] >= last_t          # game time never goes back (it resumes from the last event)


def test_garbage_on_the_link(vb):
    link = vb.link()

    def send_then_wait(data, ms):
        # board time counts from when the last byte reached the board (the
        # bridge forwards while the board ticks; on a loaded machine it lags)
        target = vb._forwarded + len(data)
        link.write_raw(data)
        while vb._forwarded < target:
            vb.run_for(100, link)
        vb.run_for(ms, link)

    junk = bytes((i * 73 + 5) & 0xFF for i in range(20000)).replace(b"\x03", b"")
    send_then_wait(junk, 1500)      # error replies are limited to 4 a second: let the window pass
    send_then_wait(b"\x1eB1 9 ctl {\"ev\":\"resolve\"} 0000\n", 1100)
    send_then_wait(b"\x1eB1 7 cfg {" + b"x" * 5000 + b"\n", 1100)
    assert vb.request(link, "ping")[0] == "pong"
    _, h = vb.request(link, "health")
    assert h["rx_garbage"] > 5000
    assert h["rx_errors"] >= 2
    assert vb.resets == []
    codes = [b["code"] for _, typ, b in link.take("err")]
    assert "checksum" in codes and "oversized" in codes


def test_hung_sensor_bus_is_reset_by_the_watchdog(vb):
    link = vb.link()
    vb.run_for(200, link)
    vb.faults.hang = True                       # the next scan never returns
    vb.allow(10000)
    import time
    deadline = time.monotonic() + 20
    while not vb.resets and time.monotonic() < deadline:
        time.sleep(0.05)
    vb.faults.hang = False
    assert [c for _, c in vb.resets] == ["wdt"]
    vb.wait_booted()
    link = vb.link()
    _, h = vb.request(link, "health")
    assert h["cause"] == "wdt"


def test_dead_channel_is_reported_and_shown(vb, board):
    link = vb.link()
    vb.request(link, "cfg", sample_header())
    vb.faults.dead[31] = 0
    vb.run_for(4000, link)
    faults = [b for _, typ, b in link.take("fault")]
    assert [(f["ch"], f["zone"], f["kind"]) for f in faults] == [(31, 5, "dead")]
    zl, _ = led_layout(board)
    cap = board["wiring"]["led"]["max_brightness"]
    magenta = colour(palette.FAULT, 255, cap)
    assert any(zone_rgb(buf, zl[5]) == {magenta} for t, buf in vb.leds[-30:])
    assert any(zone_rgb(buf, zl[5]) == {(0, 0, 0)} for t, buf in vb.leds[-30:])
    assert 2000 in [f for t, f, d in vb.tones if d > 0]
    _, h = vb.request(link, "health")
    assert h["faults"] == [31]


def run_mpremote(vb, *args):
    return subprocess.run([tool("mpremote"), "connect", vb.url, "resume"] + list(args),
                          capture_output=True, text=True, timeout=60)


def test_line_noise_never_stops_the_app_and_maintenance_mode(board):
    with VBoard(board, lockstep=False) as vb:
        link = vb.link()
        assert link.request("version", timeout=10)[0] == "version"     # the app runs
        # Ctrl-C and Ctrl-D on the line are noise to the app (its keyboard
        # interrupt is off): it goes on answering, the watchdog is not parked
        vb.serial_write(b"\x03")
        vb.serial_write(b"\x03\x04\x03\x01")
        assert link.request("ping", timeout=10)[0] == "pong"
        assert not vb._wdt_parked and vb.resets == []
        assert "KeyboardInterrupt" not in vb.console_text()
        # back to the app, then ask it for maintenance mode over the link
        vb.restart("hard")
        vb.wait_booted()
        link = vb.link()
        assert link.request("version", timeout=10)[0] == "version"
        assert link.request("maint", {"on": True})[1]["ok"]
        import time
        deadline = time.monotonic() + 10
        # (the ack itself says "rebooting into maintenance mode": wait for
        # the restart and the banner of the board that came back)
        while (len(vb.resets) < 2 or "BakuMat: maintenance mode" not in vb.console_text()) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert [c for _, c in vb.resets] == ["hard", "hard"]
        # in maintenance mode mpremote has the REPL (Ctrl-C works there)
        r = run_mpremote(vb, "exec", "print('sum', 6 * 7)")
        assert r.returncode == 0 and "sum 42" in r.stdout, r.stderr
        assert os.path.exists(os.path.join(vb.workdir, "maint"))
        r = run_mpremote(vb, "exec", "import maint; maint.leave(); print('left')")
        assert r.returncode == 0 and "left" in r.stdout, r.stderr
        assert not os.path.exists(os.path.join(vb.workdir, "maint"))


def test_a_dead_interpreter_is_restarted_as_a_watchdog_would(board):
    import signal
    import time
    with VBoard(board, lockstep=False) as vb:
        link = vb.link()
        link.request("cfg", sample_header(), timeout=10)
        link.request("ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6}, timeout=10)
        os.kill(vb.proc.pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while [c for _, c in vb.resets] != ["wdt"]:
            assert time.monotonic() < deadline, vb.resets
            time.sleep(0.05)
        vb.wait_booted()
        link = vb.link()
        _, st = link.request("state", timeout=10)
        assert st["events"] == 1      # the game resumed from the store


def test_littlefs_image_as_the_boards_filesystem(board, tmp_path):
    img = tmp_path / "flash.img"
    img.write_bytes(b"\xff" * (32 * 4096))
    with VBoard(board, lockstep=True, lfs=str(img)) as vb:
        link = vb.link()
        assert vb.request(link, "cfg", sample_header())[1]["ok"]
        assert vb.request(link, "ctl", {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 6})[1]["ok"]
        assert not os.path.exists(os.path.join(vb.workdir, "game.ndj"))    # not in the directory
        vb.power_cycle()
        link = vb.link()
        _, st = vb.request(link, "state")
        assert st["events"] == 1 and list(st["view"]["zones"]) == ["6"]
    # the image holds a littlefs filesystem with the game in it (board-state
    # v2: game.ndj the header alone, the event in ev1.0/0)
    r = subprocess.run([tool("micropython"), "-c",
                        "import vfs, sys\nsys.path.insert(0, %r)\nfrom hw.vboard import FileBlockDev\n"
                        "from store.state import State\n"
                        "vfs.mount(vfs.VfsLfs2(FileBlockDev(%r)), '/f')\nst = State('/f')\n"
                        "print(open('/f/game.ndj').read().count(chr(10)), [e['ev'] for e in st.game_load()[1]], st.game)"
                        % (fwpath.FIRMWARE_DIR, str(img))], capture_output=True, text=True, timeout=30)
    assert r.stdout.strip() == "1 ['gate'] 1", r.stdout + r.stderr


def test_stop_leaves_no_thread_on_the_closed_pty(board, tmp_path):
    # The pty's fd numbers are reused by the next pipe this process opens: a
    # reader still running after stop() would swallow a subprocess's output.
    v = VBoard(board, lockstep=False, workdir=str(tmp_path))
    v.start()
    v.stop()
    assert not v._reader.is_alive()
    r, w = os.pipe()
    try:
        os.write(w, b"mine")
        assert os.read(r, 16) == b"mine"
    finally:
        os.close(r)
        os.close(w)
    with pytest.raises(OSError):
        v.serial_write(b"\x03")
