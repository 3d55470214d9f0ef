"""A game of Juggernauts set up for a test: new, the Commanders picked."""

from arbiter_referee.compiled import loaded
from helpers import REPO
from helpers.game import new_game

FULL = REPO / "rulesets" / "juggernauts.json"
RULES = loaded(FULL.read_text())


def new(seed=1, players=None, **options):
    return new_game(RULES, seed, players, options)


def started(seed=1, dice=("d6", "d8"), **options):
    g = new(seed, players=len(dice), **options)
    for i, die in enumerate(dice):
        g.apply("commander P%d %s" % (i + 1, die))
    return g
