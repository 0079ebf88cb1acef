"""One list of game modes for every command (host_tools/modes.py): `game
modes`, `game new --mode`, `demo`, `record`, `deploy --mode`; `extras` is
the official game with the extra cards; `demo --sample --mode M` plays M's
sample or refuses."""
import argparse
import subprocess

import pytest

from host_tools import modes
from host_tools.commands import deploy, game
from host_tools.errors import UserError
from mptools import tool


def bakumat(*args):
    return subprocess.run([tool("bakumat")] + list(args), capture_output=True, text=True, timeout=120)


def test_one_list_everywhere():
    names = modes.names()
    assert "extras" in names and "official" in names and "big" in names
    assert deploy.game_modes() == names
    r = bakumat("game", "modes")
    assert r.returncode == 0 and r.stdout.split() == names
    r = bakumat("demo", "--mode", "nosuch")
    assert r.returncode == 2 and "known: %s" % ", ".join(names) in r.stderr


def test_extras_is_the_official_game_with_the_extra_cards():
    ns = argparse.Namespace(deck=[], mode="extras", first=None, target=None)
    h = game.build_header(ns)
    assert h["mode"] == "official" and "season" in h
    game.check_header(h)        # the referee takes it


def test_demo_sample_plays_the_modes_own_sample_or_refuses():
    big = bakumat("demo", "--sample", "--mode", "big", "--json")
    official = bakumat("demo", "--sample", "--json")
    assert big.returncode == 0 and official.returncode == 0
    assert big.stdout != official.stdout
    with open(modes.sample_path("big")) as f:
        n_inputs = sum(1 for line in f if line.strip()) - 1
    assert len(big.stdout.splitlines()) >= n_inputs // 2
    r = bakumat("demo", "--mode", "zhulu", "--speed", "0")
    assert r.returncode == 2 and "bakumat demo --sample --mode zhulu" in r.stderr
    with pytest.raises(UserError):
        modes.check("chess")
