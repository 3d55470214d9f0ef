"""A game of Jugger TTG set up for a test: new, to a side's turn, named seeds."""

import pytest

from arbiter.game import Illegal
from helpers.game import apply, named, new_game, next_until, notes, rolls


def new(seed=1, length="short", data=None):
    """A game of Jugger (of ``data``, a changed copy of it), short unless told."""
    return new_game(data or "jugger", seed, options={"length": length})


def to_turn(g, player, voa):
    """``next`` until it is ``player``'s activation at Reflexes ``voa``."""
    return next_until(g, lambda g: g.phase()["name"] == "activation" and
                      g.active_player() == player and g.state["game"]["voa"] == voa,
                      "%s at %d" % (player, voa), limit=60)


def end_stone(g):
    start = g.state["round"]
    while g.state["round"] == start:
        g.apply("next")
    return g


# The dice are never mocked: a test that needs particular rolls names a seed that
# gives them, found once; what each seed gives is checked where it is used.
SEED_P1_INITIATIVE = 2  # P1 wins the point's first initiative roll (short or long game)
SEED_P2_INITIATIVE = 1  # P2 wins it
SEED_INITIATIVE_TIE = 8  # the first initiative rolls tie, and are rolled again
SEED_DISPUTE_TIE = 2  # a first "dispute n=2" ties, and is rolled again
# With P1's initiative (each of these gives it), Bo attacks Hal at Reflexes 4: Bo's two
# attack dice, then Hal's defense dice (5 in full, 3 for none, 2 in a duel or flanked):
SEED_BO_BLANKS = SEED_P1_INITIATIVE  # Bo: 0 0 (no Jugg), Hal: 1 0 1 0 1
SEED_BO_1_HAL_5 = 8  # Bo: 0 1, Hal: 1 1 1 1 1
SEED_BO_1_HAL_2_LAST = 52  # Bo: 1 0, Hal: 0 0 0 1 1
SEED_BO_2_HAL_1_0_1 = 78  # Bo: 1 1, Hal: 1 1 0 1 1
SEED_BO_2_HAL_1_LAST = 197  # Bo: 1 1, Hal: 0 0 0 0 1


def scores(g, player):
    """``player``'s Qwik, in its activation at Reflexes 5, picks up the Jugg and scores."""
    to_turn(g, player, 5)
    qwik = [k for k, v in g.state["pieces"].items() if v["owner"] == player and v["in_play"]
            and v["stats"].get("position") == "qwik"][0]
    apply(g, "pickup " + qwik)
    apply(g, "score " + qwik)
    return g


def with_initiative(player, seed, length="short"):
    """A game of ``seed``, the point's initiative rolled: it must go to ``player``."""
    g = new(seed, length)
    g.apply("next")
    assert g.state["players"][player]["initiative"], "seed %d: %s has no initiative" % (
        seed, player)
    return g


def juggs(g):
    """The Juggs of the last attack's and defense's dice."""
    return sum(rolls(g, "attack")[-1]["rolls"]), sum(rolls(g, "defense")[-1]["rolls"])


def script(steps, seed=SEED_P1_INITIATIVE, length="short"):
    """Plays ``steps`` and returns the game. A step is an action and what it must say
    (part of a message), or ``!`` and the reason it is refused; ``to P1 4`` passes
    (``next``) to P1's turn at Reflexes 4. Pieces by name: ``{Bo}``."""
    g = new(seed, length)
    for action, want in steps:
        if action.startswith("to "):
            _, player, voa = action.split()
            to_turn(g, player, int(voa))
            continue
        text = named(g, action)
        if want.startswith("!"):
            with pytest.raises(Illegal) as refusal:
                g.apply(text)
            assert refusal.value.reason == want[1:], action
            continue
        seen = len(notes(g))
        g.apply(text)
        said = " | ".join(notes(g)[seen:])
        assert want in said, (action, said)
    return g
