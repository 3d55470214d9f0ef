"""A bundled ruleset's game without the device: made, played, read, and checked (a
refusal changes nothing, undo is exact).

Pieces go by the names their ruleset gives them: ``piece(g, "Eli")`` is Eli's key
(``"P1.j5"``), and an action written with names in braces, ``"hit {Eli} crouch=3"``,
is applied as ``"hit P1.j5 crouch=3"`` (the engine's actions take keys)."""

import functools
import json
import re

import pytest

from arbiter.game import LINES, Illegal
from arbiter.game.engine import Game
from arbiter_referee.compiled import loaded
from arbiter_referee.rulesets import bundled


def rules(name, change=None):
    """The bundled ruleset ``name``, parsed (a fresh copy: a test may change it).
    ``change``: given the ruleset's JSON data first, to change what a loaded ruleset
    keeps as text (its teams, its actions' effects)."""
    if change is None:
        return loaded(bundled()[name].read_text())
    data = json.loads(bundled()[name].read_text())
    change(data)
    return loaded(json.dumps(data, separators=(",", ":")))  # as compact as the file


@functools.lru_cache(maxsize=32)
def _loaded(text):
    """A ruleset's JSON text loaded once: games of it share it, as a device's do."""
    return loaded(text)


RECORDING = None  # helpers.runtimes.replayed: the games made, to play in MicroPython too


def new_game(rules_or_name, seed=1, players=None, options=None, actions=()):
    """A game of loaded rules, of a ruleset's JSON data (loaded as a device loads it)
    or of the bundled ruleset so named, ``actions`` applied."""
    data = rules(rules_or_name) if isinstance(rules_or_name, str) else rules_or_name
    if LINES not in data:  # written in the test: compiled and loaded
        data = _loaded(json.dumps(data))
    if RECORDING is None:
        game = Game(data, players=players, options=options, seed=seed)
    else:
        from helpers.runtimes import Recorded

        game = Recorded(data, players=players, options=options, seed=seed)
        RECORDING.append(game)
    apply(game, *actions)
    return game


def canonical(value):
    """``value`` as JSON text, keys sorted: states, logs and outputs compare whole."""
    return json.dumps(value, sort_keys=True)


# -- reading a game ---------------------------------------------------------------------


def player(game, p):
    """Player ``p``'s counters."""
    return game.state["players"][p]


def piece(game, name):
    """The key of the piece called ``name``."""
    keys = [key for key, record in game.state["pieces"].items() if record["name"] == name]
    assert len(keys) == 1, f"{len(keys)} pieces called {name!r}"
    return keys[0]


def piece_state(game, piece_or_key):
    """A piece's counters, the piece given by its name or its key."""
    pieces = game.state["pieces"]
    return pieces[piece_or_key if piece_or_key in pieces else piece(game, piece_or_key)]


def rolls(game, reason=""):
    """The log's roll entries whose reason starts with ``reason``."""
    return [e for e in game.log if e["event"] == "roll" and e["reason"].startswith(reason)]


def rolled(game, reason=""):
    """The faces of each of those rolls."""
    return [entry["rolls"] for entry in rolls(game, reason)]


def notes(game):
    """The texts of the log's notes."""
    return [e["text"] for e in game.log if e["event"] == "note"]


# -- playing ----------------------------------------------------------------------------


def named(game, text):
    """``text`` with each ``{Name}`` in it replaced by that piece's key."""
    return re.sub(r"\{([^{}]+)\}", lambda found: piece(game, found.group(1)), text)


def apply(game, *actions):
    """Each action applied in turn, pieces named (see ``named``); the last event."""
    event = None
    for action in actions:
        event = game.apply(named(game, action))
    return event


def next_until(game, done, what, step=None, limit=60):
    """``next`` (or the action ``step(game)`` gives) until ``done(game)``: bounded, so
    a state never reached fails, it does not hang. The game."""
    for _ in range(limit):
        if done(game):
            return game
        game.apply(step(game) if step else "next")
    raise AssertionError("never reached " + what)


def to_phase(game, name, step=None, limit=60):
    """``next`` (or ``step``, as in ``next_until``) until the phase is ``name``."""
    return next_until(game, lambda g: g.phase()["name"] == name, name, step, limit)


# -- checks -----------------------------------------------------------------------------


def snapshot(game):
    """All a refused action must leave as it was: state, log, dice and history."""
    return (canonical(game.state), canonical(game.log), game.rng.snapshot(),
            list(game.history.events))


def refused(game, action, reason):
    """``action`` (pieces named) is refused with ``reason`` (a regular expression, as
    ``pytest.raises`` matches it) and changes nothing. For a game kept whole: a device
    game (``keep``) drops its log's oldest entries before any action, refused or not."""
    before = snapshot(game)
    with pytest.raises(Illegal, match=reason):
        game.apply(named(game, action))
    assert snapshot(game) == before, f"the refused {action!r} changed the game"


def seen_but_log(game):
    """The public state but its log: undo keeps what it undid in the log (marked
    undone) and the dice drawn, so the rest is what undo gives back exactly."""
    from arbiter.game.public import public_state

    return canonical({k: v for k, v in public_state(game).items() if k != "log"})


def undoes_and_redoes_exactly(game, actions, seen=lambda game: canonical(game.state)):
    """Applies ``actions``, then undoes them all and redoes them all; after each step
    the game must be exactly as it was at that point on the way (``seen`` says what
    is compared). A redo gives the same dice and cards: undo is no way to re-roll.
    The table agrees to each undo (``undo agreed``): some of the actions roll."""
    states = [seen(game)]
    for action in actions:
        apply(game, action)
        states.append(seen(game))
    for expected in reversed(states[:-1]):
        game.apply("undo agreed")
        assert seen(game) == expected
    for expected in states[1:]:
        game.apply("redo")
        assert seen(game) == expected


# A designer's action that rolls, then refuses on what it rolled (test_guarantees,
# test_audit_fuzz): its dice are spent, journaled as ``!probe P1|6``.
PROBE = {
    "format": 1, "name": "probe", "players": {"min": 2, "max": 2},
    "dice": {"d6": {"faces": 6}},
    "counters": {"score": {"start": 0, "min": 0, "max": 6}},
    "phases": [{"name": "play", "per_player": True}],
    "actions": {
        "probe": {"params": ["p"], "effects": [
            {"roll": "d6", "as": "look"},
            {"require": {"<": [{"sum": "look"}, 6]}, "reason": "no sixes here"}]},
        "attack": {"params": ["p"], "effects": [
            {"roll": "d6", "as": "hit"}, {"set": "$p.score", "to": {"sum": "hit"}}]},
    },
}
