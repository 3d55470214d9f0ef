"""One check the games' tests share: every action undoes and redoes exactly."""

import json


def state_text(game):
    return json.dumps(game.state, sort_keys=True)


def undoes_and_redoes_exactly(game, actions, seen=state_text):
    """Applies ``actions``, then undoes them all and redoes them all; after each step
    the game must be exactly as it was at that point on the way (``seen`` says what
    is compared). A redo gives the same dice and cards: undo is no way to re-roll."""
    states = [seen(game)]
    for action in actions:
        game.apply(action)
        states.append(seen(game))
    for expected in reversed(states[:-1]):
        game.apply("undo")
        assert seen(game) == expected
    for expected in states[1:]:
        game.apply("redo")
        assert seen(game) == expected
