"""Issue 21: "on the play screen, the arrows pick a piece or player and the phase's
common action, with Left/Right setting the amount and A committing after the preview
(as a life counter's knob does); the menu is for the rest", and "every game has a page
of its pieces with the numbers the device keeps"."""

import json

import pytest
from helpers.device import act, game_of, open_menu_item, said, seal, start_game, until_loaded
from helpers.game import piece, piece_state, rules

from arbiter.game import ruleset
from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.rulesets import bundled

KAIJU_ACTION = ["next", "next", "pass P1", "pass P2", "pass P3",
                "active P1 k1", "active P2 k1", "active P3 k1"]  # Rex, Kraken, Hive


def kaiju_at_action(rig, fast=None):
    """Kaiju's Action phase, 3 players; with ``fast``, a Kaiju whose Action phase has
    that fast action (the knob's own tests: Kaiju's is the combat card in a combat)."""
    if fast:
        data = json.loads(bundled()["kaiju"].read_text())
        data["phases"][4]["fast"] = fast
        (rig.flash_dir / "rulesets" / "kaiju.json").write_bytes(compiled(json.dumps(data)))
    start_game(rig, "kaiju", "right")  # 3 players
    for action in KAIJU_ACTION:
        act(rig, action)
    rig.run(100)
    return game_of(rig)


def test_a_phase_fast_must_name_an_action():
    data = json.loads(bundled()["kaiju"].read_text())
    data["phases"][4]["fast"] = "damgae"
    with pytest.raises(ruleset.RulesetError,
                       match=r"phases\[4\].fast: unknown action 'damgae'"):
        loaded(json.dumps(data))


def test_every_bundled_game_has_a_common_action_where_players_act_most():
    from arbiter.game.engine import Game
    from arbiter.screens.fast import fast_action

    # (Kaiju's Action: the combat card in a combat, see test_kaiju.py; nobody in the
    # city to attack yet: a challenge)
    expected = {"kaiju": {"planning": "pass", "select": "active", "action": "challenge"},
                "jugger": {"activation": "act"},  # then attack: see test_jugger.py
                # Planning queues a card at a time; in Combat A steps, the fast path hits
                "impactics": {"planning": "card", "combat": "hit", "end": "deal"},
                # with nothing due (what is due first: see test_juggernauts.py)
                "juggernauts": {"energize": "power", "command": "reroll",
                                "activate": "bonus", "resolve": "defend"},
                "tactics": {"castles": "layout", "turn": "go"}}  # the deal first
    for name, phases in expected.items():
        game = Game(rules(name), seed=1)
        for i, phase in enumerate(game.rules["phases"]):
            if phase["name"] in phases:
                game.state["phase"] = i
                assert fast_action(game) == phases[phase["name"]], (name, phase["name"])


# "P2's kaiju took 3 damage" took 10 presses (6 to 14); now Right, Down, Right, Right, A.
def test_a_damage_by_the_knob_in_five_presses_previewed_before_a(rig):
    game = kaiju_at_action(rig, "damage")
    kraken = piece(game, "Kraken")
    rig.keys("right")  # on the play screen: the kaiju in the city first, the amount at 1
    assert rig.lines[:2] == ["T1 Action: P1", "P1 G0 E15 F0"]  # 3 rows: the phase in the bar
    assert rig.lines[4:7] == ["Damage: <Rex> <1>", "dealt by P2", "Rex 0/6 -> 1/6"]
    rig.keys("down", "right", "right")
    rig.run(100)
    assert rig.lines[4:7] == ["Damage: <Kraken> <3>", "dealt by P1", "Kraken 0/7 -> 3/7"]
    assert piece_state(game, "Kraken")["damage"] == 0  # nothing done before A
    rig.keys("a")
    assert game.history.events[-1] == "damage by=P1 k=%s n=3" % kraken
    assert "Kraken 0/7 -> 3/7" in said(rig)


def test_the_knob_remembers_each_players_last_amount(rig):
    game = kaiju_at_action(rig, "damage")
    rig.keys("right", "down", "right", "right", "a")  # P1: 3 on Kraken
    rig.keys("right")
    assert "<3>" in " ".join(rig.lines)  # P1's last amount
    rig.keys("b", "a")  # P2's turn
    rig.keys("right")
    assert "<1>" in " ".join(rig.lines)  # P2 chose none yet
    rig.keys("b")
    assert game.active_player() == "P2"


def test_the_knob_offers_only_what_is_legal_now(rig):
    # Tactics: only the corners no one chose, for the player whose choice it is
    from arbiter.screens.fast import FastForm

    start_game(rig, "tactics")
    act(rig, "layout row=1")
    act(rig, "castle P1 at=1,1")
    rig.keys("right")
    form = rig.app.screen
    assert isinstance(form, FastForm) and form.fields[0][1][form.fields[0][2]] == "P2"
    assert form.fields[1][1] == ["1,7", "7,1", "7,7"]
    rig.keys("left", "a")  # round to 7,7
    assert game_of(rig).state["game"]["chosen"] == ["1,1", "7,7"]


def test_the_menu_is_for_the_rest_and_b_leaves_the_knob_without_acting(rig):
    game = kaiju_at_action(rig)
    events = list(game.history.events)
    rig.keys("left", "down", "b")
    assert rig.lines[-1].startswith("A:next <>:attack") and game.history.events == events


def test_the_piece_page_is_a_press_away_with_every_number_by_name(rig):
    game = kaiju_at_action(rig)
    act(rig, "damage {Kraken} 7 by=P1")  # knocked out
    rig.keys("down")
    page = rig.app.screen.lines
    text = " ".join(page)
    assert rig.lines[0] == "Pieces"
    assert "Rex (P1): active, damage 0" in text
    assert "Kraken (P2): damage 7, KO" in text  # out of the city
    assert "Gorath (P1): damage 0" in text
    rig.keys("b")
    assert game.state["round"] == 1 and rig.lines[-1].startswith("A:next")


def test_jugger_and_impactics_pieces_show_their_counters():
    from arbiter.game.engine import Game
    from arbiter.screens.pieces import row

    jugger = Game(rules("jugger"), seed=1)
    ana = piece(jugger, "Ana")
    jugger.state["pieces"][ana].update(crouch=2, pinned=piece(jugger, "Fen"), exhausted=1)
    assert row(jugger, ana) == ("Ana (P1): crouch 2, exhausted, focus 4, in play, "
                                "pinned by Fen, stamina 3")
    impactics = Game(rules("impactics"), seed=1)
    assert row(impactics, piece(impactics, "Chad")) == "Chad (P1): hp 2"


def test_a_correction_names_the_piece(rig):
    game = kaiju_at_action(rig)
    act(rig, "add {Kraken}.damage 2")
    rig.run(100)
    assert "Corrected: Kraken damage +2, now 2" in said(rig)
    assert piece_state(game, "Kraken")["damage"] == 2


def test_the_correct_form_shows_each_counters_value_now_and_what_it_will_do(rig):
    # issue 21: "raw variable names in the Correct form"; "the Correct form shows no
    # current value and no preview"
    game = kaiju_at_action(rig)
    act(rig, "add {Kraken}.damage 3")
    open_menu_item(rig, "Correct")
    form = rig.app.screen
    for _ in range(12):  # bounded: the form must offer Kraken
        if "who <Kraken>" in rig.lines:
            break
        rig.keys("right")
    rig.keys("down")
    for _ in range(12):  # each counter with its value now
        if "what <damage 3>" in rig.lines:
            break
        assert rig.lines[2] == "what <%s %d>" % (form.what, form.now), rig.lines
        rig.keys("right")
    rig.keys("down", "right")  # by 2
    assert rig.lines[3] == "by <2>" and "Kraken damage 3 -> 5" in rig.lines
    rig.keys("left", "left", "left")
    assert "Kraken damage 3 -> 2" in rig.lines
    rig.keys("right", "right", "right", "a")
    rig.run(100)
    assert piece_state(game, "Kraken")["damage"] == 5
    assert "Corrected: Kraken damage +2, now 5" in said(rig)


def test_the_piece_grids_caption_wraps_instead_of_being_cut(rig):
    data = json.loads(bundled()["juggernauts"].read_text())
    data["name"] = "captiontest"
    data["grid"]["caption"] = [{"get": "$p.commander"}, " Power ", {"get": "$p.power"},
                               " Alerts ", {"get": "$p.alerts"}, " Hand ", {"get": "$p.hand"}]
    (rig.flash_dir / "rulesets" / "captiontest.json").write_bytes(compiled(json.dumps(data)))
    rig.keys("a", "a")  # Play, captiontest (first by name)
    until_loaded(rig)
    rig.keys("a")  # start
    seal(rig)
    rig.keys("a", "a", "a", "a")  # each player's Commander: the first
    rig.keys("a", "a", "a", "a")  # the reveal, then on
    game = game_of(rig)
    assert game.rules["name"] == "captiontest" and game.state["round"] >= 1
    rig.keys("down")
    shown = " ".join(rig.lines[6:8])
    assert "Alerts 0" in shown and shown.endswith("Hand 5"), rig.lines  # whole
