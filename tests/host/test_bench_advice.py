"""The sensing benchmark's players (host_tools/bench/bench_sensing.py):
the thrower asked answers about their own Bakugan on the zone, and
players who take the mat's advice swap a Bakugan a lesson says reads
alike one of their own."""
from host_tools.bench import bench_sensing as bs


def header():
    return {"players": [{"bakugan": [{"id": "drago"}, {"id": "tigrerra"}, {"id": "preyas"}]},
                        {"bakugan": [{"id": "gorem"}, {"id": "skyress"}, {"id": "hydranoid"}]}]}


def test_alike_pairs_are_only_a_players_own():
    sensed = [{"ev": "land", "learned": True, "bakugan": "tigrerra", "alike": ["drago", "gorem"]},
              {"ev": "land", "learned": True, "bakugan": "skyress", "alike": ["preyas"]},
              {"ev": "land", "bakugan": "preyas", "alike": ["drago"]}]   # (a throw, not a lesson)
    assert bs.alike_pairs(header(), sensed) == [(0, "tigrerra", "drago")]
    assert bs.own_alike(header(), sensed)
    assert not bs.own_alike(header(), sensed[1:])


def test_a_swap_takes_the_one_taught_for_one_from_the_box():
    h = header()
    pairs = [(0, "tigrerra", "drago"), (0, "preyas", "drago"), (1, "skyress", "gorem")]
    out = bs.swapped(h, pairs, 7, 0)
    before = set(b["id"] for pl in h["players"] for b in pl["bakugan"])
    ids = [[b["id"] for b in pl["bakugan"]] for pl in out["players"]]
    # one swap a player a round: player 0's tigrerra and player 1's skyress
    assert ids[0][0] == "drago" and ids[0][2] == "preyas" and ids[0][1] not in before
    assert ids[1][0] == "gorem" and ids[1][2] == "hydranoid" and ids[1][1] not in before
    assert ids[0][1] != ids[1][1]
    assert h["players"][0]["bakugan"][1]["id"] == "tigrerra"     # (the header given is not changed)
    assert bs.swapped(header(), pairs, 7, 0) == out               # the seed decides



def test_bench_sensing_quick_is_the_development_corpus_landings_only():
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-m", "host_tools.cli", "bench", "sensing", "--quick", "--games", "1"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert out.startswith("quick: 1 games of the development corpus, landings only"), out[:200]
    assert "development corpus, 1 simulated games" in out and "held-out" not in out
    assert "(--detection: the identity modes were not played" in out
