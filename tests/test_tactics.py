"""Tactics Joker refereed as its rules say (../shared/seeds/003_4780b538f5e1a65c.txt,
digest: ../shared/docs/referee-spec.md section 4)."""

from collections import Counter

import pytest
from helpers.device import (
    act,
    do,
    fill_form,
    game_of,
    lit,
    open_menu_item,
    play_screen,
    start_game,
)
from helpers.game import canonical, new_game, refused, rolled, undoes_and_redoes_exactly
from helpers.runtimes import RUNTIMES, patched, previewed, replayed
from helpers.tactics import CASTLES, RULES, new, started

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter_referee.cli import main as arbiter
from arbiter_referee.headless import play

DECK = [r + s for s in "SHDC" for r in ["A"] + [str(n) for n in range(2, 11)] + ["J", "Q", "K"]]
# Seeds that deal or roll what a test needs, found once (the dice are never mocked);
# each test checks its seed still does:
SEED_TWO_JOKERS = 0  # the battlefield holds both jokers (fog of war or not)
SEED_ONE_JOKER = 11  # it holds one
SEED_NO_JOKER = 57  # it holds none: the leftover stack has 3 cards
SEED_KOBOLDS_ROLL_TWO = 1  # kobolds holding 4 castles roll two or more 4-6s to reinforce
SEED_TWO_ON_TWO_TIE = 1  # 2 units attack 2 (plain, no values): the first rolls tie


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    """A rule's test on both runtimes: its games played again in MicroPython, where
    each refusal must come again and each game end the same (helpers.runtimes)."""
    with replayed(request.param, "tactics", request.session):
        yield request.param


# -- the battlefield ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_layout_has_kings_at_the_corners_and_49_cards_of_the_54(seed):
    # 1 Setup: "lay it out in a 7x7 grid, with a king card at each of the corners"
    board = new(seed).state["game"]["board"]
    assert len(board) == 49
    assert sorted(board[i] for i in (0, 6, 42, 48)) == ["KC", "KD", "KH", "KS"]
    left = new(seed).state["game"]["leftover"]
    assert len(set(board) - {"JK"}) == 49 - board.count("JK")  # no card twice
    # the 5 cards not dealt are the leftover stack, but for a joker (never a replacement)
    assert "JK" not in left and len(left) == 5 - (2 - board.count("JK"))
    assert Counter(board) + Counter(left) + Counter({"JK": 2 - board.count("JK")}) == \
        Counter(DECK + ["JK", "JK"])


def test_castles_wait_for_the_battlefield_and_it_is_dealt_once():
    g = Game(RULES, seed=3)
    refused(g, "castle P1 1,1", "deal the battlefield first")
    g.apply("layout")
    board = list(g.state["game"]["board"])
    g.apply("layout row=7")  # shows a row, deals nothing new
    assert g.state["game"]["board"] == board and g.state["message"] == "7: " + " ".join(board[42:])


def test_layouts_differ_by_seed_and_replay_the_same():
    assert new(3).state["game"]["board"] == new(3).state["game"]["board"]
    assert len({tuple(new(s).state["game"]["board"]) for s in range(20)}) == 20


def test_arbiter_layout_prints_the_devices_layout_and_a_png(tmp_path, capsys):
    png = tmp_path / "board.png"
    assert arbiter(["layout", "--seed", "12", "--png", str(png)]) == 0
    rows = capsys.readouterr().out.splitlines()[:7]
    assert [r.split() for r in rows] == [new(12).state["game"]["board"][i * 7:i * 7 + 7]
                                         for i in range(7)]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_arbiter_layout_draws_the_armies_of_a_devices_journal(rig, tmp_path, capsys):
    g = deal_on_the_device(rig)
    for action in CASTLES[:-1] + ["next", "go P1 1,1 1,2 units=2" + (
            " card=" + g.state["game"]["leftover"][0] if g.state["game"]["board"][1] == "JK"
            else "")]:
        act(rig, action)
    png = tmp_path / "armies.png"
    capsys.readouterr()  # the device's serial lines
    assert arbiter(["layout", "--journal", str(tmp_path / "game.jnl"), "--png", str(png)]) == 0
    rows = capsys.readouterr().out.splitlines()[:7]
    army = g.state["game"]["army"]
    assert [r.split()[:7] for r in rows] == [g.state["game"]["board"][i * 7:i * 7 + 7]
                                             for i in range(7)]
    assert rows[0].split()[7] == "P1x%d" % (len(army[0]) - 2)
    assert rows[6].split()[-1] == "P2x%d" % (len(army[48]) - 2)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert arbiter(["layout", "--journal", str(tmp_path / "none.jnl")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_the_corner_kings_are_in_uniform_order_chi_square_at_1_percent():
    # an unbiased shuffle: all 24 orders of the four kings equally likely
    # (4800 seeded games, 200 expected each; df 23, 1% critical value 41.638)
    counts = Counter(tuple(new(seed).state["game"]["board"][i] for i in (0, 6, 42, 48))
                     for seed in range(10000, 14800))
    assert len(counts) == 24
    assert sum((n - 200) ** 2 / 200 for n in counts.values()) < 41.638


def square_of(i):
    return "%d,%d" % (i // 7 + 1, i % 7 + 1)


def arrange(g, cards=(), armies=()):
    """The board as a test needs it: ``cards`` {square: card}, ``armies`` {square:
    "P1 3"} (3 fresh units), kept as the game's state from now on (a snapshot, so a
    refusal rolls back to it)."""
    state = g.state["game"]
    board, army = list(state["board"]), list(state["army"])
    for sq, card in dict(cards).items():
        board[at(sq)] = card
    for sq, text in dict(armies).items():
        owner, _, n = text.partition(" ")
        army[at(sq)] = owner + "0" * int(n) if owner else ""
    patched(g, {"board": board, "army": army})
    return g


def at(sq):
    return (int(sq[0]) - 1) * 7 + int(sq[2]) - 1


def army(g, sq):
    """(owner, units) at a square."""
    text = g.state["game"]["army"][at(sq)]
    return (text[:2], len(text) - 2) if text else ("", 0)


def plains(seed=1, **races):
    """A started game whose middle is plain 2H cards (castles stay kings)."""
    g = started(seed, **races)
    return arrange(g, {square_of(i): "2H" for i in range(49) if i not in (0, 6, 42, 48)})


# -- castles and turns -----------------------------------------------------------------------


def test_castle_choice_order_p1_p2_p2_p1_and_p1_first(runtime):
    # 6: "Player one picks one of the castles. Then player two picks his two castles.
    # Player one gets the last castle, but gets the first turn."
    g = new()
    refused(g, "castle P2 1,1", "it is P1's turn to choose")
    g.apply("castle P1 1,1")
    assert g.state["message"] == "P1 castle 1,1; P2 picks next"  # said on the play screen
    refused(g, "castle P2 1,1", "1,1 is taken")
    refused(g, "castle P2 4,4", "a castle is a corner")
    g.apply("castle P2 7,7")
    g.apply("castle P2 1,7")
    refused(g, "next", "choose all 4 castles first")
    g.apply("castle P1 7,1")
    assert g.state["message"] == "P1 castle 7,1; place the armies"
    refused(g, "place P1 7,7 3", "P1 starts on its own castles, not 7,7")
    for action in CASTLES[4:-1]:
        g.apply(action)
    g.apply("next")
    assert g.active_player() == "P1" and g.phase()["name"] == "turn"
    assert g.state["players"]["P1"]["castles"] == 2 and g.state["players"]["P2"]["castles"] == 2
    assert g.state["game"]["holders"] == ["P1", "P2", "P1", "P2"]  # 1,1 1,7 7,1 7,7


def test_every_castle_starts_held_and_an_army_is_at_most_6(runtime):
    # 2: "Control is defined by occupying that castle with at least one unit"; 1: "An
    # army can never be bigger than 6 units"
    g = new()
    for action in CASTLES[:4] + ["place P1 1,1 4", "place P1 7,1 2", "place P2 7,7 5"]:
        g.apply(action)
    refused(g, "place P1 1,1 3", "an army is 1 to 6 units; 1,1 holds 4")
    refused(g, "next", "place an army on every castle first")
    g.apply("place P2 1,7 6")
    assert g.state["players"]["P2"]["reserve"] == 4
    g.apply("set P1.reserve 1")
    refused(g, "place P1 7,1 2", "P1's reserve holds 1")


def test_castle_control_follows_the_armies_and_the_win_at_the_start_of_ones_turn(runtime):
    # 2 Winning: "The game is won when a player begins his turn controlling 3 of the 4
    # castles. Control is defined by occupying that castle with at least one unit."
    g = arrange(plains(), armies={"2,6": "P1 3"})
    g.apply("go P1 2,6 1,7 units=3")  # 1,7 held by P2's 4: P1 attacks; whoever wins holds it
    holder = army(g, "1,7")[0]
    assert g.state["game"]["holders"][1] == holder
    assert g.state["players"]["P1"]["castles"] == (3 if holder == "P1" else 2)
    g = arrange(plains(), armies={"1,7": "", "2,6": "P1 1"})  # 1,7 left empty
    g.apply("go P1 2,6 1,7")
    assert g.state["game"]["holders"] == ["P1", "P1", "P1", "P2"]
    assert g.state["result"] is None  # not mid-turn
    g.apply("go P1 7,1 6,1")  # 7,1 left empty: nobody's
    assert g.state["game"]["holders"] == ["P1", "P1", "-", "P2"]
    g.apply("go P1 6,1 7,1 units=1")
    g.apply("next")  # P2's turn begins: P1 is not checked
    assert g.state["result"] is None
    g.apply("next")  # P1 begins a turn holding 3
    assert g.state["winner"] == "P1"


# -- moving ------------------------------------------------------------------------------


def test_a_move_is_to_an_adjacent_card_diagonals_too_and_by_the_players_turn(runtime):
    # 4: "You can move an army, or a portion of an army to an adjacent card. Diagonal
    # movement is okay." 1: "Each turn a player picks and moves several of his armies."
    g = plains()
    refused(g, "go P1 1,1 3,3", "3,3 is not next to 1,1")
    refused(g, "go P1 2,2 3,3", "P1 has no army at 2,2")
    refused(g, "go P2 7,7 6,6", "it is P1's turn, not P2's")
    refused(g, "go P1 1,1 2,2 units=7", "the army at 1,1 has 6 units")
    g.apply("go P1 1,1 2,2 units=2")  # a portion, diagonally
    assert army(g, "1,1") == ("P1", 4) and army(g, "2,2") == ("P1", 2)
    assert g.state["message"] == "P1 1,1 to 2,2, 2 move(s) left"


def test_three_moves_a_turn_then_a_fourth_is_refused(runtime):
    # 4: "A player gets three moves a turn."
    g = plains()
    for src, dst, left in [("1,1", "1,2", 2), ("7,1", "6,1", 1), ("1,2", "1,3", 0)]:
        g.apply("go P1 %s %s units=1" % (src, dst))
        assert g.state["players"]["P1"]["moves_left"] == left
    refused(g, "go P1 1,1 2,1", "no moves left")
    g.apply("next")
    assert g.state["players"]["P2"]["moves_left"] == 3


def test_no_unit_moves_more_than_two_spaces_a_turn(runtime):
    # 4: "No one unit may move more than two spaces in a single turn."
    g = plains()
    g.apply("go P1 1,1 2,2 units=3")
    g.apply("go P1 2,2 3,3 units=3")
    refused(g, "go P1 3,3 4,4", "no unit moves more than 2 spaces a turn: 0 of 3 can move")
    g.apply("next")
    g.apply("next")  # a new turn: every unit fresh
    g.apply("go P1 3,3 4,4")
    assert army(g, "4,4") == ("P1", 3)


def test_a_fresh_unit_joining_moved_ones_still_has_its_moves(runtime):
    g = plains()
    g.apply("go P1 1,1 2,2 units=2")
    g.apply("go P1 2,2 2,3 units=2")
    g.apply("go P1 1,1 1,2 units=1")  # the army at 1,1's fresh units move, not the spent
    assert army(g, "1,1") == ("P1", 3) and army(g, "2,3") == ("P1", 2)


def test_an_army_never_grows_past_6(runtime):
    # 1: "An army can never be bigger than 6 units, so spread out."
    g = arrange(plains(), armies={"2,2": "P1 4"})
    refused(g, "go P1 1,1 2,2 units=3", "an army is at most 6 units: 2,2 holds 4")
    g.apply("go P1 1,1 2,2 units=2")
    assert army(g, "2,2") == ("P1", 6)


def test_humans_extra_move_only_for_a_one_unit_army(runtime):
    # 7.1.4: "an extra point of movement which can only be used to move a one unit army"
    g = plains(P1="humans")
    for dst in ("2,1", "2,2", "1,2"):
        g.apply("go P1 1,1 %s units=2" % dst)
    refused(g, "go P1 7,1 6,1 units=2", "extra move is for a one-unit army")
    g.apply("go P1 7,1 6,1 units=1")
    refused(g, "go P1 7,1 6,1 units=1", "no moves left")


def test_undead_have_two_moves(runtime):
    # 7.1.5: "One less point of movement per turn"
    g = plains(P1="undead")
    g.apply("go P1 1,1 1,2 units=1")
    g.apply("go P1 1,1 1,2 units=1")
    refused(g, "go P1 1,1 1,2 units=1", "no moves left")


# -- rough terrain, recruits and jokers ------------------------------------------------------


@pytest.mark.parametrize("race, card, terrain, need", [
    ("none", "5C", "forest", 4), ("none", "5S", "mountain", 4),   # 4: "roll high (4-6)"
    ("elves", "5C", "forest", 2), ("elves", "5S", "mountain", 4),  # 7.1.1
    ("dwarves", "5S", "mountain", 2), ("dwarves", "5C", "forest", 4)])  # 7.1.2
def test_rough_terrain_entry_rolls_per_unit_and_the_others_stay(
        runtime, race, card, terrain, need):
    # 4: "Entering a forest from a non-forest space requires each unit entering the space
    # to roll high (4-6) on a die roll. Each unit that rolls 4-6 moves into the terrain.
    # The others are left behind." "failing to move through difficult terrain still
    # counts as a move action and works against the unit's 2 moves per turn limit"
    for seed in range(12):
        g = arrange(plains(seed, P1=race), {"2,2": card})
        g.apply("go P1 1,1 2,2 units=5")
        faces = rolled(g, "entering " + terrain)[-1]
        entered = sum(1 for f in faces if f >= need)
        assert len(faces) == 5 and g.state["message"] == "%d of 5 enter %s" % (entered, terrain)
        assert army(g, "2,2")[1] == entered and army(g, "1,1") == ("P1", 6 - entered)
        assert g.state["players"]["P1"]["moves_left"] == 2
    g = arrange(plains(), {"2,2": "5C", "2,3": "6C"}, {"2,2": "P1 2"})
    g.apply("go P1 2,2 2,3")  # forest to forest: no roll
    assert army(g, "2,3") == ("P1", 2) and rolled(g, "entering") == []


def test_a_recruit_is_collected_once_and_counts_as_a_move(runtime):
    # 4: "When you land on a queen or jack card, add a unit to that army. Then flip the
    # face card over. Recruits can only be collected once before they are depleted."
    g = arrange(plains(), {"2,2": "QH"}, {"2,1": "P1 1"})
    g.apply("go P1 1,1 2,2 units=2")
    assert army(g, "2,2") == ("P1", 3) and g.state["players"]["P1"]["reserve"] == 15 - 9 - 1
    g.apply("go P1 2,1 2,2")  # landed on again: used up
    assert army(g, "2,2") == ("P1", 4) and g.state["game"]["flipped"] == ["2,2"]
    g.apply("go P1 2,2 3,3 units=4")  # the recruit has moved once: 2 spaces in all
    refused(g, "go P1 3,3 4,4 units=1", "0 of 4 can move")


def test_a_joker_landed_on_becomes_the_movers_choice_of_leftover_card(runtime):
    # 4: "When you land on a joker, choose a card from the leftover stack of cards, and
    # replace the joker with that."
    g = arrange(plains(SEED_TWO_JOKERS), {"2,2": "JK"})
    left = list(g.state["game"]["leftover"])
    assert len(left) == 5 and "JK" not in left
    refused(g, "go P1 1,1 2,2", "2,2 is a joker: choose its card, one of " + " ".join(left))
    refused(g, "go P1 1,1 2,2 card=JK", "is a joker")
    card = next(c for c in left if c[-1] in "HD")
    g.apply("go P1 1,1 2,2 units=1 card=%s" % card)
    assert g.state["game"]["board"][8] == card and army(g, "2,2") == ("P1", 1)
    assert g.state["game"]["leftover"] == [c for c in left if c != card]  # used once


# -- combat from the board --------------------------------------------------------------------


def fight(seed, cards=(), armies=(), race=None, move="go P1 3,3 4,4", **races):
    g = arrange(plains(seed, **races), dict({"3,3": "5H", "4,4": "7H"}, **dict(cards)),
                dict({"3,3": "P1 3", "4,4": "P2 3"}, **dict(armies)))
    g.apply(move)
    return g


def totals(g):
    return g.state["game"]["att_total"], g.state["game"]["def_total"]


@pytest.mark.parametrize("att_card, def_card, att_bonus, def_bonus", [
    ("7H", "9D", 7, 9),
    ("7H", "9C", 0, 9),     # forest: "the attacker gains no terrain bonus"
    ("7C", "9C", 7, 9),     # "unless he is attacking from another forest space"
    ("7S", "9D", 7, 0),     # mountain: "the defender gets no terrain bonus"
    ("7S", "9S", 7, 9),     # "unless he is defending a mountain"
    ("7S", "9C", 0, 0),
    ("KH", "QD", 13, 10)])  # "Aces have a value of 1. Jacks and queens ... 10, kings 13"
def test_terrain_bonus_is_the_cards_value_with_the_forest_and_mountain_rules(
        runtime, att_card, def_card, att_bonus, def_bonus):
    # 3: "Add the value on the card as a terrain bonus. The defender uses the card the
    # battle is taking place on. The attacker uses the terrain he used to launch his
    # attack." 4: "you must roll to enter rough terrain even when attacking"
    checked = 0
    for seed in range(8):
        g = fight(seed, {"3,3": att_card, "4,4": def_card})
        if len(rolled(g, "attack")) != 1:
            continue  # all stayed out, or a tie
        a, d = rolled(g, "attack")[0], rolled(g, "defence")[0]
        behind = 3 - len(a)  # units that failed to enter stay at 3,3: next to the battle
        assert totals(g) == (sum(a) + att_bonus + behind, sum(d) + def_bonus)
        checked += 1
    assert checked


def test_support_is_one_per_unit_in_adjacent_armies_and_only_next_to_the_battle(runtime):
    # 3: "Add 1 for each supporting unit. A unit provides support if it's in an army in a
    # space adjacent to the battle." "being adjacent to the terrain an attacker left
    # without being adjacent to the actual battle provides no support"
    for seed in range(10):
        g = fight(seed, armies={"3,3": "P1 5", "3,4": "P1 2", "2,2": "P1 4", "5,5": "P2 1",
                                "4,5": "P2 2"}, move="go P1 3,3 4,4 units=3")
        if len(rolled(g, "attack")) == 1:
            break
    a, d = rolled(g, "attack")[0], rolled(g, "defence")[0]
    # P1: 2 left at 3,3 + 2 at 3,4 (2,2 is next to 3,3 only); P2: 1 + 2
    assert totals(g) == (sum(a) + 5 + 4, sum(d) + 7 + 3)


def test_losses_one_plus_one_per_5_points_and_the_defender_pushed_back(runtime):
    # 3: "Whomever scores higher wins. One of the loser's units dies, plus one more for
    # every 5 points difference between the combat scores. If the defender lost, his
    # remaining army is pushed backward ... If the attacker lost, his units return to
    # the space they were in before the attack."
    seen = set()
    for seed in range(40):
        g = fight(seed, armies={"3,3": "P1 6", "4,4": "P2 6"})
        a_t, d_t = totals(g)
        if len(rolled(g, "attack")) > 1:
            continue  # a tie first
        loss = min(6, 1 + abs(a_t - d_t) // 5)
        if a_t > d_t:
            seen.add("att")
            assert army(g, "4,4") == ("P1", 6) and army(g, "3,3") == ("", 0)
            assert army(g, "5,5") == (("P2", 6 - loss) if loss < 6 else ("", 0))
            assert "P1 wins 4,4" in g.state["message"]
            if loss < 6:
                assert "P2 pushed to 5,5" in g.state["message"]
        else:
            seen.add("def")
            assert army(g, "4,4") == ("P2", 6) and army(g, "3,3") == ("P1", 6 - loss)
            assert "P2 holds, P1 back to 3,3" in g.state["message"]
        assert g.state["players"]["P2" if a_t > d_t else "P1"]["units_lost"] == loss
    assert seen == {"att", "def"}


def test_the_attacker_chooses_where_the_defender_goes_when_the_way_back_is_blocked(runtime):
    # 3: "his remaining army is pushed backward (if this isn't an option, the attacker
    # chooses where the defender is pushed)"
    for seed in range(40):
        g = fight(seed, {"3,3": "KH", "4,4": "10H"}, {"3,3": "P1 6", "4,4": "P2 6",
                                                     "5,5": "P1 1"})
        if g.state["game"]["push"]:
            break
    n = 6 - g.state["players"]["P2"]["units_lost"]
    assert army(g, "4,4")[0] == "P1" and "P1 chooses where P2 goes" in g.state["message"]
    refused(g, "go P1 5,5 5,6", "first push the defeated army back")
    refused(g, "next", "first push the defeated army back")
    refused(g, "push P1 5,5", "P2 cannot go to 5,5")  # P1's
    refused(g, "push P1 2,2", "P2 cannot go to 2,2")  # not next to the battle
    g.apply("push P1 4,3")
    assert army(g, "4,3") == ("P2", n) and g.state["game"]["push"] == ""
    assert g.state["message"] == "P2 pushed to 4,3"


def test_a_tie_costs_each_side_a_unit_and_rerolls(runtime):
    # 3: "In the event of a tie, losses are heavy. Both sides lose a unit and reroll."
    for seed in range(80):
        g = fight(seed, {"3,3": "2H", "4,4": "2H"}, {"3,3": "P1 2", "4,4": "P2 2"})
        if len(rolled(g, "attack")) > 1:
            break
    first_a, first_d = rolled(g, "attack")[0], rolled(g, "defence")[0]
    assert sum(first_a) == sum(first_d)
    assert [len(r) for r in rolled(g, "attack")][:2] == [2, 1]  # one unit fewer
    lost = g.state["players"]["P1"]["units_lost"] + g.state["players"]["P2"]["units_lost"]
    assert lost >= 3 or "both armies die" in g.state["message"]


def test_kobolds_count_sixes_as_zero_in_combat(runtime):
    # 7.1.3: "Kobolds are weaker fighters than the other races. During combat checks,
    # disregard 6s."
    seen = set()
    for seed in range(20):
        g = fight(seed, armies={"3,3": "P1 6"}, P1="kobolds")
        assert {e["die"] for e in g.log if e["event"] == "roll" and e["reason"] == "attack"} \
            == {"kobold_d6"}
        seen.update(f for r in rolled(g, "attack") for f in r)
    assert 6 not in seen and 0 in seen


def test_undead_raise_the_slain_on_4_to_6_but_an_army_stays_at_most_6(runtime):
    # 7.1.5: "When you kill a unit, roll a die. On a high roll, add that unit to your
    # army." 1: "An army can never be bigger than 6 units"
    grew = False
    for seed in range(30):
        g = fight(seed, {"3,3": "KH", "4,4": "AH"}, {"3,3": "P1 6", "4,4": "P2 6"},
                  P1="undead")
        killed = g.state["players"]["P2"]["units_lost"]
        raised = rolled(g, "undead raise the slain")
        assert len(raised) == (1 if killed else 0)
        owner, n = army(g, "4,4")
        if owner == "P1":
            survivors = 6 - g.state["players"]["P1"]["units_lost"]
            assert n == min(6, survivors + sum(f >= 4 for f in raised[0]))
            grew = grew or survivors + sum(f >= 4 for f in raised[0]) > 6  # kept to 6
        assert all(len(a) - 2 <= 6 for a in g.state["game"]["army"] if a)
    assert grew


# -- reinforcements ---------------------------------------------------------------------------


def test_reinforcement_rolled_at_the_turn_start_per_castle_named(runtime):
    # 5: "At the beginning of each turn, if you have enough units left in your
    # reinforcements, roll a die for each castle you control. On a 6, add an additional
    # unit to that castle."
    for seed in range(30):
        g = plains(seed)  # P1 holds 1,1 (6 units) and 7,1 (3)
        faces = rolled(g, "reinforcements")[-1]
        assert len(faces) == 2
        got = [sq for sq, f in zip(("1,1", "7,1"), faces, strict=True) if f == 6]
        assert army(g, "7,1")[1] == 3 + ("7,1" in got)  # 1,1 is full at 6
        if "7,1" in got:
            assert "P1 reinforces 7,1" in [e["text"] for e in g.log if e["event"] == "note"]


def test_kobolds_reinforce_on_4_to_6_and_have_18_in_reserve(runtime):
    # 7.1.3: "kobolds are added on 4-6 instead of just 6. Kobolds have an extra three
    # tokens to recruit."
    assert new(P1="kobolds").state["players"]["P1"]["reserve"] == 18
    assert new().state["players"]["P1"]["reserve"] == 15
    for seed in range(20):
        g = plains(seed, P1="kobolds")
        faces = rolled(g, "reinforcements")[-1]
        assert army(g, "7,1")[1] == 3 + (faces[1] >= 4)


def test_races_can_be_assigned_at_random(runtime):
    # 7.1: "Players can randomly choose one of the following races."
    got = set()
    for seed in range(30):
        g = new(seed, P1="random", P2="random")
        races = [g.state["players"][p]["race"] for p in ("P1", "P2")]
        assert set(races) <= {"humans", "elves", "dwarves", "kobolds", "undead"}
        got.update(races)
        if "kobolds" in races:
            assert g.state["players"]["P%d" % (races.index("kobolds") + 1)]["reserve"] == 18
    assert len(got) == 5


# -- fog of war (7.2) -------------------------------------------------------------------


def fogged(seed=1):
    return new_game(RULES, seed, options={"fog": "on"}, actions=["layout"])


def test_fog_of_war_deals_every_card_face_down_but_the_corner_castles(runtime):
    # 7.2: "All cards are face down"; the corners are the kings, known to all
    assert fogged().state["game"]["face_up"] == [0, 6, 42, 48]  # places, from 0
    assert started().state["game"]["face_up"] == []  # fog off: every card is face up


def test_a_card_turned_up_says_what_it_is_and_stays_up(runtime):
    # 7.2: "When a card becomes occupied, flip it over"
    g = fogged(5)
    card = g.state["game"]["board"][24]
    g.apply("flip 4,4")
    assert 24 in g.state["game"]["face_up"] and g.state["message"] == "4,4 is " + card
    refused(g, "flip 4,4", "4,4 is face up")
    refused(started(), "flip 4,4", "fog of war is off")


def test_under_fog_a_card_an_army_enters_is_turned_up_and_rows_are_not_shown(runtime):
    # 7.2: "All cards are face down. When a card becomes occupied, flip it over."
    g = fogged(SEED_TWO_JOKERS)
    board = g.state["game"]["board"]
    refused(g, "layout row=3", "fog of war")
    for action in CASTLES:
        g.apply(action)
    assert g.state["game"]["face_up"] == [0, 6, 42, 48]
    g.apply("go P1 1,1 1,2 units=1" + (" card=" + g.state["game"]["leftover"][0]
                                        if board[1] == "JK" else ""))
    entered = g.state["game"]["army"][1] != ""
    assert g.state["game"]["face_up"] == [0, 6, 42, 48] + ([1] if entered else [])


# -- undo and a whole game --------------------------------------------------------------

# Whole games to a castle win, a turn a line ("; " between actions), found once by a
# simple player that walks its armies to the castles: 2 players, seed 10, P1 Undead (2
# moves) and P2 Kobolds; 3 players, seed 4, P3 Elves.
OPTIONS = {"race.P1": "undead", "race.P2": "kobolds"}
THREE = {"race.P3": "elves"}


def actions(setup, turns):
    return setup + [a for turn in turns for a in turn.split("; ")]


TURNS = [
    "go P1 1,1 1,2 units=5; go P1 1,1 1,2 units=5; next",
    "go P2 7,7 6,6 units=5; go P2 6,6 5,5 units=5; next",
    "go P1 1,2 1,3 units=2; go P1 1,3 1,4 units=2; next",
    "go P2 5,5 4,4 units=6 card=QC; go P2 4,4 3,3 units=6; next",
    "go P1 1,4 1,5 units=3; go P1 1,5 1,6 units=4; next",
    "go P2 3,3 2,2 units=6; go P2 2,2 1,1 units=6; next",
    "go P1 1,6 1,7 units=2; go P1 1,6 1,7 units=1; next",
    "go P2 2,2 1,1 units=4; go P2 1,7 1,6 units=5; go P2 1,6 1,5 units=3; next",
    "go P1 1,4 1,5 units=1; go P1 1,1 1,2 units=4; next",
    "go P2 1,5 1,4 units=3; go P2 1,4 1,3 units=3; next",
    "go P1 1,2 1,3 units=3; next",
    "go P2 1,4 1,3 units=1; go P2 1,7 1,6 units=3; go P2 1,6 1,5 units=1; next",
    "go P1 1,3 1,4 units=5; go P1 1,4 1,5 units=5; next",
    "go P2 1,7 1,6 units=3; go P2 1,6 1,5 units=2; go P2 7,7 6,6 units=3; next",
    "go P1 1,5 1,6 units=5; go P1 1,6 1,7 units=3; next",
    "go P2 6,6 5,5 units=3; go P2 5,5 4,4 units=3; next",
]
TURNS3 = [
    "go P1 1,1 1,2 units=3 card=JD; go P1 1,2 1,3 units=4; next",
    "go P2 7,7 6,6 units=4; go P2 6,6 5,5 units=2; next",
    "go P3 1,7 1,6 units=4; go P3 1,6 1,5 units=4; next",
    "go P1 1,3 1,4 units=4; go P1 1,4 1,5 units=4; go P1 7,1 6,2 units=2; next",
    "go P2 5,5 4,4 units=1; go P2 4,4 3,3 units=1; next",
    "go P3 1,5 1,4 units=5; go P3 1,4 1,3 units=5; next",
    "go P1 7,1 6,2 units=3; go P1 6,2 5,3 units=2; next",
    "go P2 3,3 2,2 units=1; go P2 2,2 1,1 units=1; go P2 6,6 5,5 units=1; next",
    "go P3 1,3 1,2 units=5; go P3 1,2 1,1 units=5; next",
    "go P1 5,3 4,2 units=2; go P1 4,2 3,1 units=2; next",
    "go P2 5,5 4,4 units=1; go P2 4,4 3,3 units=1; next",
    "go P3 1,1 2,1 units=4; go P3 2,1 3,1 units=5; next",
    "go P1 7,1 6,1 units=2; go P1 6,1 5,1 units=1 card=4S; next",
    "go P2 3,3 2,2 units=1; go P2 2,2 1,1 units=1; go P2 7,7 6,6 units=4; next",
    "go P3 3,1 4,1 units=5; go P3 4,1 5,1 units=6; next",
    "go P1 7,1 6,1 units=1; go P1 6,1 5,1 units=1; next",
    "go P2 7,7 6,6 units=4; go P2 6,6 5,5 units=1; next",
    "go P3 5,1 6,1 units=3; go P3 6,1 7,1 units=3; go P3 1,1 2,2 units=2; next",
    "next",
    "go P2 5,5 4,4 units=1; go P2 4,4 3,3 units=1; next",
]
ACTIONS = actions(["layout"] + CASTLES, TURNS)
CASTLES3 = ["castle P1 1,1", "castle P2 7,7", "castle P3 1,7", "castle P1 7,1", "place P1 1,1 4",
            "place P1 7,1 3", "place P2 7,7 5", "place P3 1,7 5", "next"]
ACTIONS3 = actions(["layout"] + CASTLES3, TURNS3)


def test_every_action_undoes_exactly_and_redoes_the_same():
    g = Game(RULES, seed=10, options=OPTIONS)
    undoes_and_redoes_exactly(g, ACTIONS[:40])


def test_the_fog_of_war_actions_undo_exactly():
    g = Game(RULES, seed=21, options={"fog": "on"})
    undoes_and_redoes_exactly(g, ["layout"] + CASTLES + [
        "flip 4,4", "go P1 1,1 2,2 units=2 card=8C", "go P1 7,1 6,2 units=1"])


@pytest.mark.parametrize("players, seed, options, acts, winner", [
    (2, 10, OPTIONS, ACTIONS, "P1"), (3, 4, THREE, ACTIONS3, "P3")])
def test_a_whole_game_on_arbiter_run_in_both_runtimes(players, seed, options, acts, winner):
    # 2: "The game is won when a player begins his turn controlling 3 of the 4 castles."
    outs = [play("tactics", players, seed, options, acts, runtime=r)
            for r in ("cpython", "micropython")]
    assert outs[0].refused is None and outs[0].state["winner"] == winner
    # the winner and why; with 3 players the winner in the bar, why under the rows
    screen = outs[0].state["screen"]
    said = " ".join(screen)
    assert screen[0] == winner + " wins!" if players > 2 else winner + " wins: " in said
    assert "began its turn on 3 castles" in said
    assert canonical(outs[0].state) == canonical(outs[1].state)
    held = outs[0].state["game"]["holders"]
    assert held.count(winner) >= 3 and all(a == "" or len(a) <= 8
                                           for a in outs[0].state["game"]["army"])


# -- on the device (the emulated Pico that `arbiter sim` runs) ------------------------------


def deal_on_the_device(rig, *setup_keys):
    start_game(rig, "tactics", *setup_keys)
    g = game_of(rig)
    do(rig, "Deal / show the board", [1])  # the first thing to do: Right, A
    assert len(g.state["game"]["board"]) == 49
    return g


def test_the_board_on_the_oled_shows_suit_and_rank_per_square_and_zooms(rig):
    from arbiter.screens.grid import short

    g = deal_on_the_device(rig)
    board = g.state["game"]["board"]
    open_menu_item(rig, "Board")
    assert rig.lines[0] == "1,1 %s castle" % board[0]  # the cursor's square, named
    for row in range(1, 7):  # all 49 at once, 2 characters a square (10S as TS)
        assert rig.lines[row + 1] == " ".join(short(c) for c in board[row * 7:row * 7 + 7])
    gaps = []  # each square stands apart: blank columns between squares on every row
    ram = rig.frame.ram
    for page in range(2, 8):
        cells = ram[page * 128:(page + 1) * 128]
        gaps.append(all(cells[x] == 0 for x in range(16, 128, 18)))
    assert all(gaps)
    rig.keys("right", "down")
    terrain = {"S": "mountain", "C": "forest", "H": "plain", "D": "plain"}[board[8][-1]]
    terrain = "recruit" if board[8][0] in "JQ" and board[8] != "JK" else terrain
    assert rig.lines[0] == "2,2 %s %s" % (board[8], "joker" if board[8] == "JK" else terrain)
    rig.keys("a:long")  # zoom in: whole names, 4 squares a row (the cursor's square inverted)
    assert rig.lines[2].split() == [board[7], board[9], board[10]]
    assert rig.lines[7].split() == board[42:46]
    rig.keys("a:long")  # and out again (A picks an army up: board_page below)
    assert rig.lines[7] == " ".join(short(c) for c in board[42:49])


def simple_move(g):
    """A simple player's next move for the player whose turn it is (the whole games'):
    the biggest army that gets nearer a castle it does not hold steps there, one unit
    left on its own castles; ``push`` a beaten army to the first square it may take;
    None: the turn is over."""
    state, p = g.state["game"], g.active_player()
    if state["push"]:
        b = at(state["push"][:3])
        for i in range(49):
            if max(abs(i // 7 - b // 7), abs(i % 7 - b % 7)) == 1 and not state["army"][i]:
                return "push %s %s" % (p, square_of(i))
    army, corners = state["army"], (0, 6, 42, 48)
    if g.state["players"][p]["moves_left"] == 0:
        return None
    targets = [c for c in corners if army[c][:2] != p]

    def dist(a, b):
        return max(abs(a // 7 - b // 7), abs(a % 7 - b % 7))

    best = None
    for i in range(49):
        units = sorted(army[i][2:]) if army[i][:2] == p else ""
        n = sum(1 for u in units if u < "2") - (1 if i in corners else 0)
        for j in range(49) if n > 0 and targets else ():
            d = min(dist(j, t) for t in targets)
            if dist(i, j) == 1 and d < min(dist(i, t) for t in targets) and \
                    (best is None or (d, -n) < best[0]) and \
                    not (army[j][:2] == p and len(army[j]) - 2 + n > 6):
                best = ((d, -n), i, j, n)
    if best is None:
        return None
    _, i, j, n = best
    card = " card=" + state["leftover"][0] if state["board"][j] == "JK" else ""
    return "go %s %s %s units=%d%s" % (p, square_of(i), square_of(j), n, card)


def on_the_board(rig, g, action):
    """``go``/``push`` entered on the board page (Down from the play screen) as a player
    looking at it would: the cursor to the army (it opens on the likeliest), A to pick
    it up, A on it per unit fewer than it offers, the arrows to where it goes (they
    jump between its legal destinations, the likeliest first), A (a joker's card
    chosen in its form)."""
    from arbiter.screens.army_board import ArmyBoard

    if not isinstance(rig.app.screen, ArmyBoard):
        rig.keys("down")
    board = rig.app.screen
    words = dict(w.split("=") for w in action.split() if "=" in w)
    squares = [w for w in action.split()[2:] if "=" not in w]

    def cursor_to(sq):
        for _ in range(14):  # bounded: each press brings the cursor nearer
            row, col = divmod(board.cursor, 7)
            dr, dc = int(sq[0]) - 1 - row, int(sq[2]) - 1 - col
            if not (dr or dc):
                return
            if board.picked < 0:  # the board wraps round: the shorter way
                dr, dc = (dr + 3) % 7 - 3, (dc + 3) % 7 - 3
            rig.keys("down" if dr > 0 else "up" if dr < 0 else "right" if dc > 0 else "left")
        raise AssertionError(f"the cursor never reached {sq}: {rig.lines}")

    before = g.history.count()
    if action.startswith("push"):
        cursor_to(squares[0])
        rig.keys("a")
    else:
        cursor_to(squares[0])
        rig.keys("a")
        assert rig.lines[0].startswith("%sx" % squares[0]), (rig.lines, action)  # picked up
        if board.units != int(words["units"]):
            cursor_to(squares[0])
            for _ in range(6):
                if board.units == int(words["units"]):
                    break
                rig.keys("a")
        cursor_to(squares[1])
        assert rig.lines[0].startswith("%sx%s to %s" % (squares[0], words["units"], squares[1]))
        rig.keys("a")
        if "card" in words:
            fill_form(rig, [words["card"]])
    assert g.history.count() == before + 1, rig.lines[0]
    event = g.history.events[-1].split("|")[0].split()
    assert event[0] == action.split()[0] and set(event[1:]) >= {"p=" + g.active_player()} | {
        "%s=%s" % kv for kv in words.items()}


def to_a_win_on_the_board(rig, g):
    """Turns played by simple_move on the board page, A on the play screen between."""
    turns = 0
    while g.state["result"] is None and turns < 90:
        action = simple_move(g)
        if action is None:
            if not isinstance(rig.app.screen, type(play_screen(rig))):
                rig.keys("b")
            rig.keys("a")  # the next turn
            turns += 1
            continue
        on_the_board(rig, g, action)
    assert g.state["result"] == "win"
    said = " ".join(rig.lines)  # from 3 players the winner in the bar, why below
    assert "%s wins" % g.state["winner"] in said and "began its turn on 3 castles" in said
    typed = [e for e in g.history.events
             if e.split("|")[0].split()[0] not in ("go", "push", "next")]
    assert typed == []  # no terrain value, army size or support anywhere


def castles_and_armies_by_the_menu(rig, castles, armies):
    """Each (player, square) castle chosen, each (player, square, units) army placed, by
    the play screen's fast path where it can (else the game menu's forms); then A: the
    first turn."""
    for player, square in castles:
        do(rig, "Choose a castle", [player, square])
    for player, square, units in armies:
        do(rig, "Place an army", [player, square, units])
    rig.keys("a")


def test_a_whole_game_on_the_device_moved_on_the_board(rig):
    from arbiter.screens.army_board import NAMES, letter

    # 6: "Each player gets three movement actions ... If you enter the same space as an
    # opposing army, fight." "When a player begins the turn with units on three
    # castles, that player wins." Every move on the board page, nothing typed.
    g = deal_on_the_device(rig)
    assert rig.lines[2] == "P1 Cst0 Res15 Mv3"  # the moves left whole (was "... Mv")
    castles_and_armies_by_the_menu(
        rig, [("P1", "1,1"), ("P2", "7,7"), ("P2", "1,7"), ("P1", "7,1")],
        [("P1", "1,1", 6), ("P2", "1,7", 4), ("P1", "7,1", 3), ("P2", "7,7", 5)])
    assert rig.lines[1] == "Turn: P1" and g.state["game"]["holders"] == ["P1", "P2", "P1", "P2"]
    rig.keys("down")  # the board, its armies on it
    assert rig.lines[0] == "1,1 %s castle P1x6" % g.state["game"]["board"][0]
    assert rig.lines[1].endswith(" 24")  # P2's 4 units (1,1: the cursor's), as apart as
    assert rig.lines[7].startswith("1%d " % army(g, "7,1")[1])  # 3, or 4 if reinforced
    assert rig.lines[7].endswith(" 25")  # the cards: 2 characters a square
    ram = rig.frame.ram  # every square stands apart, an army's too: blank columns between
    assert all(ram[page * 128 + x] == 0 for page in range(2, 8) for x in range(13, 128, 18))
    # A picks up the army under the cursor (the biggest that can move), all but the one
    # that holds the castle; the cursor on its step nearest a castle P1 does not hold
    rig.keys("a")
    assert rig.lines[0] == "1,1x5 to 1,2 " + NAMES[letter(g.state["game"]["board"][1])]
    rig.keys("down")  # the arrows jump between the squares it may go to: 2,2, then back
    assert rig.lines[0].startswith("1,1x5 to 2,2")
    rig.keys("up", "left", "a")  # on itself, A takes one unit fewer
    assert rig.lines[0] == "1,1x4 to 1,1"
    rig.keys("b", "b")  # dropped; back to the play screen
    to_a_win_on_the_board(rig, g)



# Issue 48: "Tactics opens 'Choose a castle' before the deal and after all castles are
# chosen": each step of the setup offers its own action, and only once it is due.
def test_the_fast_path_deals_then_chooses_castles_then_places_armies():
    from arbiter.screens.fast import fast_action

    g = new_game(RULES, 1)
    # 1: "Shuffle the deck of cards and lay it out in a 7x7 grid": first of all
    assert fast_action(g) == "layout"
    refused(g, "castle P1 1,1", "deal the battlefield first")
    g.apply("layout")
    # 6: "Player one picks one of the castles. Then player two picks his two castles.
    # Player one gets the last castle"
    for action in CASTLES[:4]:
        assert fast_action(g) == "castle"
        g.apply(action)
    refused(g, "castle P1 1,1", "all castles are chosen")
    # 1: "Each side has a set of 15 tokens ... An army can never be bigger than 6"
    for action in CASTLES[4:8]:
        assert fast_action(g) == "place"
        g.apply(action)
    g.apply("next")
    assert fast_action(g) == "go"


def test_the_fast_path_pushes_a_beaten_army_back_before_any_move(runtime):
    # 3: "If the defender lost, his remaining army is pushed backward (if this isn't an
    # option, the attacker chooses where the defender is pushed)"
    from arbiter.screens.fast import fast_action

    for seed in range(40):
        g = fight(seed, {"3,3": "KH", "4,4": "10H"}, {"3,3": "P1 6", "4,4": "P2 6",
                                                     "5,5": "P1 1"})
        if g.state["game"]["push"]:
            break
    assert fast_action(g) == "push"  # a move is refused until then
    ways = g.state["game"]["ways"]  # what its form offers: the squares it may take
    assert ways == [square_of(i) for i in range(49) if square_of(i) not in ("4,4", "5,5")
                    and max(abs(i // 7 - 3), abs(i % 7 - 3)) == 1]
    g.apply("push P1 " + ways[0])
    assert g.state["game"]["ways"] == [] and fast_action(g) == "go"


def test_on_the_device_the_setup_forms_open_on_what_is_due(rig):
    # 6: "Player one picks one of the castles. Then player two picks his two castles."
    # Then each player's armies on its castles, the first castle without one first.
    from arbiter.screens.fast import FastForm

    start_game(rig, "tactics")
    g = game_of(rig)
    rig.keys("right")  # the deal: row 1, A
    assert isinstance(rig.app.screen, FastForm) and rig.app.screen.name == "layout"
    rig.keys("a")
    assert len(g.state["game"]["board"]) == 49
    for player, square in (("P1", "1,1"), ("P2", "7,7"), ("P2", "1,7"), ("P1", "7,1")):
        rig.keys("right")
        form = rig.app.screen
        assert form.values()[0] == player  # whose choice it is, and only that player
        assert form.fields[0][1] == [player]
        rig.keys(*["right"] * form.fields[1][1].index(square), "a")
    assert g.state["game"]["chooser"] == ["P1", "P2", "P2", "P1"]
    rig.keys("right")  # the first castle with no army yet, its chooser's, 6 units
    assert rig.app.screen.values() == ["P1", "1,1", "6"]
    assert "Place an army: <P1> 1,1 units <6>" in " ".join(rig.lines)
    rig.keys("a")
    rig.keys("right")
    assert rig.app.screen.values() == ["P2", "1,7", "6"]
    rig.keys("down")  # the other player: its own castle without an army, the units kept
    assert rig.app.screen.values() == ["P1", "7,1", "6"]
    rig.keys("left", "left", "left", "a")
    assert army(g, "7,1") == ("P1", 3) and g.state["players"]["P1"]["reserve"] == 6


def test_on_the_device_a_on_the_board_chooses_the_castle_due(rig):
    # 6: "Player one picks one of the castles. Then player two picks his two castles."
    g = deal_on_the_device(rig)
    open_menu_item(rig, "Board")
    assert rig.app.screen.cursor == 0  # on the first free corner
    rig.keys("a")
    assert g.state["game"]["chosen"] == ["1,1"]
    assert rig.lines[0] == "P1 castle 1,1; P2"  # what it said, over two lines
    assert rig.app.screen.cursor == 6  # the next free corner: 1,7
    rig.keys("down", "a")  # not a corner: what is due, in words
    assert rig.lines[:2] == ["choose a castle: a", "free corner"]
    rig.keys("up", "a")
    assert g.state["game"]["chooser"] == ["P1", "P2"]
    for _ in range(2):
        rig.keys("a")  # each on the next free corner
    assert g.state["game"]["chooser"] == ["P1", "P2", "P2", "P1"]
    rig.keys("a")
    assert rig.lines[:2] == ["place the armies:", "Right on the play"]
    assert not any("None" in line or "=" in line for line in rig.lines)

def test_a_3_player_game_on_the_device_to_a_castle_win(rig):
    # 1: "2 players. More may be possible"; 6: "Player one picks one of the castles.
    # Then player two picks his two castles." With 3, P1, P2, P3, then P1.
    g = deal_on_the_device(rig, "right")  # Players <3>
    assert len(g.state["players"]) == 3
    castles_and_armies_by_the_menu(
        rig, [("P1", "1,1"), ("P2", "7,7"), ("P3", "1,7"), ("P1", "7,1")],
        [("P1", "1,1", 4), ("P1", "7,1", 3), ("P2", "7,7", 5), ("P3", "1,7", 5)])
    assert g.state["game"]["holders"] == ["P1", "P3", "P1", "P2"]
    to_a_win_on_the_board(rig, g)
    assert {e.split()[1] for e in g.history.events if e.startswith("go")} <= {
        "from=%s" % sq for sq in (square_of(i) for i in range(49))}


def test_the_ring_shows_whose_turn_and_flashes_a_combats_winner(rig):
    # the device's LEDs "say whose turn it is and light a combat's result" (issue 25)
    from arbiter.screens.colours import player_colour

    g = deal_on_the_device(rig)
    for action in CASTLES[:-1] + ["next"]:
        act(rig, action)
    colour = {p: lit(rig, player_colour(g.rules, p)) for p in ("P1", "P2")}
    assert rig.led_colours()[0] == {colour["P1"]}  # P1's turn: P1's colour
    arrange(g, {"6,6": "AH"}, {"6,6": "P1 1", "7,7": "P2 6"})
    act(rig, "go P1 6,6 7,7")  # 1 unit against 6 on a castle: P2 wins
    assert g.state["game"]["att_total"] < g.state["game"]["def_total"]
    frames = []
    for _ in range(40):
        rig.run(20)
        frames.append(set(rig.frame.leds))
    assert {colour["P2"]} in frames  # the whole ring in the winner's colour, in P1's turn


def test_a_move_by_the_game_menus_form_too(rig):
    g = deal_on_the_device(rig)
    for action in CASTLES[:-1] + ["next"]:
        act(rig, action)
    rig.keys("b", "b")  # the play screen
    open_menu_item(rig, "Move an army")  # the card is used only on a joker
    fill_form(rig, ["P1", "7,1", "6,1", g.state["game"]["leftover"][0], 1])
    assert g.history.events[-1].split("|")[0].startswith("go ")
    assert g.state["players"]["P1"]["moves_left"] == 2


def test_fog_of_war_on_the_device_hides_the_cards_until_turned_up_and_peeks(rig):
    g = deal_on_the_device(rig, "down", "right")  # Fog of war <on>
    board = g.state["game"]["board"]
    open_menu_item(rig, "Board")
    assert rig.lines[0] == "1,1 %s castle" % board[0]  # the corners are face up
    assert rig.lines[1] == "?? " * 5 + short_of(board[6])  # (1,1 is under the cursor)
    assert rig.lines[2:7] == [" ".join(["??"] * 7)] * 5
    assert rig.lines[7] == short_of(board[42]) + " ?? ?? ?? ?? ?? " + short_of(board[48])
    rig.keys("right")
    assert rig.lines[0] == "1,2 ??"
    rig.keys("a:long")  # no army on the board yet: nobody may look (see below)
    assert rig.lines[:2] == ["no army is near", "enough to look at 1,2"]
    rig.keys("b", "b")  # the board, the menu
    open_menu_item(rig, "Table")
    assert not any(line.startswith("board") for line in rig.app.screen.lines)
    rig.keys("b", "b")
    open_menu_item(rig, "Turn a card up")
    fill_form(rig, ["2,2"])
    assert g.state["message"] == "2,2 is " + board[8]
    open_menu_item(rig, "Board")
    rig.keys("right", "down")
    assert rig.lines[0].startswith("2,2 " + board[8])


def short_of(card):
    from arbiter.screens.grid import short

    return short(card)


# -- fair play (issue 19): the exploits, replayed, now fail ---------------------------------


def test_a_lost_combat_undone_and_entered_again_rolls_fresh_dice(runtime):
    # rule: "Every roll takes the next numbers of the game's generator, whatever was
    # undone. An undone action's rolls stay in the journal and in the log, marked undone."
    g = fight(5)
    lost = g.history.events[-1]
    with pytest.raises(Illegal, match="undo needs everyone's agreement"):
        g.apply("undo")
    g.apply("undo agreed")
    g.apply("go P1 3,3 4,4")
    again = g.history.events[-1]
    assert again.split("|")[0] == lost.split("|")[0]
    assert again.split("|")[1] != lost.split("|")[1]  # not the same dice, now known
    undone = [e["rolls"] for e in g.log if e["event"] == "roll" and e.get("undone")]
    groups = lost.split("|")[1].split(";")
    assert undone == [[int(d) for d in group.split(",")] for group in groups]


def test_a_refused_action_shows_and_uses_none_of_the_dice_it_rolled(runtime):
    # rule: "Nothing shown before it counts. A preview never rolls; a refused action
    # consumes and shows no dice."
    g = arrange(plains(5), {"2,2": "5C"})
    assert previewed(g, "go P1 1,1 2,2") == ""  # it would roll: the preview stops before
    logged = list(g.log)
    with pytest.raises(Illegal, match="3,3 is not next to 1,1"):
        g.apply("go P1 1,1 3,3")
    assert g.log == logged  # nothing rolled is logged
    straight = arrange(plains(5), {"2,2": "5C"})
    assert g.apply("roll d6 5") == straight.apply("roll d6 5")  # the same next dice


def test_a_move_onto_a_joker_on_the_board_is_done_once_its_form_is_gone(rig, monkeypatch):
    # 4: "When you land on a joker, choose a card from the leftover stack of cards, and
    # replace the joker with that." The card is chosen in a form over the board; the
    # move is done in a pass of its own once the form's code is let go (with it, the
    # move was Tactics' heap peak on a Pico).
    import inspect

    from arbiter.screens.army_board import ArmyBoard

    g = deal_on_the_device(rig)
    castles_and_armies_by_the_menu(
        rig, [("P1", "1,1"), ("P2", "7,7"), ("P2", "1,7"), ("P1", "7,1")],
        [("P1", "1,1", 6), ("P1", "7,1", 3), ("P2", "7,7", 5), ("P2", "1,7", 4)])
    board = g.state["game"]["board"]
    if "JK" in board:  # a joker next to P1's castle: the deal's own, moved there
        board[board.index("JK")] = board[8]
    board[8] = "JK"
    loaded = []
    act = ArmyBoard.act

    def watched(self, app, text, now):  # the form's code still running (its key)?
        loaded.append(any(frame.filename.endswith("forms.py") for frame in inspect.stack()))
        return act(self, app, text, now)

    monkeypatch.setattr(ArmyBoard, "act", watched)
    card = g.state["game"]["leftover"][0]
    on_the_board(rig, g, "go P1 1,1 2,2 units=5 card=%s" % card)
    assert loaded == [False]
    assert g.state["game"]["board"][8] == card and army(g, "2,2")[0] == "P1"


# -- issue 46: pushes, recruits and jokers, peeks and undo under fog of war -------------


def fogged_started(seed=1):
    """A started game under fog of war (the castles taken, the armies placed)."""
    return new_game(RULES, seed, options={"fog": "on"}, actions=["layout"] + CASTLES)


def pushed_back(make, limit=40):
    """The first game ``make(seed)`` gives where P1's attack 3,3 to 4,4 pushes P2's
    army straight back to 5,5."""
    for seed in range(limit):
        g = make(seed)
        g.apply("go P1 3,3 4,4")
        if army(g, "5,5")[0] == "P2":
            return g
    raise AssertionError("no seed pushed P2 back")


BEATEN = {"3,3": "P1 6", "4,4": "P2 6", "3,4": "P1 2"}  # P1 wins, P2 keeps some units


def test_under_fog_an_army_pushed_back_turns_its_card_up(runtime):
    # 7.2: "All cards are face down. When a card becomes occupied, flip it over." 3: "If
    # the defender lost, his remaining army is pushed backward"
    g = pushed_back(lambda seed: arrange(fogged_started(seed), {"3,3": "KH", "4,4": "AH",
                                                               "5,5": "4D"}, BEATEN))
    assert "P2 pushed to 5,5" in g.state["message"]
    assert at("5,5") in g.state["game"]["face_up"]


def test_the_attackers_choice_of_push_turns_its_card_up_too(runtime):
    # 7.2: "When a card becomes occupied, flip it over."
    for seed in range(40):
        g = arrange(fogged_started(seed), {"3,3": "KH", "4,4": "AH"},
                    dict(BEATEN, **{"5,5": "P1 1"}))
        g.apply("go P1 3,3 4,4")
        if g.state["game"]["push"]:
            break
    g.apply("push P1 4,5")
    assert at("4,5") in g.state["game"]["face_up"]


def test_a_6_unit_army_on_a_recruit_gains_none_and_leaves_it_for_later(runtime):
    # 4: "When you land on a queen or jack card, add a unit to that army. Then flip the
    # face card over. Recruits can only be collected once before they are depleted."
    # 1: "An army can never be bigger than 6 units"
    g = arrange(plains(), {"2,2": "QH"}, {"2,2": "P1 5"})
    g.apply("go P1 1,1 2,2 units=1")  # lands: 6 units, none to add
    assert army(g, "2,2") == ("P1", 6) and g.state["game"]["flipped"] == []
    assert g.state["message"] == "P1 1,1 to 2,2, 2 move(s) left; QH stays a recruit: " \
        "an army is at most 6"
    g.apply("go P1 2,2 2,3 units=2")
    g.apply("go P1 2,3 2,2 units=1")  # 5 there again: the recruit still works
    assert army(g, "2,2") == ("P1", 6) and g.state["game"]["flipped"] == ["2,2"]


def test_a_recruit_with_no_token_left_in_reserve_stays_for_later(runtime):
    # 4: "When you land on a queen or jack card, add a unit to that army." 1: "2 groups of
    # 15 tokens": with none left, there is no unit to add
    g = arrange(plains(), {"2,2": "JD"})
    g.apply("set P1.reserve 0")
    g.apply("go P1 1,1 2,2 units=2")
    assert army(g, "2,2") == ("P1", 2) and g.state["game"]["flipped"] == []
    assert g.state["message"].endswith("; JD stays a recruit: P1 has no token left")


def test_a_recruit_tells_the_table_to_add_the_token_and_turn_the_card_over(runtime):
    # 4: "When you land on a queen or jack card, add a unit to that army. Then flip the
    # face card over."
    g = arrange(plains(), {"2,2": "QH"})
    g.apply("go P1 1,1 2,2 units=2")
    assert g.state["message"] == \
        "P1 1,1 to 2,2, 2 move(s) left; recruited: add a P1 token, turn QH over"
    for seed in range(40):  # a combat won on a recruit: after the combat's words
        g = fight(seed, {"3,3": "KH", "4,4": "JC"}, {"3,3": "P1 5", "4,4": "P2 1"})
        if army(g, "4,4")[0] == "P1":
            break
    assert g.state["message"].endswith("; recruited: add a P1 token, turn JC over")
    assert army(g, "4,4")[1] == 6 - g.state["players"]["P1"]["units_lost"]


def joker_behind(seed, push_to="5,5", blocked=False):
    """P1's 6 at 3,3 on a king about to beat P2's 6 at 4,4 on an ace, a joker at
    ``push_to``; ``blocked``: P1's unit at 5,5, the way back."""
    return arrange(plains(seed), {"3,3": "KH", "4,4": "AH", push_to: "JK"},
                   dict(BEATEN, **({"5,5": "P1 1"} if blocked else {})))


def test_an_army_pushed_onto_a_joker_has_its_owner_choose_the_card(runtime):
    # 4: "When you land on a joker, choose a card from the leftover stack of cards, and
    # replace the joker with that."
    g = pushed_back(joker_behind)
    left = list(g.state["game"]["leftover"])
    assert g.state["game"]["joker"] == "5,5"
    assert "P2 pushed to 5,5, on a joker: P2 chooses its card" in g.state["message"]
    refused(g, "go P1 4,4 4,5 units=1", "first P2 chooses the card for the joker at 5,5")
    refused(g, "next", "first P2 chooses the card for the joker at 5,5")
    refused(g, "joker P1 %s" % left[0], "P2's army is on the joker at 5,5: P2 chooses")
    refused(g, "joker P2 JK", "5,5 is a joker: choose its card, one of " + " ".join(left))
    g.apply("joker P2 %s" % left[0])
    assert g.state["game"]["board"][at("5,5")] == left[0] and g.state["game"]["joker"] == ""
    assert g.state["game"]["leftover"] == left[1:]
    assert g.state["message"] == "P2: the joker at 5,5 is %s" % left[0]
    refused(g, "joker P2 %s" % left[1], "no joker waits for its card")
    g.apply("go P1 4,4 4,5 units=1")


def test_an_army_the_attacker_pushes_onto_a_joker_chooses_its_card_too(runtime):
    # 4: "When you land on a joker, choose a card from the leftover stack"
    for seed in range(40):
        g = joker_behind(seed, "4,5", blocked=True)
        g.apply("go P1 3,3 4,4")
        if g.state["game"]["push"]:
            break
    g.apply("push P1 4,5")
    assert g.state["game"]["joker"] == "4,5"
    assert g.state["message"] == "P2 pushed to 4,5, on a joker: P2 chooses its card"


def test_a_joker_no_unit_lands_on_stays_a_joker(runtime):
    # 4: "When you land on a joker, choose a card ... and replace the joker with that."
    # "Each unit that rolls 4-6 moves into the terrain. The others are left behind."
    seen = set()
    for seed in range(20):
        g = arrange(plains(seed), {"2,2": "JK"})
        patched(g, {"leftover": ["5C", "6H", "7D"]})
        g.apply("go P1 1,1 2,2 units=1 card=5C")  # a forest: a roll to enter
        if army(g, "2,2")[0]:
            seen.add("landed")
            assert g.state["game"]["board"][at("2,2")] == "5C"
            assert g.state["game"]["leftover"] == ["6H", "7D"]
        else:
            seen.add("stayed out")
            assert g.state["game"]["board"][at("2,2")] == "JK"
            assert g.state["game"]["leftover"] == ["5C", "6H", "7D"]
        if len(seen) == 2:
            break
    assert seen == {"landed", "stayed out"}


LOOKING = {"1,1": "", "1,7": "", "7,1": "", "7,7": "",
           "2,2": "P1 1", "6,6": "P2 1", "4,4": "P2 1"}


def test_a_player_may_look_only_next_to_an_army_or_two_away_from_a_mountain():
    # 7.2: "At any time you can look at a card adjacent to a card you occupy. On a
    # mountain top, you can look two cards away, due to your higher vantage point."
    from arbiter.game.natives.tactics_board import lookers

    g = arrange(fogged_started(), {"2,2": "3H", "6,6": "4S", "4,4": "5C"}, LOOKING)
    seen = {square_of(i): lookers(g, i) for i in range(49)}
    assert seen["1,1"] == ["P1"] and seen["3,3"] == ["P1", "P2"]  # 3,3: next to both
    assert seen["2,4"] == []  # two from P1's plain 2,2, two from P2's forest 4,4
    assert seen["4,6"] == ["P2"] and seen["7,7"] == ["P2"]  # two from P2's mountain 6,6
    assert seen["1,4"] == [] and seen["4,1"] == [] and seen["2,2"] == []  # its own: up


def test_who_may_look_is_the_same_in_micropython():
    # 7.2, as the device's Board works it out on a Pico (its MicroPython)
    import tempfile
    from pathlib import Path

    from helpers.runtimes import LOAD_RULESET

    from arbiter.game.natives.tactics_board import lookers
    from arbiter_referee.build import device_firmware
    from arbiter_referee.compiled import compiled_copy
    from arbiter_referee.emulator.session import run_driver
    from arbiter_referee.headless import RUN_HEAP
    from arbiter_referee.rulesets import ruleset_path

    g = arrange(fogged_started(), {"2,2": "3H", "6,6": "4S", "4,4": "5C"}, LOOKING)
    here = " ".join("/".join(lookers(g, i)) or "-" for i in range(49))
    body = LOAD_RULESET + """\
gc.collect()
game = vrun.start(rules, 2, 1, {'fog': 'on'})
for action in drvdata.ACTIONS:
    gc.collect()
    vrun.act(game, 0, action)
game.state['game']['board'] = drvdata.BOARD
game.state['game']['army'] = drvdata.ARMY
tactics = __import__('arbiter.game.natives.tactics_board', None, None, ('lookers',))
print('L ' + ' '.join('/'.join(tactics.lookers(game, i)) or '-' for i in range(49)))
"""
    path = ruleset_path("tactics")
    with tempfile.TemporaryDirectory() as folder:
        compiled_copy(path, Path(folder))
        result = run_driver("vrun", body, {"/rs": (Path(folder), False)}, RUN_HEAP,
                            device_firmware(), {"RULESET": "/rs/" + path.name,
                                                "ACTIONS": ["layout"] + CASTLES,
                                                "BOARD": g.state["game"]["board"],
                                                "ARMY": g.state["game"]["army"]},
                            preload=False)
    assert result.exit_code == 0, result.stderr
    assert [line[2:] for line in result.stdout.splitlines() if line[:2] == "L "] == [here]


def test_under_fog_undoing_a_move_that_turned_a_card_up_needs_everyones_agreement(runtime):
    # 7.2: "When a card becomes occupied, flip it over"; the referee's rule: "A revealed
    # secret stays revealed." Everyone has seen the card: a plain undo does not hide
    # it again, the table agrees to (as to an undo of dice seen)
    g = arrange(fogged_started(), {"1,2": "2H", "2,1": "3D"})
    g.apply("go P1 1,1 1,2 units=1")
    assert 1 in g.state["game"]["face_up"]
    refused(g, "undo", "undo needs everyone's agreement .undo agreed.: a card turned up "
                       "would be hidden again")
    g.apply("undo agreed")
    assert 1 not in g.state["game"]["face_up"] and army(g, "1,2") == ("", 0)
    g.apply("redo")
    g.apply("go P1 1,2 1,1 units=1")  # onto a card already up: a plain undo
    g.apply("undo")
    assert army(g, "1,2") == ("P1", 1) and 1 in g.state["game"]["face_up"]


def fog_on_the_device(rig, fog=True):
    """A game under fog of war on the device (``fog`` False: without), the castles
    taken and the armies placed, P1's turn: the play screen."""
    g = deal_on_the_device(rig, *(("down", "right") if fog else ()))  # Fog of war <on>
    for action in CASTLES[:-1] + ["next"]:
        act(rig, action)
    rig.keys("b", "b")
    return g


def board_cell(rig, sq):
    """What the Board draws on square ``sq`` (the page open, zoomed out; the cursor,
    drawn inverted, elsewhere in the first rows)."""
    assert rig.app.screen.cursor != at(sq) and rig.app.screen.cursor < 14
    row = rig.lines[rig.app.screen.head_lines + int(sq[0]) - 1]
    return row[3 * int(sq[2]) - 3:3 * int(sq[2])].strip()  # 18 pixels: 2 characters, a gap


def cursor_on(rig, sq):
    board = rig.app.screen
    while board.cursor // 7 != int(sq[0]) - 1:
        rig.keys("down")
    while board.cursor % 7 != int(sq[2]) - 1:
        rig.keys("right")


def test_on_the_device_a_peek_is_only_for_the_players_whose_armies_may_look(rig):
    # 7.2: "At any time you can look at a card adjacent to a card you occupy. On a
    # mountain top, you can look two cards away"
    g = fog_on_the_device(rig)
    board = g.state["game"]["board"]
    open_menu_item(rig, "Board")
    events = list(g.history.events)
    cursor_on(rig, "1,2")  # next to P1's castle 1,1
    rig.keys("a:long")
    assert rig.lines[0] == "Peek 1,2" and "Only P1 may look:" in rig.lines
    assert "others look away" in rig.lines
    rig.keys("a")
    assert rig.lines[1].startswith(board[1])
    rig.keys("b")  # the card: back on the board
    cursor_on(rig, "3,3")  # two away from every army
    rig.keys("a:long")
    assert rig.lines[:2] == ["no army is near", "enough to look at 3,3"]
    assert g.history.events == events  # a peek is not recorded


def test_on_the_device_an_army_pushed_onto_a_face_down_card_shows_on_it(rig):
    # 7.2: "When a card becomes occupied, flip it over." 3: "his remaining army is
    # pushed backward"
    g = fog_on_the_device(rig)
    arrange(g, {"3,3": "KH", "4,4": "AH", "5,5": "4D"}, BEATEN)
    for _ in range(20):  # the device's dice: again (undone, agreed) until a push back
        act(rig, "go P1 3,3 4,4")
        if army(g, "5,5")[0] == "P2":
            break
        act(rig, "undo agreed")
    rig.keys("down")  # the Board
    cursor_on(rig, "1,1")
    assert board_cell(rig, "5,5") == "2%d" % army(g, "5,5")[1]
    cursor_on(rig, "5,5")
    assert rig.lines[0] == "5,5 4D plain P2x%d" % army(g, "5,5")[1]


def test_on_the_device_recruits_used_and_unused_are_drawn_apart(rig):
    # 4: "When you land on a queen or jack card, add a unit to that army. Then flip the
    # face card over. Recruits can only be collected once before they are depleted."
    g = fog_on_the_device(rig, fog=False)
    arrange(g, {"2,2": "QH", "2,3": "JD"})
    act(rig, "go P1 1,1 2,2 units=2")
    assert g.state["message"].endswith("; recruited: add a P1 token, turn QH over")
    rig.keys("down")  # the Board
    cursor_on(rig, "1,1")
    assert board_cell(rig, "2,2") == "13" and board_cell(rig, "2,3") == "JD"
    cursor_on(rig, "2,2")
    assert rig.lines[:2] == ["2,2 QH used recruit", "P1x3"]
    rig.keys("b")
    act(rig, "go P1 2,2 3,3 units=1")
    act(rig, "go P1 2,2 3,3 units=2")
    rig.keys("down")
    cursor_on(rig, "1,1")
    assert board_cell(rig, "2,2") == "Q-" and board_cell(rig, "2,3") == "JD"
    cursor_on(rig, "2,3")
    assert rig.lines[0] == "2,3 JD recruit"


def test_on_the_device_the_owner_of_an_army_pushed_onto_a_joker_chooses_its_card(rig):
    # 4: "When you land on a joker, choose a card from the leftover stack of cards, and
    # replace the joker with that."
    g = fog_on_the_device(rig, fog=False)
    arrange(g, {"3,3": "KH", "4,4": "AH", "5,5": "JK"}, BEATEN)
    for _ in range(20):
        act(rig, "go P1 3,3 4,4")
        if g.state["game"]["joker"]:
            break
        act(rig, "undo agreed")
    card = g.state["game"]["leftover"][-1]
    rig.keys("down")  # the Board: A asks P2 for the card
    rig.keys("a")
    assert rig.lines[0] == "P2: joker's card?"
    fill_form(rig, [card])
    rig.run(100)
    assert g.state["game"]["board"][at("5,5")] == card and g.state["game"]["joker"] == ""


def test_on_the_device_undoing_a_move_that_turned_a_card_up_asks_the_table(rig):
    # "A revealed secret stays revealed" (the referee's rule): everyone saw the card
    g = fog_on_the_device(rig)
    arrange(g, {"1,2": "2H"})
    act(rig, "go P1 1,1 1,2 units=1")
    event = g.history.events[-1]
    rig.keys("b:long")
    assert rig.lines[0] == "Undo?" and "A card turned up" in rig.lines
    assert "goes face down." in rig.lines and "All agree?" in rig.lines
    rig.keys("b")  # no: nothing undone
    assert g.history.events[-1] == event and 1 in g.state["game"]["face_up"]
    rig.keys("b:long", "a")  # everyone agrees
    assert event not in g.history.events and 1 not in g.state["game"]["face_up"]


def test_a_on_the_board_while_castles_are_chosen_picks_the_castle_due(rig):
    # issue 48: "`pick an army of None` (A on the Tactics board during castle choice)"
    deal_on_the_device(rig)
    open_menu_item(rig, "Board")
    rig.keys("a")  # on the corner the cursor opens at: the castle of the player due
    said = " ".join(rig.lines)
    assert "None" not in said and "P1 castle 1,1; P2 picks next" in said, rig.lines
