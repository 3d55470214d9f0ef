"""Issue 48: "The key line names the fast path where there is one (`<>:damage`), and
Down's page"; "Every player's row on the play screen, up to the most players a bundled
game allows; the message area wide enough at 5 players, the rest on the `^:more` page".

Each bundled game's recorded session (the bench's) is pressed on the emulated device
and every play screen it shows is read; then each game is started at the most players
it takes and played a few steps."""

from __future__ import annotations

import json

import pytest
from helpers.device import BUNDLED, game_of, pick, play_screen, said, start_game
from helpers.recorded import play_screens

from arbiter_referee.bench.scenarios import NAMES
from arbiter_referee.rulesets import bundled


def rows_of(game):
    """Each player's row as the play screen starts it: the player, out or not."""
    return [p + ("x" if p in game.state["lost"] else "") + " " for p in game.state["order"]]


def fast_named(game):
    """The phase's fast path (what Left/Right opens) and its label, or None."""
    from arbiter.game.effects import action
    from arbiter.screens.fast import fast_action

    name = fast_action(game)
    if not name:
        return None
    return name, action(game, name).get("label", name)


@pytest.mark.parametrize("name", NAMES)
def test_the_key_line_names_each_phases_fast_path_and_every_row_is_on_the_screen(name):
    named = {}  # phase: the fast path's label, as seen on the key line
    screens = 0
    for play, lines in play_screens(name):
        game = play.game
        if lines[7] == "A:pick" or play.choosing is not None:  # a secret pick: no rows
            continue
        screens += 1
        keys = lines[7]
        assert len(keys) <= 21
        for row in rows_of(game):  # every seat, whatever was said
            assert any(line.startswith(row) for line in lines[1:7]), (row, lines)
        if game.state["result"] or not game.state["round"]:
            continue
        phase = game.phase()
        assert keys.startswith("A:" + phase.get("key_a", phase.get("on_a", "next"))), keys
        fast = fast_named(game)
        if fast is None:
            assert "<>:" not in keys, (phase["name"], keys)
            continue
        # the action by the first of its label's words, as players call it
        assert "<>:" in keys, (phase["name"], fast, lines)
        word = keys.split("<>:")[1].split(" ^")[0].split(" v:")[0].split(" B:")[0]
        assert word and fast[1].lower().startswith(word), (fast, keys)
        named[phase["name"]] = fast[1]
    assert screens > 20
    # every phase with a common action that the game came to named it
    rules = json.loads(bundled()[name].read_text())
    assert named and set(named) <= {p["name"] for p in rules["phases"]}


def test_downs_page_is_named_where_the_key_line_has_room(rig):
    start_game(rig, "jugger")  # its Point phase: no fast path, so room for Down's page
    keys = rig.lines[7]
    assert keys == "A:next v:pieces", keys
    rig.keys("down")
    assert rig.lines[0] == "Pieces"


def at_most_players(rig, name):
    """A game of ``name`` on the device, with the most players it takes, past the
    secret picks before its first round (each takes the first choice)."""
    rules = json.loads(bundled()[name].read_text())
    players = rules.get("players", {})
    most = players.get("max", 2)
    start_game(rig, name, *["right"] * (most - players.get("default", players.get("min", 2))))
    game = game_of(rig)
    assert game.players == most
    while game.state["round"] == 0:
        pick(rig, 0)
        if rig.app.screen.__class__.__name__ == "TextPage":  # the reveal
            rig.keys("a")
    return game


@pytest.mark.parametrize("name", BUNDLED)
def test_every_players_row_is_on_the_play_screen_at_the_most_players(rig, name):
    game = at_most_players(rig, name)
    for _ in range(6):  # the first phases, each with what it says
        lines = rig.lines
        for row in rows_of(game):
            assert any(line.startswith(row) for line in lines[1:7]), (row, lines)
        if len(game.state["order"]) <= 5 and (play_screen(rig).notes or
                                              game.state["message"]):
            # at 5 players, at least a line of what was said, the rest on Up's page
            assert any(line and not line.startswith(tuple(rows_of(game)))
                       for line in lines[1:7]), lines
            if "^" in lines[7]:
                assert len(said(rig)) > len(" ".join(lines[1:7]))
        rig.keys("a")
        if rig.app.screen.__class__.__name__ != "PlayScreen":
            rig.keys("b")  # a page the phase opened (Impactics' hands)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_phases_key_line_fits_its_fast_path_and_more_at_the_most_players(name):
    # each phase of the game, the screen full (the most players, ``^:more``): 21
    # columns still hold A's step and the fast path's word, and say there is more
    from helpers.game import rules

    from arbiter.game.engine import Game
    from arbiter.screens.game_menu import short
    from arbiter.screens.view import key_line

    spec = rules(name)
    game = Game(spec, players=spec["players"].get("max", 2), seed=1)
    game.state["round"] = 1
    for i in range(len(game.rules["phases"])):
        game.state["phase"] = i
        fast = fast_named(game)
        word = short(fast[1]) if fast else ""
        for more in (False, True):
            keys = key_line(game, (word, "pieces"), more)
            assert len(keys) <= 21 and keys.startswith("A:"), keys
            assert (" ^" in keys) == more, keys
            if fast:
                assert "<>:" + word in keys and fast[1].lower().startswith(word), keys
