"""Every mode played to its end on the virtual board: the real firmware app
under the micropython binary (a fresh board per game: it boots in about
0.1 s, and a board reused across games keeps the previous game's
signatures and mat), configured with `cfg` and fed only simulated sensor
frames and the control events a host app sends (tests/vbtable.py turns
each scripted game into a scenario for the magnetic simulator: lessons,
cards, throws, lifts, put-backs).

The simulated sensors and the firmware are deterministic (lockstep), so a
game and a seed always give the same frames and the same decisions. The
sensing still mistakes some landings (docs/sensing-pipeline.md: about 0.8
identification in random games); tests/vbtable.py gives the Bakugan
magnets the mat tells apart and plays them so it can. The games run on
the reference board (`boards.REFERENCE`, the lis2 mat in its nominal
world); SEEDS names a seed for the games whose seed 1 does not play as
meant, and a game the sensing misreads whatever the seed is played with
throws or magnets it reads (said at the game).

Figures (`-s` prints them; `python tests/host/test_modes_vboard.py --heap`
also finds each game's smallest heap on the .mpy build): wall time per game,
board time, events, free heap after the game, phantom landings (a lift the
sensing took for a landing, refused by the referee).

Each test checks (1) that every control event was acknowledged (or refused
where the script says the referee must refuse it), (2) that the board's
game events equal, event for event, what the referee on the host says for
the intended moves (so every landing was identified; phantom landings the
referee refused are counted, not failed on), and (3) the rules that
matter in that game: battles, captures, scores, the winner. A game whose
control events the board's link refuses (firmware/runtime/requests.py's list of
controls) is an xfail naming them."""
import json
import os
import sys
import time

if __name__ == "__main__":     # run as a script: the paths tests/conftest.py sets up
    _tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for _d in (os.path.join(os.path.dirname(_tests), "firmware"), _tests, os.path.dirname(_tests)):
        if _d not in sys.path:
            sys.path.insert(0, _d)

import pytest  # noqa: E402

from host_tools import boards  # noqa: E402
from host_tools.errors import UserError  # noqa: E402
from host_tools.device.link import REPLIES, codec  # noqa: E402
from host_tools.vboard import Recorded, VBoard  # noqa: E402
from vbtable import Table, compare, strip_t, without_amended  # noqa: E402
import referee  # noqa: E402

BOARD = boards.REFERENCE
FIGURES = []     # (game, wall s, board s, events, mem_free) printed at the end


@pytest.fixture(scope="module")
def board():
    return boards.load(BOARD)


@pytest.fixture(scope="module", autouse=True)
def figures():
    yield
    if FIGURES:
        print("\nmodes on the virtual board (lockstep, micropython unix port):")
        print("  %-22s %7s %7s %8s %7s %10s %9s" % ("game", "boot s", "wall s", "board s", "events", "mem_free",
                                                     "phantoms"))
        for row in FIGURES:
            print("  %-22s %7.2f %7.2f %8.1f %7d %10s %9s" % (row + ("",) * (7 - len(row))))


class Played:
    def __init__(self, events, replies, table, health):
        self.events = events
        self.replies = replies
        self.table = table
        self.health = health

    def kinds(self):
        return [e["ev"] for e in self.events]

    def first(self, kind, **match):
        for e in self.events:
            if e["ev"] == kind and all(e.get(k) == v for k, v in match.items()):
                return e
        raise AssertionError("no %s %s in %s" % (kind, match, self.kinds()))

    def all(self, kind):
        return [e for e in self.events if e["ev"] == kind]


UNSUPPORTED = "ev must be one of"


def request_compact(vb, link, typ, body, max_ms=5000):
    """vb.request with the body as compact JSON."""
    seq = 60000 + (int(time.monotonic() * 1000) % 5000)
    data = codec.encode_json(seq, typ, json.dumps(body, separators=(",", ":")))
    assert len(data) <= codec.MAX_LEN, "%s frame of %d bytes" % (typ, len(data))
    base = vb._forwarded
    tx0 = link.tx_bytes
    link.write_raw(data)
    vb.settle_serial(base + link.tx_bytes - tx0)
    spent = 0
    while True:
        link.pump(0)
        for i, f in enumerate(link.inbox):
            if f[0] == seq and f[1] in REPLIES:
                del link.inbox[i]
                return f[1], f[2]
        assert spent < max_ms, "no reply to %s" % typ
        vb.run_for(20, link)
        spent += 20


# The simulator's seed per game (default 1). With seed 1 these games meet a
# sensing mistake: multi: mantris is decided on its way in, at 2/3 of its
# level, as Shun's weaker stinglash; baolie: lifting falconeer off a card
# where tigrerra stays is sensed as a landing there, taken as Dan's throw.
SEEDS = {"multi": 2, "baolie": 2}


def play(board, name, table, seed=None, heapsize=None, mpy_dir=None):
    """Run the table's game on a fresh virtual board (a new process and an
    empty filesystem: a board reused across games keeps the last game's
    Bakugan signatures and sees the previous game's mat change under the
    new one); check the acks and the event stream against the shadow
    referee; return Played."""
    res = table.simulate(board, SEEDS.get(name, 1) if seed is None else seed)
    t0 = time.monotonic()
    vb = VBoard(board, lockstep=True, heapsize=heapsize, mpy_dir=mpy_dir)
    try:
        vb.start()
        link = vb.link()
        boot = time.monotonic() - t0
        return _play(vb, link, board, name, table, res, boot)
    finally:
        vb.stop()


def _play(vb, link, board, name, table, res, boot):
    t0 = time.monotonic()
    # The game starts on the simulated mat's first frames (the sensing
    # calibrates on them), with the header sent as compact JSON: a Big Game
    # header as json.dumps writes it by default is longer than the 2048
    # bytes a frame to the board may have.
    vb.source = Recorded(res.frames, vb.vnow, board)
    kind, body = request_compact(vb, link, "cfg", table.header)
    assert (kind, body) == ("ack", {"ok": True}), body
    replies = vb.play(res.frames, res.controls, link)
    kind, body = vb.request(link, "end")
    wall = time.monotonic() - t0
    assert kind == "ack", body
    events = [b for _, typ, b in link.take("game")]
    _, health = vb.request(link, "health")
    FIGURES.append((name, boot, wall, (res.frames[-1][0] - res.frames[0][0]) / 1000.0, len(events), health.get("mem_free")))
    unsupported = sorted(set(ev.get("ev") for ev, r in replies if UNSUPPORTED in str(r.get("msg", ""))))
    if unsupported:
        # firmware/runtime/requests.py's CONTROLS does not let these control events through
        pytest.xfail("the board refuses control events %s over the link (firmware/runtime/requests.py CONTROLS)"
                     % ", ".join(unsupported))
    table.finish()
    expected = strip_t(table.expected)
    got = strip_t(without_amended(events))
    phantoms, where = compare(got, expected)
    if where is not None:
        i, j = where
        raise AssertionError("the board's events differ from the referee's at #%d:\n  board:    %s\n"
                             "  expected: %s\nscenario:\n%s" % (i, got[i:i + 4], expected[j:j + 4], table.text()))
    FIGURES[-1] = FIGURES[-1] + (len(phantoms),)
    bad = [(ev, r) for ev, r in replies if r.get("ok") is not True]
    refused = [ev for ev in table.rejected]
    for ev, r in list(bad):
        e = dict(ev)
        e.pop("t", None)
        if e in refused:
            refused.remove(e)
            bad.remove((ev, r))
    assert not bad, bad
    assert not refused, "accepted, should have been refused: %s" % refused
    assert events[-1]["ev"] == "end"
    # (what the tests look at: the game as it stands, a first guess the
    # sensing amended gone, as in the comparison above)
    return Played(without_amended(events), replies, table, health)


# ------------------------------------------------------------------ decks

def bak(bid, attr, g, **kw):
    d = {"id": bid, "attr": attr, "g": g}
    d.update(kw)
    return d


def gate(gid, hsp=None, **bonus):
    d = {"id": gid, "bonus": bonus}
    if hsp is not None:
        d["hsp"] = hsp
    return d


def ab(aid, **effect):
    return {"id": aid, "effect": effect}


def dan_runo(mode="official", **extra):
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": 0, "players": [
        {"name": "Dan", "bakugan": [bak("drago", "pyrus", 450), bak("serpenoid", "aquos", 340),
                                    bak("saurus", "pyrus", 360)],
         "gates": [gate("dan-gold", pyrus=100, darkus=-50), gate("dan-silver", aquos=80, haos=60),
                   gate("dan-copper", pyrus=50, ventus=120)],
         "abilities": [ab("fire-wall", opp_g=-50), ab("boosted-dragon", g=100), ab("leap-sting", nullify_gate=True)]},
        {"name": "Runo", "bakugan": [bak("tigrerra", "haos", 440), bak("falconeer", "ventus", 370),
                                     bak("gargonoid", "haos", 350)],
         "gates": [gate("runo-gold", haos=100, pyrus=-30), gate("runo-silver", ventus=90, aquos=40),
                   gate("runo-copper", subterra=70, haos=50)],
         "abilities": [ab("lightning-shield", opp_g=-80), ab("colour-swap", attr="pyrus"), ab("shade-ability", g=50)]}]}
    h.update(extra)
    return h


# --------------------------------------------------------------- official

def game_official():
    t = Table(dan_runo(target=3))
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-gold", 5)
    t.throw("drago", 5)
    t.throw("tigrerra", 5)                 # clash on Runo's gate
    t.ability(0, "boosted-dragon")         # drago 450 - 30 + 100 = 520
    t.ability(1, "lightning-shield")       # drago - 80 = 440 < tigrerra 440 + 100
    t.mark("b1")
    t.resolve()
    t.throw("serpenoid", 6)
    t.gate(1, "runo-silver", 9)
    t.throw("falconeer", 6)                # clash on Dan's gate: 340 v 370
    t.ability(0, "fire-wall")              # falconeer 320
    t.mark("b2")
    t.resolve()
    t.miss("saurus", roll=(13, 14))
    t.throw("gargonoid", 9)
    t.throw("drago", 9)                    # Dan took his used Bakugan back
    t.mark("b3")
    t.resolve()
    t.gate(0, "dan-silver", 6)             # the field is empty: both lay a gate
    t.gate(1, "runo-copper", 5)
    t.throw("tigrerra", 6)
    t.throw("saurus", 5)
    t.miss("gargonoid")
    t.throw("serpenoid", 5)                # onto his own saurus: take or move
    t.ctl({"ev": "choose", "player": 0, "action": "take"})
    return t


def test_official(board):
    p = play(board, "official", game_official())
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["tigrerra", "serpenoid", "drago"]
    assert b[0]["power"] == {"drago": 440, "tigrerra": 540}      # G + gate bonus + both abilities
    assert b[1]["power"] == {"falconeer": 320, "serpenoid": 340}
    assert p.first("miss")["bakugan"] == "saurus"
    assert p.first("reuse", player=0)["bakugan"] == ["drago", "serpenoid", "saurus"]
    assert p.first("capture", reason="take")["gate"] == "runo-copper"
    assert p.first("win")["player"] == 0
    assert p.events[-1]["captured"] == [["dan-gold", "runo-silver", "runo-copper"], ["runo-gold"]]


# -------------------------------------------------------------------- big

def big_header(**extra):
    h = {"bakumat": "events", "version": 1, "mode": "big", "first": 0, "players": [
        {"name": "Dan", "bakugan": [bak("drago", "pyrus", 450), bak("serpenoid", "aquos", 340),
                                    bak("saurus", "pyrus", 360), bak("falconeer", "ventus", 370),
                                    bak("mantris", "pyrus", 330), bak("juggernoid", "subterra", 390)],
         "gates": [gate("dan-gold-1", pyrus=100, darkus=-50), gate("dan-gold-2", pyrus=120, aquos=-30),
                   gate("dan-silver-1", aquos=80, haos=60), gate("dan-silver-2", ventus=70, pyrus=30),
                   gate("dan-copper-1", pyrus=50, ventus=120), gate("dan-copper-2", subterra=90)],
         "abilities": [ab("fire-wall", opp_g=-50), ab("boosted-dragon", g=100), ab("leap-sting", nullify_gate=True),
                       ab("fire-tornado", g=50), ab("dragon-swap", attr="pyrus"), ab("burning-shield", opp_g=-100)]},
        {"name": "Runo", "bakugan": [bak("tigrerra", "haos", 440), bak("gargonoid", "haos", 350),
                                     bak("robotallion", "haos", 380), bak("limulus", "aquos", 360),
                                     bak("stinglash", "darkus", 350), bak("siege", "darkus", 400)],
         "gates": [gate("runo-gold-1", haos=100, pyrus=-30), gate("runo-gold-2", haos=80, darkus=40),
                   gate("runo-silver-1", ventus=90, aquos=40), gate("runo-silver-2", darkus=100),
                   gate("runo-copper-1", subterra=70, haos=50), gate("runo-copper-2", aquos=90, haos=20)],
         "abilities": [ab("lightning-shield", opp_g=-80), ab("colour-swap", attr="pyrus"), ab("shade-ability", g=50),
                       ab("light-storm", g=100), ab("haos-freeze", nullify_gate=True), ab("dark-hole", opp_g=-50)]}]}
    h.update(extra)
    return h


def game_big():
    t = Table(big_header())
    t.gate(0, "dan-gold-1", 5)             # two opening gates each
    t.gate(1, "runo-gold-1", 9)
    t.gate(0, "dan-gold-2", 6)
    t.gate(1, "runo-gold-2", 10)
    t.throw("drago", 5)
    t.throw("tigrerra", 5)
    t.resolve()                            # 550 v 440: Dan 1
    t.throw("serpenoid", 6)
    t.throw("gargonoid", 6)
    t.ability(0, "burning-shield")         # 310 v 250: Dan 2
    t.resolve()
    t.throw("saurus", 9)
    t.throw("robotallion", 9)
    t.resolve()                            # 330 v 480: Runo 1
    t.throw("falconeer", 10)
    t.throw("limulus", 10)
    t.resolve()                            # 370 v 360: Dan 3; the field is empty
    t.gate(0, "dan-silver-1", 5)
    t.gate(1, "runo-silver-1", 9)
    t.throw("mantris", 9)
    t.throw("stinglash", 9)
    t.ability(0, "boosted-dragon")         # 430 v 350: Dan 4
    t.resolve()
    t.throw("juggernoid", 5)
    t.throw("siege", 5)
    t.ability(0, "fire-wall")              # 390 v 350: Dan 5
    t.resolve()
    t.gate(0, "dan-silver-2", 6)
    t.gate(1, "runo-silver-2", 10)
    # Dan took his six back. Not juggernoid again: thrown after its battle
    # with siege, the mat names it falconeer or serpenoid (16 of seeds 1-20;
    # on zone 6 too, and with its magnet at 0.050 or 0.064, seeds 1-5);
    # saurus is read right with all 20.
    t.throw("saurus", 10)
    t.throw("gargonoid", 10)
    t.resolve()                            # 360 v 350: Dan 6 wins
    return t


def test_big(board):
    p = play(board, "big", game_big())
    assert len(p.all("placed")) == 4 + 2 + 2
    caps = [e["player"] for e in p.all("capture")]
    assert caps == [0, 0, 1, 0, 0, 0, 0]
    b = p.all("battle")
    assert b[1]["power"] == {"gargonoid": 250, "serpenoid": 310}
    assert len(p.first("reuse", player=0)["bakugan"]) == 6
    assert p.first("win")["player"] == 0                          # the sixth gate
    assert len(p.events[-1]["captured"][0]) == 6


# ------------------------------------------------------------------ multi

def four_players(mode="multi", abilities=True, **extra):
    names = [("Dan", "dan", [("drago", "pyrus", 450), ("saurus", "pyrus", 360), ("serpenoid", "aquos", 340)], "pyrus"),
             ("Runo", "runo", [("tigrerra", "haos", 440), ("gargonoid", "haos", 350), ("falconeer", "ventus", 370)], "haos"),
             ("Marucho", "marucho", [("preyas", "aquos", 430), ("limulus", "aquos", 360),
                                     ("juggernoid", "subterra", 390)], "aquos"),
             ("Shun", "shun", [("skyress", "ventus", 440), ("mantris", "ventus", 330), ("stinglash", "darkus", 350)],
              "ventus")]
    players = []
    for name, k, baks, attr in names:
        p = {"name": name, "bakugan": [bak(*b) for b in baks],
             "gates": [gate(k + "-gold", **{attr: 100, "darkus": -40}), gate(k + "-silver", **{attr: 80}),
                       gate(k + "-copper", **{"subterra": 60, "pyrus": -20})]}
        if abilities:
            p["abilities"] = [ab(k + "-boost", g=80), ab(k + "-drain", opp_g=-60), ab(k + "-null", nullify_gate=True)]
        players.append(p)
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": 0, "players": players}
    h.update(extra)
    return h


def game_multi():
    t = Table(four_players())
    t.gate(0, "dan-gold", 5)               # the centre 2 x 2 block
    t.gate(1, "runo-gold", 6)
    t.gate(2, "marucho-gold", 10)
    t.gate(3, "shun-gold", 9)
    t.throw("drago", 6)
    t.throw("tigrerra", 6)
    t.ability(2, "marucho-boost", reject=True)   # not Marucho's battle
    t.ability(0, "dan-boost")              # 530 v 540
    t.resolve()                            # Runo 1
    t.throw("preyas", 10)
    t.throw("skyress", 10)
    t.ability(3, "shun-drain")             # preyas 470 v 440
    t.resolve()                            # Marucho 1
    t.throw("saurus", 9)
    t.throw("gargonoid", 5)
    t.throw("limulus", 9)                  # 360 v 360: the one that stood first wins
    t.resolve()                            # Dan 1
    t.throw("mantris", 5)
    t.resolve()                            # gargonoid 350 + 0 v 330: Runo 2; the field is empty
    t.gate(0, "dan-silver", 5)
    t.gate(1, "runo-silver", 6)
    t.gate(2, "marucho-silver", 10)
    t.gate(3, "shun-silver", 9)
    t.throw("serpenoid", 6)
    t.throw("falconeer", 6)
    t.resolve()                            # 370 v 340: Runo 3 wins
    return t


def test_multi(board):
    p = play(board, "multi", game_multi())
    turns = [e["player"] for e in p.all("turn")][:5]
    assert turns == [0, 1, 2, 3, 0]                               # clockwise
    assert p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["tigrerra", "preyas", "saurus", "gargonoid", "falconeer"]
    assert b[2]["power"] == {"limulus": 360, "saurus": 360}
    assert p.first("gates_needed")["players"] == [0, 1, 2, 3]
    assert p.first("win")["player"] == 1


# --------------------------------------------------- the Chinese variants

FOUR = [("Dan", "d", [("drago", "pyrus", 450), ("serpenoid", "aquos", 340), ("saurus", "pyrus", 360)]),
        ("Runo", "r", [("tigrerra", "haos", 440), ("falconeer", "ventus", 370), ("gargonoid", "haos", 350)]),
        ("Marucho", "m", [("preyas", "aquos", 430), ("limulus", "aquos", 360), ("juggernoid", "subterra", 390)]),
        ("Shun", "s", [("skyress", "ventus", 440), ("mantris", "ventus", 330), ("stinglash", "darkus", 350)])]


def cn_header(mode, cards, n=2, bakugan=None, abilities=None, **extra):
    """cards[i]: player i's cards as (bonus dict, hsp); ids d1, d2... r1..."""
    players = []
    for i in range(n):
        name, k, baks = FOUR[i]
        if bakugan is not None:
            baks = bakugan[i]
        p = {"name": name, "bakugan": [bak(*b) for b in baks],
             "gates": [dict(gate("%s%d" % (k, j + 1), hsp), bonus=dict(bonus)) for j, (bonus, hsp) in enumerate(cards[i])]}
        if abilities is not None:
            p["abilities"] = abilities[i]
        players.append(p)
    h = {"bakumat": "events", "version": 1, "mode": mode, "first": 0, "players": players}
    # The mat tells only about six magnets apart, so these games use small
    # sets: the header's kit lifts the sheet's counts (0: any), as players
    # with the sets they own would (docs/modes/README.md, "Header fields").
    h["kit"] = dict((k[0], 0) for k in referee.load(mode).KIT)
    h.update(extra)
    return h


def game_zhulu():
    cards = [[({"haos": 100}, 40), ({}, 20), ({}, 10)], [({"pyrus": 50}, 30), ({}, 20), ({}, 10)],
             [({"ventus": 20}, 30), ({}, 20), ({}, 10)], [({}, 30), ({}, 20), ({}, 10)]]
    t = Table(cn_header("zhulu", cards, n=4))
    t.gate(0, "d1", 5)                     # one card each on the battlefield
    t.gate(1, "r1", 6)
    t.gate(2, "m1", 10)
    t.gate(3, "s1", 9)
    t.throw("drago", 6)
    t.throw("tigrerra", 6)
    t.resolve()                            # drago 450 + 50 v 440
    t.gate(1, "r2", 6)                     # the loser refills
    t.throw("preyas", 5)
    t.throw("skyress", 5)
    t.resolve()                            # 440 v 430
    t.gate(2, "m2", 5)
    t.throw("serpenoid", 9)
    t.throw("falconeer", 10)
    t.throw("limulus", 9)
    t.resolve()                            # 360 v 340
    t.gate(0, "d2", 9)
    t.throw("mantris", 10)
    t.resolve()                            # 330 v 370 + 20
    t.gate(3, "s2", 10)
    t.throw("saurus", 5)                   # Dan's last Bakugan stands: he stays, skipped
    t.throw("gargonoid", 5)
    t.resolve()                            # 360 v 350: Dan (saurus out of play) and Runo
    #                                        (gargonoid seized) have lost all their Bakugan:
    #                                        both leave at once, Runo owes no refill
    t.throw("juggernoid", 6)               # Marucho's last Bakugan stands (on Runo's r2)
    t.throw("stinglash", 6)
    t.resolve()                            # 390 v 350: Marucho has lost all, Shun alone is left
    return t


def test_zhulu(board):
    p = play(board, "zhulu", game_zhulu())
    assert [e["player"] for e in p.all("turn")][:4] == [0, 1, 2, 3]
    assert [x["winner"] for x in p.all("battle")] == ["drago", "skyress", "limulus", "falconeer", "saurus",
                                                      "juggernoid"]
    assert p.first("seize", bakugan="tigrerra")["player"] == 0
    assert p.first("void", id="drago")["reason"] == "won a battle"
    # the losers of the last two battles lose their last Bakugan: they owe
    # no refill ("玩家输完爆丸或卡片则要退场")
    assert [(e["player"], e["zone"]) for e in p.all("refill")] == [(1, 6), (2, 5), (0, 9), (3, 10)]
    # a player leaves only when all their Bakugan are lost, not when the last
    # one stands on a card; then at once, both players of a battle that takes
    # the last of each, and the hand is void ("手中剩余的爆丸或卡片作废")
    assert [(e["player"], e["reason"]) for e in p.all("leave")] == [(0, "lost all their Bakugan"),
                                                                   (1, "lost all their Bakugan"),
                                                                   (2, "lost all their Bakugan"),
                                                                   (3, "lost all their Bakugan")]
    assert [e["id"] for e in p.all("void") if e["reason"] == "left the game"] == ["d3", "r3", "m3", "s3"]
    # Dan left first but scores most: tigrerra 440 + r1 30 + gargonoid 350 + m2 20
    assert p.first("score")["scores"] == [840, 360, 740, 470]
    assert p.first("win")["player"] == 0


CARDS2 = [[({"haos": 100}, 40), ({}, 20), ({}, 10)], [({"aquos": 100}, 30), ({}, 20), ({}, 10)]]


def game_shenghui():
    t = Table(cn_header("shenghui", CARDS2, abilities=[[ab("dan-support", g=100)], [ab("runo-support", g=80)]]))
    t.gate(0, "d1", 5)
    t.gate(1, "r1", 6)
    t.throw("drago", 6)
    t.throw("tigrerra", 6)                 # 440 v 450
    t.ability(0, "dan-support", reject=True)   # Dan is ahead
    t.ability(1, "runo-support")           # 520 v 450
    t.ability(0, "dan-support")            # 520 v 550
    t.resolve()
    t.gate(1, "r2", 6)
    t.throw("serpenoid", 6)
    t.throw("gargonoid", 6)                # 350 v 340 on Runo's own card: out of play
    t.resolve()
    t.gate(0, "d2", 6)
    t.throw("saurus", 5)                   # Dan's last Bakugan stands: he stays
    t.throw("falconeer", 5)                # 370 v 360: both have lost all their Bakugan
    t.resolve()                            # (saurus seized, falconeer out of play): both leave, the game ends
    return t


def test_shenghui(board):
    p = play(board, "shenghui", game_shenghui())
    assert "only when behind" in p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert b[0]["power"] == {"drago": 550, "tigrerra": 520} and b[0]["winner"] == "drago"
    assert p.first("capture", gate="r1")["player"] == 0           # the loser's card goes to the winner
    assert p.first("void", id="r2")["what"] == "card"             # the winner's own card is out of play
    # Dan loses his last Bakugan: he leaves at once, owing no refill (zhulu's rules)
    assert [(e["player"], e["zone"]) for e in p.all("refill")] == [(1, 6), (0, 6)]
    assert [(e["player"], e["reason"]) for e in p.all("leave")] == [(0, "lost all their Bakugan"),
                                                                   (1, "lost all their Bakugan")]
    assert p.first("score")["scores"] == [440 + 30, 340 + 360 + 40]
    assert p.first("win")["player"] == 1


def game_zhanguo():
    items = [[dict(ab("dan-item", g=120), attr="pyrus", command="blaze")],
             [dict(ab("runo-item", opp_g=-100), attr="haos", command="freeze")]]
    t = Table(cn_header("zhanguo", CARDS2, abilities=items))
    t.gate(0, "d1", 5)
    t.gate(1, "r1", 6)
    t.throw("serpenoid", 6)
    t.throw("falconeer", 6)                # 370 v 340 + 100
    t.ability(0, "dan-item", reject=True)  # a pyrus item, serpenoid is aquos: kept
    t.resolve()
    t.gate(1, "r2", 6)
    t.throw("drago", 5)
    t.throw("tigrerra", 5)                 # 440 + 100 v 450
    t.ability(0, "dan-item")               # pyrus drago 570
    t.ability(1, "runo-item")              # haos tigrerra, drago 470
    t.resolve()                            # 540 v 470
    t.gate(0, "d2", 5)
    t.throw("saurus", 6)                   # Dan's last Bakugan stands: he stays
    t.throw("gargonoid", 6)                # 350 v 360: both have lost all their Bakugan (saurus
    t.resolve()                            # out of play, gargonoid seized): both leave, no refill
    return t


def test_zhanguo(board):
    p = play(board, "zhanguo", game_zhanguo())
    assert "pyrus" in p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["serpenoid", "tigrerra", "saurus"]
    assert b[1]["power"] == {"drago": 470, "tigrerra": 540}       # both items: drago +120 -100
    assert [(e["player"], e["reason"]) for e in p.all("leave")] == [(0, "lost all their Bakugan"),
                                                                   (1, "lost all their Bakugan")]
    assert [(e["player"], e["zone"]) for e in p.all("refill")][-1] == (0, 5)  # none after the last battle
    assert p.first("score")["scores"] == [370 + 30 + 350 + 20, 450 + 40]
    assert p.first("win")["player"] == 0


# Three Bakugan and cards for Dan, two for Runo (the sheet: four each; the
# header's kit lifts the count): every battle takes one of each side, and the mat
# tells six magnets apart for sure only when the Bakugan that share a card
# can get the same polarity with no two alike (tests/vbtable.py); three
# pairs would need four of one polarity.
LONGHU_CARDS = [[({"pyrus": 50}, 40), ({}, 30), ({"haos": 30}, 20)], [({"haos": 50}, 40), ({}, 30)]]
LONGHU_BAKUGAN = [FOUR[0][2], FOUR[1][2][:2]]


def longhu_setup(t):
    for j, z in enumerate((12, 13, 14)):
        t.gate(0, "d%d" % (j + 1), z)      # player 0's row 12-15, player 1's 0-3
        if j < 2:
            t.gate(1, "r%d" % (j + 1), z - 12)
    for b, z in (("drago", 12), ("tigrerra", 0), ("serpenoid", 13), ("falconeer", 1), ("saurus", 14)):
        t.put(b, z)                        # pre-placed by hand during the set-up


def game_longhu():
    t = Table(cn_header("longhu", LONGHU_CARDS, bakugan=LONGHU_BAKUGAN), teach_zones=(5, 10))
    longhu_setup(t)
    t.throw("drago", 0)                    # 450 + 0 + 50 v 440 + 50 + 0
    t.resolve()
    t.miss("falconeer", roll=(5, 9))       # a failed attack: back on its own card by hand
    t.throw("saurus", 1)                   # 360 + 0 + 0 v 370 + 0 + 0: the defender wins
    t.resolve()                            # Runo has no Bakugan left on the field
    return t


def test_longhu(board):
    p = play(board, "longhu", game_longhu())
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["drago", "falconeer"]
    assert b[0]["power"] == {"drago": 500, "tigrerra": 490}       # both cards count for both
    assert p.first("capture", gate="d3")["player"] == 1           # the attacker lost: its own card goes
    assert p.first("void", id="d1")["what"] == "card"             # the winner's card is out of play
    assert p.first("miss")["bakugan"] == "falconeer"
    assert p.first("score")["scores"] == [440 + 40, 360 + 20]
    assert p.first("win")["player"] == 0


def game_longhu_support():
    sup = [[ab("dan-s1", g=100), ab("dan-s2", opp_g=-50)], [ab("runo-s1", g=60), ab("runo-s2", g=30)]]
    t = Table(cn_header("longhu_support", LONGHU_CARDS, bakugan=LONGHU_BAKUGAN, abilities=sup),
              teach_zones=(5, 10))
    longhu_setup(t)
    t.throw("drago", 0)                    # 500 v 490
    t.ability(0, "dan-s1", reject=True)    # Dan is ahead
    t.ability(1, "runo-s1")                # 500 v 550
    t.ability(0, "dan-s1")                 # 600 v 550
    t.resolve()
    t.throw("falconeer", 13)               # 370 v 340
    t.ability(0, "dan-s2")                 # falconeer 320
    t.resolve()                            # Runo has no Bakugan left on the field
    return t


def test_longhu_support(board):
    p = play(board, "longhu_support", game_longhu_support())
    assert "only when behind" in p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["drago", "serpenoid"]
    assert b[0]["power"] == {"drago": 600, "tigrerra": 550}
    assert b[1]["power"] == {"falconeer": 320, "serpenoid": 340}
    assert p.first("capture", gate="r2")["player"] == 0           # the attacker lost: its own card goes
    # "战斗过的胜方卡片也作废": the winner's card is out of play, the winner
    # goes back to its position (put there by hand) and stays in play
    assert p.first("void", id="d1")["reason"] == "the winner's card"
    assert p.first("move", bakugan="drago", to=12)["from"] == 0
    assert not [e for e in p.all("void") if e["what"] == "bakugan"]
    assert p.first("score")["scores"] == [440 + 40 + 370 + 30, 0]
    assert p.first("win")["player"] == 0


def game_normandy():
    items = [[dict(ab("dan-i1", g=80), attr="pyrus", command="blaze"),
              dict(ab("dan-i2", g=50), attr="pyrus", command="blaze")],
             [dict(ab("runo-i1", opp_g=-60), attr="haos", command="shield"),
              dict(ab("runo-i2", g=40), attr="ventus", command="gust")]]
    t = Table(cn_header("normandy", LONGHU_CARDS, bakugan=LONGHU_BAKUGAN, abilities=items), teach_zones=(5, 10))
    longhu_setup(t)
    t.throw("drago", 0)                    # 500 v 490
    t.ability(1, "runo-i1")                # haos tigrerra: drago 440
    t.ability(0, "dan-i1")                 # pyrus drago: 520
    t.ability(1, "runo-i2", reject=True)   # a ventus item, tigrerra is haos
    t.resolve()
    t.throw("falconeer", 14)               # 370 v 360 + 0 + 0
    t.ability(0, "dan-i2", reject=True)    # the same command twice
    t.resolve()                            # Runo has no Bakugan left on the field
    return t


def test_normandy(board):
    p = play(board, "normandy", game_normandy())
    rejects = [e["reason"] for e in p.all("reject")]
    assert len(rejects) == 2 and "ventus" in rejects[0] and "blaze" in rejects[1]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["drago", "falconeer"]
    assert b[0]["power"] == {"drago": 520, "tigrerra": 490}
    assert p.first("score")["scores"] == [440 + 40, 360 + 20]
    assert p.first("win")["player"] == 0


BEACH_CARDS = [[({}, 10), ({}, 20), ({}, 30), ({}, 5), ({}, 5)], [({}, 10), ({"haos": 50}, 20), ({}, 30), ({}, 5), ({}, 5)]]


def beach_setup(t):
    for j in range(3):
        t.gate(0, "d%d" % (j + 1), 4 + j)  # on the other side: player 0's cards on row 4-7
        t.gate(1, "r%d" % (j + 1), 8 + j)


def game_beach():
    # three Bakugan a side (the sheet: twelve; any number works)
    t = Table(cn_header("beach", BEACH_CARDS))
    beach_setup(t)
    t.throw("drago", 9)
    t.throw("tigrerra", 9)                 # 440 + 50 v 450
    t.resolve()
    t.gate(0, "d4", 9)                     # the loser refills
    t.throw("serpenoid", 5)
    t.miss("falconeer", roll=(11, 7))      # one throw per Bakugan: out of play
    t.throw("saurus", 5)                   # two of Dan's on one card: he takes it, both out of play;
    return t                               # his hand is empty: the end


def test_beach(board):
    p = play(board, "beach", game_beach())
    assert p.first("battle")["winner"] == "tigrerra"
    assert p.first("seize")["bakugan"] == "drago"
    assert p.first("void", id="falconeer")["what"] == "bakugan"   # a failed throw
    cap = p.first("capture", gate="d2")
    assert cap["player"] == 0                                     # his own card scores too
    assert p.first("void", id="serpenoid") and p.first("void", id="saurus")
    assert p.first("score")["scores"] == [20, 450 + 20]
    assert p.first("win")["player"] == 1


BEACH2_ITEMS = [[dict(ab("dan-fire", g=80), attr="pyrus", hsp=15), dict(ab("dan-water", g=60), attr="aquos", hsp=10),
                 dict(ab("dan-any", g=30), hsp=5)],
                [dict(ab("runo-light", g=70), attr="haos", hsp=15), dict(ab("runo-wind", g=50), attr="ventus", hsp=10),
                 dict(ab("runo-any", opp_g=-40), hsp=5)]]


def game_beach2():
    t = Table(cn_header("beach2", BEACH_CARDS, abilities=BEACH2_ITEMS))
    beach_setup(t)                         # the first item of each is set
    t.throw("drago", 9)
    t.throw("tigrerra", 9)                 # 440 + 50 v 450
    t.ability(0, "dan-fire", reject=True)  # the attacker chooses first
    t.ability(1, "runo-light")             # haos tigrerra 560
    t.ability(0, "dan-fire")               # pyrus drago 530
    t.resolve()                            # the loser's item is the winner's prize
    t.gate(0, "d4", 9)
    t.throw("serpenoid", 5)
    t.throw("falconeer", 5)
    t.ability(1, "runo-wind")              # ventus falconeer 420
    t.ability(0, "dan-water")              # aquos serpenoid 400
    t.resolve()
    t.gate(0, "d5", 5)
    t.throw("saurus", 8)                   # Dan's hand is empty: the end
    return t


def test_beach2(board):
    p = play(board, "beach2", game_beach2())
    assert "chooses first" in p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["tigrerra", "falconeer"]
    assert b[0]["power"] == {"drago": 530, "tigrerra": 560}
    assert [e["card"] for e in p.all("prize")] == ["dan-fire", "dan-water"]
    assert p.first("void", id="runo-light")["what"] == "item"
    assert p.first("score")["scores"] == [0, 450 + 20 + 15 + 340 + 20 + 10]
    assert p.first("win")["player"] == 1



def game_beach2_pass_item():
    t = Table(cn_header("beach2", BEACH_CARDS, abilities=BEACH2_ITEMS))
    beach_setup(t)
    t.ctl({"ev": "item", "player": 0, "card": "dan-any"})     # set another item, outside a battle
    t.throw("drago", 9)
    t.throw("tigrerra", 9)                 # 490 v 450
    t.ctl({"ev": "pass", "player": 1})     # the attacker plays no item
    t.ability(0, "dan-any")                # drago 480
    t.resolve()
    t.gate(0, "d4", 9)
    t.throw("serpenoid", 5)
    t.miss("falconeer")
    t.throw("saurus", 5)                   # two of Dan's on one card; his hand is empty: the end
    return t


def test_beach2_pass_item(board):
    p = play(board, "beach2_pass_item", game_beach2_pass_item())
    assert p.first("item", player=0)["card"] == "dan-any"
    assert p.first("pass")["player"] == 1
    assert p.first("battle")["power"] == {"drago": 480, "tigrerra": 490}
    assert p.first("prize")["card"] == "dan-any"
    assert p.first("capture", reason="double")["gate"] == "d2"
    assert p.first("win")["player"] == 1


def game_baolie():
    # four players; six Bakugan in all (the sheet: three each) so that the
    # mat tells them all apart
    cards = [[({"pyrus": 20}, 10), ({}, 20), ({}, 10), ({}, 5)], [({}, 30), ({}, 20), ({}, 10), ({}, 5)],
             [({"haos": 50}, 40), ({}, 20), ({}, 10), ({}, 5)], [({}, 30), ({}, 20), ({}, 10), ({}, 5)]]
    baks = [FOUR[0][2][:2], FOUR[1][2][:2], FOUR[2][2][:1], FOUR[3][2][:1]]
    t = Table(cn_header("baolie", cards, n=4, bakugan=baks, first=1), teach_zones=(0, 15))
    t.gate(0, "d1", 6)                     # each opening card in the opposite quadrant
    t.gate(1, "r1", 10)
    t.gate(2, "m1", 9)
    t.gate(3, "s1", 5)
    t.throw("tigrerra", 9)                 # Runo first, then clockwise
    t.throw("preyas", 6)                   # Marucho's only Bakugan stands: he stays, skipped
    t.throw("skyress", 5)                  # so does Shun
    t.throw("drago", 9)                    # 450 v 440 + 50 with the quadrant's card m1
    t.resolve()                            # the winner stays and takes drago and m1
    t.gate(0, "d2", 9)                     # the loser refills the quadrant
    t.throw("falconeer", 9)                # two of Runo's: he takes d2
    t.gate(1, "r2", 9)
    t.throw("serpenoid", 6)                # 340 v 430
    t.resolve()
    t.gate(0, "d3", 6)                     # Dan refills, then leaves: he has lost all his Bakugan
    t.throw("falconeer", 5)                # Runo 370 v Shun's skyress 440
    t.resolve()
    t.gate(1, "r3", 5)                     # nobody has a Bakugan in the hand: scored
    return t


def test_baolie(board):
    p = play(board, "baolie", game_baolie())
    assert [e["player"] for e in p.all("turn")][:4] == [1, 2, 3, 0]
    # standing on a card is not losing it (borrowed from zhulu: "玩家输完爆丸或卡片则要退场")
    assert [(e["player"], e["reason"]) for e in p.all("leave")] == [(0, "lost all their Bakugan")]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["tigrerra", "preyas", "skyress"]
    assert b[0]["power"] == {"drago": 450, "tigrerra": 490}
    assert p.first("capture", reason="double")["gate"] == "d2"
    assert p.first("pick")["options"] == ["tigrerra", "falconeer"]
    assert p.first("back")["bakugan"] == "falconeer"              # by default the one already there stays
    assert p.first("seize", bakugan="serpenoid")["player"] == 2
    score = p.first("score")
    assert score["reason"] == "no Bakugan left in any hand"
    assert score["scores"] == [0, 450 + 40 + 20, 340 + 10, 370 + 30]
    assert p.first("win")["player"] == 1


def game_compass():
    cards = [[({"aquos": 100}, 0), ({"aquos": 100}, 0)], [({}, 0), ({}, 0)]]
    t = Table(cn_header("compass", cards))
    t.gate(0, "d1", 5)                     # a battle card per quadrant (named by its base zone)
    t.gate(1, "r1", 6)
    t.gate(0, "d2", 10)
    t.gate(1, "r2", 9)
    t.throw("drago", 5)
    t.throw("tigrerra", 5)                 # 450 v 440
    t.resolve()                            # tigrerra back; the base cards turn: drago rides 5 -> 6
    t.throw("serpenoid", 10)
    t.throw("falconeer", 10)               # 340 + 100 v 370
    t.resolve()                            # drago 6 -> 10, serpenoid 10 -> 9
    t.throw("saurus", 5)                   # three of Dan's on three cards
    return t


def test_compass(board):
    p = play(board, "compass", game_compass())
    rot = p.all("rotate")
    assert len(rot) == 2 and rot[0]["moves"] == [[5, 6], [6, 10], [10, 9], [9, 5]]
    assert [x["winner"] for x in p.all("battle")] == ["drago", "serpenoid"]
    assert [e["bakugan"] for e in p.all("back")] == ["tigrerra", "falconeer"]
    # the players turned the cards by hand: each Bakugan seen leaving and
    # landing on its new zone, taken silently (no stand, no reject)
    assert [(e["bakugan"], e["zone"]) for e in p.all("stand")] == [
        ("drago", 5), ("tigrerra", 5), ("serpenoid", 10), ("falconeer", 10), ("saurus", 5)]
    assert p.first("win") == dict(p.first("win"), player=0, reason="3 Bakugan on 3 different cards")



def game_fortress():
    cards = [[({}, 0), ({}, 0), ({}, 0), ({"pyrus": 30}, 0), ({}, 0), ({}, 0)],
             [({}, 0), ({}, 0), ({}, 0), ({"pyrus": 20}, 0), ({}, 0), ({}, 0)]]
    t = Table(cn_header("fortress", cards), teach_zones=(1, 14))
    for p, zones in ((0, (12, 15, 9, 10)), (1, (3, 0, 6, 5))):
        for j, z in enumerate(zones):      # fortress, attack, defence, defence
            t.gate(p, "%s%d" % ("dr"[p], j + 1), z)
    t.throw("drago", 12)                   # every Bakugan enters at its own fortress
    t.throw("tigrerra", 3)
    t.throw("drago", 10)                   # fortress -> own defence card
    t.throw("tigrerra", 9)                 # fortress -> the opponent's defence: not a path, a failed throw
    t.throw("serpenoid", 12)
    t.throw("tigrerra", 5)                 # (put back on its fortress by hand first) -> own defence
    t.throw("drago", 5)                    # own defence -> the opponent's: 450 + 20 v 440
    t.resolve()                            # the winner stays, the loser refills the used-up card
    t.gate(1, "r5", 5)
    t.throw("falconeer", 3)
    t.throw("drago", 3)                    # the opponent's defence -> their fortress: 450 v 370
    t.resolve()                            # takes the fortress
    return t


def test_fortress(board):
    p = play(board, "fortress", game_fortress())
    assert p.first("miss")["bakugan"] == "tigrerra"               # not a path: it stays on its fortress
    moves = [(e["bakugan"], e["from"], e["to"]) for e in p.all("move")]
    assert moves == [("drago", 12, 10), ("tigrerra", 3, 5), ("drago", 10, 5), ("drago", 5, 3)]
    b = p.all("battle")
    assert [x["winner"] for x in b] == ["drago", "drago"]
    assert p.first("back")["bakugan"] == "tigrerra"
    assert p.first("void", id="r4")["what"] == "card"             # a defence card is used up
    assert p.first("refill") == dict(p.first("refill"), player=1, zone=5)
    w = p.first("win")
    assert w["player"] == 0 and "fortress" in w["reason"]


def game_snooker():
    cards = [[({}, 3), ({}, 1), ({}, 2)], [({}, 5), ({}, 1), ({}, 2)]]
    t = Table(cn_header("snooker", cards, shots=3), teach_zones=(1, 14))
    for gid, z in (("d1", 0), ("d2", 3), ("d3", 5), ("r1", 10), ("r2", 12), ("r3", 15)):
        t.gate(0 if gid[0] == "d" else 1, gid, z)   # the six pockets
    t.throw("drago", 0)                    # 3 points
    t.miss("serpenoid", roll=(13, 9))      # 0
    t.throw("saurus", 10)                  # 5; the round ends: the Bakugan come off the cards
    t.throw("tigrerra", 5)                 # 2
    t.throw("falconeer", 5)                # 2: no battles, several may stand on one card
    t.throw("tigrerra", 15)                # picked up from its card and shot again: 2
    return t


def test_snooker(board):
    p = play(board, "snooker", game_snooker())
    shots = [(e["player"], e["bakugan"], e["zone"], e["points"], e["total"], e["left"]) for e in p.all("shot")]
    assert shots == [(0, "drago", 0, 3, 3, 2), (0, "serpenoid", None, 0, 3, 1), (0, "saurus", 10, 5, 8, 0),
                     (1, "tigrerra", 5, 2, 2, 2), (1, "falconeer", 5, 2, 4, 1), (1, "tigrerra", 15, 2, 6, 0)]
    assert p.first("move") == dict(p.first("move"), bakugan="tigrerra", **{"from": 5, "to": 15})
    assert "battle" not in p.kinds()
    assert p.first("score")["scores"] == [8, 6]
    assert p.first("win")["player"] == 0


# ------------------------------------------- the official extras (options)

def game_extras_level():
    # game level: the levels (default 1) of the gate cards still in hand;
    # a level-limited ability only while its level >= the game level
    h = dan_runo(target=2)
    h["players"][0]["abilities"][1]["level"] = 3          # boosted-dragon
    t = Table(h)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-gold", 5)              # level 4
    t.throw("drago", 5)
    t.throw("tigrerra", 5)
    t.ability(0, "boosted-dragon", reject=True)            # 3 < 4
    t.resolve()                            # 420 v 540: Runo 1
    t.gate(0, "dan-silver", 9)             # level 3
    t.throw("saurus", 9)
    t.throw("falconeer", 9)
    t.ability(0, "boosted-dragon")         # 3 >= 3: saurus 460 v 370
    t.resolve()                            # Dan 1
    t.throw("serpenoid", 6)
    t.throw("gargonoid", 6)
    t.resolve()                            # 340 v 350: Runo 2 wins
    return t


def test_extras_level(board):
    p = play(board, "extras_level", game_extras_level())
    assert "level" in p.first("reject", input="ability")["reason"]
    b = p.all("battle")
    assert b[1]["power"] == {"falconeer": 370, "saurus": 460}
    assert [x["winner"] for x in b] == ["tigrerra", "saurus", "gargonoid"]
    assert p.first("win")["player"] == 1


def game_extras_pure():
    h = dan_runo(target=1)
    h["players"][0]["bakugan"][1] = bak("clear-wolfurio", "darkus", 330, pure=True)
    h["players"][0]["gates"][0]["bonus"] = {"pyrus": 100, "darkus": -50, "haos": 120}
    t = Table(h)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-gold", 5)
    t.miss("drago")
    t.throw("tigrerra", 6)
    t.throw("clear-wolfurio", 6)           # pure: takes tigrerra's haos (+120, not darkus -50)
    t.ability(0, "boosted-dragon")         # 330 + 120 + 100 v 440 + 120
    t.ability(0, "fire-wall")              # tigrerra - 50
    t.resolve()
    return t


def test_extras_pure(board):
    p = play(board, "extras_pure", game_extras_pure())
    b = p.first("battle")
    assert b["parts"]["clear-wolfurio"] == [330, 120, 100]
    assert b["winner"] == "clear-wolfurio"
    assert p.first("win")["player"] == 0


# Extras driven by control events the board's link does not take yet
# (firmware/runtime/requests.py CONTROLS): these xfail until it does.

def game_extras_traps_gear():
    h = dan_runo(target=1, season=3)
    h["players"][0]["traps"] = [{"id": "scorpion", "attr": "pyrus", "effect": {"g": 80}}]
    h["players"][0]["gear"] = [{"id": "battle-crusher", "g": 60, "attr": "pyrus", "colour": "silver",
                                "extra": {"opp_g": -100}}]
    h["players"][1]["traps"] = [{"id": "haos-freezer", "attr": "haos", "effect": {"attr": "ventus"}}]
    t = Table(h)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-silver", 5)
    t.throw("serpenoid", 6)
    t.throw("falconeer", 5)
    t.throw("drago", 5)                    # 450 + 0 v 370 + 90
    t.ctl({"ev": "gear", "player": 0, "gear": "battle-crusher", "extra": True})   # +60, falconeer -100
    t.ctl({"ev": "trap", "player": 0, "trap": "scorpion"})                        # +80
    t.ctl({"ev": "trap", "player": 1, "trap": "haos-freezer"}, reject=True)       # falconeer is ventus
    t.resolve()
    return t


def test_extras_traps_gear(board):
    p = play(board, "extras_traps_gear", game_extras_traps_gear())
    assert p.first("gear")["g"] == 60 and p.first("trap")["g"] == 80
    assert p.first("battle")["power"] == {"drago": 590, "falconeer": 360}
    assert p.first("win")["player"] == 0


def game_extras_evolution():
    h = dan_runo(target=1)
    h["players"][0]["evolutions"] = [{"from": "drago", "to": {"id": "delta-drago", "attr": "pyrus", "g": 550},
                                      "level": 4}]
    t = Table(h)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-gold", 5)              # level 4
    t.ctl({"ev": "evolve", "player": 0, "bakugan": "drago"})   # Dan skips his turn
    t.throw("tigrerra", 5)
    t.throw("delta-drago", 5)              # 550 - 30 v 440 + 100
    t.ability(0, "fire-wall")
    t.resolve()
    return t


def test_extras_evolution(board):
    p = play(board, "extras_evolution", game_extras_evolution())
    assert p.first("evolve") == dict(p.first("evolve"), **{"from": "drago", "to": "delta-drago"})
    assert p.first("battle")["power"] == {"delta-drago": 520, "tigrerra": 490}
    assert p.first("win")["player"] == 0


def game_extras_pure_choice():
    h = dan_runo(target=1)
    h["players"][0]["bakugan"][1] = bak("clear-wolfurio", "darkus", 330, pure=True)
    h["players"][1]["bakugan"][1] = bak("clear-angelo", "haos", 320, pure=True)
    h["players"][1]["gates"][1]["bonus"] = {"ventus": 90, "aquos": 40, "subterra": 70}
    t = Table(h)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-silver", 5)
    t.throw("clear-wolfurio", 5)
    t.throw("clear-angelo", 5)             # both pure: each chooses a colour
    t.ctl({"ev": "pure", "player": 1, "attr": "subterra"})
    t.ctl({"ev": "pure", "player": 0, "attr": "ventus"})
    t.resolve()                            # 330 + 90 v 320 + 70
    return t


def test_extras_pure_choice(board):
    p = play(board, "extras_pure_choice", game_extras_pure_choice())
    assert [(e["player"], e["attr"]) for e in p.all("pure")] == [(1, "subterra"), (0, "ventus")]
    assert p.first("battle")["power"] == {"clear-angelo": 390, "clear-wolfurio": 420}
    assert p.first("win")["player"] == 0


def game_compass_pick_reveal():
    cards = [[({}, 0), ({"aquos": 100}, 0)], [({}, 0), ({}, 0)]]
    # Tigrerra down, like serpenoid, drago and falconeer: turning the cards,
    # the players lift serpenoid off zone 5, then tigrerra off zone 9 beside
    # it, and an up-polarity tigrerra's leaving was read as serpenoid landing
    # on zone 9 (none of seeds 1-20 played). Its moment is a fourth down one,
    # 1.27 or more from the others'.
    t = Table(cn_header("compass", cards), magnets={"tigrerra": ("down", 0.026)})
    t.gate(0, "d1", 5)
    t.gate(1, "r1", 6)
    t.gate(0, "d2", 10)
    t.gate(1, "r2", 9)
    t.throw("drago", 5)
    t.throw("tigrerra", 9)
    t.throw("serpenoid", 5)                # two of Dan's on one card: which stays?
    t.ctl({"ev": "pick", "player": 0, "bakugan": "serpenoid"})   # drago goes back
    t.throw("falconeer", 10)
    t.throw("drago", 10)                   # battle on d2
    t.ctl({"ev": "reveal", "player": 0, "gate": "d2", "bonus": {"pyrus": 50}})   # turned over: pyrus +50
    t.resolve()                            # 500 v 370; the cards turn: serpenoid 6, drago 9
    t.miss("gargonoid")
    t.throw("saurus", 10)                  # three of Dan's on three cards
    return t


def test_compass_pick_reveal(board):
    p = play(board, "compass_pick_reveal", game_compass_pick_reveal())
    assert p.first("picked") == dict(p.first("picked"), player=0, bakugan="serpenoid")
    assert p.first("back")["bakugan"] == "drago"
    assert p.first("battle")["power"] == {"drago": 500, "falconeer": 370}
    assert p.first("win")["player"] == 0



# ------------------------------------------------- Bakugan of both polarities

def game_opposite_polarity():
    t = Table(dan_runo(target=1), polarity={"drago": "down", "tigrerra": "up"}, mixed=True)
    t.gate(0, "dan-gold", 6)
    t.gate(1, "runo-gold", 5)
    t.throw("drago", 5)
    t.throw("tigrerra", 5)                 # lands where a Bakugan of the other polarity stands
    t.resolve()
    return t


# Once an xfail: the arrival cancelled much of the standing one's field and
# was read as that one leaving (docs/sensing-pipeline.md, the leave hold and
# the sign check). tests/vbtable.py still gives Bakugan that share a card one
# polarity by default.
def test_opposite_polarity_battle(board):
    p = play(board, "opposite_polarity", game_opposite_polarity())
    assert p.first("battle")["winner"] == "tigrerra"


# ------------------------------------------------------------ figures

def _trial(board, name, heapsize=None, mpy_dir=None):
    """(ok, why, figures row) for one game."""
    n = len(FIGURES)
    try:
        play(board, name, globals()["game_" + name](), heapsize=heapsize, mpy_dir=mpy_dir)
        ok, why = True, ""
    except pytest.xfail.Exception as e:
        ok, why = False, "xfail: %s" % e
    except (AssertionError, UserError) as e:
        ok, why = False, str(e).splitlines()[0][:100]
    return ok, why, FIGURES[n] if len(FIGURES) > n else None


def main(argv=None):
    """python tests/host/test_modes_vboard.py [--heap] [GAME ...]: play the
    games on the virtual board and print the figures; --heap also finds
    each game's smallest heap (-X heapsize, 4 KB steps) with the firmware
    compiled to .mpy as `bakumat deploy` puts it on a board."""
    import argparse
    import tempfile
    from host_tools.device import mpybuild
    ap = argparse.ArgumentParser(description=main.__doc__.split("\n\n")[0])
    ap.add_argument("--heap", action="store_true", help="find the smallest heap per game")
    ap.add_argument("games", nargs="*", help="game names (default: all): " + ", ".join(GAMES))
    args = ap.parse_args(argv)
    board = boards.load(BOARD)
    names = args.games or GAMES
    with tempfile.TemporaryDirectory(prefix="bakumat-mpy-") as mpy:
        if args.heap:
            mpybuild.build(mpy)
        print("%-22s %6s %7s %7s %8s %9s  %s" % ("game", "wall s", "board s", "events", "phantoms",
                                                  "heap KB" if args.heap else "", "notes"))
        for name in names:
            ok, why, row = _trial(board, name)
            small = ""
            if ok and args.heap:
                lo, hi = 8, None
                k = 32
                while k <= 1024 and hi is None:
                    if _trial(board, name, "%dK" % k, mpy)[0]:
                        hi = k
                    else:
                        lo = k
                        k *= 2
                while hi is not None and hi - lo > 4:
                    mid = (lo + hi) // 2 // 4 * 4
                    if mid <= lo:
                        break
                    if _trial(board, name, "%dK" % mid, mpy)[0]:
                        hi = mid
                    else:
                        lo = mid
                small = "%d" % hi if hi is not None else "> 1024"
            if row is None:
                print("%-22s %s" % (name, why))
                continue
            print("%-22s %6.2f %7.1f %7d %8s %9s  %s" % (name, row[2], row[3], row[4],
                                                        row[6] if len(row) > 6 else "-", small, why), flush=True)
    return 0


GAMES = [k[5:] for k in list(globals()) if k.startswith("game_")]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
