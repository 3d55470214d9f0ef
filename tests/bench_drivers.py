"""Whole games played by keys on a Rig, for the recorder (record.py).

Where the test suite has a whole game on the device for the bundled ruleset,
that test is the driver, asserts and all: the bench replays what the tests
hold. Jugger's (SIM_GAME in tests/test_jugger.py) is a wrestle, a pick-up and a score,
so its game is here, in the tests' style: choices read from the screen and
the game, each action checked, loops bounded.
"""

from __future__ import annotations

from helpers.device import do, game_of, open_setup, seal
from helpers.game import piece


def kaiju(rig):
    from test_kaiju import test_a_complete_five_player_game_on_the_device

    test_a_complete_five_player_game_on_the_device(rig)


def impactics(rig):
    from test_impactics import test_a_whole_game_on_the_device

    test_a_whole_game_on_the_device(rig)


def tactics(rig):
    from test_tactics import test_a_whole_game_on_the_device_moved_on_the_board

    test_a_whole_game_on_the_device_moved_on_the_board(rig)


def from_menu(rig, label, values):
    """A game-menu item's form filled in and done; it must be applied."""
    recorded = len(rig.journal)  # the RecordingRig's: a game in RAM may drop old events
    do(rig, label, values)  # by the fast path when it applies, as players would
    if len(rig.journal) != recorded + 1:
        raise AssertionError(f"{label} {values} not applied: {rig.lines}")


def press_next_until(rig, done, limit=40):
    """A (next) until ``done(game)``: bounded, a state never reached fails."""
    game = game_of(rig)
    for _ in range(limit):
        if done(game):
            return game
        rig.keys("a")
    raise AssertionError(f"never reached: {rig.lines}")


def juggernauts(rig):
    from test_juggernauts import whole_game

    whole_game(rig)


def jugger(rig):
    # A short game (the first point wins): the initiative; at Reflexes 5 a wrestle (Qwik
    # on Qwik), an attack of opportunity (the other side's reaction), a
    # referee's hit, a dispute of 2 dice; P1's Qwik picks up the Jugg and scores.
    open_setup(rig, "jugger")
    rig.keys("a")  # start (a short game)
    seal(rig)  # the dice commitment, each player's press
    game = game_of(rig)

    def turn(player, voa):
        return lambda g: g.phase()["name"] == "activation" and \
            g.active_player() == player and g.state["game"]["voa"] == voa

    press_next_until(rig, turn("P1", 5))
    ana, bo, cyd, fen, gus = (piece(game, name) for name in ("Ana", "Bo", "Cyd", "Fen", "Gus"))
    from_menu(rig, "Attack (2 focus)", [ana, fen, 0, 0, "duel"])  # a wrestle
    from_menu(rig, "Attack (2 focus)", [gus, bo, 0, 0, "none", "focus", "focus", "opportunity"])
    from_menu(rig, "Hit: crouch", [cyd, fen])
    from_menu(rig, "Dispute roll", [2])
    from_menu(rig, "Pick up Jugg (1)", [ana])
    from_menu(rig, "Score (2 focus)", [ana])
    assert game.state["winner"] == "P1" and "P1 wins!" in rig.lines, rig.lines


PLAYERS = {"juggernauts": juggernauts, "impactics": impactics, "jugger": jugger,
           "tactics": tactics, "kaiju": kaiju}
