"""Scenario scripts: what parses, and errors that name the line."""
import pytest

from host_tools import boards, sim

FULL = """
# a little game
bakugan drago moment 0.025 polarity down height 3.2 tilt 8
gate 0 dan-gold on zone 4 at 0.5s
gate 1 runo-gold on zone 8 at 900ms
register drago on zone 4 at 1s
place drago on zone 4, at (5, -10) mm
remove drago
throw drago -> zone 4 at 6.0s, opens at (12, -8) mm
roll tigrerra across zones 1,2 and off
miss tigrerra
throw tigrerra -> zone 4 from player 1 tilt 15
ability 0 fire-wall
resolve
remove zone 4
card off zone 4
bounce falconeer on zone 8
choose 1 take zone 8
event {"ev": "choose", "player": 0, "action": "move", "zone": 5} at 30s
fault ch 17 stuck 4095
fault ch 3 dead
idle 10s
gap 0.5s
roll serpenoid over zone 9 and stop
"""


def test_full_script_parses_in_order():
    sc = sim.parse_scenario(FULL)
    kinds = [a["kind"] for a in sc.actions]
    assert kinds == ["control", "control", "control", "place", "remove", "throw", "roll", "control", "throw",
                     "control", "control", "remove", "card", "bounce", "control", "control", "fault", "fault",
                     "idle", "roll"]
    ts = [a["t"] for a in sc.actions]
    assert ts == sorted(ts)
    assert ts[:3] == [500, 900, 1000]
    throw = sc.actions[5]
    assert throw["t"] == 6000 and throw["zone"] == 4 and throw["pos"] == (12.0, -8.0) and throw["bakugan"] == "drago"
    assert sc.actions[8]["side"] == 1 and sc.actions[8]["tilt"] == 15.0
    assert sc.actions[6]["zones"] == [1, 2] and sc.actions[6]["off"] is True
    assert sc.actions[-1]["off"] is False and sc.actions[-1]["zones"] == [9]
    assert sc.actions[-1]["t"] == sc.actions[-2]["t"] + 10000 + 500  # after the idle, with the new gap
    assert sc.bakugan == {"drago": {"moment": 0.025, "polarity": -1, "height": 3.2, "tilt": 8.0}}
    assert sc.actions[0]["ev"] == {"ev": "gate", "player": 0, "gate": "dan-gold", "zone": 4}
    assert sc.actions[14]["ev"] == {"ev": "choose", "player": 1, "action": "take", "zone": 8}
    assert sc.actions[15]["t"] == 30000
    assert sc.actions[16] ["ch"] == 17 and sc.actions[16]["mode"] == "stuck" and sc.actions[16]["value"] == 4095


def test_full_script_runs(tmp_path):
    b = boards.load("reference")
    res = sim.run(b, sim.parse_scenario(FULL), seed=2)
    evs = [(e["ev"], e["bakugan"]) for e in res.truth if e["ev"] != "roll"]
    assert evs == [("open", "drago"), ("leave", "drago"), ("open", "drago"), ("open", "tigrerra"),
                   ("leave", "drago"), ("leave", "tigrerra")]
    assert res.truth[0]["lesson"] is True and "lesson" not in [k for e in res.truth[2:] for k in e]
    assert [c["ev"] for c in res.controls] == ["gate", "gate", "register", "miss", "ability", "resolve", "choose",
                                               "choose"]
    # the stuck and dead channels read their fault value from the fault on
    faults = {a["ch"]: a["t"] for a in sim.parse_scenario(FULL).actions if a["kind"] == "fault"}
    for t, v in res.frames:
        if t >= faults[17]:
            assert v[17] == 4095
        if t >= faults[3]:
            assert v[3] == 0
        elif t < faults[17]:
            assert v[3] > 1000 and v[17] < 3000
    # the closed ball that stopped on zone 9 stays there till the end: zone 9 sees it
    rolls = [e for e in res.truth if e["ev"] == "roll" and e["bakugan"] == "serpenoid"]
    assert rolls and rolls[-1]["zone"] == 9


@pytest.mark.parametrize("text, line, words", [
    ("gate 0 dan-gold on zone 4\nfly drago to zone 3\n", 2, "unknown action 'fly'"),
    ("gate 0 dan-gold on zone 4 at 2s\nthrow drago -> zone 4 at 1s\n", 2, "earlier than the previous"),
    ("\n\nthrow drago zone 4\n", 3, "throw: expected"),
    ("roll drago across zones and off\n", 1, "roll: expected"),
    ("remove\n", 1, "remove: expected"),
    ("idle forever\n", 1, "duration"),
    ("bakugan drago moment strong\n", 1, "bad number"),
    ("bakugan drago polarity sideways\n", 1, "polarity"),
    ("bakugan drago colour red\n", 1, "unknown property"),
    ("set loudness 3\n", 1, "set: expected"),
    ("fault ch 3 stuck\n", 1, "stuck"),
    ("choose 0 move\n", 1, "needs `zone N`"),
    ("event {\"ev\": resolve}\n", 1, "not valid JSON"),
    ("event {\"ev\": \"land\", \"zone\": 1, \"bakugan\": \"drago\"}\n", 1, "never a control"),
    ("resolve now\n", 1, "resolve: unexpected"),
])
def test_parse_errors_name_the_line(text, line, words):
    with pytest.raises(sim.ScenarioError) as e:
        sim.parse_scenario(text)
    assert e.value.line == line
    assert words in str(e.value)
    assert str(e.value).startswith("line %d: " % line)


@pytest.mark.parametrize("text, line, words", [
    ("throw drago -> zone 4 at 1s\n", 1, "no gate card lies on zone 4"),
    ("card on zone 40\n", 1, "zones 0..15, not 40"),
    ("card on zone 4\nthrow drago -> zone 4, opens at (40, 0) mm\n", 2, "outside zone 4"),
    ("card on zone 4\nremove zone 4\n", 2, "nothing stands on zone 4"),
    ("remove drago\n", 1, "drago is not standing"),
    ("card on zone 4\nplace drago on zone 4\nplace drago on zone 4\n", 3, "already stands on zone 4"),
    ("fault ch 96 dead\n", 1, "channels 0..95"),
    ("roll drago across zones 3, 99 and off\n", 1, "not 99"),
])
def test_run_errors_name_the_line(text, line, words):
    b = boards.load("reference")
    with pytest.raises(sim.ScenarioError) as e:
        sim.run(b, sim.parse_scenario(text))
    assert e.value.line == line and words in str(e.value)
