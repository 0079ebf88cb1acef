"""Magnetic simulator of the mat (CPython only): scenarios in, ADC frames,
control events and ground truth out.

    from host_tools import sim, boards
    board = boards.load("reference")
    sc = sim.parse_scenario(text)              # raises sim.ScenarioError(line, msg)
    sc = sim.random_game(seed, board, header)  # a plausible official game
    res = sim.run(board, sc, seed=0, header=None)
    res.frames      # [(t_ms, [counts in channel order])] at board["rate_hz"]
    res.controls    # control events (gate, miss, ability, resolve, choose, register) with "t"
    res.truth       # [{"t", "ev": "open"|"leave"|"roll", "zone", "bakugan", "x", "y"}], time order;
                    # an open that answers a `register` has "lesson": True (not a throw);
                    # roll: each zone a ball crosses without opening, zone None when it leaves the mat,
                    # "card": True when that zone has a card; an open has "crossed" (the zones whose
                    # cards its throw rolled over) and "on" (the Bakugan already standing there) if any
    res.clipped     # {channel: [[t_first, t_last]]}: runs of frames a magnet drove it to 0 or max_counts
    res.raw_lines(header)   # raw log v1 lines
    res = sim.run_stable(board, sc, seed, header, until=ms)  # a growing game: the frames
                    # already played stay the same (the live demo renders as it goes)
    gen = sim.GameGen(rng, board, sim.game_header(rng, header), opts)  # the game generator;
                    # a subclass plays a side its own way through its hooks (the demo's players)

Physics and the numbers behind the defaults: hardware/sensing-physics.md.
"""
from host_tools.sim.scenario import Scenario, ScenarioError
from host_tools.sim.scenario import parse as parse_scenario
from host_tools.sim.world import SimResult, run, run_stable
from host_tools.sim.game import GameGen, game_header
from host_tools.sim.bakugan import default_props

__all__ = ("Scenario", "ScenarioError", "parse_scenario", "run", "run_stable", "SimResult", "random_game",
           "GameGen", "game_header", "default_props", "idle_frames")


def random_game(seed, board, header=None, **options):
    from host_tools.sim.game import random_game as _rg
    return _rg(seed, board, header, **options)


def idle_frames(board, seconds, seed=0, settings=None):
    from host_tools.sim.game import idle_frames as _idle
    return _idle(board, seconds, seed, settings)
