"""A game of Colossal Kaiju Combat set up for a test: new, and what moves it on."""

import json

from arbiter_referee.rulesets import bundled
from helpers.game import new_game, piece_state

DATA = json.loads(bundled()["kaiju"].read_text())  # as written: loaded by new_game


def new(players=2, seed=1, actions=()):
    return new_game(DATA, seed, players, actions=actions)


def passing(g):
    """What moves a game on: in planning the player passes, in select the player's
    first conscious kaiju goes into the city, in any other phase next."""
    phase, p = g.phase()["name"], g.active_player()
    if phase == "planning":
        return "pass " + p
    if phase == "select":
        first = next(k for k in g.piece_keys(p) if piece_state(g, k)["ko"] == 0)
        return "active %s %s" % (p, first.split(".")[1])
    return "next"
