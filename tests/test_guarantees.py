"""Issue 44: what every ruleset gets from the engine, whatever its author forgot: a
finished game stays finished, junk is refused, dice only move forward, the engine's
own random choices are rolls. Each holds on CPython and under MicroPython."""

import pytest
from helpers import juggernauts
from helpers.device import act, game_of, start_game
from helpers.game import new_game, next_until, to_phase

from arbiter.screens.view import describe
from arbiter_referee.headless import play

RUNTIMES = ["cpython", "micropython"]
OVER = "undo needs everyone's agreement (undo agreed): the game is over"


# -- a finished game stays finished ------------------------------------------------------


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_undoing_the_action_that_won_needs_everyones_agreement(runtime):
    # docs/rulesets.md: "A finished game stays finished: undoing the action that ended
    # it needs everyone's agreement (`undo agreed`), as undoing a roll does" (issue 44:
    # one long B undid "P2 wins!" without asking anyone when it rolled no dice)
    won = ["add P1.glory 20"]  # Kaiju: "When any player has 20 or more GLORY, the game
    # ends immediately and that player wins."
    assert play("kaiju", 2, 3, {}, won + ["undo"], runtime).refused == (2, OVER)
    assert play("kaiju", 2, 3, {}, won + ["add P2.glory 1"], runtime).refused == (
        2, "the game is over")
    agreed = play("kaiju", 2, 3, {}, won + ["undo agreed", "add P2.glory 1"], runtime)
    assert agreed.refused is None and agreed.state["result"] is None


def test_the_end_is_a_line_of_the_log_that_says_who_and_why():
    # docs/rulesets.md, end: "`why` [...] the winner's screen and the log say it"
    g = new_game("kaiju", seed=3)
    g.apply("add P1.glory 20")
    assert "P1 wins: has 20 Glory or more" in [describe(e) for e in g.log]
    assert g.state["why"] == "P1 has 20 Glory or more"


def test_a_player_out_makes_the_last_one_in_the_winner_and_the_log_says_why():
    # Juggernauts: "If you have three or more alert tokens on your deck at the end of a
    # round, enemy troops have infiltrated your juggernaut and taken control. You lose
    # and your opponent wins."
    g = to_phase(juggernauts.started(1), "recover")  # the round's last phase
    g.apply("add P1.alerts 3")
    next_until(g, lambda g: g.state["result"], "the round's end", limit=20)
    said = [describe(e) for e in g.log]
    assert "P1 is out: has 3 alert tokens (boarded)" in said
    assert "P2 wins: P1 has 3 alert tokens (boarded)" in said
    assert g.state["winner"] == "P2"


def test_the_winner_stays_on_the_screen_whatever_is_pressed(rig):
    # issue 44: "a stray A after the win replaced 'P2 wins!' with 'the game is over'"
    start_game(rig, "kaiju")
    act(rig, "add P1.glory 20")
    rig.settle()
    assert rig.lines[6] == "P1 wins!" and "P1 has 20 Glory or" in rig.lines
    for key in ("a", "a:long", "left", "right"):
        rig.keys(key)
        rig.keys(*(["b"] if rig.lines[6] != "P1 wins!" else []))  # a page or form: back
        assert rig.lines[6] == "P1 wins!", (key, rig.lines)
    rig.keys("b:long")  # undo: the table is asked, naming what ended the game
    assert rig.lines[0] == "Undo?" and "The game is over:" in rig.lines
    rig.keys("b")  # no
    assert game_of(rig).state["winner"] == "P1" and rig.lines[6] == "P1 wins!"
    rig.keys("b:long", "a")  # everyone agrees: play goes on
    assert game_of(rig).state["result"] is None and "P1 wins!" not in rig.lines
