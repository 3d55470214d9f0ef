"""Colossal Kaiju Combat refereed by its ruleset (rulesets/kaiju.json), each test
against the rules text (../shared/seeds/004_09292776f3f3e267.txt).

The kaiju go by their names (the teams of rulesets/kaiju.json): P1's Titans are Rex,
Gorath and Lumina, P2's Abyss Kraken and Leviath, P3's Swarm Hive, Stinger and Drone.
An action names them in braces: "damage {Rex} 2 by=P2" is applied as "damage P1.k1 2
by=P2". The forms on the device show the names; "active P1 k1" takes a key's last part."""

import pytest
from helpers.device import (
    act,
    by_fast_path,
    game_of,
    lit,
    open_menu_item,
    play_screen,
    said,
    start_game,
)
from helpers.game import (
    apply,
    canonical,
    named,
    notes,
    piece,
    piece_state,
    player,
    refused,
    seen_but_log,
    to_phase,
    undoes_and_redoes_exactly,
)
from helpers.kaiju import DATA, new, passing
from helpers.runtimes import RUNTIMES, previewed, replayed

from arbiter.game import Illegal
from arbiter.game.public import public_state
from arbiter.screens.view import screen_lines
from arbiter_referee.headless import play


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    """A rule's test on both runtimes: its games played again in MicroPython, where
    each refusal and preview must come again and each game end the same
    (helpers.runtimes). A test parametrized on ``runtime`` itself overrides this."""
    with replayed(request.param, "kaiju", request.session):
        yield request.param


# "Each player then takes a pool of initial Energy Tokens equal to 10 + the highest
# POWER value on their team."
def test_starting_energy_is_ten_plus_the_highest_power(runtime):
    g = new(players=5)
    for p in g.state["order"]:
        best = max(piece_state(g, k)["stats"]["power"] for k in g.piece_keys(p))
        assert player(g, p)["energy"] == 10 + best
    assert player(g, "P1")["energy"] == 15  # Titans: Gorath has POWER 5


# A player who picks no team gets the sample teams in order; "team P NAME" at setup.
def test_teams_in_order_and_chosen_at_setup(runtime):
    g = new(players=3)
    assert [player(g, p)["team"] for p in ("P1", "P2", "P3")] == ["Titans", "Abyss", "Swarm"]
    g.apply("team P1 Default")  # no team card: the default team 50, 5, 10, +2
    card = player(g, "P1")
    assert (card["initiative"], card["draw"], card["fury_max"], card["fortitude_bonus"]) == (
        50, 5, 10, 2)
    assert [piece_state(g, k)["name"] for k in g.piece_keys("P1")] == ["Kaiju1", "Kaiju2"]
    assert card["energy"] == 14
    assert g.state["order"][0] == "P2"  # Abyss (55) now leads
    refused(g, "team P2 Zilla", "no team Zilla")
    g.apply("next")
    refused(g, "team P1 Storm", "team is for the start phase")


# "The team with the highest printed team initiative goes first. (If two teams have the
# same initiative, decide an order for them randomly. Once decided, that initiative
# order is in effect for the rest of the game.)"
def test_turn_order_highest_initiative_first_ties_random_once(runtime):
    seen = set()
    for seed in range(20):
        g = new(players=5, seed=seed)  # Swarm, Default and Storm all at 50
        order = list(g.state["order"])
        assert order[:2] == ["P1", "P2"]
        seen.add(tuple(order[2:]))
        to_phase(g, "end", step=passing)
        g.apply("next")
        to_phase(g, "action", step=passing)
        assert g.state["order"] == order == public_state(g)["order"]
    assert len(seen) >= 4  # the tie really is broken at random


def test_a_team_is_chosen_once_so_the_random_tie_break_cannot_be_rolled_again(runtime):
    # "If two teams have the same initiative, decide an order for them randomly. Once
    # decided, that initiative order is in effect for the rest of the game."
    g = new(players=5, actions=["team P3 Swarm"])
    order = list(g.state["order"])
    refused(g, "team P3 Swarm", "P3 already took its team this game")
    refused(g, "team P3 Storm", "P3 already took its team this game")
    assert g.state["order"] == order


# Seven phases; planning in initiative order "until all players have passed in
# succession (Passing once does NOT force you to pass the next time around!)".
def test_seven_phases_and_planning_until_everyone_passes_in_succession(runtime):
    g = new(players=3)
    names = [g.phase()["name"]]
    g.apply("next")
    names.append(g.phase()["name"])
    g.apply("next")
    assert g.phase()["name"] == "planning" and g.active_player() == "P1"
    g.apply("pass P1")
    refused(g, "pass P3", "it is P2's turn")
    g.apply("next")  # P2 plays a card: the passes so far no longer count
    g.apply("pass P3")
    g.apply("pass P1")
    assert g.phase()["name"] == "planning" and g.active_player() == "P2"
    g.apply("next")  # P1 passed before; P2 plays again
    for p in ("P3", "P1", "P2"):
        g.apply("pass " + p)
    assert g.phase()["name"] == "select"
    names.append("planning")
    to_phase(g, "end", step=passing)
    names += ["select", "action", "healing", "end"]
    assert names == [p["name"] for p in DATA["phases"]]
    g.apply("next")
    assert (g.state["round"], g.phase()["name"]) == (2, "start")


# "Players heal 1 damage from each of their inactive kaiju." End of turn: "move all
# of their active characters out of the city".
def test_healing_is_automatic_for_inactive_conscious_kaiju_only(runtime):
    g = new(players=2)
    to_phase(g, "select", step=passing)
    g.apply("active P1 k1")
    g.apply("active P2 k1")
    apply(g, "damage {Rex} 2 by=P2")  # active: does not heal
    apply(g, "damage {Gorath} 2 by=P2")  # inactive: heals 1
    apply(g, "add {Leviath}.damage 7")  # knocked out (6 + 1): never heals
    to_phase(g, "healing", step=passing)
    assert [piece_state(g, k)["damage"] for k in ("Rex", "Gorath", "Leviath")] == [2, 1, 7]
    g.apply("next")
    assert all(piece_state(g, k)["active"] == 0 for k in g.state["pieces"])


# "Whenever a character is damaged by an attack, that character's team gains 1 Fury."
def test_each_damaging_attack_gives_the_damaged_team_one_fury(runtime):
    g = new(players=3)
    apply(g, "damage {Kraken} 3 by=P1")
    apply(g, "damage {Leviath} 1 by=P3")
    assert (player(g, "P1")["fury"], player(g, "P2")["fury"], player(g, "P3")["fury"]) == (0, 2, 0)
    assert piece_state(g, "Kraken")["damage"] == 3
    elsewhere = "the damage comes from another player, a card or a location"
    for bad, why in [("damage {Kraken} 0 by=P1", "damage is 1 or more"),
                     ("damage {Kraken} 2", "missing by="),
                     ("damage {Kraken} 2 by=P2", elsewhere),
                     ("damage {Kraken} 2 by=P9", elsewhere)]:
        refused(g, bad, why)


# "If a character takes damage equal to or greater than their FORTITUDE (including the
# team's Fortitude Bonus) that character is Knocked Out ... give 5 GLORY to the player
# who dealt the final blow."
def test_knock_out_exactly_at_fortitude_plus_bonus_gives_the_dealer_five_glory(runtime):
    g = new(players=2)  # P1 Rex: FORTITUDE 4, Titans bonus +2 -> KO at 6
    apply(g, "damage {Rex} 4 by=P2")
    assert previewed(g, named(g, "damage {Rex} 1 by=P2")) == "Rex 4/6 -> 5/6"
    assert previewed(g, named(g, "damage {Rex} 3 by=P2")) == "Rex 4/6 -> 7/6 KO, P2 +5 glory"
    assert piece_state(g, "Rex")["damage"] == 4  # a preview changes nothing
    apply(g, "damage {Rex} 1 by=P2")
    assert piece_state(g, "Rex")["ko"] == 0 and player(g, "P2")["glory"] == 0
    apply(g, "damage {Rex} 1 by=P2")
    assert piece_state(g, "Rex")["ko"] == 1 and player(g, "P2")["glory"] == 5
    assert g.state["message"] == "Rex 5/6 -> 6/6 KO, P2 +5 glory"
    refused(g, "damage {Rex} 1 by=P2", "Rex is already knocked out")
    refused(g, "heal {Rex} 1", "Rex is knocked out")


def test_roar_spend_and_the_power_cap(runtime):  # (see also the cap of each character's own POWER)
    g = new(players=2)
    to_phase(g, "select", step=passing)
    g.apply("active P1 k1")  # Rex, POWER 4
    g.apply("active P2 k1")
    # "Roar - gain 2 Energy Tokens"
    g.apply("roar P1")
    assert player(g, "P1")["energy"] == 17
    # "Each character's POWER stat indicates the maximum number of energy tokens they
    # may spend in a single combat."
    g.apply("spend P1 3")
    assert g.state["message"] == "P1 spends 3: 3 of 4, 14 left"
    refused(g, "spend P1 2", "P1 may spend 4 Energy this combat")
    refused(g, "spend P2 15", "P2 has only 14 Energy")


def test_each_player_sends_a_kaiju_into_the_city_before_the_turn_passes(runtime):
    # "4. Active character selection phase (initiative order) - Each player, in
    # initiative order, selects one character from their team and moves it into the
    # city."
    g = new(players=2)
    to_phase(g, "select", step=passing)
    first = g.active_player()
    refused(g, "next", first + " must send a kaiju into the city first")
    g.apply("active %s k1" % first)  # selected: the turn passes
    assert g.active_player() != first and g.phase()["name"] == "select"


def test_one_action_a_turn_by_the_player_whose_turn_it_is(runtime):
    # "Each player, in initiative order, takes one Action with the active character
    # they selected in the previous phase."
    g = new(players=3)
    to_phase(g, "select", step=passing)
    for p in g.state["order"]:
        g.apply("active %s k1" % p)
    first, second = g.state["order"][:2]
    assert g.phase()["name"] == "action" and g.active_player() == first
    refused(g, "roar " + second, "it is %s's turn, not %s's" % (first, second))
    g.apply("roar " + first)
    refused(g, "roar " + first, first + " already took its action this turn")
    refused(g, "pass " + first, first + " already took its action this turn")
    refused(g, "attack %s %s" % (first, g.piece_keys(second)[0]),
            first + " already took its action this turn")
    g.apply("next")
    g.apply("roar " + second)  # a new turn: its player's one Action
    assert player(g, second)["energy"] == player(new(players=3), second)["energy"] + 2


# Rage Attacks: "1. Clear all Fury ... 2. Deal 2 damage to all opponents your character
# is in combat with. 3. Draw 3 combat cards 4. Gain 5 Energy Tokens 5. There is no
# limit to the number of Energy Tokens you may spend in this combat."
def test_rage_attack_when_fury_reaches_the_team_threshold(runtime):
    g = new(players=3)  # Abyss rages at 8 Fury
    g.apply("add P2.fury 6")
    apply(g, "damage {Kraken} 1 by=P1")
    assert player(g, "P2")["rage_ready"] == 0
    apply(g, "damage {Kraken} 1 by=P3")
    assert player(g, "P2")["rage_ready"] == 1 and "P2 may Rage" in g.state["message"]
    to_phase(g, "select", step=passing)
    to_phase(g, "action", step=passing)  # Rex, Kraken and Hive in the city
    apply(g, "add {Rex}.damage 4")  # Rex at 4 of 6
    g.apply("next")
    apply(g, "attack P2 {Rex}")  # "This may be done at the start of combat, or between attacks."
    refused(g, "rage P1", "P1 has 0 of 10 Fury")
    energy = player(g, "P2")["energy"]
    g.apply("rage P2")
    assert player(g, "P2")["fury"] == 0 and player(g, "P2")["rage_ready"] == 0
    assert player(g, "P2")["energy"] == energy + 5
    assert piece_state(g, "Rex")["ko"] == 1 and player(g, "P2")["glory"] == 5  # the final blow
    assert piece_state(g, "Hive")["damage"] == 0  # not in this combat
    assert player(g, "P1")["fury"] == 1  # the rage gives Rex's team Fury
    assert g.state["message"] == (
        "P2 RAGES: 2 damage to Rex, +5 Energy, no cap, draw 3 combat cards")


def test_rage_only_on_the_opponents_in_combat_and_only_from_a_team_in_the_city(runtime):
    # "2. Deal 2 damage to all opponents your character is in combat with."
    g = new(players=3, actions=["add P1.fury 10", "add P3.fury 12"])
    to_phase(g, "select", step=passing)
    to_phase(g, "action", step=passing)  # Rex, Kraken and Hive in the city
    refused(g, "rage P1", "P1 is in no combat")
    apply(g, "attack P1 {Kraken}")
    refused(g, "rage P3", "P3 is in no combat")  # Hive is in the city, not in this combat
    g.apply("rage P1")
    assert [piece_state(g, k)["damage"] for k in ("Kraken", "Leviath", "Hive")] == [2, 0, 0]
    # a Rage Attack in a team fight hits every opponent there
    g.apply("undo agreed")
    apply(g, "join {Leviath}")
    g.apply("rage P1")
    assert [piece_state(g, k)["damage"] for k in ("Kraken", "Leviath", "Hive")] == [2, 2, 0]


def test_rage_is_refused_to_the_player_playing_for_a_location(runtime):
    # "only from a team with a character in the city": the player who plays a location's
    # cards has no character in that combat.
    g = new(players=2, actions=["next", "next", "city P1", "pass P2", "pass P1", "add P2.fury 8"])
    to_phase(g, "action", step=passing)
    g.apply("rampage P1 0")
    refused(g, "rage P2", "P2 has no character in the combat")


def in_action(players=3, seed=1, actions=()):
    """Turn 1's Action phase, each player's first kaiju in the city (P1 Rex, P2 Kraken,
    P3 Hive), after ``actions`` in Start."""
    g = new(players=players, seed=seed, actions=actions)
    to_phase(g, "select", step=passing)
    to_phase(g, "action", step=passing)
    return g


def test_energy_is_capped_by_the_power_of_the_players_own_character(runtime):
    # "Each character's POWER stat indicates the maximum number of energy tokens they may
    # spend in a single combat."
    g = new(players=2)
    refused(g, "spend P2 14", "P2 has no character in the city")  # no kaiju in the city
    g = in_action(players=2)
    apply(g, "challenge P1 {Leviath}", "accept P2")  # Leviath (POWER 4), not Kraken (3)
    refused(g, "spend P2 5", "P2 may spend 4 Energy this combat")
    g.apply("spend P2 4")
    assert player(g, "P2")["energy"] == 14 - 4


def test_active_selection_only_in_select_one_character_each(runtime):
    # "4. Active character selection phase (initiative order) - Each player, in initiative
    # order, selects one character from their team and moves it into the city."
    g = new(players=2)
    to_phase(g, "select", step=passing)
    refused(g, "next", "P1 must send a kaiju into the city first")
    refused(g, "active P2 k1", "it is P1's turn, not P2's")
    g.apply("active P1 k1")
    g.apply("active P2 k1")
    refused(g, "active P1 k2", "active is for the select phase, not action")


def test_a_combat_card_by_card(runtime):
    # "The player with initiative must select an "Attack" or "Technique" card - then player
    # without initiative must select a "Defense" "Technique" or "Counter Attack" card."
    # "Energy Tokens may be used to pay for part of all of a combat card's cost. (Yellow
    # boxes MUST be paid for with Energy Tokens.)" "Deal damage to the defender equal to
    # the total damage - toughness." "Combo - After playing this card, you keep the
    # initiative!"
    g = in_action(players=2)  # Rex (FEROCITY 4, AGILITY 2, POWER 4) against Kraken
    apply(g, "attack P1 {Kraken}")
    assert (g.state["game"]["init"], g.state["message"]) == (
        "P1", "Rex fights Kraken: P1 has the initiative")
    refused(g, "card P2 attack 1 0 0 3 0", "it is P1's card now")
    g.apply("card P1 attack 3 0 1 5 0 fx=combo")  # 3 FEROCITY of 4, the yellow box: 1 Energy
    assert (player(g, "P1")["energy"], player(g, "P1")["fer"]) == (14, 3)
    g.apply("card P2 defense 0 1 0 0 2")
    assert piece_state(g, "Kraken")["damage"] == 3 and player(g, "P2")["fury"] == 1
    assert g.state["message"] == "P1 deals 3, P2 deals 0. Combo: P1 has the initiative"
    # FEROCITY left: 1 of 4; 2 more and a yellow box from Energy, up to POWER 4
    g.apply("card P1 attack 3 0 1 2 0 fx=knockdown")
    assert (player(g, "P1")["energy"], player(g, "P1")["spent"]) == (11, 4)
    g.apply("nocard P2")  # "they simply suffer the full effects of the attack"
    assert piece_state(g, "Kraken")["damage"] == 5
    assert g.state["message"] == (
        "P1 deals 2, P2: no card, P2 discards at random. P2 has the initiative")
    g.apply("discard P2 4")  # the device picks the card (see the Knockdown's own test)
    # "If the player with initiative cannot or chooses not to play a card, the initiative
    # passes to the other player."
    g.apply("card P2 attack 2 0 0 4 0")
    # "If a player cannot afford to pay for their legal combat card, it becomes a BLUFF."
    g.apply("card P1 defense 2 0 0 0 3")  # FEROCITY 1 left, POWER 4 already spent
    assert piece_state(g, "Rex")["damage"] == 4 and player(g, "P1")["energy"] == 11
    # "If either player has selected an illegal card type ... discard it without effect."
    g.apply("card P1 defense 0 0 0 0 9")  # P1 has the initiative again: an attack, not this
    g.apply("card P2 counter 0 9 0 1 0")  # AGILITY 3 and POWER 3: a BLUFF, against no card
    assert g.state["message"] == "P1: illegal card, P2 bluffs, deals 1. P2 has the initiative"
    assert piece_state(g, "Rex")["damage"] == 5
    # "combat continues until both players pass in succession"
    g.apply("nocard P2")
    g.apply("nocard P1")
    assert g.state["game"]["combat"] == 0
    assert g.state["message"] == "Combat over: P1 and P2 draw back to 5"
    g.apply("next")


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_bluff_works_only_against_a_bluff_or_no_card(runtime):
    # "Bluffed combat cards have no effect... unless your opponent's card is ALSO a bluff
    # (or if they played no card at all... don't do that!)"
    actions = ["next", "next", "pass P1", "pass P2", "active P1 k1", "active P2 k1",
               "attack P1 P2.k1", "card P1 attack 9 0 0 4 0", "card P2 defense 0 1 0 0 1",
               "card P2 attack 9 0 0 3 0", "nocard P1",  # P2's bluff against no card
               "card P1 technique 0 0 20 5 0", "card P2 counter 0 9 0 2 1"]  # both bluff
    outcome = play("kaiju", 2, 1, {}, actions, runtime)
    assert outcome.refused is None
    pieces = outcome.state["pieces"]
    assert (pieces["P1.k1"]["damage"], pieces["P2.k1"]["damage"]) == (3 + 2, 5 - 1)


# "When a character is knocked out ... the player who dealt the damage gains 5 GLORY":
# a combat's card that knocks out says so last, the newest message the screen shows.
@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_knock_out_by_a_combat_card_is_said_last(runtime):
    actions = ["next", "next", "pass P1", "pass P2", "active P1 k1", "active P2 k1",
               "add P2.k1.damage 5", "attack P1 P2.k1", "card P1 attack 0 0 0 5 0",
               "card P2 defense 0 0 0 0 1"]
    outcome = play("kaiju", 2, 1, {}, actions, runtime)
    assert outcome.refused is None
    said = [e["text"] for e in outcome.state["log"] if e["event"] == "note"][-4:]
    assert said == ["P1 deals 4, P2 deals 0", "Combat over: P1 and P2 draw back to 5",
                    "Kraken knocked out", "Kraken 5/7 -> 9/7 KO, P1 +5 glory"]
    assert outcome.state["message"] == said[-1]


def test_a_challenge_is_accepted_or_declined_an_ally_must_accept(runtime):
    # "Challenge an inactive character. - Non-kaiju characters (allies, etc) must accept
    # the challenge. ... If the challenged character is a kaiju, the player who owns the
    # kaiju may accept or decline. If declined, nothing happens."
    g = new(players=3, actions=["next", "next", "pass P1", "ally P2 2 2 2 4"])
    to_phase(g, "select", step=passing)
    apply(g, "active P1 k1", "active P2 k1", "active P3 k1")  # Rex, Kraken, Hive
    refused(g, "challenge P1 {Kraken}", "Kraken is not an inactive opponent")
    apply(g, "challenge P1 {Leviath}")
    refused(g, "next", "P2 accepts or declines first")
    refused(g, "decline P3", "only P2 may decline now")
    g.apply("decline P2")
    assert g.state["message"] == "Leviath declines: nothing happens"
    refused(g, named(g, "attack P1 {Hive}"), "P1 already took its action this turn")
    g.apply("next")
    refused(g, "decline P1", "nobody may decline now")
    apply(g, "challenge P2 {Gorath}", "accept P1")
    assert piece_state(g, "Gorath")["active"] == 1 and g.state["game"]["d"] == [piece(g, "Gorath")]
    g.apply("nocard P2")
    g.apply("nocard P1")
    g.apply("next")
    g.apply("challenge P3 P2.a1")  # the ally accepts at once
    assert g.state["game"]["combat"] == 1 and g.state["game"]["d"] == ["P2.a1"]


def test_allies_do_not_heal(runtime):
    # "Allies are not (usually) kaiju, and so they do not heal"
    g = new(players=2, actions=["next", "next", "ally P1 1 1 1 5", "pass P2", "pass P1"])
    apply(g, "damage P1.a1 2 by=P2", "damage {Gorath} 2 by=P2")
    to_phase(g, "healing", step=passing)
    assert (piece_state(g, "P1.a1")["damage"], piece_state(g, "Gorath")["damage"]) == (2, 1)


def test_damage_from_a_card_or_a_location_gives_fury_and_no_glory(runtime):
    # "Whenever a character is damaged by an attack, that character's team gains 1 Fury
    # Token." "give 5 GLORY to the player who dealt the final blow"
    g = new(players=2)
    apply(g, "damage {Kraken} 3 by=location", "damage {Kraken} 4 by=card")
    assert piece_state(g, "Kraken")["ko"] == 1 and player(g, "P2")["fury"] == 2
    assert player(g, "P1")["glory"] == 0 and g.state["message"] == "Kraken 3/7 -> 7/7 KO"


def test_several_reach_twenty_glory_at_the_same_moment(runtime):
    # "If multiple players reach 20+ GLORY at the same moment, the highest total wins. If
    # there is a tie - the player with the most characters still conscious wins."
    g = new(players=3, actions=["glory P2 2"])
    g.apply("glory P1 18 also=P2,P3 source=event")
    assert (g.state["result"], g.state["winner"]) == ("win", "P2")
    g = new(players=3)
    g.apply("glory P1 20 also=P2 source=event")  # Titans have 3 kaiju, Abyss 2
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")
    refused(new(players=3), "glory P1 2 also=P7", "P7 is not a player")
    refused(new(players=3), "glory P1 2 also=P1", "P1 gains the Glory once")


def test_the_city_moves_and_a_rampage_reaches_up_to_three_spaces(runtime):
    # "each time you move 1 space, simply take the currently adjacent city card, and put
    # it at the end of the row" "Rampage - You enter combat with a location or opponent
    # up to 3 spaces away. ... the player to your left must do it."
    g = new(players=3, actions=["next", "next"])
    for p in ("P1", "P2", "P3", "P1"):
        g.apply("city %s" % p if p != "P2" else "city P2 card=opponent")
    assert g.state["game"]["city"] == ["L1", "O2", "L3", "L4"]
    to_phase(g, "select", step=passing)
    to_phase(g, "action", step=passing)
    refused(g, "rampage P1 4", "a target up to 3 spaces away")
    g.apply("rampage P1 2")  # L1, then O2, to the end of the row
    assert g.state["game"]["city"] == ["L3", "L4", "L1", "O2"]
    assert (g.state["game"]["ap"], g.state["game"]["dp"]) == ("P1", "P2")
    g.apply("card P1 attack 2 0 0 4 0")
    g.apply("card P2 defense 0 0 0 0 1")  # P2 plays the location's card: no cost
    g.apply("raze P1 3")
    assert g.state["game"]["city"] == ["L3", "L4", "L1"] and player(g, "P1")["glory"] == 3
    g.apply("move 1")
    assert g.state["message"] == "At L3: city L4 L1 L3"


# "GLORY ... from defeating a location or opponent ... event cards ... face-down cards
# are always worth 1 GLORY."
def test_glory_sources_are_logged(runtime):
    g = new()
    g.apply("glory P1 3 source=location")
    g.apply("glory P1 1 source=face-down")
    g.apply("glory P2 2")
    entries = [e["args"] for e in g.log if e["event"] == "glory"]
    assert entries[0] == {"n": 3, "p": "P1", "source": "location"}
    assert entries[1]["source"] == "face-down" and "source" not in entries[2]
    assert (player(g, "P1")["glory"], g.state["message"]) == (4, "P2 +2 glory: other")


# "When any player has 20 or more GLORY, the game ends immediately and that player wins."
def test_twenty_glory_wins_at_once(runtime):
    g = new(players=3)
    g.apply("glory P3 19")
    assert g.state["result"] is None
    g.apply("glory P3 1 source=event")
    assert (g.state["result"], g.state["winner"]) == ("win", "P3")
    refused(g, "glory P1 1", "the game is over")


# "If multiple players reach 20+ GLORY at the same moment, the highest total wins. If
# there is a tie - the player with the most characters still conscious wins. If that
# number is the same - the game is a tie!"
def at_once(glory, knocked_out=()):
    """Three players; the glory totals given arrive at the same moment, as an event
    card giving several players glory does: what each has over the lowest total
    first, then the lowest total to all of them in one action."""
    g = new(players=3)
    for name in knocked_out:
        apply(g, "set {%s}.ko 1" % name)
    low = min(glory.values())
    for p, n in glory.items():
        if n > low:
            g.apply("glory %s %d" % (p, n - low))
    first, *others = glory
    g.apply("glory %s %d also=%s source=event" % (first, low, ",".join(others)))
    return g.state["result"], g.state["winner"]


def test_several_at_twenty_at_once_highest_total_then_most_conscious_then_tie(runtime):
    assert at_once({"P1": 21, "P2": 23}) == ("win", "P2")
    # equal totals: Titans (3 kaiju, one knocked out: 2) against Abyss (2 conscious)
    assert at_once({"P1": 20, "P3": 20}, ["Rex", "Gorath"]) == ("win", "P3")
    assert at_once({"P1": 22, "P2": 22}) == ("win", "P1")  # 3 conscious against 2
    assert at_once({"P1": 22, "P2": 22}, ["Rex"]) == ("tie", None)


# "If at any time only one player has characters left on their team, that player
# immediately wins the game, regardless of how much GLORY they have."
def test_last_team_standing_wins_at_once(runtime):
    g = new(players=3, actions=["glory P1 4"])
    for name in ("Kraken", "Leviath"):
        apply(g, "damage {%s} 9 by=P1" % name)
    assert g.state["lost"] == ["P2"] and g.state["result"] is None
    assert player(g, "P1")["glory"] == 14
    for name in ("Hive", "Stinger", "Drone"):
        apply(g, "add {%s}.damage 9" % name)
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players_play_a_turn(players, runtime):
    g = new(players=players, seed=players)
    assert len(g.state["order"]) == players
    to_phase(g, "action", step=passing)
    for p in g.players_in_order():
        assert g.active_player() == p
        g.apply("pass " + p)
    assert g.phase()["name"] == "healing"
    with pytest.raises(Illegal, match="kaiju takes 2 to 5 players"):
        new(players=6)


# Every action can be undone, including one that knocked out a kaiju or won the game.
def test_undo_of_every_action_including_a_knock_out_and_a_win(runtime):
    g = new(players=2, actions=["glory P2 15", "team P1 Storm"])
    assert g.state["order"] == ["P2", "P1"]  # Abyss 55 before Storm 50
    script = ["next", "next", "pass P2", "pass P1", "active P2 k1", "active P1 k1",  # Kraken, Volt
              "add P2.fury 7", "damage {Kraken} 1 by=P1", "attack P2 {Volt}", "rage P2",
              "card P2 attack 2 0 0 4 0", "card P1 defense 0 1 0 0 2",  # 2 through
              "nocard P1", "nocard P2", "next",  # P2's one Action was its attack: P1's turn
              "roar P1", "spend P1 3", "heal {Volt} 1", "glory P1 2 source=event",
              "damage {Volt} 3 by=P2"]
    # the public state but its log, which keeps what was undone (dice never rewind)
    undoes_and_redoes_exactly(g, script, seen_but_log)
    assert piece_state(g, "Volt")["ko"] == 1 and (g.state["result"], g.state["winner"]) == (
        "win", "P2")  # 15 + 5 glory


def test_the_same_game_in_micropython():
    storm = new(players=2, seed=5, actions=["team P2 Storm"])  # P2's kaiju: Volt and Gale
    actions = ["team P2 Storm", "next", "next", "pass P1", "pass P2", "active P1 k1",
               "active P2 k2", named(storm, "damage {Gale} 3 by=P1"), "spend P1 2",
               named(storm, "attack P1 {Gale}"), "rage P1"]
    cp = play("kaiju", 2, 5, {}, actions[:-1], "cpython")
    mp = play("kaiju", 2, 5, {}, actions[:-1], "micropython")
    assert canonical(cp.state) == canonical(mp.state)
    assert cp.state["pieces"][piece(storm, "Gale")]["damage"] == 3
    refusal = play("kaiju", 2, 5, {}, actions, "micropython").refused
    assert refusal == (11, "P1 has 0 of 10 Fury")


# "When your team has accumulated 10 Fury (or whatever is specified on your Team Card) -
# you may activate your Rage Attack": rage_ready says so, and stops saying so when Fury
# (or the threshold) is corrected back below it.
def test_rage_ready_follows_fury_both_ways_after_corrections(runtime):
    g = new(players=2, actions=["add P2.fury 7", "damage {Kraken} 1 by=P1"])  # Abyss: 8
    assert player(g, "P2")["rage_ready"] == 1
    g.apply("add P2.fury -1")  # a Fury counted twice by mistake
    assert (player(g, "P2")["fury"], player(g, "P2")["rage_ready"]) == (7, 0)
    assert public_state(g)["players"]["P2"]["rage_ready"] == 0
    g.apply("add P2.fury 1")
    assert player(g, "P2")["rage_ready"] == 1
    assert g.state["message"] == "P2 may launch a Rage Attack"
    g.apply("add P2.fury_max 1")  # a team card read wrong: 9 Fury, not 8
    assert player(g, "P2")["rage_ready"] == 0
    g.apply("add P2.fury_max -2")
    assert player(g, "P2")["rage_ready"] == 1
    g.apply("set P2.fury 3")
    assert player(g, "P2")["rage_ready"] == 0
    g.apply("undo agreed")
    assert player(g, "P2")["rage_ready"] == 1


# "If a player has no active character when it is time for them to select an Action,
# they skip this phase. (Even if they have another character!)"
def test_a_player_without_an_active_kaiju_skips_the_action_phase(runtime):
    g = new(players=3)
    to_phase(g, "select", step=passing)
    g.apply("active P1 k1")
    g.apply("active P2 k1")  # Kraken
    g.apply("active P3 k1")
    assert (g.phase()["name"], g.active_player()) == ("action", "P1")
    apply(g, "damage {Kraken} 7 by=P1")  # knocked out in P1's combat
    assert piece_state(g, "Kraken")["active"] == 0 and piece_state(g, "Leviath")["ko"] == 0
    while piece_state(g, "Hive")["ko"] == 0:  # and P3's, in the same combat
        apply(g, "damage {Hive} 1 by=P1")
    g.apply("next")  # P2 (Leviath still conscious) and P3 have no active kaiju
    assert g.phase()["name"] == "healing"
    said = notes(g)
    assert "P2 has no active kaiju: skips" in said and "P3 has no active kaiju: skips" in said
    g.apply("undo agreed")
    assert (g.phase()["name"], g.active_player()) == ("action", "P1")


def test_a_team_with_every_kaiju_knocked_out_takes_no_more_turns(runtime):
    g = new(players=3)
    to_phase(g, "select", step=passing)
    g.apply("active P1 k1")
    g.apply("active P2 k1")
    g.apply("active P3 k1")
    g.apply("next")
    g.apply("next")  # P3's action
    for name in ("Kraken", "Leviath"):  # P3 knocks out P2's team, who played before P3
        apply(g, "damage {%s} 9 by=P3" % name)
    assert g.state["lost"] == ["P2"] and g.active_player() == "P3"  # still P3's turn
    assert "T1 Action: P3" in screen_lines(g)
    g.apply("next")
    assert g.phase()["name"] == "healing"
    to_phase(g, "planning", step=passing)
    for p in ("P1", "P3"):
        assert g.active_player() == p
        g.apply("pass " + p)
    assert g.phase()["name"] == "select" and g.active_player() == "P1"


def test_a_team_knocked_out_in_its_own_turn_passes_the_turn_and_skips_nobody(runtime):
    g = new(players=3)
    to_phase(g, "select", step=passing)
    for p in ("P1", "P2", "P3"):
        g.apply("active %s k1" % p)
    assert (g.phase()["name"], g.active_player()) == ("action", "P1")
    for k in g.piece_keys("P1"):  # P1's combat goes wrong: P2 knocks out P1's whole team
        g.apply("damage %s 9 by=P2" % k)
    assert g.state["lost"] == ["P1"]
    assert g.active_player() == "P2" and "T1 Action: P2" in screen_lines(g)
    g.apply("next")
    assert g.active_player() == "P3"  # P3 still has its turn
    g.apply("next")
    assert g.phase()["name"] == "healing"
    g.apply("undo agreed")
    g.apply("undo agreed")
    assert g.active_player() == "P2" and g.state["lost"] == ["P1"]


# A whole game, 5 players, to P1's 20th Glory: the city, an ally, combats card by card
# (a Combo, a BLUFF, a knock-out), a challenge declined and one accepted, a rampage, a
# Rage Attack in a team fight, allies that do not heal, Glory from a location and events.
FIVE_TEAMS = new(players=5, seed=7)  # Titans, Abyss, then the 50s in an order drawn at random


def full_game(order):
    """The game's actions for the turn order ``order`` (the tie of the three teams at 50
    is broken at random: each player's part is the same, its place in the turn follows)."""
    def turn(planning, select, actions, last):
        steps = planning + [select[p] for p in order]
        for p in order:
            steps += actions.get(p, [])
        return steps + last

    passes = ["pass " + p for p in order]
    third = order[2]
    game = ["next", "next", "city P1", "ally P2 2 2 2 3", "city %s card=opponent" % third]
    game += turn(passes[3:] + passes[:3], {
        "P1": "active P1 k1", "P2": "active P2 a1", "P3": "active P3 k2", "P4": "active P4 k1",
        "P5": "active P5 k1"}, {
        "P1": ["attack P1 {Stinger}", "card P1 attack 3 0 0 4 0 fx=combo",
               "card P3 defense 0 2 0 0 1", "card P1 attack 2 0 0 3 0", "card P3 none",
               "next"],  # Stinger knocked out: P3 has no active kaiju and skips
        "P2": ["challenge P2 {Gorath}", "decline P1", "next"],
        "P5": ["rampage P5 1 for=P4", "card P5 attack 2 0 0 4 0", "card P4 defense 0 0 0 0 2",
               "card P4 none", "card P5 none", "raze P5 3", "next"],
        "P4": ["roar P4", "next"]}, ["next", "next"])
    game += ["next", "next"] + turn(passes, {
        "P1": "active P1 k2", "P2": "active P2 k1", "P3": "active P3 k1", "P4": "active P4 k2",
        "P5": "active P5 k2"}, {
        "P1": ["attack P1 {Kraken}", "join {Leviath}", "card P1 attack 3 0 0 5 0",
               "card P2 defense 0 1 0 0 2", "add P2.fury 7", "join {Lumina}", "rage P2",
               "card P2 attack 9 0 2 6 0", "card P1 defense 0 4 0 0 3",
               "card P1 attack 5 0 2 6 0", "card P2 defense 0 2 0 0 2",  # P1's BLUFF
               "card P2 none", "card P1 none", "next"],
        "P2": ["pass P2"],
        "P3": ["challenge P3 P2.a1", "card P3 attack 2 0 0 3 0", "card P2 none", "card P2 none",
               "card P3 none", "next"],
        "P5": ["challenge P5 {Kaiju1}", "accept P4", "card P5 attack 2 0 0 3 0 fx=combo",
               "card P4 counter 0 1 0 2 1", "card P5 none", "card P4 none", "next"],
        "P4": ["roar P4", "next"]}, ["next", "next"])
    game += ["next", "next"] + passes + ["active %s k1" % p for p in order] + [
        "glory P1 10 source=event", "attack P1 {Kraken}", "card P1 attack 4 0 0 6 0",
        "card P2 defense 0 0 0 0 2"]  # Kraken knocked out: P1's 20th Glory
    return [named(FIVE_TEAMS, action) for action in game]


FULL_GAME = full_game(FIVE_TEAMS.state["order"])


def check_full_game(state):
    players, pieces = state["players"], state["pieces"]
    assert (state["result"], state["winner"], state["lost"]) == ("win", "P1", [])
    assert [players[p]["glory"] for p in ("P1", "P2", "P3", "P4", "P5")] == [20, 0, 0, 0, 3]
    damage = {record["name"]: record["damage"] for record in pieces.values()}
    assert (damage["Stinger"], damage["Kraken"], damage["Gorath"], damage["a1"]) == (6, 7, 5, 3)
    assert players["P2"]["fury"] == 2 and players["P1"]["fury"] == 3
    said = [e["text"] for e in state["log"] if e["event"] == "note"]
    assert "P3 has no active kaiju: skips" in said
    assert "Gorath declines: nothing happens" in said
    assert "P2 RAGES: 2 damage to Gorath, Lumina, +5 Energy, no cap, draw 3 combat cards" in said
    assert "P1 deals 3, P3 deals 0. Combo: P1 has the initiative" in said
    assert "P1 bluffs, deals 0, P2 deals 0. P2 has the initiative" in said
    assert "Volt fights L1: P5 has the initiative, P4 plays for it" in said
    sources = [e["args"].get("source") for e in state["log"] if e["event"] == "glory"]
    assert sources == ["event"]
    # 5 players: the winner in the bar, every row under it, and why below them
    assert state["screen"][0] == "P1 wins!"
    assert "P1 wins: has 20 Glory" in " ".join(state["screen"])


def test_a_complete_five_player_game_the_same_in_both_runtimes():
    cp = play("kaiju", 5, 7, {}, FULL_GAME, "cpython")
    assert cp.refused is None
    check_full_game(cp.state)
    # MicroPython plays it to the Rage Attack in the team fight: the headless driver keeps
    # the whole log in the Pico's heap (the device keeps its end only)
    half = FULL_GAME.index("rage P2") + 1
    cp = play("kaiju", 5, 7, {}, FULL_GAME[:half], "cpython")
    mp = play("kaiju", 5, 7, {}, FULL_GAME[:half], "micropython")
    assert canonical(cp.state) == canonical(mp.state)


# -- on the device --------------------------------------------------------------------------


def on_device(rig, players=3, actions=()):
    """A new game on the emulated device (3 players: the Right key in setup), and
    ``actions`` applied as the game menu would (each test drives its own part by keys)."""
    start_game(rig, "kaiju", *["right"] * (players - 2))
    for action in actions:
        act(rig, action)
    rig.app.redraw()
    rig.run(100)
    return game_of(rig)


def shown_value(rig, label):
    """The value a form's field ``label`` holds (the screen shows a piece by its name,
    the field by its player words)."""
    form = rig.app.screen
    for name, choices, i in form.fields:
        if name == label:
            shown = "%s <%s>" % (form.word(name), form.shown(choices[i]))
            assert shown in " ".join(rig.lines[1:7]), (shown, rig.lines)
            return choices[i]
    raise AssertionError((label, rig.lines))


def set_field(rig, label, value):
    """Right until the form's field ``label`` shows ``value``: the form must offer it."""
    for _ in range(45):
        now = shown_value(rig, label)
        if now == value:
            return
        numbers = now.lstrip("-").isdigit() and value.lstrip("-").isdigit()
        rig.keys("left" if numbers and int(value) < int(now) else "right")
    raise AssertionError("the form never offered %s=%s: %s" % (label, value, rig.lines))


def set_fields(rig, values):
    """The form's fields set to ``values`` (by field name; None: as the form starts it),
    as players would: Up/Down to the nearest field not yet right, Left/Right the
    shorter way to its value."""
    form = rig.app.screen
    fields = form.fields
    for _ in range(len(fields) + 1):  # bounded: each field set once
        wrong = [i for i, (name, choices, at) in enumerate(fields)
                 if values.get(name) is not None and choices[at] != str(values[name])]
        if not wrong:
            return
        down, i = min(((i - form.cursor) % len(fields), i) for i in wrong)
        up = (form.cursor - i) % len(fields)
        rig.keys(*(["down"] * down if down <= up else ["up"] * up))
        name, choices, at = fields[i]
        value = str(values[name])
        assert value in choices, (name, value, rig.lines)
        diff = choices.index(value) - at
        if choices is not form.numbers and abs(diff) * 2 > len(choices):  # lists wrap
            diff -= len(choices) if diff > 0 else -len(choices)
        rig.keys(*["right" if diff > 0 else "left"] * abs(diff))
        assert shown_value(rig, name) == value
    raise AssertionError(rig.lines)


def offered(rig, row):
    """Every value a form's row offers, in order, from the one it shows first (the
    cursor goes to that row, and is left there)."""
    while rig.app.screen.cursor != row - 1:
        rig.keys("down")
    label = rig.app.screen.fields[row - 1][0]
    seen = []
    for _ in range(45):
        value = shown_value(rig, label)
        if value in seen:
            return seen
        seen.append(value)
        rig.keys("right")
    raise AssertionError(seen)


# the play screen's key line after an action: how it starts
KEY_LINES = ("A:next", "A:played", "B:menu")


def device_do(rig, action):
    """One action by keys, as players enter it: A for next, else the game menu item and
    its form, field by field (pieces named as in helpers.game). Returns the form's screen
    just before A."""
    action = named(game_of(rig), action)
    if action == "next":
        rig.keys("a")
        return None
    name, *words = action.split()
    if name == "add":  # a correction
        path, amount = words
        holder, _, counter = path.rpartition(".")
        open_menu_item(rig, "Correct")
        fields = [("who", holder), ("what", counter), ("by", amount)]
    else:
        spec = DATA["actions"][name]
        flags = spec.get("flags", [])
        plain = [w for w in words if "=" not in w and w not in flags]
        given = dict(zip(spec["params"][:len(plain)], plain, strict=True))
        given.update(w.split("=", 1) for w in words if "=" in w)
        given.update((w, "1") for w in words if w in flags)
        shown = by_fast_path(rig, spec.get("label", name), given)  # as players would
        if shown:
            assert rig.lines[-1].startswith(KEY_LINES), rig.lines
            return shown
        open_menu_item(rig, spec.get("label", name))
        extra = sorted(k for k in spec.get("choices", {}) if k not in spec["params"])
        fields = [(f, given.get(f)) for f in spec["params"] + extra]
    set_fields(rig, dict(fields))
    shown = rig.lines
    rig.keys("a")
    assert rig.lines[-1].startswith(KEY_LINES), (action, rig.lines)
    return shown


# "Before confirming, the screen previews the result ("Rex 4/6 -> 7/6 KO, P1 +5 glory")."
def test_on_the_device_a_damage_shows_its_result_before_it_is_confirmed(rig):
    game = on_device(rig, 3, ["next", "next", "pass P1", "pass P2", "pass P3",
                              "active P1 k1", "active P2 k1", "active P3 k1",
                              "add {Rex}.damage 4"])
    open_menu_item(rig, "Damage")
    assert rig.lines[1:4] == ["kaiju <Rex>", "amount <1>", "dealt by <P2>"]  # forms show names
    assert rig.lines[4] == "Rex 4/6 -> 5/6"
    rig.keys("down", "right", "right")  # 3 damage
    assert rig.lines[4:6] == ["Rex 4/6 -> 7/6 KO, P2", "+5 glory"]
    rig.keys("down", "right")  # dealt by P3
    assert rig.lines[4:6] == ["Rex 4/6 -> 7/6 KO, P3", "+5 glory"]
    assert piece_state(game, "Rex")["damage"] == 4
    assert game.history.events[-1] == "add P1.k1.damage 4"
    rig.keys("a")
    assert piece_state(game, "Rex")["ko"] == 1 and player(game, "P3")["glory"] == 5
    assert game.history.events[-1] == "damage by=P3 k=P1.k1 n=3"
    assert "Rex 4/6 -> 7/6 KO, P3 +5 glory" in said(rig)  # the play screen says it


def test_on_the_device_forms_offer_the_kaiju_and_players_that_make_sense(rig):
    game = on_device(rig, 3, ["next", "next", "pass P1", "pass P2", "pass P3",
                              "set {Gorath}.ko 1"])
    # Select: P1 chooses among its own conscious kaiju (Gorath is knocked out)
    open_menu_item(rig, "Active kaiju")
    assert rig.lines[1] == "player <P1>" and offered(rig, 2) == ["k1", "k3"]  # Rex, Lumina
    rig.keys("a")
    assert piece_state(game, "Rex")["active"] == 1 and game.active_player() == "P2"
    device_do(rig, "active P2 k2")  # Leviath
    device_do(rig, "active P3 k1")  # Hive
    # Action, P1's turn: the kaiju in the city first; the damage was dealt by another
    # player than the kaiju's owner, the one whose turn it is first
    open_menu_item(rig, "Damage")  # Rex, Leviath, Hive; Lumina, Kraken, Stinger, Drone
    assert offered(rig, 1) == ["P1.k1", "P2.k2", "P3.k1", "P1.k3", "P2.k1", "P3.k2",
                               "P3.k3"]
    # (or a combat card, or a location: "damage from a card or a location")
    assert rig.lines[1] == "kaiju <Rex>" and offered(rig, 3) == ["P2", "P3", "card", "location"]
    rig.keys("up", "up", "right")  # Leviath (P2's): P1 first, then P3
    assert rig.lines[1] == "kaiju <Leviath>"
    assert offered(rig, 3) == ["P1", "P3", "card", "location"]
    rig.keys("b", "b")
    # an attack on an opponent in the city; a challenge to an inactive one
    open_menu_item(rig, "Attack")
    assert offered(rig, 2) == ["P2.k2", "P3.k1"]
    rig.keys("b", "b")
    open_menu_item(rig, "Challenge")
    assert offered(rig, 2) == ["P2.k1", "P3.k2", "P3.k3"]
    rig.keys("b", "b")
    open_menu_item(rig, "Glory")
    assert offered(rig, 4) == ["location", "opponent", "event", "face-down", "other"]


# "When your team has accumulated 10 Fury (or whatever is specified on your Team Card)
# - you may activate your Rage Attack": the device says so, and that player's LEDs
# pulse (blink in their colour), on another player's turn too, until the Rage Attack.
def test_on_the_device_a_team_that_may_rage_pulses_until_its_rage_attack(rig):
    from arbiter.screens.colours import player_colour

    game = on_device(rig, 3, ["next", "next", "pass P1", "pass P2", "pass P3",
                              "active P1 k1", "active P2 k1", "active P3 k1", "add P2.fury 7"])
    dark = (0, 0, 0)
    p1, p2 = (lit(rig, player_colour(DATA, p)) for p in ("P1", "P2"))
    assert rig.led_colours() == [{p1}] * 12  # P1's turn: the ring in P1's colour
    device_do(rig, "damage {Kraken} 1 by=P1")
    assert "P2 may launch a Rage Attack" in said(rig) and player(game, "P2")["rage_ready"] == 1
    seen = rig.led_colours()
    assert seen[:6] == [{p1}] * 6 and seen[6:] == [{p2, dark}] * 6  # P2's arc pulses
    device_do(rig, "next")  # P2's turn: a combat, and the Rage Attack at its start
    assert rig.led_colours() == [{p2, dark}] * 12
    device_do(rig, "attack P2 {Rex}")
    shown = device_do(rig, "rage P2")
    assert "P2 RAGES: 2 damage to Rex" in " ".join(shown[2:7])  # previewed before A
    assert rig.led_colours() == [{p2}] * 12  # raged: no more pulse
    rig.keys("b:long")  # undo the rage: P2 may rage again
    assert rig.led_colours() == [{p2, dark}] * 12
    device_do(rig, "add P2.fury -1")  # a Fury too many: P2 may not rage after all
    assert player(game, "P2")["rage_ready"] == 0 and rig.led_colours() == [{p2}] * 12


# "A full three-player game runs to its end on `arbiter sim`": the whole game above,
# entered with the device's keys, ends as it does headless.
def test_a_complete_five_player_game_on_the_device(rig):
    from arbiter.game.public import public_state as shown_state

    game = on_device(rig, 5)
    actions = full_game(game.state["order"])  # the device drew its own tie-break
    previews = []
    for action in actions:
        lines = device_do(rig, action)
        if action.startswith("card"):
            previews.append(" ".join(lines[1:7]))
    outcome = play("kaiju", 5, game.seed, {}, actions, mix=game.mix)
    assert outcome.refused is None, outcome.refused
    headless = outcome.state
    state = shown_state(game)
    for key in ("players", "pieces", "lost", "result", "winner", "round", "phase"):
        assert state[key] == headless[key], key
    # The device keeps only the end of the log (its log page shows 20 entries).
    assert 20 <= len(state["log"]) < len(headless["log"])
    unseeded = [[e for e in log if e["event"] != "seed"] for log in (state["log"],
                                                                      headless["log"])]
    for e in unseeded[0]:  # the form gives a card's fx (a Glory's also) as "-" when it has
        for name in ("fx", "also"):  # none; typed, left out
            if e.get("args", {}).get(name) == "-":
                del e["args"][name]
    assert unseeded[0] == unseeded[1][-len(unseeded[0]):]  # the device drew its own seed
    check_full_game(dict(state, log=headless["log"], screen=rig.lines))
    assert "BLUFF" in " ".join(previews)  # the form says a card cannot be paid before A
    assert game.count() == state["events"] == len(actions)


# The forms, their choices and the preview run on real MicroPython in a Pico's heap,
# frame for frame as in CPython.
def test_on_the_device_the_forms_and_the_preview_are_the_same_under_micropython():
    from arbiter_referee.emulator.frames import Frame
    from arbiter_referee.emulator.screen_text import read_lines
    from arbiter_referee.emulator.session import run_session

    # the game menu: the phase's due actions first (its ``menu``), where it opens, then
    # the rest by name; elsewhere it opens at the item last used.
    # Play, Kaiju, 3 players, start, each player's part of the dice (four arrows) and A,
    # then on
    script = ("wait=800 a down down down a right a wait=600 "
              + "up down left right " * 3 + "a wait=600 a a wait=300 "
              + "b down down a a wait=300 " * 3  # Pass, P1-P3: after City and Ally
              + "b a a wait=300 " * 3  # Active kaiju: each one's first
              + "b " + "down " * 9 + "a right down right right wait=300 a wait=600 "  # Damage
              + "b " + "down " * 16 + "a wait=300 ")  # Rage Attack
    cp = run_session(5, script, "cpython")
    mp = run_session(5, script, "micropython")
    assert mp.frames == cp.frames
    screens = [read_lines(Frame.parse(f).ram) for f in cp.frames]
    assert ["Damage", "kaiju <Kraken>", "amount <3>", "dealt by <P1>", "Kraken 0/7 -> 3/7", "", "",
            "<> A:do B:back"] in screens
    assert screens[-1][:3] == ["Rage Attack", "player <P1>", "P1 is in no combat"]


# The issue: "Kraken knocked o" loses the Glory. "When a character is knocked out ... the
# player who dealt the damage gains 5 GLORY": the knock-out and who gains the Glory are
# on the play screen at once when a card of a combat knocks out; with five players
# (issue 48: every player's row on the screen) the knock-out is in the one line the rows
# leave and the Glory a press away, on Up's page.
@pytest.mark.parametrize("players", [3, 5])
def test_on_the_device_a_knock_out_in_a_combat_shows_who_gains_the_glory(rig, players):
    game = on_device(rig, players)
    order = game.state["order"]
    for action in (["next", "next"] + ["pass " + p for p in order]
                   + ["active %s k1" % p for p in order] + ["add {Kraken}.damage 5"]):
        act(rig, action)
    device_do(rig, "attack P1 {Kraken}")
    device_do(rig, "card P1 attack 0 0 0 5 0")
    device_do(rig, "card P2 defense 0 0 0 0 1")  # 5 - 1: Kraken at 9 of 6 + 1
    assert piece_state(game, "Kraken")["ko"] == 1 and player(game, "P1")["glory"] == 5
    if players == 5:
        assert rig.lines[6] == "Kraken 5/7 -> 9/7 KO," and "^" in rig.lines[7], rig.lines
        assert "Kraken 5/7 -> 9/7 KO, P1 +5 glory" in said(rig)
    else:
        assert rig.lines[5:7] == ["Kraken 5/7 -> 9/7 KO,", "P1 +5 glory"], rig.lines
    assert "Combat over: P1 and P2 draw back to 5" in said(rig)  # on the page of more


# The issue: "the Damage form's attacker default switches to P1 when the target changes,
# so a knock-out's Glory can go to the wrong player". "the player who dealt the damage
# gains 5 GLORY": the form's by= starts at the opponent in the combat, else the player
# whose turn it is, for each target chosen, and a player set by hand stays.
def test_on_the_device_the_damage_form_names_the_dealer_the_situation_implies(rig):
    game = on_device(rig, 3, ["next", "next", "pass P1", "pass P2", "pass P3",
                              "active P1 k1", "active P2 k1", "active P3 k2", "pass P1",
                              "challenge P2 {Hive}", "accept P3"])  # Kraken fights Hive
    assert game.state["game"]["combat"] == 1 and game.active_player() == "P2"
    open_menu_item(rig, "Damage")
    assert rig.lines[1:4] == ["kaiju <Rex>", "amount <1>", "dealt by <P2>"]  # the turn's player
    for name, by in (("Kraken", "P3"), ("Stinger", "P2"), ("Hive", "P2"), ("Rex", "P2")):
        rig.keys("right")  # the next target: Kraken, Stinger, then the inactive ones
        while rig.lines[1] != "kaiju <%s>" % name:
            rig.keys("right")
        assert rig.lines[3] == "dealt by <%s>" % by, (name, rig.lines)
    rig.keys("down", "down", "right")  # by P3, set by hand: it stays while offered
    assert rig.lines[3] == "dealt by <P3>"
    rig.keys("up", "up", "right")
    assert rig.lines[1] == "kaiju <Kraken>" and rig.lines[3] == "dealt by <P3>"
    rig.keys("right")  # Hive is P3's own: Kraken's P2, who fights it
    assert rig.lines[1] == "kaiju <Hive>" and rig.lines[3] == "dealt by <P2>"
    rig.keys("b", "b")
    act(rig, "add {Hive}.damage 5")
    open_menu_item(rig, "Damage")
    while rig.lines[1] != "kaiju <Hive>":
        rig.keys("right")
    device_do(rig, "damage {Hive} 1")  # the form's own dealer: Kraken's P2
    assert piece_state(game, "Hive")["ko"] == 1 and player(game, "P2")["glory"] == 5


# The issue: "in Planning nothing says that A means 'I played a card'". "On your turn,
# you may play a card (or pass)": in Planning the key line says what A means and that
# Left/Right passes (issue 48), in 21 columns; elsewhere A is next. (3 players: the
# round and phase in the bar)
def test_on_the_device_the_planning_key_line_says_a_is_a_card_played(rig):
    game = on_device(rig, 3, ["next"])
    assert rig.lines[0] == "T1 Planning draw" and rig.lines[7].startswith("A:next")
    rig.keys("a")
    assert rig.lines[0] == "T1 Planning: P1" and rig.lines[7].startswith("A:played <>:pass")
    assert all(len(line) <= 21 for line in rig.lines)
    rig.keys("a")  # P1 played a card: P2's turn
    assert rig.lines[0] == "T1 Planning: P2" and game.history.events[-1] == "next"
    for p in ("P2", "P3", "P1"):
        act(rig, "pass " + p)
    rig.app.redraw()
    rig.run(100)
    assert rig.lines[0] == "T1 Select: P1" and rig.lines[7].startswith("A:next")


# The issue: "a dice roll in a game shows no result". A roll from the game menu shows
# each die and their total on the play screen, as Roll dice does outside a game, with
# five players too, and they are in the device's log and the game's log page.
def test_on_the_device_dice_rolled_in_a_game_show_each_die_and_the_total(rig):
    from helpers.device import fill_form

    game = on_device(rig, 5, ["next", "next"])
    open_menu_item(rig, "Roll dice")
    fill_form(rig, ["d6", 3])
    (roll,) = [e for e in game.log if e["event"] == "roll"]
    shown = "P1 d6: %s = %d" % (" ".join(map(str, roll["rolls"])), sum(roll["rolls"]))
    assert len(roll["rolls"]) == 3 and shown in " ".join(rig.lines[5:7]), rig.lines
    assert shown in rig.device.log.lines
    open_menu_item(rig, "Log")
    rig.keys(*["down"] * len(rig.app.screen.lines))  # to its end: the newest
    assert shown in rig.lines


# -- issue 46 ---------------------------------------------------------------------------


# "If a character takes damage equal to or greater than their FORTITUDE ... that character
# is Knocked Out (KO'd.) Remove that character from the game": knocked out by a Rage
# Attack, Rex is out of its combat, which ends; it plays no more cards.
def test_a_knock_out_by_a_rage_attack_ends_the_combat(runtime):
    g = in_action(players=3, actions=["add P2.fury 8"])
    apply(g, "add {Rex}.damage 4", "next", "attack P2 {Rex}", "rage P2")
    assert piece_state(g, "Rex")["ko"] == 1 and g.state["game"]["combat"] == 0
    said = notes(g)[-4:]
    assert said[:3] == ["Combat over: P2 and P1 draw back to 5", "Rex knocked out",
                        "Rex 4/6 -> 6/6 KO, P2 +5 glory"]
    refused(g, "card P1 attack 2 0 0 9 0", "no combat goes on")  # Rex is out of the game
    assert (player(g, "P1")["glory"], player(g, "P2")["glory"]) == (0, 5)
    g.apply("next")  # the turn moves on: no combat goes on


# "Remove that character from the game": a knock-out entered by hand (a card's text, an
# effect) ends the combat too; the turn moves on.
def test_a_knock_out_entered_as_damage_ends_the_combat(runtime):
    g = in_action(players=2)
    apply(g, "attack P1 {Kraken}", "damage {Kraken} 9 by=P1")
    assert g.state["game"]["combat"] == 0 and player(g, "P1")["glory"] == 5
    assert g.state["message"] == "Kraken 0/7 -> 9/7 KO, P1 +5 glory"
    refused(g, "nocard P2", "no combat goes on")
    g.apply("next")  # P2, whose kaiju in the city is out, skips
    assert g.phase()["name"] == "healing"


# "If the challenged character is a kaiju, the player who owns the kaiju may accept or
# decline." "Remove that character from the game": a challenged kaiju knocked out before
# its owner answers is no longer there to accept.
def test_a_challenged_kaiju_knocked_out_before_the_answer_cannot_accept(runtime):
    g = in_action(players=2)
    apply(g, "challenge P1 {Leviath}", "damage {Leviath} 9 by=P1")
    assert g.state["message"] == "Leviath 0/7 -> 9/7 KO, P1 +5 glory"
    assert "Leviath knocked out: no answer to the challenge" in notes(g)
    refused(g, "accept P2", "nobody may accept now")
    refused(g, "decline P2", "nobody may decline now")
    g.apply("next")


# "combats always happen between exactly 2 players ... Likewise, a third (or fourth!)
# player may never join in a combat in progress."
def test_a_third_player_never_deals_damage_in_a_combat_in_progress(runtime):
    g = in_action(players=3)
    apply(g, "attack P1 {Kraken}")
    refused(g, "damage {Kraken} 9 by=P3", "P3 is not in Kraken's combat")  # no final blow
    refused(g, "damage {Rex} 1 by=P3", "P3 is not in Rex's combat")
    apply(g, "damage {Leviath} 1 by=P3")  # not in this combat
    apply(g, "damage {Kraken} 1 by=card")  # a card's effect, not a player
    apply(g, "nocard P1", "nocard P2", "next", "attack P2 {Hive}")
    refused(g, "damage {Hive} 1 by=P1", "P1 is not in Hive's combat")
    apply(g, "damage {Hive} 6 by=P2")  # FORTITUDE 3, Swarm +3
    assert player(g, "P2")["glory"] == 5 and player(g, "P1")["glory"] == 0


# "Cards in the city can also be attacked and damaged for GLORY. The glory earned from
# defeating a location or opponent is the black number in a yellow box": the location
# keeps its damage, and is knocked out at its FORTITUDE, its Glory to who dealt it.
def test_a_location_keeps_its_damage_and_is_knocked_out_for_its_glory(runtime):
    g = new(players=2, actions=["next", "next", "city P1 glory=3 fort=5", "pass P2",
                                "pass P1"])
    to_phase(g, "action", step=passing)
    g.apply("rampage P1 0")
    g.apply("card P1 attack 2 0 0 4 0")
    g.apply("card P2 defense 0 0 0 0 1")  # 4 - 1
    assert g.state["game"]["cs"] == [[3, 5, 3, "P1"]]
    assert notes(g)[-2:] == ["L1 0/5 -> 3/5", "P1 deals 3, P2 deals 0. P2 has the initiative"]
    refused(g, "raze P1 3", "L1 has 3 of 5 damage")
    g.apply("card P2 attack 0 0 0 1 0")  # the location attacks, Rex counters
    g.apply("card P1 counter 0 0 0 2 0")
    assert (g.state["game"]["city"], g.state["game"]["combat"]) == ([], 0)
    assert player(g, "P1")["glory"] == 3 and g.state["message"] == "L1 knocked out, P1 +3 glory"


# "The glory earned from defeating a location or opponent is the black number in a
# yellow box": only who damaged it knocks it out by hand, and for its Glory.
def test_a_location_is_razed_only_by_who_damaged_it_and_for_its_glory(runtime):
    g = new(players=3, actions=["next", "next", "city P1 glory=4", "city P2 card=opponent",
                                "pass P3", "pass P1", "pass P2"])
    to_phase(g, "action", step=passing)
    refused(g, "raze P1 4", "P1 has not damaged O2")
    apply(g, "rampage P1 1", "card P1 attack 2 0 0 4 0", "card P2 defense 0 0 0 0 1")
    assert g.state["game"]["city"] == ["O2", "L1"] and notes(g)[-2] == "L1 0 -> 3 damage"
    refused(g, "raze P3 4", "P3 has not damaged L1")
    refused(g, "raze P1 9", "L1 is worth 4 Glory")
    g.apply("raze P1 4")  # its FORTITUDE not given: the players say it is knocked out
    assert player(g, "P1")["glory"] == 4 and g.state["game"]["combat"] == 0
    assert g.state["game"]["city"] == ["O2"]


# "The glory earned from defeating a location or opponent is the black number in a
# yellow box": the Location KO form opens at who damaged it and at its Glory, when the
# card's was entered.
def test_on_the_device_location_ko_opens_at_who_damaged_it_and_its_glory(rig):
    on_device(rig, 3, ["next", "next", "city P1 glory=4", "city P2 card=opponent",
                       "pass P3", "pass P1", "pass P2", "active P1 k1", "active P2 k1",
                       "active P3 k1", "rampage P1 1", "card P1 attack 2 0 0 4 0",
                       "card P2 defense 0 0 0 0 1", "card P2 none", "card P1 none"])
    assert game_of(rig).state["game"]["cs"][-1] == [4, 0, 3, "P1"]
    open_menu_item(rig, "Location KO")
    assert rig.lines[1:3] == ["player <P1>", "Glory <4>"], rig.lines


# "5. There is no limit to the number of Energy Tokens you may spend in this combat."
def test_a_rage_lifts_the_energy_cap_for_its_combat_only(runtime):
    g = in_action(players=2, actions=["add P1.fury 10"])
    apply(g, "attack P1 {Kraken}", "rage P1", "spend P1 6")  # over Rex's POWER 4
    assert g.state["message"] == "P1 spends 6: 6 of no cap, 14 left"
    apply(g, "nocard P1", "nocard P2")
    refused(g, "spend P1 1", "P1 may spend 4 Energy this combat")


# "Knockdown - Your opponent must discard a combat card at random.": the device rolls
# which one, from the cards the player says they hold, before the next card.
def test_a_knockdown_discard_is_rolled_by_the_device(runtime):
    g = in_action(players=2)
    apply(g, "attack P1 {Kraken}", "card P1 attack 2 0 0 3 0 fx=knockdown",
          "card P2 defense 0 1 0 0 1")
    assert g.state["game"]["kd"] == ["P2"]
    refused(g, "card P2 attack 1 0 0 2 0", "P2 discards a combat card at random first")
    refused(g, "nocard P2", "P2 discards a combat card at random first")
    refused(g, "discard P1 4", "P1 has no card to discard at random")
    g.apply("discard P2 4")
    (roll,) = [e for e in g.log if e["event"] == "roll"]
    assert (roll["die"], roll["player"], roll["reason"]) == ("d4", "P2", "Knockdown discard")
    assert g.state["message"] == "P2 discards card %d of 4, from the left" % roll["rolls"][0]
    g.apply("card P2 attack 9 0 0 2 0 fx=knockdown")  # P2's own, but a BLUFF: no discard
    g.apply("card P1 defense 0 0 0 0 1")
    assert g.state["game"]["kd"] == [] and "discards" not in g.state["message"]
    g.apply("card P1 attack 1 0 0 2 0 fx=knockdown")  # a knockdown that works: P2 again
    g.apply("card P2 defense 0 9 0 0 1")  # (a BLUFF: the reply that does not answer)
    assert g.state["game"]["kd"] == ["P2"]


# "2. Planning draw & discard phase (simultaneous) - All players may discard any number of
# planning cards, and then draw planning cards from the top of their deck until the
# number of cards in their hand is equal to their planning draw.": each team's own
# number is said.
def test_each_teams_planning_draw_is_said(runtime):
    g = new(players=3, actions=["next"])
    assert g.state["message"] == "Draw up to: P1 5 P2 6 P3 5"


# -- issue 46 on the device ---------------------------------------------------------------


def in_action_on_device(rig, players=3):
    return on_device(rig, players, ["next", "next"] + ["pass P%d" % i for i in
                                                       range(1, players + 1)]
                     + ["active P%d k1" % i for i in range(1, players + 1)])


# "Remove that character from the game": a knock-out entered on the Damage form ends
# its combat; A, which the key line offers, moves on.
def test_on_the_device_a_knock_out_entered_as_damage_ends_the_combat(rig):
    game = in_action_on_device(rig, 3)
    device_do(rig, "attack P1 {Kraken}")
    device_do(rig, "damage {Kraken} 9 by=P1")
    assert game.state["game"]["combat"] == 0 and player(game, "P1")["glory"] == 5
    assert rig.lines[7].startswith("A:next")
    rig.keys("a")
    assert game.history.events[-1] == "next" and game.active_player() == "P3"


# "a third (or fourth!) player may never join in a combat in progress": the Damage form
# offers, for a kaiju in a combat, only the other side's player (or a card, a location),
# and a third player typed is refused in one line.
def test_on_the_device_only_the_other_side_damages_a_kaiju_in_a_combat(rig):
    game = on_device(rig, 3)
    for action in ["next", "next", "pass P1", "pass P2", "pass P3", "active P1 k1",
                   "active P2 k1", "active P3 k1", "attack P1 {Kraken}"]:
        act(rig, action)
    open_menu_item(rig, "Damage")
    while rig.lines[1] != "kaiju <Kraken>":
        rig.keys("right")
    assert offered(rig, 3) == ["P1", "card", "location"]
    rig.keys("b", "b")
    screen = play_screen(rig)
    assert not screen.act(rig.app, named(game, "damage {Kraken} 9 by=P3"), rig.board.elapsed)
    assert screen.notice == "P3 is not in Kraken's combat"
    assert piece_state(game, "Kraken")["damage"] == 0


# "If multiple players reach 20+ GLORY at the same moment, the highest total wins": the
# Glory form gives the same Glory to several players at once (`also`).
def test_on_the_device_the_glory_form_gives_several_players_glory_at_once(rig):
    game = on_device(rig, 3, ["glory P2 2"])
    open_menu_item(rig, "Glory")
    assert rig.lines[3] == "also to <->"
    assert offered(rig, 3) == ["-", "P2", "P3", "P2,P3"]  # P1's: every group of the others
    rig.keys("b", "b")
    device_do(rig, "glory P1 18 also=P2,P3 source=event")
    assert [player(game, p)["glory"] for p in ("P1", "P2", "P3")] == [18, 20, 18]
    assert (game.state["result"], game.state["winner"]) == ("win", "P2")


# "Knockdown - Your opponent must discard a combat card at random.": the play screen says
# who discards; the Knockdown discard form, at that player, rolls which card.
def test_on_the_device_a_knockdown_discard_is_rolled(rig):
    game = in_action_on_device(rig, 2)
    device_do(rig, "attack P1 {Kraken}")
    device_do(rig, "card P1 attack 2 0 0 3 0 fx=knockdown")
    device_do(rig, "card P2 defense 0 1 0 0 1")
    assert "P2 discards at random" in said(rig)
    screen = play_screen(rig)
    assert not screen.act(rig.app, "nocard P2", rig.board.elapsed)
    assert screen.notice == "P2 discards a combat card at random first"
    open_menu_item(rig, "Knockdown discard")
    assert rig.lines[1] == "player <P2>"
    rig.keys("down", "right", "right", "right", "right", "a")  # 5 cards in P2's hand
    (roll,) = [e for e in game.log if e["event"] == "roll"]
    assert roll["die"] == "d5"
    assert "P2 discards card %d of 5, from the left" % roll["rolls"][0] in said(rig)
    device_do(rig, "nocard P2")


# "draw planning cards ... until the number of cards in their hand is equal to their
# planning draw": the play screen says each team's, five players too.
def test_on_the_device_the_planning_draw_of_each_team_is_on_the_screen(rig):
    game = on_device(rig, 5, ["next"])
    draw = {"P1": 5, "P2": 6, "P3": 5, "P4": 5, "P5": 4}  # Titans, Abyss, Swarm, ..., Storm
    shown = "Draw up to: " + " ".join("%s %d" % (p, draw[p]) for p in game.state["order"])
    assert shown in said(rig), rig.lines


# "The glory earned from defeating a location or opponent is the black number in a
# yellow box": the Location/Opponent form takes its Glory and FORTITUDE.
def test_on_the_device_a_location_is_played_with_its_glory_and_fortitude(rig):
    game = on_device(rig, 2, ["next", "next"])
    device_do(rig, "city P1 fort=5 glory=3")
    assert game.state["game"]["cs"] == [[3, 5, 0, ""]] and game.state["game"]["city"] == ["L1"]


# -- issue 48 ---------------------------------------------------------------------------


# The issue: "Kaiju in combat opens Damage, not Combat card". Left/Right opens what a
# table does most where the game is: a pass in Planning, the kaiju sent into the city in
# Select, the player's one Action, then in a combat the card due; the Knockdown's
# discard and the challenged owner's answer before anything else.
def test_the_fast_action_of_each_phase_is_what_the_table_does_there(runtime):
    from arbiter.game.effects import action
    from arbiter.screens.fast import fast_action

    def fast(g):
        return action(g, fast_action(g)).get("label")

    g = new(players=3, actions=["next"])
    assert fast(g) == "Damage"  # Planning draw: a card's damage, any time
    g.apply("next")
    assert fast(g) == "Pass"
    to_phase(g, "select", step=passing)
    assert fast(g) == "Active kaiju"
    to_phase(g, "action", step=passing)
    assert fast(g) == "Attack"  # Kraken and Hive are in the city
    apply(g, "challenge P1 {Leviath}")
    assert fast(g) == "Accept challenge"
    apply(g, "accept P2")
    assert fast(g) == "Combat card"
    apply(g, "card P1 attack 2 0 0 3 0 fx=knockdown", "card P2 defense 0 1 0 0 1")
    assert fast(g) == "Knockdown discard"
    apply(g, "discard P2 3", "card P2 none", "card P1 none", "next", "pass P2")
    g = new(players=2)
    to_phase(g, "select", step=passing)
    g.apply("active P1 k1")
    g.apply("active P2 k1")
    apply(g, "damage {Kraken} 9 by=P1")  # P1's foe left the city: nobody to attack
    assert fast(g) == "Challenge"


# "The player with initiative must select an “Attack” or “Technique” card - then player
# without initiative must select a “Defense” “Technique” or “Counter Attack” card.": the
# card form opens at the player whose card is due, at a type that player may play (the
# issue: "Kaiju's Combat card, No card and Rage forms open at P1"); Right on the play
# screen, as the game menu's form.
def test_on_the_device_the_card_form_opens_at_the_player_due_and_a_legal_type(rig):
    game = in_action_on_device(rig, 3)
    device_do(rig, "attack P1 {Kraken}")
    rig.keys("right")
    # at the number that side's card is read by first: an attack's damage
    assert " ".join(rig.lines[1:7]).count("Combat card: P1 attack damage <0>") == 1, rig.lines
    assert rig.lines[7] == "^v:which <>:set A:do"
    rig.keys("b")
    device_do(rig, "card P1 attack 2 0 0 3 0")  # P1 leads: P2's card is due
    rig.keys("right")
    assert "Combat card: P2 defense toughness <0>" in " ".join(rig.lines[1:7]), rig.lines
    rig.keys("b")
    for label, lines in (("Combat card", ["player <P2>", "type <defense>", "FER <0>"]),
                         ("No card", ["player <P2>"]), ("Rage Attack", ["player <P2>"])):
        open_menu_item(rig, label)
        assert rig.lines[1:1 + len(lines)] == lines, (label, rig.lines)
        rig.keys("b", "b")
    rig.keys("right", "up")  # the type, the knob's last: what P2 may play, the rest, no card
    for _ in range(len(rig.app.screen.rows)):  # bounded: Down walks every row once
        if form_row(rig) == "is":
            break
        rig.keys("down")
    assert offered_by_knob(rig) == ["defense", "technique", "counter", "attack", "none"]
    rig.keys("b")
    device_do(rig, "card P2 none")  # P2 takes the hit; the initiative is P2's now
    assert piece_state(game, "Kraken")["damage"] == 3 and game.state["game"]["init"] == "P2"
    rig.keys("right")
    assert "Combat card: P2 attack damage <0>" in " ".join(rig.lines[1:7]), rig.lines


# "Combat decks ... may contain no more than 2 of any given card": a team's cards come
# round again. The Combat card form opens at the numbers of that player's last card of
# the type its side may play (issue 48: "the last amount where it repeats"), its effect
# at none; another type brings that type's numbers, none for a type not played yet.
def test_on_the_device_a_card_opens_at_that_players_last_card_of_its_type(rig):
    in_action_on_device(rig, 3)
    device_do(rig, "attack P1 {Kraken}")
    device_do(rig, "card P1 attack 3 0 0 4 0 fx=combo")  # Combo: P1 keeps the initiative
    device_do(rig, "card P2 defense 0 2 0 0 1")
    rig.keys("right")  # P1's next attack
    assert "Combat card: P1 attack FER 3 damage <4>" in " ".join(rig.lines[1:7]), rig.lines
    rig.keys("up", "right")  # the type, the knob's last: a technique, never played
    assert form_row(rig) == "is"
    assert "Combat card: P1 <technique>" in " ".join(rig.lines[1:7]), rig.lines
    rig.keys("left")  # back to attack: its numbers again
    assert "Combat card: P1 <attack> FER 3 damage 4" in " ".join(rig.lines[1:7]), rig.lines
    rig.keys("b")
    device_do(rig, "card P1 attack 2 0 0 3 0")
    rig.keys("right")  # P2's defense: P2's last, at its toughness
    assert "Combat card: P2 defense AGI 2 toughness <1>" in " ".join(rig.lines[1:7]), \
        rig.lines
    rig.keys("b")
    device_do(rig, "card P2 none")  # no card: none of the last card's numbers recorded
    card = [e for e in game_of(rig).log if e["event"] == "card"][-1]
    assert card["args"] == {"p": "P2", "is": "none", "r": 0, "b": 0, "y": 0, "d": 0,
                            "tg": 0, "fx": "-"}, card


# "There are 5 basic actions": the game menu lists them first, in the rules' order,
# and opens at Attack ("This is the most common action"); in a combat, the cards
# first; a challenge's answers first while one is pending.
def test_on_the_device_the_game_menu_lists_the_due_actions_first(rig):
    game = in_action_on_device(rig, 3)
    rig.keys("b")
    assert rig.lines[1:6] == ["Attack", "Challenge", "Roar: +2 Energy", "Rampage", "Pass"]
    rig.keys("b")
    device_do(rig, "attack P1 {Kraken}")
    rig.keys("b")
    assert rig.lines[1:5] == ["Combat card", "No card", "Join team fight", "Rage Attack"]
    assert game.state["game"]["combat"] == 1


def form_row(rig):
    """The name of the fast form's field at the cursor."""
    form = rig.app.screen
    return form.fields[form.cursor][0]


def offered_by_knob(rig):
    """What the fast form's field at the cursor offers, Right after Right, from the one
    it shows (it is left there)."""
    form = rig.app.screen
    field = form.fields[form.cursor]
    seen = []
    while field[1][field[2]] not in seen:
        seen.append(field[1][field[2]])
        rig.keys("right")
    return seen
