"""Memory of the phone page on the board: the same simulated official game
on the virtual board (micropython binary, lockstep) with and without the
phone server, while a phone polls it as the page does (GET /api/state,
first whole then ?since=N, the page's files once, a claim and an input).
Figures: the smallest heap in which the whole game runs and every poll is
answered, (a) with the code loaded first and only a budget of heap left
(as frozen modules on an ESP32), (b) literally `-X heapsize`.

    bakumat bench phone [quick] [seed=N]
"""
import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from host_tools import boards, sim
from host_tools.device import mpybuild
from host_tools.bench.bench_runtime import BOARD, bisect_kb, sample_header

PAGE_FILES = ("", "phone.js", "mat.js", "mat.css")


class Phone:
    """A phone polling the board's page in a thread, as phone.js does."""

    def __init__(self, url, players):
        self.url = url
        self.players = players
        self.ok = 0
        self.failed = 0
        self.bytes = 0
        self.max_state = 0
        self.stop = False
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=10) as r:
            data = r.read()
        self.bytes += len(data)
        return data

    def _post(self, path, obj):
        req = urllib.request.Request(self.url + path, data=json.dumps(obj).encode(), method="POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def _run(self):
        seq = None
        code = None
        files = list(PAGE_FILES)
        while not self.stop:
            try:
                if files:
                    self._get(files.pop(0))
                elif code is None:
                    try:
                        code = self._post("api/claim", {"player": 1})["code"]
                        self._post("api/input", {"code": code, "ev": "undo"})   # refused or not: it is answered
                    except urllib.error.HTTPError as e:
                        if e.code != 409:
                            raise
                        code = ""   # play had started (a late claim needs the side's button): it watches
                else:
                    data = self._get("api/state" + ("" if seq is None else "?since=%d" % seq))
                    self.max_state = max(self.max_state, len(data))
                    seq = json.loads(data)["seq"]
                self.ok += 1
            except (urllib.error.URLError, ConnectionError, OSError, ValueError, KeyError):
                self.failed += 1
                time.sleep(0.05)
            time.sleep(0.02)

    def join(self):
        self.stop = True
        self.th.join(15)


def play(board, res, header, mpy, web, heapsize=None, budget=None):
    """(ok, why, phone) for one game."""
    from host_tools.bench.bench_runtime import _last_error
    from host_tools.errors import UserError
    from host_tools.vboard import VBoard
    vb = VBoard(board, lockstep=True, heapsize=heapsize, mpy_dir=mpy, heap_budget=budget, web=0 if web else None)
    vb.max_resets = 1
    phone = None
    try:
        try:
            vb.start(timeout=20)
        except UserError:
            return False, "did not boot: " + _last_error(vb.console_text()), None
        link = vb.link()
        try:
            if web:
                # the phone starts polling as soon as the game is configured
                phone_box = []

                def watch():
                    deadline = time.monotonic() + 30
                    while time.monotonic() < deadline and not phone_box:
                        try:
                            urllib.request.urlopen(vb.web_url + "api/state", timeout=2).read()
                            phone_box.append(Phone(vb.web_url, len(header["players"])))
                        except (urllib.error.URLError, ConnectionError, OSError):
                            time.sleep(0.05)
                w = threading.Thread(target=watch, daemon=True)
                w.start()
            vb.play(res.frames, res.controls, link, header=header, ack_ms=3000)
            if web:
                w.join(30)
                phone = phone_box[0] if phone_box else None
            _, end = vb.request(link, "end")
        except UserError as e:
            return False, "%s: %s" % (e, _last_error(vb.console_text())), phone
        finally:
            if phone is not None:
                phone.join()
        kinds = [b.get("ev") for _, typ, b in link.take("game")]
        logs = [b.get("msg") for _, typ, b in link.take("log")]
        if vb.resets:
            return False, "the board restarted: %s" % _last_error(vb.console_text()), phone
        if "MemoryError" in vb.console_text() or logs:
            return False, "; ".join(logs[:2]) or _last_error(vb.console_text()), phone
        if end.get("ok") is not True or "end" not in kinds:
            return False, "the game did not reach its end", phone
        if web and (phone is None or phone.ok < 20):
            return False, "the phone was not served (%s answers)" % (phone.ok if phone else 0), phone
        return True, "", phone
    finally:
        vb.stop()


def main(argv=None):
    p = argparse.ArgumentParser(prog="bakumat bench phone", description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true", help="one game each way at the given budgets only")
    args = p.parse_args([a if a.startswith("-") or a.isdigit() else "--" + a for a in (argv or [])])
    out = sys.stdout
    from host_tools.bench.bench_sensing import with_detector
    board = with_detector(boards.load(BOARD))     # the board's detector on its kernel table, as deploy installs it
    sc = sim.random_game(args.seed, board, sample_header())
    res = sim.run(board, sc, seed=args.seed, header=sc.header)
    header = dict(sc.header)
    out.write("phone page memory benchmark: board %s, simulated official game seed %d (%d frames)\n"
              % (BOARD, args.seed, len(res.frames)))
    with tempfile.TemporaryDirectory(prefix="bakumat-mpy-") as mpy:
        mpybuild.build(mpy)
        ok, why, ph = play(board, res, header, mpy, True)
        if not ok:
            out.write("  the game with the phone page did not run: %s\n" % why)
            return 1
        out.write("  default heap, phone polling: %d answers, %d failed, %.1f KB received, largest state %d bytes\n"
                  % (ph.ok, ph.failed, ph.bytes / 1024.0, ph.max_state))
        if args.quick:
            return 0
        for label, kw, lo, hi in (("heap left after the code (as frozen modules on an ESP32)", "budget", 40, 160),
                                  ("literal -X heapsize, code in the heap (unix x86-64)", "heapsize", 120, 400)):
            got = {}
            for web in (False, True):
                def run(k, web=web):
                    r = play(board, res, header, mpy, web, **{kw: "%dK" % k})
                    return r[0]
                if not run(hi):
                    out.write("  %s: fails at %d KB %s the phone page\n" % (label, hi, "with" if web else "without"))
                    continue
                got[web] = bisect_kb(run, lo, hi)
            out.write("  %s:\n" % label)
            for web in (False, True):
                if web in got:
                    out.write("    %-28s %d KB (fails at %d KB)\n"
                              % ("game + phone page serving:" if web else "game alone:", got[web][0], got[web][1]))
            if len(got) == 2:
                out.write("    the phone page adds %d KB (+- 4)\n" % (got[True][0] - got[False][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
