"""A game of Tactics set up for a test: the battlefield dealt, the castles taken."""

from helpers.game import new_game, rules

RULES = rules("tactics")

CASTLES = ["castle P1 1,1", "castle P2 7,7", "castle P2 1,7", "castle P1 7,1",
           "place P1 1,1 6", "place P1 7,1 3", "place P2 7,7 5", "place P2 1,7 4", "next"]


def new(seed=1, **options):
    """A game with the battlefield dealt (``layout``, its first action)."""
    return new_game(RULES, seed, options={"race." + p: r for p, r in options.items()},
                    actions=["layout"])


def started(seed=1, **options):
    g = new(seed, **options)
    for action in CASTLES:
        g.apply(action)
    return g
