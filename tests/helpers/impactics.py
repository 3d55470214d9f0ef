"""A game of Double Impactics set up for a test: new, the cards queued, named seeds."""

from helpers.game import new_game, rules

RULES = rules("impactics")


def new(seed=1):
    return new_game(RULES, seed)


def queue_from_hands(g):
    """6 cards from the two hands (Alex's permanent ones, then Chad's)."""
    return "queue forward1 attack rotate_left discard:rotate_right sidestep_left sidestep_right"


DODGE_SEED = 1  # Chad's hand has a Dodge card


def dodge_played():
    """Combat, its first card Chad's Dodge (DODGE_SEED's hands), just played."""
    g = new(DODGE_SEED)
    g.apply("queue dodge forward1 attack rotate_left sidestep_left sidestep_right")
    g.apply("next")
    g.apply("step")  # the card; the Goon moves next
    return g


def to_combat(g):
    g.apply(queue_from_hands(g))
    g.apply("next")
    assert g.phase()["name"] == "combat"
