"""Tactics Joker refereed as its rules say (../shared/seeds/003_4780b538f5e1a65c.txt,
digest: ../shared/docs/referee-spec.md section 4)."""

import json
from collections import Counter

import pytest
from helpers.device import do, fill_form, game_of, open_menu_item, start_game
from helpers.game import canonical, new_game, refused, rolled, rules, undoes_and_redoes_exactly

from arbiter.game import Illegal, ruleset
from arbiter.game.engine import Game
from arbiter_referee.cli import main as arbiter
from arbiter_referee.headless import play
from arbiter_referee.rulesets import bundled

RULES = rules("tactics")
DECK = [r + s for s in "SHDC" for r in ["A"] + [str(n) for n in range(2, 11)] + ["J", "Q", "K"]]
CASTLES = ["castle P1 1,1", "castle P2 7,7", "castle P2 1,7", "castle P1 7,1", "next"]
# Seeds that deal or roll what a test needs, found once (the dice are never mocked);
# each test checks its seed still does:
SEED_TWO_JOKERS = 0  # the battlefield holds both jokers (fog of war or not)
SEED_ONE_JOKER = 11  # it holds one
SEED_NO_JOKER = 57  # it holds none: the leftover stack has 3 cards
SEED_KOBOLDS_ROLL_TWO = 1  # kobolds holding 4 castles roll two or more 4-6s to reinforce
SEED_TWO_ON_TWO_TIE = 1  # 2 units attack 2 (plain, no values): the first rolls tie


def new(seed=1, **options):
    """A game with the battlefield dealt (``layout``, its first action)."""
    return new_game(RULES, seed, options={"race." + p: r for p, r in options.items()},
                    actions=["layout"])


def started(seed=1, **options):
    g = new(seed, **options)
    for action in CASTLES:
        g.apply(action)
    return g


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


def test_the_corner_kings_are_in_uniform_order_chi_square_at_1_percent():
    # an unbiased shuffle: all 24 orders of the four kings equally likely
    # (4800 seeded games, 200 expected each; df 23, 1% critical value 41.638)
    counts = Counter(tuple(new(seed).state["game"]["board"][i] for i in (0, 6, 42, 48))
                     for seed in range(10000, 14800))
    assert len(counts) == 24
    assert sum((n - 200) ** 2 / 200 for n in counts.values()) < 41.638


def square_of(i):
    return "%d,%d" % (i // 7 + 1, i % 7 + 1)


def jokers(g):
    from arbiter.game.expr import evaluate

    return evaluate(g, {"val": "jokers"})


def test_a_joker_is_replaced_by_the_players_choice_of_leftover_card():
    # 4 Movement: "choose a card from the leftover stack of cards, and replace the joker"
    g = new(SEED_TWO_JOKERS)
    board = g.state["game"]["board"]
    squares = [square_of(i) for i, c in enumerate(board) if c == "JK"]
    assert len(squares) == 2 and jokers(g) == squares  # what the device's form offers
    left = list(g.state["game"]["leftover"])
    assert len(left) == 5 and "JK" not in left
    for action, reason in [("joker 1,1 %s" % left[0], "no joker at 1,1"),
                           ("joker %s JK" % squares[0], "JK is not in the leftover"),
                           ("joker %s %s" % (squares[0], board[0]), "not in the leftover")]:
        refused(g, action, reason)
    for square, card in zip(squares, left[3:], strict=True):  # the players choose
        g.apply("joker %s %s" % (square, card))
        i = (int(square[0]) - 1) * 7 + int(square[2]) - 1
        assert g.state["game"]["board"][i] == card and g.state["message"] == \
            "%s is now %s" % (square, card)
    assert "JK" not in g.state["game"]["board"] and jokers(g) == []
    assert g.state["game"]["leftover"] == left[:3]  # each card used once
    refused(g, "joker %s %s" % (squares[0], left[0]), "no joker at")


def test_a_deal_without_jokers_leaves_no_joker_to_replace():
    g = new(SEED_NO_JOKER)
    assert jokers(g) == [] and len(g.state["game"]["leftover"]) == 3
    assert jokers(Game(RULES, seed=1)) == []  # nothing dealt yet
    g = new(SEED_ONE_JOKER)
    assert g.state["game"]["board"].count("JK") == 1
    assert jokers(g) == [square_of(g.state["game"]["board"].index("JK"))]


def test_the_joker_squares_offered_are_right_for_every_joker_place():
    # the ruleset finds them from the board's text: two jokers side by side, apart, at
    # the first and last squares a joker can have
    g = new(1)
    for places in ([1], [47], [1, 2], [1, 47], [20, 21], [5, 7]):
        board = ["2H"] * 49
        for i in places:
            board[i] = "JK"
        g.state["game"]["board"] = board
        assert jokers(g) == [square_of(i) for i in places]


# -- castles and turns -----------------------------------------------------------------------


def test_castle_choice_order_p1_p2_p2_p1_and_p1_first():
    # 6: "Player one picks one of the castles. Then player two picks his two castles.
    # Player one gets the last castle, but gets the first turn."
    g = new()
    refused(g, "castle P2 1,1", "it is P1's turn to choose")
    g.apply("castle P1 1,1")
    refused(g, "castle P2 1,1", "1,1 is taken")
    refused(g, "castle P2 4,4", "a castle is a corner")
    g.apply("castle P2 7,7")
    g.apply("castle P2 1,7")
    refused(g, "next", "choose all 4 castles first")
    g.apply("castle P1 7,1")
    g.apply("next")
    assert g.active_player() == "P1" and g.phase()["name"] == "turn"
    assert g.state["players"]["P1"]["castles"] == 2 and g.state["players"]["P2"]["castles"] == 2


def test_win_only_at_the_start_of_ones_own_turn():
    # 2 Winning: "won when a player begins his turn controlling 3 of the 4 castles"
    g = started()
    g.apply("hold P2 1")
    g.apply("hold P1 3")
    assert g.state["result"] is None  # not mid-turn
    g.apply("next")  # P2's turn begins: P1 is not checked
    assert g.state["result"] is None
    g.apply("next")  # P1 begins a turn holding 3
    assert g.state["winner"] == "P1"


def test_hold_cannot_exceed_four_castles():
    g = started()
    refused(g, "hold P1 3", "only 4 castles")


def test_castle_choice_records_who_holds_each_corner():
    g = started()
    assert g.state["game"]["holders"] == ["P1", "P2", "P1", "P2"]  # 1,1 1,7 7,1 7,7


def test_castle_control_sets_every_holder_and_each_players_count():
    # 2: "Control is defined by occupying that castle with at least one unit"
    g = started()
    g.apply("control P1 P1 - P2")
    assert g.state["game"]["holders"] == ["P1", "P1", "-", "P2"]
    assert [g.state["players"][p]["castles"] for p in ("P1", "P2")] == [2, 1]
    assert g.state["message"] == "held: P1 P1 - P2"
    for action, reason in [("control P1 P3 - P2", "held by P1, P2, -, not P3"),
                           ("control P1 P1 P2", "missing 7,7=")]:
        refused(g, action, reason)


def test_the_win_check_uses_the_castles_confirmed_as_the_turn_passes():
    # P1 takes a third castle in its turn: no win then, nor at P2's turn start; P1
    # wins when its own next turn begins still holding 3 (rule 2)
    g = started()
    g.apply("control P1 P1 P2 P1")
    g.apply("next")
    assert g.state["result"] is None and g.active_player() == "P2"
    g.apply("control P1 P1 P2 P1")  # confirmed as P2's turn ends: P1 still holds 3
    g.apply("next")
    assert g.state["winner"] == "P1"


def test_a_castle_retaken_before_the_turn_starts_is_no_win():
    g = started()
    g.apply("control P1 P1 P2 P1")
    g.apply("next")
    g.apply("control P1 P2 P2 P1")  # P2 retook 1,7 in its turn
    g.apply("next")
    assert g.state["result"] is None and g.state["players"]["P1"]["castles"] == 2


def test_three_moves_then_a_fourth_is_refused():
    # 4 Movement: "A player gets three moves a turn"
    g = started()
    for left in (2, 1, 0):
        g.apply("move P1")
        assert g.state["players"]["P1"]["moves_left"] == left
    refused(g, "move P1", "no moves left")
    refused(g, "move P2", "it is P1's turn")
    # 1: "An army can never be bigger than 6 units"
    refused(g, "move P1 units=7", "an army is at most 6 units")
    g.apply("next")
    assert g.state["players"]["P2"]["moves_left"] == 3


def test_humans_extra_move_only_for_a_one_unit_army():
    # 7.1.4: "an extra point of movement which can only be used to move a one unit army"
    g = started(P1="humans")
    for _ in range(3):
        g.apply("move P1 units=3")
    refused(g, "move P1 units=2", "extra move is for a one-unit army")
    g.apply("move P1 units=1")
    refused(g, "move P1 units=1", "no moves left")


def test_undead_have_two_moves():
    # 7.1.5: "One less point of movement per turn"
    g = started(P1="undead")
    g.apply("move P1")
    g.apply("move P1")
    refused(g, "move P1", "no moves left")


# -- reinforcements --------------------------------------------------------------------------


def _reinforce(seed, race="none", castles=2, reserve=None):
    g = started(seed, P1=race)
    g.apply("hold P2 0")
    g.apply("hold P1 %d" % castles)
    if reserve is not None:
        g.apply("set P1.reserve %d" % reserve)
    before = g.state["players"]["P1"]["reserve"]
    g.apply("reinforce P1")
    return rolled(g, "reinforcements")[-1], before - g.state["players"]["P1"]["reserve"]


def test_reinforcement_a_d6_per_castle_and_6_adds_a_unit():
    # 5 Recruitment: "roll a die for each castle you control. On a 6, add a unit"
    for seed in range(40):
        faces, added = _reinforce(seed, castles=2)
        assert len(faces) == 2 and added == faces.count(6)


def test_kobolds_reinforce_on_4_to_6_and_have_18_in_reserve():
    # 7.1.3: "kobolds are added on 4-6 instead of just 6 ... an extra three tokens"
    assert started(P1="kobolds").state["players"]["P1"]["reserve"] == 18
    assert started().state["players"]["P1"]["reserve"] == 15
    for seed in range(40):
        faces, added = _reinforce(seed, "kobolds", castles=4)
        assert added == sum(1 for f in faces if f >= 4)


def test_reinforcement_is_limited_by_the_reserve():
    # 5: "if you have enough units left in your reinforcements"
    faces, added = _reinforce(SEED_KOBOLDS_ROLL_TWO, "kobolds", castles=4, reserve=1)
    assert sum(f >= 4 for f in faces) >= 2 and added == 1
    g = started()
    g.apply("set P1.reserve 0")
    refused(g, "reinforce P1", "reserve is empty")


def test_reinforcement_once_and_before_moving():
    g = started()
    g.apply("reinforce P1")
    refused(g, "reinforce P1", "once a turn")
    g = started()
    g.apply("move P1")
    refused(g, "reinforce P1", "before moving")


# -- rough terrain ----------------------------------------------------------------------------


@pytest.mark.parametrize("race, terrain, need", [
    ("none", "forest", 4), ("none", "mountain", 4),   # 4: "roll high (4-6)"
    ("elves", "forest", 2), ("elves", "mountain", 4),  # 7.1.1
    ("dwarves", "mountain", 2), ("dwarves", "forest", 4)])  # 7.1.2
def test_rough_terrain_entry_rolls(race, terrain, need):
    for seed in range(25):
        g = started(seed, P1=race)
        g.apply("enter P1 units=5 terrain=%s" % terrain)
        faces = rolled(g, "entering " + terrain)[-1]
        assert len(faces) == 5
        entered = sum(1 for f in faces if f >= need)
        assert g.state["message"] == "%d of 5 enter %s" % (entered, terrain)
        assert g.state["players"]["P1"]["moves_left"] == 2  # a failed entry still spends it


# -- combat --------------------------------------------------------------------------------


def combat(g, **kw):
    args = dict(att="P1", def_="P2", att_units=3, def_units=6, att_value=0, def_value=0,
                att_from="plain", def_on="plain", att_support=0, def_support=0)
    args.update(kw)
    text = "combat " + " ".join("%s=%s" % (k.rstrip("_"), v) for k, v in args.items())
    g.apply(text)
    return g


def test_loss_formula_at_every_difference_0_to_20():
    # 3 Combat: "One of the loser's units dies, plus one more for every 5 points difference"
    seed = 5
    raw = combat(started(seed), def_support=40)
    a = sum(rolled(raw, "attack")[0])
    d = sum(rolled(raw, "defence")[0])
    for diff in range(1, 21):
        g = combat(started(seed), att_support=diff + d + 40 - a, def_support=40)
        assert g.state["game"]["att_total"] - g.state["game"]["def_total"] == diff
        assert g.state["players"]["P2"]["units_lost"] == 1 + diff // 5
        assert g.state["players"]["P1"]["units_lost"] == 0
        assert g.state["game"]["def_left"] == 6 - (1 + diff // 5)
    g = combat(started(seed), att_support=d + 40 - a, def_support=40)  # difference 0
    assert len(rolled(g, "attack")) >= 2  # a tie is re-rolled
    assert g.state["game"]["att_total"] != g.state["game"]["def_total"]


def test_a_tie_costs_each_side_a_unit_and_rerolls():
    # 3: "In the event of a tie ... Both sides lose a unit and reroll"
    g = combat(started(SEED_TWO_ON_TWO_TIE), att_units=2, def_units=2)
    first_a, first_d = rolled(g, "attack")[0], rolled(g, "defence")[0]
    assert sum(first_a) == sum(first_d)
    assert [len(r) for r in rolled(g, "attack")][:2] == [2, 1]  # one unit fewer
    lost = g.state["players"]["P1"]["units_lost"] + g.state["players"]["P2"]["units_lost"]
    assert lost >= 3  # 1 each in the tie, then the loser's loss


@pytest.mark.parametrize("att_from, def_on, att_bonus, def_bonus", [
    ("plain", "plain", 7, 9),
    ("plain", "forest", 0, 9),     # forest: "the attacker gains no terrain bonus"
    ("forest", "forest", 7, 9),    # "unless he is attacking from another forest space"
    ("mountain", "plain", 7, 0),   # mountain: "the defender gets no terrain bonus"
    ("mountain", "mountain", 7, 9),  # "unless he is defending a mountain"
    ("mountain", "forest", 0, 0)])
def test_forest_and_mountain_bonus_rules(att_from, def_on, att_bonus, def_bonus):
    g = combat(started(2), att_value=7, def_value=9, att_from=att_from, def_on=def_on,
               att_support=2, def_support=1)
    a, d = rolled(g, "attack")[-1], rolled(g, "defence")[-1]
    assert g.state["game"]["att_total"] == sum(a) + att_bonus + 2
    assert g.state["game"]["def_total"] == sum(d) + def_bonus + 1


def test_kobolds_count_sixes_as_zero_in_combat():
    # 7.1.3: "During combat checks, disregard 6s"
    g = combat(started(3, P1="kobolds"), att_units=6)
    entry = [e for e in g.log if e["event"] == "roll" and e["reason"] == "attack"][0]
    assert entry["die"] == "kobold_d6"
    seen = set()
    for seed in range(30):
        g = combat(started(seed, P1="kobolds"), att_units=6)
        seen.update(f for r in rolled(g, "attack") for f in r)
    assert 6 not in seen and 0 in seen


def test_undead_roll_for_each_kill_and_raise_on_4_to_6():
    # 7.1.5: "When you kill a unit, roll a die. On a high roll, add that unit to your army"
    for seed in range(15):
        g = combat(started(seed, P1="undead"), att_units=6, def_units=3, att_support=10)
        killed = g.state["players"]["P2"]["units_lost"]
        raised = rolled(g, "undead raise the slain")
        assert len(raised) == 1 and len(raised[0]) == killed
        survivors = 6 - g.state["players"]["P1"]["units_lost"]
        assert g.state["game"]["att_left"] == survivors + sum(f >= 4 for f in raised[0])


def test_combat_refuses_bad_armies():
    g = started()
    for kw, reason in [(dict(att_units=7), "1 to 6 units"), (dict(def_="P1"), "two players"),
                       (dict(def_on="swamp"), "plain, forest or mountain")]:
        with pytest.raises(Illegal, match=reason):
            combat(g, **kw)


def test_recruit_adds_a_unit_once_per_face_card():
    # 4: "When you land on a queen or jack card, add a unit ... collected once"
    g = started(4)
    board = g.state["game"]["board"]
    i = next(i for i, c in enumerate(board) if c[:-1] in ("J", "Q") and c != "JK")
    square = "%d,%d" % (i // 7 + 1, i % 7 + 1)
    g.apply("recruit P1 at=%s" % square)
    assert g.state["players"]["P1"]["reserve"] == 14
    refused(g, "recruit P1 at=%s" % square, "is used")
    refused(g, "recruit P1 at=1,1", "no jack or queen")


def test_only_the_player_whose_turn_it_is_recruits():
    # "Each turn a player picks and moves several of his armies." A recruit is part of
    # a move (4: "When you land on a queen or jack card, add a unit to that army"): P2
    # does not recruit in P1's turn.
    g = started(4)
    assert g.active_player() == "P1"
    refused(g, "recruit P2", "it is P1's turn, not P2's")


def test_a_phase_confirm_must_name_an_action():
    data = json.loads(bundled()["tactics"].read_text())
    data["phases"][1]["confirm"] = "contrl"
    with pytest.raises(ruleset.RulesetError,
                       match=r"phases\[1\].confirm: unknown action 'contrl'"):
        ruleset.parse(json.dumps(data))


# -- fog of war (7.2) -------------------------------------------------------------------


def fogged(seed=1):
    return new_game(RULES, seed, options={"fog": "on"}, actions=["layout"])


def test_fog_of_war_deals_every_card_face_down_but_the_corner_castles():
    # 7.2: "All cards are face down"; the corners are the kings, known to all
    assert fogged().state["game"]["face_up"] == [0, 6, 42, 48]  # places, from 0
    assert started().state["game"]["face_up"] == []  # fog off: every card is face up


def test_a_card_turned_up_says_what_it_is_and_stays_up():
    # 7.2: "When a card becomes occupied, flip it over"
    g = fogged(5)
    card = g.state["game"]["board"][24]
    g.apply("flip 4,4")
    assert 24 in g.state["game"]["face_up"] and g.state["message"] == "4,4 is " + card
    refused(g, "flip 4,4", "4,4 is face up")
    refused(started(), "flip 4,4", "fog of war is off")


def test_under_fog_a_recruit_or_joker_landed_on_is_turned_up_and_rows_are_not_shown():
    g = fogged(SEED_TWO_JOKERS)
    board = g.state["game"]["board"]
    assert "JK" in board
    for action, reason in [("layout row=3", "fog of war")]:
        refused(g, action, reason)
    for action in CASTLES:
        g.apply(action)
    joker = board.index("JK")
    g.apply("joker %s %s" % (square_of(joker), g.state["game"]["leftover"][0]))
    recruit = next(i for i, c in enumerate(board) if c[0] in "JQ" and c != "JK")
    g.apply("recruit P1 at=%s" % square_of(recruit))
    assert g.state["game"]["face_up"] == [0, 6, 42, 48, joker, recruit]


# -- undo and a whole game --------------------------------------------------------------

# a game to its end: seed 21 deals jokers at 2,2 and 7,6 and leaves 8C 2H 7D 7S 3C;
# P1 is Undead (2 moves), P2 Kobolds
OPTIONS = {"race.P1": "undead", "race.P2": "kobolds"}
ACTIONS = ["layout"] + CASTLES + [
    "reinforce P1", "move P1", "enter P1 units=3 terrain=forest", "joker 2,2 7D",
    "layout row=2", "next",
    "control P1 P2 P1 P2", "next",  # round 2: P1's turn
    "reinforce P1", "combat att=P1 def=P2 att_units=3 def_units=2 att_value=5 def_value=4",
    "recruit P1", "control P1 P1 P1 P2", "next",  # P1 took 1,7: P2's turn, no win for P1
    "reinforce P2", "move P2 units=2", "spend P2",
    "combat att=P2 def=P1 att_units=4 def_units=2 att_value=7 def_value=13 "
    "att_from=mountain def_on=plain att_support=1", "hold P2 1", "hold P1 3",
    "control P1 P1 P1 P2", "next"]  # P1 begins its turn holding 3 castles and wins


def test_every_action_undoes_exactly_and_redoes_the_same():
    g = Game(RULES, seed=21, options=OPTIONS)
    undoes_and_redoes_exactly(g, ACTIONS)
    assert g.state["winner"] == "P1" and g.state["round"] == 3


def test_the_fog_of_war_actions_undo_exactly():
    g = Game(RULES, seed=21, options={"fog": "on"})
    recruit = "recruit P1 at=%s" % square_of(next(
        i for i, c in enumerate(new(21).state["game"]["board"]) if c[0] in "JQ" and c != "JK"))
    undoes_and_redoes_exactly(g, ["layout"] + CASTLES + ["flip 4,4", "joker 7,6 3C", recruit])


def test_a_whole_game_on_arbiter_run_in_both_runtimes():
    outs = [play("tactics", None, 21, OPTIONS, ACTIONS, runtime=r)
            for r in ("cpython", "micropython")]
    assert outs[0].refused is None and outs[0].state["winner"] == "P1"
    assert outs[0].state["screen"][6] == "P1 wins!"
    assert canonical(outs[0].state) == canonical(outs[1].state)


# -- on the device (the emulated Pico that `arbiter sim` runs) ------------------------------


def deal_on_the_device(rig, *setup_keys):
    start_game(rig, "tactics", *setup_keys)
    g = game_of(rig)
    open_menu_item(rig, "Deal / show the board")
    fill_form(rig, [1])
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
    rig.keys("a")  # zoom in: whole names, 4 squares a row (the cursor's square inverted)
    assert rig.lines[2].split() == [board[7], board[9], board[10]]
    assert rig.lines[7].split() == board[42:46]
    rig.keys("a")  # and out again
    assert rig.lines[7] == " ".join(short(c) for c in board[42:49])


def test_a_whole_game_on_the_device_with_the_castle_screen(rig):
    g = deal_on_the_device(rig)
    for player, square in [("P1", "1,1"), ("P2", "7,7"), ("P2", "1,7"), ("P1", "7,1")]:
        do(rig, "Choose a castle", [player, square])
    assert g.state["game"]["chosen"] == ["1,1", "7,7", "1,7", "7,1"]
    rig.keys("a")
    assert rig.lines[1] == "Turn: P1"
    assert "JK" in g.state["game"]["board"]  # seed 1 deals two
    # a joker landed on: the player picks its card from the leftover stack
    open_menu_item(rig, "Replace a joker")
    form = rig.app.screen
    assert form.fields[0][1] == jokers(g) and form.fields[1][1] == g.state["game"][
        "leftover"]
    card = g.state["game"]["leftover"][1]
    fill_form(rig, [jokers(g)[0], card])
    assert card in g.state["game"]["board"]
    open_menu_item(rig, "Reinforcements")
    rig.keys("a")
    do(rig, "Move an army", ["P1", 2])
    assert g.state["players"]["P1"]["moves_left"] == 2
    rig.keys("a")  # the turn passes: first the castle screen, as the device last knew it
    assert rig.lines[0] == "Castle control"
    assert rig.lines[1:5] == ["1,1 <P1>", "1,7 <P2>", "7,1 <P1>", "7,7 <P2>"]
    assert rig.lines[6] == "then P2's turn"
    rig.keys("down", "left")  # P1 took 1,7 in its turn
    assert rig.lines[2] == "1,7 <P1>"
    rig.keys("a")
    assert rig.lines[1] == "Turn: P2" and g.state["result"] is None  # P2 is checked, not P1
    assert g.state["players"]["P1"]["castles"] == 3
    rig.keys("a", "b")  # the castle screen; B: back, the turn does not pass
    assert rig.lines[1] == "Turn: P2"
    rig.keys("a")
    assert rig.lines[1:5] == ["1,1 <P1>", "1,7 <P1>", "7,1 <P1>", "7,7 <P2>"]
    rig.keys("a")  # P1 begins its turn holding 3 of the 4 castles
    assert g.state["winner"] == "P1" and "P1 wins!" in rig.lines
    assert g.history.events[-2:] == ["control 1,1=P1 1,7=P1 7,1=P1 7,7=P2", "next"]


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
    events = list(g.history.events)
    rig.keys("a:long")  # a peek: for one player's eyes, and not recorded
    assert rig.lines[0] == "Peek 1,2" and "others look away" in rig.lines
    rig.keys("a")
    assert rig.lines[1].startswith(board[1])
    rig.keys("b", "b", "b")  # the card, the board, the menu
    assert g.history.events == events
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


def test_a_lost_combat_undone_and_entered_again_with_more_support_rolls_fresh_dice():
    # rule: "Every roll takes the next numbers of the game's generator, whatever was
    # undone. An undone action's rolls stay in the journal and in the log, marked undone."
    g = combat(started(5), def_support=40)
    lost = g.history.events[-1]
    with pytest.raises(Illegal, match="undo needs everyone's agreement"):
        g.apply("undo")
    g.apply("undo agreed")
    again = combat(g, att_support=40, def_support=40).history.events[-1]
    assert again.split("|")[1] != lost.split("|")[1]  # not the same dice, now known
    straight = combat(combat(started(5), def_support=40), att_support=40, def_support=40)
    assert again == straight.history.events[-1]  # the dice that came next
    undone = [e["rolls"] for e in g.log if e["event"] == "roll" and e.get("undone")]
    groups = lost.split("|")[1].split(";")
    assert undone == [[int(d) for d in group.split(",")] for group in groups]


def test_a_refused_action_shows_and_uses_none_of_the_dice_it_rolled():
    # rule: "Nothing shown before it counts. A preview never rolls; a refused action
    # consumes and shows no dice."
    from arbiter.game.public import preview

    g = started(5)
    action = ("combat att=P1 def=P4 att_units=3 def_units=6 att_value=0 def_value=0 "
              "att_from=plain def_on=plain att_support=0 def_support=0")  # refused once rolled
    assert preview(g, action) == ""  # it would roll: the preview stops before
    logged = list(g.log)
    with pytest.raises(Illegal, match="no such player or piece: P4"):  # no dice in it
        g.apply(action)
    assert g.log == logged  # its rolls are not logged
    straight = started(5)
    assert g.apply("roll d6 5") == straight.apply("roll d6 5")  # the same next dice
