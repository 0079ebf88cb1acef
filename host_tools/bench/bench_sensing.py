"""Sensing benchmark: the firmware pipeline on simulated games and idle mats.

    bakumat bench sensing [--games 200] [--corpus development|held-out|both] [--idle-hours 10] [--jobs 2]
    python -m host_tools.bench.bench_sensing ...   (the same)

Two fixed-seed corpora, reported separately: development (seeds from
DEV_SEED: what the pipeline has been tuned on) and held-out (seeds from
HELD_OUT_SEED: never looked at while tuning; run it at the end of a round
and report it beside the development figures).

Prints (figures, not pass/fail):
- landing precision and recall over a fixed-seed corpus of simulated official
  games (host_tools.sim.random_game: registration, throws with rolling
  balls, misses rolling across and off, bounces, battles, removals, long
  pauses; sensor noise, spikes and drift);
- identification accuracy of game landings with the referee's context (the
  candidates g.expects() allows) and without it (any registered Bakugan
  not standing on the mat);
- false landings per hour of idle mat (sim.idle_frames, drift and spikes);
- detection latency: decision time minus the true opening time, median and
  p95, over every matched game landing (registration lessons apart: the
  pipeline waits for a still level on purpose there);
- under the real `micropython` binary: heap allocated per frame in steady
  state (gc disabled, gc.mem_alloc() before and after many frames) and the
  time per frame.

- identity the players can trust: sure-and-wrong (a game landing the
  mat named without asking, `unsure`, whose final name is wrong), identity
  after the mat's questions (the thrower answering them), questions per
  game, and a reliability table: of the landings the mat named with
  posterior p (its decision, or its naming again from the refined level:
  Pipeline.on_named), the share named right, in bins of p.

Identification counts the final identity: a `land` as amended by a later
`ident` on its zone (the first guess is reported too). It is also reported
over the games where no lesson said that a player's own two Bakugan read
alike (`alike`): the referee's context cannot separate such a pair, and
`bakumat register` warns the players about it (swap one for a Bakugan with
another magnet).

The same trust figures are reported for players who take that advice
(`advised`): a lesson that says two of a player's Bakugan read alike makes
the player swap the one just taught for one from the box, and the seed's
game is played again from the registration (at most SWAPS times).

The thrower answers the mat's question (`unsure`) when the Bakugan of
theirs still standing on the zone, the last they opened there, is the
other one named (the question's `alt`); a wrong name asked about with
another runner-up stays wrong.

`--worlds family,mu300-t0.2,...`: each world in turn, one table at the end.
`family` plays every game in its own draw of the family of worlds
(host_tools/sim/family.py: plate, edge term, noise, channel gains, offsets
and drift, every Bakugan's magnet, height, tilt and lesson spot), the mat
sensing with the kernel table of the named world its simulated `diag plate`
picks; the named worlds are rows beside it. Beside the table: the errors
(misses, false landings, wrong names) by physical situation
(host_tools/sim/situations.py), per world and corpus.

Matching: a sensed `land` matches the earliest unmatched true opening on the
same zone with -500 ms <= t_sensed - t_open <= 1000 ms (a decision may come
while the Bakugan is still settling).
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

from host_tools import boards, fwpath
from host_tools.errors import UserError

TARGETS = {"precision": 0.995, "recall": 0.995, "id_context": 0.99, "false_per_10h": 1.0, "latency_p95_ms": 60,
           "id_after_questions": 0.995, "questions_per_game": 1.0, "sure_wrong": 0.005}
# The two corpora's first seeds (ranges far apart: a held-out game is never
# one of the development games, whatever --games says).
DEV_SEED = 1
HELD_OUT_SEED = 100001
CORPORA = (("development", DEV_SEED), ("held-out", HELD_OUT_SEED))
# reliability table: bins of the posterior of the name the mat gave
REL_BINS = (0.0, 0.5, 0.8, 0.95, 0.99, 0.999)
IDLE_SEED = 1   # the idle mat (sim.idle_frames), the same for both corpora
EARLY_MS = 500
LATE_MS = 1000


def simulate(board, seed, **options):
    """(header, SimResult) of the seed's random game on board. A board
    marked "family" (--worlds family) plays it in the seed's draw of the
    family of worlds (host_tools/sim/family.py): its plate, sensor channels,
    noise and every Bakugan's magnet and lesson spot; res.family is that draw."""
    from host_tools import sim
    fam = None
    if board.get("family"):
        fam = family_game(board, seed)
        options.setdefault("lesson_at", fam.lesson_at)
    sc = sim.random_game(seed, board, **options)
    if fam is not None:
        fam.apply(sc, board)
        board = dict(board, world=fam.world)
    res = sim.run(board, sc, seed=seed, header=sc.header)
    res.family = fam
    return sc.header, res


_FAMILY_GAMES: dict = {}


def family_game(board, seed):
    """The family's draw of game seed on board (family.Game; its world's
    kernels are built once per process and game)."""
    from host_tools.sim import family
    key = (board["name"], int(seed))
    if key not in _FAMILY_GAMES:
        if len(_FAMILY_GAMES) > 4:
            _FAMILY_GAMES.clear()
        _FAMILY_GAMES[key] = family.Game(board, seed)
    return _FAMILY_GAMES[key]


TRUTH_LAG_MS = 600


ANSWER_MS = 1500   # a player answering the mat's question (BACK) this long after it


def run_pipeline(board, header, res, use_context=True, params=None, truth_context=False, answer=False, named=None,
                 clock=None):
    """Feed a simulated game through Match (pipeline + referee); return the
    sensed events. truth_context: identification asks a second referee fed
    with the true landings (up to TRUTH_LAG_MS ago) instead of the match's
    own referee, which is fed with the sensed ones: the context without the
    pipeline's own earlier mistakes. answer: the thrower answers every
    `unsure` the pipeline sends (the table's question): BACK, through
    Match.which, when the Bakugan named is not the one that landed and the
    runner-up is; each accepted answer goes into the returned list as an
    `ident` with "by": "player". named: a list that receives (position in
    the returned list, zone, bakugan, posterior) each time the mat names a
    landing (Pipeline.on_named; position: the event it follows). clock: a
    chipclock.Clock: the game on the chip's clock (the frames a long tick
    covers are not fed; each event gets "seen", the end of its tick)."""
    fwpath.ensure()
    import referee
    from match import Match
    from referee.journal import Journal
    game = Journal(header, None)   # undo: an `ident` may amend the last landing
    sensed = []
    context = None
    if truth_context:
        oracle = referee.new_game(header, None)
        evs = [c for c in res.controls if c["ev"] != "register"]
        evs += [{"t": o["t"], "ev": "land", "zone": o["zone"], "bakugan": o["bakugan"]}
                for o in res.truth if o["ev"] == "open" and not o.get("lesson")]
        evs.sort(key=lambda e: (e["t"], e["ev"] != "land"))
        box = [0, 0]   # next event, current time

        def context():
            while box[0] < len(evs) and evs[box[0]]["t"] <= box[1] - TRUTH_LAG_MS:
                oracle.feed(evs[box[0]])
                box[0] += 1
            return oracle.expects()[1]
    opens = [o for o in res.truth if o["ev"] == "open"]
    leaves = [o for o in res.truth if o["ev"] == "leave"]
    answers = []   # (time, zone, bakugan) the players will say

    owner = {}
    for i, pl in enumerate(header["players"]):
        for bk in pl["bakugan"]:
            owner[bk["id"]] = i

    def sink(ev):
        sensed.append(ev)
        if answer and ev["ev"] == "unsure":
            # the thrower asked (the owner of the two named) looks at their
            # own Bakugan on the zone: the last they opened there (the other
            # player may have landed on the same card since)
            who = owner.get(ev["alt"])
            true = [o for o in opens if o["zone"] == ev["zone"] and o["t"] <= ev["t"] + EARLY_MS
                    and owner.get(o["bakugan"]) == who and not any(
                        x["t"] > o["t"] and x["t"] <= ev["t"] and x["bakugan"] == o["bakugan"] for x in leaves)]
            if true and true[-1]["bakugan"] == ev["alt"]:
                answers.append((ev["t"] + ANSWER_MS, ev["zone"], ev["alt"], ev["bakugan"]))
    m = Match(board, game, sink, use_context=use_context, params=params, context=context)
    if named is not None:
        m.pipeline.on_named = lambda z, b, p: named.append((len(sensed), z, b, p))
    ctl = res.controls
    ci = 0
    nc = len(ctl)
    busy = -1    # on the chip's clock: the tick in progress ends then
    for t, v in res.frames:
        while ci < nc and ctl[ci]["t"] <= t:
            m.control(ctl[ci])
            ci += 1
        while answers and answers[0][0] <= t:
            _, z, b, was = answers.pop(0)
            if m.control({"t": t, "ev": "which", "zone": z, "bakugan": b}):
                # (`was`: the landing answered about, which need not be the
                # zone's last: the other player may have landed there since)
                sensed.append({"ev": "ident", "t": t, "zone": z, "bakugan": b, "by": "player", "was": was})
        if truth_context:
            box[1] = t
        if clock is None:
            m.frame(v, t)
            continue
        if t < busy:
            clock.dropped += 1     # the chip is still deciding: this frame is never scanned
            continue
        n0 = len(sensed)
        clock.start()
        m.frame(v, t)
        ms = clock.tick_ms()
        for e in sensed[n0:]:
            e["seen"] = t + ms
        if ms > clock.period_ms:
            busy = t + ms
    while ci < nc:
        m.control(ctl[ci])
        ci += 1
    return sensed


def score(truth, sensed, named=()):
    """Match sensed landings to true openings. Returns a dict of counts and
    the latencies of the matches. named: run_pipeline's, for the
    confidence of each landing's name."""
    opens = [e for e in truth if e["ev"] == "open"]
    lands = []
    retracted = []   # early lands taken back (`unland`): not landings, counted apart
    last = {}   # zone -> its last land, which an `ident` amends
    after = {}  # position in sensed -> [(zone, posterior)] the mat named there
    for i, z, b, p in named:
        after.setdefault(i, []).append((z, p))
    for k, e in enumerate(sensed):
        for z, p in after.get(k, ()):
            if z in last:
                last[z]["p"] = p
        if e["ev"] == "land":
            e = dict(e, first=e["bakugan"], ident_t=e["t"], p=None, asked=False)
            lands.append(e)
            last[e["zone"]] = e
        elif e["ev"] == "ident" and e["zone"] in last:
            lnd = last[e["zone"]]
            if "was" in e and lnd["bakugan"] != e["was"]:
                for x in reversed(lands):
                    if x["zone"] == e["zone"] and x["bakugan"] == e["was"]:
                        lnd = x
                        break
            lnd["bakugan"] = e["bakugan"]
            lnd["ident_t"] = e["t"]
        elif e["ev"] == "unsure" and e["zone"] in last:
            last[e["zone"]]["asked"] = True
        elif e["ev"] == "unland" and e["zone"] in last:
            retracted.append(last.pop(e["zone"]))
    for z, p in after.get(len(sensed), ()):
        if z in last:
            last[z]["p"] = p
    lands = [e for e in lands if not any(e is r for r in retracted)]
    used = [False] * len(opens)
    matched = []
    false = []
    for l in lands:
        hit = None
        for i, o in enumerate(opens):
            if used[i] or o["zone"] != l["zone"]:
                continue
            dt = l["t"] - o["t"]
            if -EARLY_MS <= dt <= LATE_MS:
                hit = i
                break
        if hit is None:
            false.append(l)
        else:
            used[hit] = True
            matched.append((opens[hit], l))
    missed = [o for i, o in enumerate(opens) if not used[i]]
    game = [(o, l) for o, l in matched if not o.get("lesson") and not l.get("learned")]
    return {
        "opens": len(opens),
        "lands": len(lands),
        "matched": matched,
        "false": false,
        "missed": missed,
        "id_n": len(game),
        "retracted": len(retracted),
        "id_ok": sum(1 for o, l in game if l["bakugan"] == o["bakugan"]),
        "id_ok_first": sum(1 for o, l in game if l["first"] == o["bakugan"]),
        # named without asking (no `unsure` about it), and wrong
        "sure_n": sum(1 for o, l in game if not l["asked"]),
        "sure_wrong": sum(1 for o, l in game if not l["asked"] and l["bakugan"] != o["bakugan"]),
        # (posterior of the mat's name or None, named right?, asked?)
        "rel": [(l["p"], l["bakugan"] == o["bakugan"], l["asked"]) for o, l in game],
        "amended": sum(1 for o, l in game if l["first"] != l["bakugan"]),
        "id_latency": [l["ident_t"] - o["t"] for o, l in game],
        # throws (what the players wait for) and lessons (`register`: the mat
        # waits lesson_ms of stillness on purpose) apart
        # ("seen": on the chip's clock, when the tick that decided it ended)
        "latency": [l.get("seen", l["t"]) - o["t"] for o, l in matched if not o.get("lesson")],
        "latency_lesson": [l["t"] - o["t"] for o, l in matched if o.get("lesson")],
    }


def alike_pairs(header, sensed):
    """[(player index, Bakugan id, the player's own one it reads like)] for
    each lesson (`land` with `learned`) that said a player's Bakugan reads
    alike (`alike`: the mat would ask which one landed) one of that player's
    own: the referee's context cannot separate those two, and `bakumat
    register` warns about such a pair when it is taught (swap one)."""
    owner = {}
    for i, pl in enumerate(header["players"]):
        for b in pl["bakugan"]:
            owner[b["id"]] = i
    out = []
    for e in sensed:
        if e["ev"] == "land" and e.get("learned"):
            p = owner.get(e["bakugan"])
            for a in e.get("alike", ()):
                if p is not None and owner.get(a) == p:
                    out.append((p, e["bakugan"], a))
    return out


def own_alike(header, sensed):
    """True when a lesson said a player's Bakugan reads alike one of their own (alike_pairs)."""
    return bool(alike_pairs(header, sensed))


# Players who take the mat's advice: when a lesson says two of a player's
# Bakugan read alike, the player swaps the one just taught for another from
# their box (a Bakugan in no player's set) and the game starts again from
# the registration, at most this many times.
SWAPS = 3


def swapped(header, pairs, seed, k):
    """header with the Bakugan each pair's lesson taught (the second of the
    two) replaced by one from the box, chosen by the seed and the round k;
    one swap a player a round."""
    import copy
    import random
    fwpath.ensure()
    from host_tools.gen import gamegen
    h = copy.deepcopy(header)
    used = set(b["id"] for pl in h["players"] for b in pl["bakugan"])
    box = sorted(b for b in gamegen.BAKUGAN if b not in used)
    rng = random.Random("swap:%s:%d" % (seed, k))
    done = set()
    for p, b, _ in pairs:
        if p in done or not box:
            continue
        done.add(p)
        new = box.pop(rng.randrange(len(box)))
        for x in h["players"][p]["bakugan"]:
            if x["id"] == b:
                x["id"] = new
    return h


def advised(board, seed, params, header, res, sensed, named, sim_board=None):
    """The seed's game played by players who take the mat's advice
    (SWAPS): (header, res, sensed, named, swaps, still alike?) of the
    answer run (the thrower answering the mat's questions) of the game they
    end up playing. sensed, named: the first game's answer run. sim_board:
    the board the games are simulated on (default board, the pipeline's)."""
    swaps = 0
    for k in range(SWAPS + 1):
        pairs = alike_pairs(header, sensed)
        if not pairs or k == SWAPS:
            return header, res, sensed, named, swaps, bool(pairs)
        header = swapped(header, pairs, seed, k)
        swaps += len(set(p for p, _, _ in pairs))
        header, res = simulate(sim_board or board, seed, header=header)
        named = []
        sensed = run_pipeline(board, header, res, True, params, answer=True, named=named)


def _one_game(args):
    from host_tools.sim import situations
    board, seed, params = args[:3]
    detection = len(args) > 3 and args[3]
    sim_board = board
    header, res = simulate(sim_board, seed)
    far = False
    if res.family is not None:
        # the family: the mat senses with the kernels of the named world its
        # simulated calibration (diag plate) picks, never the drawn plate's
        board = _family_detector(board, res.family.calib)
        far = res.family.far
    t0 = time.time()
    named = []
    sensed = run_pipeline(board, header, res, True, params, named=named)
    s1 = score(res.truth, sensed, named)
    situ = situations.tally(board, res, s1, far)
    dt = time.time() - t0
    told = not own_alike(header, sensed)
    if detection:
        # --detection: the landings only (the identity modes are not played;
        # the table prints their columns as "-")
        s2 = s3 = s4 = s5 = s6 = s1
        sa = sv = sensed
        swaps = still = 0
    else:
        s2 = score(res.truth, run_pipeline(board, header, res, False, params))
        s3 = score(res.truth, run_pipeline(board, header, res, True, params, truth_context=True))
        named_a = []
        sa = run_pipeline(board, header, res, True, params, answer=True, named=named_a)
        s4 = score(res.truth, sa, named_a)
        hv, rv, sv, named_v, swaps, still = advised(board, seed, params, header, res, sa, named_a, sim_board)
        s6 = s4 if sv is sa else score(rv.truth, sv, named_v)
        # the same seed's game played by people who never taught the mat
        hu, ru = simulate(sim_board, seed, register=False)
        s5 = score(ru.truth, run_pipeline(board, hu, ru, True, params))
    return {"id_n_truth": s3["id_n"], "id_ok_truth": s3["id_ok"],"opens": s1["opens"], "lands": s1["lands"], "matched": len(s1["matched"]), "false": len(s1["false"]),
            "missed": len(s1["missed"]), "id_n": s1["id_n"], "id_ok": s1["id_ok"], "id_n_free": s2["id_n"],
            "id_ok_first": s1["id_ok_first"], "id_n_ans": s4["id_n"], "id_ok_ans": s4["id_ok"],
            "asked": sum(1 for e in sa if e["ev"] == "unsure"),
            "answered": sum(1 for e in sa if e.get("by") == "player"), "retracted": s1["retracted"], "amended": s1["amended"], "id_latency": s1["id_latency"],
            "id_ok_free": s2["id_ok"], "latency": s1["latency"], "latency_lesson": s1["latency_lesson"], "frames": len(res.frames),
            "ms": res.frames[-1][0] if res.frames else 0, "pipe_s": dt,
            "games_told": 1 if told else 0, "id_n_told": s1["id_n"] if told else 0, "id_ok_told": s1["id_ok"] if told else 0,
            "id_n_ans_told": s4["id_n"] if told else 0, "id_ok_ans_told": s4["id_ok"] if told else 0,
            "u_opens": s5["opens"], "u_lands": s5["lands"], "u_matched": len(s5["matched"]),
            "u_false": len(s5["false"]), "u_missed": len(s5["missed"]), "u_latency": s5["latency"],
            "u_id_n": s5["id_n"], "u_id_ok": s5["id_ok"],
            "sure_n": s4["sure_n"], "sure_wrong": s4["sure_wrong"], "rel": s1["rel"],
            "games_asked": 1 if any(e["ev"] == "unsure" for e in sa) else 0,
            # the players taking the mat's advice (advised): the game they end up playing
            "adv_id_n": s6["id_n"], "adv_id_ok": s6["id_ok"], "adv_asked": sum(1 for e in sv if e["ev"] == "unsure"),
            "adv_answered": sum(1 for e in sv if e.get("by") == "player"), "adv_sure_n": s6["sure_n"],
            "adv_sure_wrong": s6["sure_wrong"], "adv_swaps": swaps, "adv_still": 1 if still else 0,
            "situ": situ, "far_games": 1 if far else 0}


_FAMILY_DETECTORS: dict = {}


def _family_detector(board, calib):
    """The pipeline's board with the kernel table of named world `calib`
    (built once per process)."""
    if calib not in _FAMILY_DETECTORS:
        b = dict(board, world=calib)
        b.pop("family", None)
        _FAMILY_DETECTORS[calib] = with_detector(b)
    return _FAMILY_DETECTORS[calib]


def corpus(board, games, seed0, params=None, progress=None, jobs=1, detection=False):
    """Totals over `games` simulated games from seed0 (in `jobs` processes)."""
    from host_tools.sim import situations
    tot = {"opens": 0, "lands": 0, "matched": 0, "false": 0, "missed": 0, "id_n": 0, "id_ok": 0,
           "id_n_free": 0, "id_ok_free": 0, "id_n_truth": 0, "id_ok_truth": 0, "latency": [], "latency_lesson": [], "id_n_ans": 0, "id_ok_ans": 0, "asked": 0, "answered": 0,
           "id_ok_first": 0, "amended": 0, "id_latency": [], "retracted": 0, "frames": 0,
           "ms": 0, "pipe_s": 0.0, "games_told": 0, "id_n_told": 0, "id_ok_told": 0, "id_n_ans_told": 0,
           "id_ok_ans_told": 0, "u_opens": 0, "u_lands": 0, "u_matched": 0, "u_false": 0, "u_missed": 0,
           "u_latency": [], "u_id_n": 0, "u_id_ok": 0, "sure_n": 0, "sure_wrong": 0, "rel": [], "games_asked": 0,
           "adv_id_n": 0, "adv_id_ok": 0, "adv_asked": 0, "adv_answered": 0, "adv_sure_n": 0, "adv_sure_wrong": 0,
           "adv_swaps": 0, "adv_still": 0, "situ": {}, "far_games": 0}
    tasks = [(board, seed0 + k, params, detection) for k in range(games)]
    if jobs > 1:
        import multiprocessing
        pool = multiprocessing.Pool(jobs)
        results = pool.imap(_one_game, tasks)
    else:
        pool = None
        results = map(_one_game, tasks)
    try:
        for k, r in enumerate(results):
            for key in tot:
                if key == "situ":
                    tot[key] = situations.merge(tot[key], r[key])
                else:
                    tot[key] += r[key]
            if progress:
                progress(k + 1, games)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return tot


def idle(board, hours, seed, params=None):
    """False landings (and any event) on an empty mat for `hours`. In the
    family (board "family"), the noise at the family's highest factor (the
    pessimistic end of its range; no magnet, so the plate and the gains do
    not matter, and its drift rate is a game's, not hours')."""
    from host_tools import sim
    fwpath.ensure()
    from sense.pipeline import Pipeline
    settings = None
    if board.get("family"):
        from host_tools.sim import family
        settings = {"noise": float(board["sensor"]["noise_counts_rms"]) * family.NOISE_FACTOR_RANGE[1]}
        board = dict(board)
        board.pop("family")
    events = []
    p = Pipeline(board, events.append, params=params)
    feed = p.feed
    for t, v in sim.idle_frames(board, int(hours * 3600), seed=seed, settings=settings):
        feed(v, t)
    return events


def _pct(xs, q):
    if not xs:
        return None
    s = sorted(xs)
    i = min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))
    return s[i]


MP_SCRIPT = r'''
import gc, sys, time
sys.path.insert(0, @FW@)
from sense.pipeline import Pipeline
import json
from array import array


def measure(p, frames, nframes):
    # Everything is local: module globals created here would grow the
    # globals dict and be counted.
    n = len(frames)
    feed = p.feed
    for i in range(200):
        # warm up: baselines settle, every path of the idle loop has run
        feed(frames[i % n], i * 20)
    t = 200 * 20
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    a1 = gc.mem_alloc()
    base = a1 - a0          # the cost of asking, if any
    a0 = gc.mem_alloc()
    for i in range(nframes):
        feed(frames[i % n], t)
        t += 20
    a1 = gc.mem_alloc()
    gc.enable()
    gc.collect()
    t0 = time.ticks_us()
    for i in range(nframes):
        feed(frames[i % n], t)
        t += 20
    dt = time.ticks_diff(time.ticks_us(), t0)
    return a1 - a0 - base, dt


def main():
    board = json.loads(open(@BOARD@).read())
    frames = []
    # the frame type the board's scanner fills: 16-bit ADC counts, or the
    # 20-bit magnetometers' (firmware/hw/amr.py: array("L"))
    code = "H" if board["sensor"]["max_counts"] < 65536 else "L"
    for line in open(@FRAMES@):
        frames.append(array(code, json.loads(line)))
    events = []
    p = Pipeline(board, events.append)
    gc.collect()
    alloc, dt = measure(p, frames, @NFRAMES@)
    print("ALLOC", alloc, @NFRAMES@)
    print("TIME", dt, @NFRAMES@)
    print("EVENTS", len(events))


main()
'''


def micropython_steady_state(board, nframes=2000, seed=3):
    """(bytes allocated per frame, microseconds per frame, events) of the
    pipeline under the real micropython binary on idle frames (noise,
    spikes, drift), with the garbage collector disabled while counting."""
    import json
    import tempfile
    from host_tools import sim
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        import shutil
        mp = shutil.which("micropython")
    if not mp:
        raise RuntimeError("micropython not found: install the dev extras")
    frames = [v for t, v in sim.idle_frames(board, 30, seed=seed)]
    with tempfile.TemporaryDirectory() as d:
        bp = os.path.join(d, "board.json")
        fp = os.path.join(d, "frames.ndjson")
        sp = os.path.join(d, "steady.py")
        with open(bp, "w") as f:
            json.dump(board, f)
        with open(fp, "w") as f:
            for v in frames:
                f.write(json.dumps(v) + "\n")
        script = MP_SCRIPT.replace("@FW@", repr(fwpath.FIRMWARE_DIR)).replace("@BOARD@", repr(bp)) \
            .replace("@FRAMES@", repr(fp)).replace("@NFRAMES@", str(nframes))
        with open(sp, "w") as f:
            f.write(script)
        r = subprocess.run([mp, "-X", "heapsize=16M", sp], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError("micropython failed: %s" % (r.stdout + r.stderr)[-2000:])
    out = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] in ("ALLOC", "TIME", "EVENTS"):
            out[parts[0]] = [int(x) for x in parts[1:]]
    alloc, n = out["ALLOC"]
    us, n2 = out["TIME"]
    return alloc / float(n), us / float(n2), out["EVENTS"][0]


def reliability(rel, bins=REL_BINS):
    """Rows (lo, hi, landings, named right, asked, mean posterior) of the
    landings named with a posterior in [lo, hi); hi None: up to 1. A last
    row (None, None, ...) holds those the mat never named by a decision
    (an early guess that stood: absorbed, or decided without candidates)."""
    rows = []
    for i, lo in enumerate(bins):
        hi = bins[i + 1] if i + 1 < len(bins) else None
        sel = [r for r in rel if r[0] is not None and r[0] >= lo and (hi is None or r[0] < hi)]
        rows.append((lo, hi, len(sel), sum(1 for r in sel if r[1]), sum(1 for r in sel if r[2]),
                     sum(r[0] for r in sel) / len(sel) if sel else None))
    sel = [r for r in rel if r[0] is None]
    rows.append((None, None, len(sel), sum(1 for r in sel if r[1]), sum(1 for r in sel if r[2]), None))
    return rows


def trust(tot, games, out):
    """The identity figures the players see (issue: identity the players
    can trust): after the questions, questions per game, sure-and-wrong,
    and the reliability table."""
    w = out.write
    w("identity the players can trust (game landings, the thrower answering the mat's questions):\n")
    w("  after the mat's questions     %.4f (%d/%d, target >= %.3f)\n"
      % (tot["id_ok_ans"] / float(tot["id_n_ans"] or 1), tot["id_ok_ans"], tot["id_n_ans"],
         TARGETS["id_after_questions"]))
    w("  questions per game            %.2f (%d in %d games, %d games with any; target <= %.1f)\n"
      % (tot["asked"] / float(games or 1), tot["asked"], games, tot["games_asked"], TARGETS["questions_per_game"]))
    w("  sure and wrong                %.4f (%d of %d landings named without asking were wrong;"
      " %d landings in all; target <= %.3f of landings)\n"
      % (tot["sure_wrong"] / float(tot["id_n_ans"] or 1), tot["sure_wrong"], tot["sure_n"], tot["id_n_ans"],
         TARGETS["sure_wrong"]))
    w("  players who take the mat's advice (a lesson says two of a player's Bakugan read alike: the\n"
      "  player swaps the one just taught for another, up to %d times; %d swaps in %d games, %d games\n"
      "  still with such a pair):\n" % (SWAPS, tot["adv_swaps"], games, tot["adv_still"]))
    w("    after the mat's questions   %.4f (%d/%d)\n" % (tot["adv_id_ok"] / float(tot["adv_id_n"] or 1),
                                                         tot["adv_id_ok"], tot["adv_id_n"]))
    w("    questions per game          %.2f (%d; the thrower answered %d)\n"
      % (tot["adv_asked"] / float(games or 1), tot["adv_asked"], tot["adv_answered"]))
    w("    sure and wrong              %.4f (%d of %d named without asking)\n"
      % (tot["adv_sure_wrong"] / float(tot["adv_id_n"] or 1), tot["adv_sure_wrong"], tot["adv_sure_n"]))
    w("  reliability (the mat alone, no answers): of the landings it named with posterior p, the share right\n")
    w("    %-15s %9s %9s %8s %7s\n" % ("p", "landings", "mean p", "right", "asked"))
    for lo, hi, n, ok, asked, mp in reliability(tot["rel"]):
        if lo is None:
            label = "not decided"
        else:
            label = "[%g, %s)" % (lo, "%g" % hi if hi is not None else "1]")
            if hi is None:
                label = label[:-1]
        w("    %-15s %9d %9s %8s %7d\n" % (label, n, "%.4f" % mp if mp is not None else "-",
                                           "%.4f" % (ok / float(n)) if n else "-", asked))


def report(board, games, idle_hours, seed, params=None, out=sys.stdout, mp=True, jobs=1, name=None,
           detection=False):
    w = out.write
    w("sensing benchmark: board %s, %s%d simulated games from seed %d, %.1f idle hours\n"
      % (board["name"], "%s corpus, " % name if name else "", games, seed, idle_hours))

    def progress(k, n):
        if k % 20 == 0 or k == n:
            sys.stderr.write("  games %d/%d\n" % (k, n))
    t0 = time.time()
    tot = corpus(board, games, seed, params, progress, jobs, detection)
    tot["detection"] = detection
    if detection:
        w("(--detection: the identity modes were not played; identification below is the referee's context's only)\n")
    prec = tot["matched"] / float(tot["lands"] or 1)
    rec = tot["matched"] / float(tot["opens"] or 1)
    idc = tot["id_ok"] / float(tot["id_n"] or 1)
    idf = tot["id_ok_free"] / float(tot["id_n_free"] or 1)
    lat = tot["latency"]
    w("landings: %d true openings, %d sensed, %d matched, %d false, %d missed\n"
      % (tot["opens"], tot["lands"], tot["matched"], tot["false"], tot["missed"]))
    w("  precision %.4f (target >= %.3f)\n" % (prec, TARGETS["precision"]))
    w("  (besides: %d early lands taken back with `unland`, a ball that paused and went on)\n" % tot["retracted"])
    w("  recall    %.4f (target >= %.3f)\n" % (rec, TARGETS["recall"]))
    w("identification of game landings (registration excluded):\n")
    w("  with the referee's context    %.4f (%d/%d, target >= %.2f)\n"
      % (idc, tot["id_ok"], tot["id_n"], TARGETS["id_context"]))
    w("  ... in the games where no player's own two Bakugan read alike at registration\n"
      "    (`alike`, what `bakumat register` warns about): %.4f (%d/%d), %d of %d games;\n"
      "    with the thrower answering the mat's questions too: %.4f (%d/%d)\n"
      % (tot["id_ok_told"] / float(tot["id_n_told"] or 1), tot["id_ok_told"], tot["id_n_told"],
         tot["games_told"], games, tot["id_ok_ans_told"] / float(tot["id_n_ans_told"] or 1),
         tot["id_ok_ans_told"], tot["id_n_ans_told"]))
    w("  first guess (at the land)     %.4f (%d/%d); amended by `ident` %d times, final identity\n"
      "    median %d ms, p95 %d ms after the true opening\n"
      % (tot["id_ok_first"] / float(tot["id_n"] or 1), tot["id_ok_first"], tot["id_n"], tot["amended"],
         statistics.median(tot["id_latency"] or [0]), _pct(tot["id_latency"], 0.95) or 0))
    w("  the mat asking when unsure    %.4f (%d/%d): the thrower answers (BACK: the other one) %d of %d\n"
      "    questions, %.1f questions per game\n"
      % (tot["id_ok_ans"] / float(tot["id_n_ans"] or 1), tot["id_ok_ans"], tot["id_n_ans"], tot["answered"],
         tot["asked"], tot["asked"] / float(games or 1)))
    trust(tot, games, out)
    w("  without context               %.4f (%d/%d)\n" % (idf, tot["id_ok_free"], tot["id_n_free"]))
    w("  with the true game's context  %.4f (%d/%d): the referee fed with the true landings, so one\n"
      "    wrong identification does not spoil the next ones\n"
      % (tot["id_ok_truth"] / float(tot["id_n_truth"] or 1), tot["id_ok_truth"], tot["id_n_truth"]))
    if lat:
        w("latency of game landings (land - true opening), ms: median %d, p95 %d (target <= %d), max %d, min %d\n"
          % (statistics.median(lat), _pct(lat, 0.95), TARGETS["latency_p95_ms"], max(lat), min(lat)))
    ll = tot["latency_lesson"]
    if ll:
        w("  registration lessons (held still lesson_ms on purpose): median %d, p95 %d ms\n"
          % (statistics.median(ll), _pct(ll, 0.95)))
    ul = tot["u_latency"]
    w("untaught: the same games played without teaching the mat (no `register`):\n"
      "  %d true openings, %d sensed, %d false, %d missed: precision %.4f, recall %.4f;\n"
      "  latency median %d, p95 %d ms; identification with context %.4f (%d/%d)\n"
      % (tot["u_opens"], tot["u_lands"], tot["u_false"], tot["u_missed"],
         tot["u_matched"] / float(tot["u_lands"] or 1), tot["u_matched"] / float(tot["u_opens"] or 1),
         statistics.median(ul or [0]), _pct(ul, 0.95) or 0, tot["u_id_ok"] / float(tot["u_id_n"] or 1),
         tot["u_id_ok"], tot["u_id_n"]))
    w("  game time %.0f s (%d frames), pipeline %.1f s CPython\n" % (tot["ms"] / 1000.0, tot["frames"], tot["pipe_s"]))
    write_situations(w, [(board.get("world") if not board.get("family") else "family", name or "", tot)])
    tot["idle_hours"] = idle_hours
    if idle_hours > 0:
        ev = idle(board, idle_hours, IDLE_SEED, params)
        fl = [e for e in ev if e["ev"] == "land"]
        tot["idle_false"] = len(fl)
        w("idle mat: %.1f h, %d false landings = %.2f per 10 h (target <= %.1f), %d events in all\n"
          % (idle_hours, len(fl), len(fl) * 10.0 / idle_hours, TARGETS["false_per_10h"], len(ev)))
    if mp:
        per, us, nev = micropython_steady_state(board)
        tot["mp"] = (per, us)
        w("micropython (unix port) steady state: %.2f bytes allocated per frame (target 0), %.0f us per frame"
          " (%d channels; %d events during the run)\n" % (per, us, len(board["sensors"]), nev))
    w("elapsed %.0f s\n" % (time.time() - t0))
    return tot


def _one_chip_game(args):
    """One game on the chip's clock (host_tools/bench/chipclock.py)."""
    from host_tools.bench import chipclock
    board, seed, params, costs, quiet_ms = args
    header, res = simulate(board, seed)
    clock = chipclock.Clock(costs, quiet_ms)
    s = score(res.truth, run_pipeline(board, header, res, True, params, clock=clock))
    return {"opens": s["opens"], "lands": s["lands"], "matched": len(s["matched"]), "false": len(s["false"]),
            "missed": len(s["missed"]), "latency": s["latency"], "id_n": s["id_n"], "id_ok": s["id_ok"],
            "ticks": clock.ticks, "over": clock.over, "dropped": clock.dropped, "long": clock.long,
            "worst_ms": clock.worst_ms}


def chip_clock(board, games, seed, costs, quiet_ms, params=None, jobs=1, name=None, out=sys.stdout):
    """The corpus on the chip's clock: every decision as long as on the S3,
    the frames it covers never scanned. Prints its figures, returns them."""
    from host_tools.bench import chipclock
    tasks = [(board, seed + k, params, costs, quiet_ms) for k in range(games)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            rs = pool.map(_one_chip_game, tasks)
    else:
        rs = [_one_chip_game(t) for t in tasks]
    tot = {}
    for r in rs:
        for k, v in r.items():
            if k == "worst_ms":
                tot[k] = max(tot.get(k, 0.0), v)
            else:
                tot[k] = tot.get(k, 0 if not isinstance(v, list) else []) + v
    lat = tot["latency"]
    lng = sorted(tot["long"])
    w = out.write
    w("on the chip's clock (%s, %s corpus, %d games): each frame's decisions cost what they would on the chip"
      " (%.0f us a solve, %.0f us a fit, %.0f us a decision besides; measured on micropython, pystone %.0f/s,"
      " the model's error %.0f %% rms over %d deciding frames), on a quiet tick of %.1f ms; a tick over %d ms"
      " leaves the frames it covers unscanned (host_tools/bench/chipclock.py):\n"
      % (chipclock.chip_name(), name or "", games, costs.solve, costs.fit, costs.settle, costs.pystones,
         100 * costs.resid, costs.n, quiet_ms, chipclock.PERIOD_MS))
    w("  precision %.4f, recall %.4f (%d true openings, %d sensed, %d false, %d missed); identity with the"
      " referee's context %.4f\n"
      % (tot["matched"] / float(tot["lands"] or 1), tot["matched"] / float(tot["opens"] or 1), tot["opens"],
         tot["lands"], tot["false"], tot["missed"], tot["id_ok"] / float(tot["id_n"] or 1)))
    if lat:
        w("  latency as the players see it (the deciding tick's end - the true opening): median %d, p95 %d ms"
          " (target <= %d), max %d\n" % (statistics.median(lat), _pct(lat, 0.95), TARGETS["latency_p95_ms"], max(lat)))
    w("  ticks over %d ms: %d of %d (%.2f %%), %.1f a game; their median %.0f ms, p95 %.0f, worst %.0f ms;"
      " frames never scanned: %d (%.2f %%)\n"
      % (chipclock.PERIOD_MS, tot["over"], tot["ticks"], 100.0 * tot["over"] / max(1, tot["ticks"]),
         tot["over"] / float(games or 1), statistics.median(lng) if lng else 0, _pct(lng, 0.95) if lng else 0,
         tot["worst_ms"], tot["dropped"], 100.0 * tot["dropped"] / max(1, tot["ticks"] + tot["dropped"])))
    return tot


def with_detector(board):
    """The board the pipeline gets: with the kernel table of the simulated
    world (the mat's calibrated world; host_tools/boards/kernels.py)."""
    from host_tools.boards import kernels
    return kernels.for_board(board)


def _row(world, name, games, tot, per):
    """One line of the all-worlds table (markdown); per: the per-frame figures."""
    lat = tot["latency"]
    hours = tot.get("idle_hours") or 0.0
    fl = "%.2f" % (tot["idle_false"] / hours) if hours and "idle_false" in tot else "-"
    det = tot.get("detection")
    adv = "-" if det else "%.4f / %.2f / %.4f" % (tot["adv_id_ok"] / float(tot["adv_id_n"] or 1),
                                               tot["adv_asked"] / float(games or 1),
                                               tot["adv_sure_wrong"] / float(tot["adv_id_n"] or 1))
    return ("| %s | %s | %d | %.4f | %.4f | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
            % (world, name, games, tot["matched"] / float(tot["lands"] or 1), tot["matched"] / float(tot["opens"] or 1),
               "%d" % statistics.median(lat) if lat else "-", "%d" % _pct(lat, 0.95) if lat else "-", fl,
               "%.4f" % (tot["id_ok_first"] / float(tot["id_n"] or 1)),
               "-" if tot.get("detection") else "%.4f" % (tot["id_ok_ans"] / float(tot["id_n_ans"] or 1)),
               "-" if tot.get("detection") else "%.2f" % (tot["asked"] / float(games or 1)),
               "-" if tot.get("detection") else "%.4f" % (tot["sure_wrong"] / float(tot["id_n_ans"] or 1)),
               adv, per))


SITUATIONS_HEAD = ("| world | corpus | situation | landings | missed | found and named (game) | wrong names"
                   " | false landings |\n|---|---|---|---|---|---|---|---|")


def write_situations(w, rows):
    """The errors-by-situation table, its note first, for rows of (world,
    corpus, totals); w writes text."""
    w(SITUATIONS_NOTE + "\n")
    w(SITUATIONS_HEAD + "\n")
    for world, name, tot in rows:
        for line in situation_rows(world, name, tot):
            w(line + "\n")


def situation_rows(world, name, tot):
    """Markdown rows of the errors by physical situation (host_tools/sim/situations.py)."""
    from host_tools.sim import situations
    out = []
    situ = tot.get("situ") or {}
    for k in situations.NAMES + ("all",):
        r = situ.get(k)
        if not r:
            continue
        label = k
        if k == "plate far":
            label = "plate far (%d games)" % tot.get("far_games", 0)
        out.append("| %s | %s | %s | %d | %d | %d | %d | %d |" % (world, name, label, r["n"], r["missed"], r["named"],
                                                               r["wrong"], r["false"]))
    return out


SITUATIONS_NOTE = (
    "errors by physical situation (host_tools/sim/situations.py; a landing may be in several rows): over card ="
    " a throw that rolled over another zone's card; second = a Bakugan opening where another stands (a battle's"
    " second); lift = a Bakugan lifted within 1.5 s before to 0.5 s after, within 100 mm; lesson off-centre = a"
    " lesson put down outside the +-10 mm box register asks for; taught off-centre = the later landings of a"
    " Bakugan so taught; clipped = a channel of the zone at 0 or max counts from 0.5 s before to 1 s after;"
    " plate far = the game's plate letting through more than 1.25 times, or less than 1/1.25 of, what its"
    " calibrated world's plate does straight under a magnet (the family only); moment below / above range, height"
    " off-range = the Bakugan's magnet moment / standing height outside the mat file's declared range; false landings are put"
    " down to what happened on their zone up to 1.5 s before\n")


TABLE_HEAD = ("| world | corpus | games | precision | recall | latency median ms | p95 ms | false lands per idle h"
              " | id first guess | id after questions | questions per game | sure and wrong"
              " | players taking the advice: after questions / questions per game / sure and wrong"
              " | per frame (micropython) |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def all_worlds(board, names, args, out=sys.stdout):
    """Each world in `names` in turn, both corpora (as --corpus says), the
    full reports to stderr and one table (markdown) to out at the end."""
    from host_tools.sim import worlds
    rows = []
    todo = [(n, s) for n, s in CORPORA if args.corpus in (n, "both")]
    for wi, wname in enumerate(names):
        if wname == "family":
            # each game in its own draw of the family (simulate); the idle
            # mat in the nominal world at the family's highest noise (idle)
            os.environ["BAKUMAT_WORLD"] = worlds.nominal(board) or worlds.NOMINAL
            b = dict(with_detector(dict(board, world=os.environ["BAKUMAT_WORLD"])), family=True)
        else:
            worlds.get(wname)
            os.environ["BAKUMAT_WORLD"] = wname
            b = with_detector(dict(board, world=wname))
        for k, (name, seed) in enumerate(todo):
            sys.stderr.write("world %s, %s corpus\n" % (wname, name))
            last = k == len(todo) - 1
            # the idle mat (no magnet, only noise, drift and spikes) once, in
            # the first world: the others differ from it only by the table
            idle_h = args.idle_hours if last and (wi == 0 or not args.idle_once) else 0.0
            tot = report(b, args.games, idle_h, seed, out=sys.stderr,
                         mp=False, jobs=max(1, args.jobs), name=name, detection=args.detection)
            rows.append((wname, name, tot))
    per = "-"
    if not args.no_micropython:
        # the per-frame path does not depend on the world: measured once
        last = names[-1] if names[-1] != "family" else (worlds.nominal(board) or worlds.NOMINAL)
        p, us, _ = micropython_steady_state(with_detector(dict(board, world=last)))
        per = "%.1f B, %.0f us" % (p, us)
    if getattr(args, "doc", None):
        import io
        shown, out = out, io.StringIO()
    out.write("sensing benchmark, board %s, %d games per world and corpus, %.1f idle hours per world"
              "%s (`bakumat bench sensing --board %s --worlds %s --games %d --idle-hours %g%s%s`)\n\n"
              % (board["name"], args.games, args.idle_hours,
                 " (the idle mat once, in %s)" % names[0] if args.idle_once else "", board["name"], ",".join(names),
                 args.games, args.idle_hours, " --idle-once" if args.idle_once else "",
                 " --detection" if args.detection else ""))
    out.write(TABLE_HEAD + "\n")
    for wname, name, tot in rows:
        out.write(_row(wname, name, args.games, tot, per) + "\n")
    out.write("\n")
    write_situations(out.write, rows)
    if getattr(args, "doc", None):
        from host_tools.bench import docsection
        text = out.getvalue()
        shown.write(text)
        docsection.write(args.doc, DOC_BEGIN, DOC_END, text.rstrip("\n").split("\n"))
        shown.write("the tables in %s are written\n" % args.doc)
    return 0


DOC_BEGIN = "<!-- bakumat bench sensing --worlds ... --doc: the tables below are written by the command -->"
DOC_END = "<!-- end of the tables bakumat bench sensing writes -->"


# --quick: what a designer reruns after a change (the defaults it replaces
# are the bench's: 200 games of both corpora, 10 idle hours)
QUICK = {"games": 12, "idle_hours": 0.05, "corpus": "development", "detection": True, "no_micropython": True}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench_sensing", description="sensing benchmark (figures)")
    # the reference board's mat, in its nominal computed world, unless told otherwise
    ap.add_argument("--board", "--mat", dest="board", default=boards.REFERENCE_MAT,
                    help="the mat or board (default %s, the reference board's mat)" % boards.REFERENCE_MAT)
    ap.add_argument("--worlds", help="comma-separated worlds (or `all`): each in turn, one table at the end; `family`: every game"
                         " in its own draw of the family of worlds (host_tools/sim/family.py), the mat sensing with"
                         " the world its simulated calibration picks")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--idle-hours", type=float, default=10.0)
    ap.add_argument("--corpus", choices=("development", "held-out", "both"), default="both",
                    help="which fixed-seed corpus (default both, reported one after the other); the held-out"
                         " one is never used for tuning")
    ap.add_argument("--jobs", type=int, default=1, help="simulate and score games in this many processes")
    ap.add_argument("--no-micropython", action="store_true", help="skip the micropython heap/time figures")
    ap.add_argument("--idle-once", action="store_true",
                    help="with --worlds: the idle mat only in the first world (it has no magnet; the worlds differ"
                         " there only by the kernel table)")
    ap.add_argument("--detection", action="store_true",
                    help="the landings only: skip the identity modes (no context, true context, answers, untaught),"
                         " a fifth of the time; the table's identity columns read '-'")
    ap.add_argument("--chip-clock", action="store_true",
                    help="besides: the corpus on the chip's clock (each decision as long as on the ESP32-S3, the"
                         " frames it covers unscanned; host_tools/bench/chipclock.py)")
    ap.add_argument("--quiet-ms", type=float,
                    help="with --chip-clock: the board's quiet tick on the chip, ms (default: chipclock.QUIET_MS)")
    ap.add_argument("--quick", action="store_true",
                    help="a first figure in about a minute while designing: %d games of the development corpus,"
                         " the landings only, %.2g idle hours, no micropython figures (options given win)"
                         % (QUICK["games"], QUICK["idle_hours"]))
    ap.add_argument("--doc", metavar="FILE",
                    help="with --worlds: write the tables into FILE's marked section (docs/sensing-pipeline.md: "
                         "the figures there are this command's)")
    args = ap.parse_args(argv)
    if args.doc:
        if not args.worlds:
            raise UserError("--doc needs --worlds: the tables it writes are the worlds' table and the errors by "
                            "situation")
        from host_tools.bench import docsection
        docsection.section(args.doc, DOC_BEGIN, DOC_END)    # refused before the minutes of work
    if args.quick:
        for k, v in QUICK.items():
            if getattr(args, k) == ap.get_default(k):
                setattr(args, k, v)
        sys.stdout.write("quick: %d games of the %s corpus, %s: a first figure, not the bench's\n" % (
            args.games, args.corpus, "landings only" if args.detection else "with identity"))
    board = boards.offered(args.board)
    if args.worlds:
        from host_tools.sim import worlds
        names = worlds.names() if args.worlds == "all" else [w for w in args.worlds.split(",") if w]
        return all_worlds(board, names, args)
    board = with_detector(board)
    todo = [(n, s) for n, s in CORPORA if args.corpus in (n, "both")]
    for k, (name, seed) in enumerate(todo):
        last = k == len(todo) - 1
        if k:
            sys.stdout.write("\n")
        # the idle mat and the micropython figures do not depend on the corpus: once, at the end
        report(board, args.games, args.idle_hours if last else 0.0, seed, mp=last and not args.no_micropython,
               jobs=max(1, args.jobs), name=name, detection=args.detection)
    if args.chip_clock:
        from host_tools.bench import chipclock
        costs = chipclock.measure(board)
        quiet = args.quiet_ms if args.quiet_ms is not None else chipclock.QUIET_MS.get(args.board, 15.0)
        for name, seed in todo:
            sys.stdout.write("\n")
            chip_clock(board, args.games, seed, costs, quiet, jobs=max(1, args.jobs), name=name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
