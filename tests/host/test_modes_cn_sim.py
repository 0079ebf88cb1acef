"""Variant modes on the virtual board: scripted games played from simulated
sensor frames plus control events only (raw log -> the board's sensing
pipeline and referee, host_tools/logs/rawreplay.py), to the end."""
import io
import json

from host_tools import boards, sim
from host_tools.bench.bench_sensing import with_detector
from host_tools.logs import rawreplay

# the reference board with its nominal world's kernel table: the raw log's
# header names that world, and the replay fits with the same table
BOARD = with_detector(boards.load(boards.REFERENCE))

MAGNETS = """
bakugan drago moment 0.035 polarity down
bakugan serpenoid moment 0.020 polarity up
bakugan saurus moment 0.028 polarity down
bakugan tigrerra moment 0.036 polarity up
bakugan falconeer moment 0.018 polarity down
bakugan gargonoid moment 0.027 polarity up
"""

# Each Bakugan is taught on a spare card first (register, put down, lift).
TEACH = """
card on zone 12 at 5s
card on zone 15
register drago on zone 12 at 7s
place drago on zone 12
remove drago
register serpenoid on zone 12
place serpenoid on zone 12
remove serpenoid
register saurus on zone 12
place saurus on zone 12
remove saurus
register tigrerra on zone 15
place tigrerra on zone 15
remove tigrerra
register falconeer on zone 15
place falconeer on zone 15
remove falconeer
register gargonoid on zone 15
place gargonoid on zone 15
remove gargonoid
card off zone 12
card off zone 15
"""


def players(cards0, cards1):
    return [
        {"name": "Dan", "bakugan": [{"id": "drago", "attr": "pyrus", "g": 450},
                                    {"id": "serpenoid", "attr": "aquos", "g": 340},
                                    {"id": "saurus", "attr": "pyrus", "g": 360}], "gates": cards0},
        {"name": "Runo", "bakugan": [{"id": "tigrerra", "attr": "haos", "g": 440},
                                     {"id": "falconeer", "attr": "ventus", "g": 370},
                                     {"id": "gargonoid", "attr": "haos", "g": 350}], "gates": cards1},
    ]


def landed(out):
    """The referee's `stand` events, less those taken back: the sensing's
    early guess amended by `ident` is a `stand` then an `undo` of it."""
    stands = []
    for o in out:
        if o["ev"] == "stand":
            stands.append(o)
        elif o["ev"] == "undo" and o.get("undone") == "land" and stands:
            stands.pop()
    return stands


def play(tmp_path, header, script, seed=1):
    res = sim.run(BOARD, sim.parse_scenario(MAGNETS + script), seed=seed, header=header)
    path = tmp_path / ("%s.raw.ndjson" % header["mode"])
    path.write_text("\n".join(res.raw_lines(header)) + "\n")
    out = io.StringIO()
    rawreplay.replay_raw(str(path), "json", out=out)
    return [json.loads(line) for line in out.getvalue().splitlines()], res


def test_zhulu_plays_to_the_end_from_frames(tmp_path):
    header = {"bakumat": "events", "version": 1, "mode": "zhulu", "first": 0, "players": players(
        [{"id": "d1", "bonus": {"haos": 100}, "hsp": 40}, {"id": "d2", "bonus": {}, "hsp": 20},
         {"id": "d3", "bonus": {}, "hsp": 10}],
        [{"id": "r1", "bonus": {"aquos": 100}, "hsp": 30}, {"id": "r2", "bonus": {}, "hsp": 20},
         {"id": "r3", "bonus": {}, "hsp": 10}])}
    script = """
gate 0 d1 on zone 5 at 0.5s
gate 1 r1 on zone 6 at 1s
""" + TEACH + """
throw drago -> zone 5 at 40s
throw tigrerra -> zone 5 from player 1
resolve
remove zone 5
card off zone 5
gate 0 d2 on zone 5
throw serpenoid -> zone 6
throw falconeer -> zone 6 from player 1
resolve
remove zone 6
card off zone 6
gate 1 r2 on zone 6
throw saurus -> zone 5
throw gargonoid -> zone 5 from player 1
resolve
"""
    out, res = play(tmp_path, header, script)
    kinds = [o["ev"] for o in out]
    assert "reject" not in kinds, [o for o in out if o["ev"] == "reject"]
    # every throw was sensed as a landing on the right zone
    stands = [o["zone"] for o in landed(out)]
    assert stands == [5, 5, 6, 6, 5, 5]
    # the first two losers still have Bakugan: they refill; the last
    # battle takes the last Bakugan of both (saurus out of play after
    # winning, gargonoid seized): "玩家输完爆丸或卡片则要退场" - both leave at
    # once, no refill is waited for, and with nobody left holding both
    # ("当只剩一位玩家同时有爆丸和卡片时，该局游戏结束") the game is scored
    assert kinds.count("battle") == 3 and kinds.count("refill") == 2
    leaves = [o for o in out if o["ev"] == "leave"]
    assert [(o["player"], o["reason"]) for o in leaves] == [(0, "lost all their Bakugan"),
                                                            (1, "lost all their Bakugan")]
    assert kinds.index("leave") > len(kinds) - 10
    score = out[kinds.index("score")]
    assert score["reason"] == "no player left"
    # Dan seized falconeer and gargonoid, captured r1 and d2; Runo drago and d1
    assert score["scores"] == [370 + 350 + 30 + 20, 450 + 40]
    assert out[-1]["ev"] == "end" and out[-1]["winner"] == 0


def test_compass_turns_and_is_won_from_frames(tmp_path):
    header = {"bakumat": "events", "version": 1, "mode": "compass", "first": 0, "players": players(
        [{"id": "d1", "bonus": {}}, {"id": "d2", "bonus": {}}],
        [{"id": "r1", "bonus": {}}, {"id": "r2", "bonus": {}}])}
    script = """
gate 0 d1 on zone 5 at 0.5s
gate 1 r1 on zone 6
gate 0 d2 on zone 10
gate 1 r2 on zone 9
""" + TEACH + """
throw drago -> zone 5 at 40s
throw tigrerra -> zone 5 from player 1
resolve
remove tigrerra
# the base cards turn one quadrant clockwise: drago rides from 5 to 6
remove drago
place drago on zone 6
throw serpenoid -> zone 10
throw falconeer -> zone 9 from player 1
throw saurus -> zone 5
"""
    out, res = play(tmp_path, header, script)
    kinds = [o["ev"] for o in out]
    rot = out[kinds.index("rotate")]
    assert rot["moves"] == [[5, 6], [6, 10], [10, 9], [9, 5]]
    # Putting drago down on its new zone: the referee offered drago to
    # identification (expects) and takes the landing as a silent
    # confirmation, not a throw (docs/modes/compass.md).
    assert "reject" not in kinds, [o for o in out if o["ev"] == "reject"]
    assert [(o["bakugan"], o["zone"]) for o in landed(out)] == [
        ("drago", 5), ("tigrerra", 5), ("serpenoid", 10), ("falconeer", 9), ("saurus", 5)]
    assert out[kinds.index("win")] == {"ev": "win", "t": out[kinds.index("win")]["t"], "player": 0,
                                       "reason": "3 Bakugan on 3 different cards"}
    assert out[-1]["winner"] == 0
