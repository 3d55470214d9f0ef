"""Juggernauts refereed from its ruleset (rulesets/juggernauts.json), each test against
the rules text (../shared/seeds/000_9ea33f691a630ccb.txt, quoted as "Rules: ...").

Dice are never mocked: where a test needs a particular roll it names a seed that gives
it (the SEED_ constants, found once), and checks that it does.

The bundled ruleset is the whole game (attacks, defenses, variants); it fits the
emulated Pico's heap under real MicroPython (see docs/bench.md).
"""

import json
import re

import pytest
from helpers.device import act, do, game_of, lit, open_menu_item, pick, said, start_game
from helpers.game import (
    canonical,
    piece_state,
    player,
    refused,
    rolls,
    to_phase,
)
from helpers.juggernauts import FULL, new, started

from arbiter.game import Illegal
from arbiter.screens.view import screen_lines
from arbiter_referee.emulator.rig import Rig
from arbiter_referee.headless import play

SEED_REROLL_LANDS_ON_1 = 4  # P1's d4 in Command: a damaged position, then a re-roll of 1
SEED_AIMS_AT_TWO = 1  # at Resolve (P1's d6, P2's d8), a level 2 attack rolls two positions
# P2's d20, defending position 7 at Resolve (P1's d6), die by die:
SEED_DEFENSE_7_FIRST = 3  # 7 16 17 7 1 13 7: the first die matches, every level survives
SEED_DEFENSE_7_SIXTH = 0  # 15 3 16 18 3 7 8: only level 3's seven dice reach the 7
SEED_DEFENSE_NO_7 = 1  # 20 5 3 8 17 18 17: no level survives


def test_the_full_ruleset_passes_arbiter_validate_schema_and_all():
    from arbiter_referee.rulesets import check_text

    assert check_text(FULL.read_text()) is None


# -- secret Commanders -------------------------------------------------------------------


def test_the_commander_stays_secret_until_both_have_picked():
    # Rules: "Conceal a die in your hand. This is your Commander. ... Once your opponent
    # has also secretly picked a Commander, reveal your Commanders simultaneously."
    outs = [play(str(FULL), None, 5, {}, ["commander P1 " + die]).state
            for die in ("d4", "d20")]
    assert outs[0] == outs[1]  # JSON, log and screen identical whatever P1 picked
    shown = json.dumps(outs[0]).replace(outs[0]["commitment"], "")  # hex: may hold "d4"
    assert "d4" not in shown and "commander" not in json.dumps(outs[0]["players"])
    assert outs[0]["screen"][3:5] == ["Pass to P2", "others look away"]
    assert outs[0]["picking"] == {"secret": "commander", "player": "P2"}
    both = play(str(FULL), None, 5, {}, ["commander P1 d20", "commander P2 d4"]).state
    assert both["players"]["P1"]["commander"] == "d20"
    assert both["players"]["P2"]["commander"] == "d4"
    reveals = [e for e in both["log"] if e["event"] == "reveal"]
    assert reveals == [{"event": "reveal", "secret": "commander",
                        "picks": {"P1": "d20", "P2": "d4"}}]


def test_picks_are_in_turn_and_only_dice_and_nothing_else_before():
    g = new(2)
    refused(g, "commander P2 d6", "it is P1's turn to pick")
    refused(g, "commander P1 d7", "commander is one of d4, d6, d8, d10, d12, d20")
    refused(g, "next", "P1 must pick a commander first")
    g.apply("commander P1 d6")
    g.apply("undo")  # undone: P1 picks again
    assert not g.state["picks"].get("commander")
    g.apply("pick P1 d8")  # the generic pick is the same thing
    g.apply("commander P2 d8")
    refused(g, "commander P1 d8", "nothing to pick now")


def test_the_reveal_says_what_to_draw_and_lay_out_and_the_deck_limit():
    # Rules: "Draw cards equal to the number of faces on your Commander, plus three. ...
    # Lay all but three of your cards out"; "Your Juggernaut deck may not have more than 40".
    g = started(1, ("d12", "d4"))
    notes = [e["text"] for e in g.log if e["event"] == "note"]
    assert "P1: draw 15, lay out 12" in notes and "P2: draw 7, lay out 4" in notes
    assert "Deck limit 40" in notes
    assert sorted(k for k in g.state["pieces"] if k.startswith("P2.")) == [
        "P2.1", "P2.2", "P2.3", "P2.4"]
    assert all(piece_state(g, k)["state"] == "card" for k in g.state["pieces"])
    assert player(g, "P1")["faces"] == 12 and player(g, "P1")["hand"] == 5


# -- Energize and Command ---------------------------------------------------------------


def test_energize_gives_each_player_one_power_every_round():
    # Rules: "Energize: Add a token to your Power Pool."
    g = started(3)
    assert g.phase()["name"] == "energize"
    assert [player(g, p)["power"] for p in ("P1", "P2")] == [1, 1]
    for _ in range(6):
        g.apply("next")
    assert g.phase()["name"] == "energize" and g.state["round"] == 2
    assert [player(g, p)["power"] for p in ("P1", "P2")] == [2, 2]


def command_with_every_position(state, seed=4, **options):
    """P1's whole d4 matrix in one state, then the Command phase: the roll lands on it."""
    g = started(seed, ("d4", "d6"), **options)
    g.apply("set P1.alerts 2")
    for pos in range(1, 5):
        if state == "neutralized":
            g.apply("neutralize P1 pos=%d" % pos)
            g.apply("neutralize P1 pos=%d" % pos)  # two tokens each
        elif state != "card":
            g.apply("%s P1 pos=%d" % ({"damaged": "damage"}.get(state, state), pos))
    g.apply("next")
    return g


def test_command_rolls_every_commander_and_a_card_activates_and_clears_alerts():
    # Rules: "Roll your Commander. The number ... tells you which card in your matrix will
    # activate"; "Remove all alert tokens when you activate an undamaged sector."
    g = command_with_every_position("card")
    command = rolls(g, "command")
    assert [(r["player"], r["die"], len(r["rolls"])) for r in command] == [
        ("P1", "d4", 1), ("P2", "d6", 1)]
    assert player(g, "P1")["active"] == command[0]["rolls"][0]
    assert player(g, "P2")["active"] == command[1]["rolls"][0]
    assert screen_lines(g)[2] == "P1 Pw1 Al2 Ac%d H5" % command[0]["rolls"][0]
    g.apply("next")
    assert player(g, "P1")["alerts"] == 0


@pytest.mark.parametrize("state", ["damaged", "token"])
def test_a_damaged_or_token_position_gives_an_alert(state):
    # Rules: "If you do not have an active card by the end of your command phase (this can
    # happen if your Commander tries to activate a damaged sector, a neutralized card, or a
    # card token), put an alert token on your deck."
    g = command_with_every_position(state)
    assert player(g, "P1")["active"] == 0
    g.apply("next")
    assert player(g, "P1")["alerts"] == 3 and player(g, "P1")["hand"] == 5


def test_alternate_shutdown_costs_hand_size_instead_of_an_alert():
    # Rules: "Alternate Shutdown: If you roll a damaged sector, your hand size decreases by
    # one. If your hand size is ever zero or less, you lose."
    g = command_with_every_position("damaged", alternate_shutdown=True)
    g.apply("next")
    assert player(g, "P1")["alerts"] == 2 and player(g, "P1")["hand"] == 4
    # the play screen shows the hand size it is played by, beside the alerts
    assert screen_lines(g)[2] == "P1 Pw1 Al2 Ac0 H4"
    g.apply("set P1.hand 0")  # "ever": not only at the end of a round
    assert g.state["lost"] == ["P1"] and g.state["winner"] == "P2"


def test_a_neutralized_position_asks_its_owner_before_the_command_phase_ends():
    # Rules: "If you're trying to activate a card with a neutralization token on it, you
    # have two options: Remove a neutralization token instead of activating the card ...
    # Pay three Power and remove a neutralization token."
    g = command_with_every_position("neutralized")
    assert player(g, "P1")["todo"] == "unneutralize" and player(g, "P1")["active"] == 0
    refused(g, "next", "P1 must unneutralize first")
    refused(g, "unneutralize P1", "remove one token for free, or pay off tokens at 3 Power")
    refused(g, "unneutralize P2 free", "P2 did not roll a neutralized card")
    refused(g, "unneutralize P1 pay=3", "has 2 tokens")


def test_removing_a_token_for_free_is_not_an_activation():
    # Rules: "Removing a neutralization token does not count as activating a card and may
    # cause you to gain an alert token during the Command phase."
    g = command_with_every_position("neutralized")
    pos = player(g, "P1")["rolled"]
    g.apply("unneutralize P1 free")
    assert piece_state(g, "P1.%d" % pos)["tokens"] == 1 and player(g, "P1")["power"] == 1
    g.apply("next")
    assert player(g, "P1")["active"] == 0 and player(g, "P1")["alerts"] == 3


def test_paying_three_power_per_token_activates_the_card():
    # Rules: "Pay three Power and remove a neutralization token. You may do this as many
    # times as you want to. If you remove the last neutralization token this way, you may
    # activate the card."
    g = command_with_every_position("neutralized")
    pos = player(g, "P1")["rolled"]
    refused(g, "unneutralize P1 pay=2", "removing 2 tokens costs 6 Power: P1 has 1, 5 missing")
    g.apply("add P1.power 5")
    g.apply("unneutralize P1 pay=2")
    assert player(g, "P1")["power"] == 0 and player(g, "P1")["active"] == pos
    assert piece_state(g, "P1.%d" % pos) ["state"] == "card"
    g.apply("next")
    assert player(g, "P1")["alerts"] == 0


def test_paying_for_some_tokens_only_leaves_no_active_card():
    g = command_with_every_position("neutralized")
    pos = player(g, "P1")["rolled"]
    g.apply("add P1.power 2")
    g.apply("unneutralize P1 pay=1")  # 3 Power, one token of two
    assert piece_state(g, "P1.%d" % pos)["tokens"] == 1 and player(g, "P1")["power"] == 0
    g.apply("next")
    assert player(g, "P1")["alerts"] == 3


def test_tokens_can_be_paid_off_one_at_a_time():
    # Rules: "Pay three Power and remove a neutralization token. You may do this as many
    # times as you want to. If you remove the last neutralization token this way, you may
    # activate the card."
    g = command_with_every_position("neutralized")  # 1 Power, 2 tokens on every position
    pos = player(g, "P1")["rolled"]
    g.apply("add P1.power 5")
    g.apply("unneutralize P1 pay=1")  # one token, 3 Power
    assert piece_state(g, "P1.%d" % pos)["tokens"] == 1 and player(g, "P1")["active"] == 0
    assert g.state["message"] == "P1's card %d: 1 token left" % pos  # player words
    g.apply("unneutralize P1 pay=1")  # then the other: the last, so the card activates
    assert piece_state(g, "P1.%d" % pos)["state"] == "card"
    assert player(g, "P1")["active"] == pos and player(g, "P1")["power"] == 0
    refused(g, "unneutralize P1 pay=1", "P1 did not roll a neutralized card")
    g.apply("next")
    assert player(g, "P1")["alerts"] == 0


def test_paying_off_one_token_may_stop_there_but_not_turn_free():
    # Rules: "you have two options: Remove a neutralization token instead of activating
    # the card ... Pay three Power and remove a neutralization token." The free removal
    # is the option instead of paying: once a token is paid for, the rest are paid for
    # too, or left where they are.
    g = command_with_every_position("neutralized")
    pos = player(g, "P1")["rolled"]
    g.apply("add P1.power 2")
    g.apply("unneutralize P1 pay=1")
    refused(g, "unneutralize P1 free", "P1 paid for a token: the free removal was the other")
    refused(g, "unneutralize P1 pay=1", "removing 1 tokens costs 3 Power: P1 has 0, 3 missing")
    g.apply("next")  # nothing more is owed: the phase may end
    assert piece_state(g, "P1.%d" % pos)["tokens"] == 1 and player(g, "P1")["alerts"] == 3


def test_discards_reduce_the_cost_of_unneutralizing_too():
    # Rules: "If you have to meet a Power requirement at any time during the game ... you
    # may discard cards from your hand. Every card you discard reduces that Power
    # requirement by one point."
    g = command_with_every_position("neutralized")  # 1 Power, 2 tokens on every position
    pos = player(g, "P1")["rolled"]
    refused(g, "unneutralize P1 pay=2 discard=4",
            "removing 2 tokens costs 2 Power: P1 has 1, 1 missing")
    g.apply("unneutralize P1 pay=2 discard=5")
    assert player(g, "P1")["power"] == 0 and player(g, "P1")["active"] == pos


def test_a_cards_reroll_rolls_the_commander_again_and_the_new_roll_counts():
    # Rules: "Take care of any cards or effects that occur during the Command phase (like
    # re-rolling your Commander or rolling additional Command dice) now."
    g = rerolled_onto_the_card(SEED_REROLL_LANDS_ON_1)
    again = rolls(g, "command")[-1]
    assert (again["player"], again["die"], again["rolls"]) == ("P1", "d4", [1])
    assert player(g, "P1")["active"] == 1
    g.apply("next")
    assert player(g, "P1")["alerts"] == 0  # the re-rolled card activated
    refused(started(1), "reroll P1", "reroll is for the command phase, not energize")


def test_one_commander_reroll_a_round_more_only_by_a_cards_effect():
    # Rules: "Take care of any cards or effects that occur during the Command phase (like
    # re-rolling your Commander or rolling additional Command dice) now." A re-roll is a
    # card's effect: one a round, another only when a card's effect says so (logged)
    g = rerolled_onto_the_card(SEED_REROLL_LANDS_ON_1)
    refused(g, "reroll P1",
            "P1 has used this round's extra Command roll: only a card's effect gives another")
    g.apply("bonus P1 roll")
    assert g.state["message"] == "P1: a card's effect, one more Command roll"
    g.apply("reroll P1")
    refused(g, "reroll P1", "P1 has used this round's extra Command roll")
    assert len(rolls(g, "command")) == 4  # P1's and P2's rolls, then P1's two re-rolls


SEED_EXTRA_DIE_ON_3 = 0  # P1's d6 activates 6 in Command; an additional Command die rolls 3


@pytest.mark.parametrize("three", ["card", "damaged"])
def test_an_additional_command_die_can_activate_a_second_card(three):
    # Rules: "Take care of any cards or effects that occur during the Command phase (like
    # re-rolling your Commander or rolling additional Command dice) now." and "Resolve
    # the effects of any active cards in your matrix": an additional die landing on
    # another card activates it too, one more attack this round; on a damaged sector it
    # activates nothing
    g = started(SEED_EXTRA_DIE_ON_3)
    if three == "damaged":
        g.apply("damage P1 pos=3")
    g.apply("next")
    assert player(g, "P1")["active"] == 6
    g.apply("extra_die P1")
    extra = rolls(g, "additional command")[-1]
    assert (extra["player"], extra["die"], extra["rolls"]) == ("P1", "d6", [3])
    refused(g, "extra_die P1",
            "P1 has used this round's extra Command roll: only a card's effect gives another")
    if three == "card":
        assert g.state["message"] == "P1 rolled 3: a second active card, one more attack"
    else:
        assert g.state["message"] == "P1 rolled 3: no second active card"
    assert player(g, "P1")["active"] == 6  # the first active card stays
    g.apply("power P1 20")
    to_phase(g, "resolve")
    g.apply("attack P1 level=1")
    if three == "card":
        g.apply("attack P1 level=1")  # the second active card's attack
    refused(g, "attack P1 level=1", "P1 has made this round's attack")


def test_an_additional_command_die_may_find_the_active_card_the_commander_missed():
    # Rules: "If you do not have an active card by the end of your command phase ... put
    # an alert token on your deck. Remove all alert tokens when you activate an undamaged
    # sector."
    g = started(SEED_REROLL_LANDS_ON_1, ("d4", "d6"))
    for pos in (2, 3, 4):
        g.apply("damage P1 pos=%d" % pos)
    g.apply("set P1.alerts 2")
    g.apply("next")
    assert player(g, "P1")["active"] == 0
    g.apply("extra_die P1")  # lands on 1, the one card left
    assert player(g, "P1")["active"] == 1 and g.state["message"] == "P1 rolled 1: card"
    g.apply("next")
    assert player(g, "P1")["alerts"] == 0


def rerolled_onto_the_card(seed):
    """P1's d4 with one card left (1), the rest damaged: Command misses it, and the
    re-roll (a card's effect) lands on it (as ``seed`` must have it)."""
    g = started(seed, ("d4", "d6"))
    for pos in (2, 3, 4):
        g.apply("damage P1 pos=%d" % pos)
    g.apply("next")
    assert not player(g, "P1")["active"], "seed %d: Command finds the card" % seed
    g.apply("reroll P1")
    return g


@pytest.mark.parametrize("state, alerts, hand", [
    ("damaged", 2, 4), ("token", 3, 5), ("neutralized", 3, 5)])
def test_alternate_shutdown_takes_hand_size_only_for_a_damaged_sector(state, alerts, hand):
    # Rules: "Alternate Sutdown: If you roll a damaged sector, your hand size decreases by
    # one." A card token or a neutralized card still gives the alert: "If you do not have
    # an active card by the end of your command phase (this can happen if your Commander
    # tries to activate a damaged sector, a neutralized card, or a card token), put an
    # alert token on your deck."
    g = command_with_every_position(state, alternate_shutdown=True)
    if state == "neutralized":
        g.apply("unneutralize P1 free")  # "does not count as activating a card"
    g.apply("next")
    assert (player(g, "P1")["alerts"], player(g, "P1")["hand"]) == (alerts, hand)


def test_double_command_choosing_a_neutralized_roll_asks_to_unneutralize():
    g = command_with_every_position("neutralized", double_command=True)
    assert player(g, "P1")["todo"] == "choose"
    g.apply("choose P1 roll=2")
    assert player(g, "P1")["todo"] == "unneutralize" and player(g, "P1")["active"] == 0
    refused(g, "next", "P1 must unneutralize first")
    g.apply("unneutralize P1 free")
    g.apply("choose P2 roll=1")
    g.apply("next")
    assert player(g, "P1")["alerts"] == 3


# -- attacks --------------------------------------------------------------------------------


def at_resolve(seed=1, dice=("d6", "d8"), power=20, **options):
    g = started(seed, dice, **options)
    if power:
        for i in range(len(dice)):
            g.apply("power P%d %d" % (i + 1, power))
    return to_phase(g, "resolve")


def targeted(g, owner):
    return {int(k.split(".")[1]): v["targeted"] for k, v in g.state["pieces"].items()
            if k.startswith(owner + ".") and v["targeted"]}


def test_no_attack_without_an_active_card():
    # Rules: "Resolve the effects of any active cards in your matrix." With no active
    # card (a damaged sector, a neutralized card or a card token was rolled) there is no
    # attack to launch.
    g = command_with_every_position("damaged")
    assert player(g, "P1")["active"] == 0
    to_phase(g, "resolve")
    refused(g, "attack P1 level=1", "P1 has no active card to attack with")


def test_one_active_card_launches_one_attack_a_round():
    # Rules: "Resolve the effects of any active cards in your matrix." and "If you're
    # launching an attack, select an attack level, spend the required Power, then have
    # your opponent roll his or her Commander the number of times indicated": one active
    # card, one attack (of any level) a round; more only by a card's effect, said in the
    # log ("A card that's just been activated ... still gets to generate its effect")
    g = at_resolve()
    g.apply("attack P1 level=2 mode=split")  # two first-level attacks, one attack
    refused(g, "attack P1 level=1",
            "P1 has made this round's attack: only a card's effect gives another")
    g.apply("bonus P1 attack")  # a card's effect: one more attack
    assert g.state["message"] == "P1: a card's effect, one more attack"
    g.apply("attack P1 level=1")
    refused(g, "attack P1 level=1", "P1 has made this round's attack")
    g.apply("attack P2 level=1")  # P2's own attack is its own
    refused(g, "attack P2 level=1", "P2 has made this round's attack")
    for p in ("P1", "P2"):  # the targets defended, on to the next round's Resolve
        for pos, n in targeted(g, {"P1": "P2", "P2": "P1"}[p]).items():
            for _ in range(n):
                g.apply("defend %s pos=%d level=0" % ({"P1": "P2", "P2": "P1"}[p], pos))
    g.apply("next")
    g = to_phase(g, "resolve")
    if player(g, "P1")["active"]:
        g.apply("attack P1 level=1")  # a new round, a new attack
        refused(g, "attack P1 level=1", "P1 has made this round's attack")


def test_ten_level_1_attacks_from_one_card_are_refused():
    # the audit's exploit: ten first-level attacks in one Resolve phase from one card
    g = at_resolve()
    g.apply("attack P1 level=1")
    for _ in range(9):
        refused(g, "attack P1 level=1", "P1 has made this round's attack")
    assert sum(targeted(g, "P2").values()) == 1


def test_a_level_1_attack_is_free_and_rolls_the_defenders_commander_once():
    # Rules: "First level attack (0 Power): ... Your opponent rolls his or her Commander
    # one time to determine what card in his or her matrix is targeted."
    g = at_resolve(power=0)
    power = player(g, "P1")["power"]
    g.apply("attack P1 level=1")
    roll = rolls(g, "attack")[-1]
    assert (roll["player"], roll["die"], len(roll["rolls"])) == ("P2", "d8", 1)
    assert roll["reason"] == "attack by P1 (level 1)"
    assert targeted(g, "P2") == {roll["rolls"][0]: 1}
    assert player(g, "P1")["power"] == power


def test_a_level_2_attack_costs_3_and_the_attacker_picks_among_two_rolls():
    # Rules: "Second level attack (3 Power): ... your opponent rolls his or her Commander
    # two times ... and you pick which one actually gets targeted"
    g = attacked(SEED_AIMS_AT_TWO, "attack P1 level=2")
    aim = rolls(g, "attack")[-1]["rolls"]
    assert len(set(aim)) == 2  # two positions to pick from
    assert player(g, "P1")["power"] == 18 and player(g, "P1")["aim"] == aim
    other = [p for p in range(1, 9) if p not in aim][0]
    refused(g, "target P1 pos=%d" % other, "pick one of")
    refused(g, "attack P1 level=1", "P1 must pick a target first")
    refused(g, "next", "P1 must pick a target first")
    g.apply("target P1 pos=%d" % aim[1])
    assert targeted(g, "P2") == {aim[1]: 1} and player(g, "P1")["todo"] == ""


def attacked(seed, action, **kw):
    g = at_resolve(seed, **kw)
    g.apply(action)
    return g


def test_a_split_level_2_attack_is_two_level_1_attacks():
    # Rules: "If you're making two attacks, your opponent takes two first-level attacks."
    g = attacked(SEED_AIMS_AT_TWO, "attack P1 level=2 mode=split")
    attacks = rolls(g, "attack")
    assert [len(r["rolls"]) for r in attacks] == [1, 1]
    assert targeted(g, "P2") == {attacks[0]["rolls"][0]: 1, attacks[1]["rolls"][0]: 1}
    assert player(g, "P1")["power"] == 18 and player(g, "P1")["todo"] == ""


def test_a_level_3_attack_costs_8_and_picks_among_three_rolls():
    # Rules: "Third level attack (8 Power): You can make one very accurate attack ...
    # your opponent rolls his or her Commander three times"
    g = attacked(2, "attack P1 level=3")
    aim = rolls(g, "attack")[-1]["rolls"]
    assert len(aim) == 3 and player(g, "P1")["power"] == 13
    assert targeted(g, "P2") == {}
    g.apply("target P1 pos=%d" % aim[2])
    assert targeted(g, "P2") == {aim[2]: 1}


def test_a_triple_level_3_attack_is_a_level_1_and_a_split_level_2():
    # Rules: "one first-level attack and one second-level attack", the second-level one
    # either way: "If you're making two attacks, your opponent takes two first-level
    # attacks."
    g = attacked(2, "attack P1 level=3 mode=triple")
    attacks = rolls(g, "attack")
    assert [len(r["rolls"]) for r in attacks] == [1, 1, 1]
    assert sum(targeted(g, "P2").values()) == 3
    assert player(g, "P1")["power"] == 13 and player(g, "P1")["todo"] == ""
    refused(at_resolve(2), "attack P1 level=2 mode=triple", "a triple attack is for level 3")


def test_a_split_level_3_attack_is_a_level_1_and_an_accurate_level_2():
    # Rules: "or one first-level attack and one second-level attack."
    g = attacked(2, "attack P1 level=3 mode=split")
    first, aim = rolls(g, "attack")
    assert len(first["rolls"]) == 1 and len(aim["rolls"]) == 2
    assert targeted(g, "P2") == {first["rolls"][0]: 1}
    g.apply("target P1 pos=%d" % aim["rolls"][0])
    assert sum(targeted(g, "P2").values()) == 2


def test_attacks_are_refused_when_power_is_short_saying_how_much_is_missing():
    # Rules: "select an attack level, spend the required Power"
    g = at_resolve(power=0)  # 1 Power from Energize
    refused(g, "attack P1 level=2", "attack level 2 costs 3 Power: P1 has 1, 2 missing")
    refused(g, "attack P1 level=3", "attack level 3 costs 8 Power: P1 has 1, 7 missing")
    refused(g, "attack P1 level=4", "attack level=4: it is one of 1 2 3")
    refused(g, "attack P1 level=1 mode=sideways",
            "attack mode=sideways: it is one of accurate split triple")
    refused(g, "attack P1 level=1 on=P1", "attack another player")


def test_discards_reduce_any_power_cost():
    # Rules: "you may discard cards from your hand. Every card you discard reduces that
    # Power requirement by one point."
    g = at_resolve(power=4)  # 5 Power
    refused(g, "attack P1 level=3 discard=2", "attack level 3 costs 6 Power: P1 has 5, 1 missing")
    g.apply("attack P1 level=3 discard=3")
    assert player(g, "P1")["power"] == 0
    g = at_resolve(power=0)
    g.apply("attack P1 level=2 discard=5")  # more than needed: costs nothing
    assert player(g, "P1")["power"] == 1
    refused(g, "power P1 -2", "P1 has 1 Power, 1 missing")


def test_discards_come_from_the_hand_so_no_more_than_the_hand_size():
    # Rules: "you may discard cards from your hand. Every card you discard reduces that
    # Power requirement by one point. After you've discarded as many cards as you can"
    g = at_resolve(power=0)
    g.apply("set P1.hand 1")
    refused(g, "attack P1 level=3 discard=8", "P1 may discard at most 1 \\(the hand size\\)")
    refused(g, "attack P1 level=2 discard=2", "P1 may discard at most 1")
    g.apply("set P1.hand 3")
    power = player(g, "P1")["power"]
    g.apply("attack P1 level=2 discard=3")  # level 2: 3 Power, all of it discarded
    assert player(g, "P1")["power"] == power


def test_a_misspelt_argument_is_refused_not_ignored_and_charged_in_full():
    # Rules: "Every card you discard reduces that Power requirement by one point." A
    # typo in ``discard`` must not silently cost the player the full Power.
    g = at_resolve(power=4)  # 5 Power
    refused(g, "attack P1 level=2 dicard=3",
            "attack has no argument dicard; it takes p level mode discard on neutralizing")
    refused(g, "attack P1 level=2 dicard=3 neutralizing", "no argument dicard")
    g.apply("attack P1 level=2 discard=3")
    full_cost = at_resolve(power=4)
    full_cost.apply("attack P1 level=2")
    assert player(g, "P1")["power"] == player(full_cost, "P1")["power"] + 3


def test_attacks_belong_to_the_resolve_phase():
    g = started(1)
    refused(g, "attack P1 level=1", "attack is for the resolve phase, not energize")
    refused(g, "defend P2 pos=1 level=1", "defend is for the resolve phase, not energize")


def test_a_neutralizing_attack_marks_its_target_so():
    # Rules: "If an attack neutralizes a card, do not replace the card with a damage token
    # if defense fails. Instead ... put a neutralization token on it."
    g = attacked(1, "attack P1 level=1 neutralizing")
    pos = rolls(g, "attack")[-1]["rolls"][0]
    assert piece_state(g, "P2.%d" % pos)["neutralizing"] == 1
    assert g.history.events[-1].startswith("attack level=1 neutralizing=1 p=P1|")


# -- defenses -------------------------------------------------------------------------------

COSTS = {0: 0, 1: 0, 2: 3, 3: 8}


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_each_defense_level_rolls_its_dice_costs_its_power_and_survives_on_a_match(level):
    # Rules: "First level defense (0 Power): Roll three times / Second level defense (3
    # Power): Roll 5 times / Third level defense (8 Power): Roll 7 times ... If any roll
    # shows your targeted card's position, the card survives. Otherwise, discard the card
    # and replace it with a damage token." Zero-level defense: "Roll your Commander once."
    outcomes = set()
    for seed in (SEED_DEFENSE_7_FIRST, SEED_DEFENSE_7_SIXTH, SEED_DEFENSE_NO_7):
        g = at_resolve(seed, ("d6", "d20"))
        g.apply("mark P2 pos=7")  # an attack's target, by hand
        g.apply("defend P2 pos=7 level=%d" % level)
        roll = rolls(g, "defense")[-1]
        assert (roll["player"], roll["die"], len(roll["rolls"])) == ("P2", "d20", 2 * level + 1)
        assert player(g, "P2")["power"] == 21 - COSTS[level]
        survived = 7 in roll["rolls"]
        assert piece_state(g, "P2.7")["state"] == ("card" if survived else "damaged")
        assert piece_state(g, "P2.7")["targeted"] == 0
        outcomes.add(survived)
    assert outcomes == {True, False}


def test_a_failed_defense_against_a_neutralizing_attack_adds_a_token():
    g = at_resolve(SEED_DEFENSE_7_SIXTH, ("d6", "d20"))
    g.apply("mark P2 pos=7 neutralizing")
    g.apply("defend P2 pos=7 level=0")
    assert 7 not in rolls(g, "defense")[-1]["rolls"]  # one die, not a 7: the defense fails
    seven = piece_state(g, "P2.7")
    assert seven["state"] == "neutralized" and seven["tokens"] == 1


def test_defense_costs_can_be_refused_or_reduced_by_discards():
    g = at_resolve(power=0)  # 1 Power
    g.apply("mark P2 pos=1")
    refused(g, "defend P2 pos=1 level=3", "defense level 3 costs 8 Power: P2 has 1, 7 missing")
    refused(g, "defend P2 pos=1 level=2 discard=1", "costs 2 Power: P2 has 1, 1 missing")
    refused(g, "defend P2 pos=2 level=1", "P2's card 2 is not targeted")
    refused(g, "defend P2 pos=1 level=4", "defend level=4: it is one of 0 1 2 3")
    refused(g, "next", "P2's card 1 is targeted: defend it")
    g.apply("defend P2 pos=1 level=2 discard=2")
    assert player(g, "P2")["power"] == 0
    g.apply("next")  # nothing left to defend


def test_a_damaged_position_cannot_be_damaged_twice_and_repairs_into_a_card_token():
    g = at_resolve()
    g.apply("damage P2 pos=3")
    refused(g, "damage P2 pos=3", "P2's card 3 is already damaged")
    g.apply("next")  # on to the next round's Resolve: the damage is old
    g = to_phase(g, "resolve")
    g.apply("repair P2 pos=3")  # Rules: "remove the damage token and replace it with a card token"
    assert piece_state(g, "P2.3")["state"] == "token"
    refused(g, "repair P2 pos=3", "P2's card 3 is not damaged")
    g.apply("card P2 pos=3")
    assert piece_state(g, "P2.3")["state"] == "card"


def test_a_card_attacked_both_ways_is_damaged_when_its_defense_fails():
    # Rules: "If an attack neutralizes a card, do not replace the card with a damage
    # token if defense fails." The normal attack on the same card still does: "Otherwise,
    # discard the card and replace it with a damage token."
    g = at_resolve(SEED_DEFENSE_NO_7, ("d6", "d20"))
    g.apply("mark P2 pos=7 neutralizing")
    g.apply("mark P2 pos=7")
    assert piece_state(g, "P2.7")["neutralizing"] == 1 and targeted(g, "P2") == {7: 2}
    g.apply("defend P2 pos=7 level=0")  # against the normal attack first: it fails
    seven = piece_state(g, "P2.7")
    assert (seven["state"], seven["targeted"], seven["tokens"]) == ("damaged", 0, 0)
    assert g.state["message"] == "P2's card 7 damaged"
    refused(g, "defend P2 pos=7 level=0", "P2's card 7 is not targeted")
    g.apply("next")  # nothing left to defend


def test_a_card_attacked_both_ways_surviving_the_normal_attack_is_neutralized_once():
    g = at_resolve(SEED_DEFENSE_7_FIRST, ("d6", "d20"))  # the d20: 7, then 16
    g.apply("mark P2 pos=7 neutralizing")
    g.apply("mark P2 pos=7")
    g.apply("defend P2 pos=7 level=0")
    assert g.state["message"] == "P2's card 7 survives" and targeted(g, "P2") == {7: 1}
    g.apply("defend P2 pos=7 level=0")  # the neutralizing one fails
    seven = piece_state(g, "P2.7")
    assert (seven["state"], seven["tokens"], seven["neutralizing"]) == ("neutralized", 1, 0)
    g.apply("next")


# Rules: "A card that repairs damage can repair damage that exists at the start of the
# resolve phase, but can not repair damage that your opponent's attack will deal during
# the resolve phase."
def test_damage_dealt_in_this_resolve_phase_cannot_be_repaired():
    g = at_resolve(SEED_DEFENSE_NO_7, ("d6", "d20"))
    g.apply("mark P2 pos=7")
    g.apply("defend P2 pos=7 level=0")
    assert piece_state(g, "P2.7")["state"] == "damaged"
    refused(g, "repair P2 pos=7", "P2's card 7 was damaged this Resolve phase")
    g.apply("damage P2 pos=2")  # a card's damage, by hand, in this Resolve phase too
    refused(g, "repair P2 pos=2", "P2's card 2 was damaged this Resolve phase")
    g.apply("next")
    g = to_phase(g, "resolve")  # the next round's: the damage existed at its start
    g.apply("repair P2 pos=7")
    assert piece_state(g, "P2.7")["state"] == "token"


def test_repairs_belong_to_the_resolve_phase():
    # Rules: "A card that repairs damage can repair damage that exists at the start of
    # the resolve phase" (under "Resolve: Resolve the effects of any active cards in your
    # matrix"): a repair is a card's effect resolved in the Resolve phase, not before
    g = started(1)
    g.apply("damage P2 pos=3")
    for phase in ("energize", "command", "activate"):
        to_phase(g, phase)
        refused(g, "repair P2 pos=3", "repair is for the resolve phase, not " + phase)
    to_phase(g, "resolve")
    g.apply("repair P2 pos=3")
    to_phase(g, "drain")
    g.apply("damage P2 pos=4")
    for phase in ("drain", "recover"):
        to_phase(g, phase)
        refused(g, "repair P2 pos=4", "repair is for the resolve phase, not " + phase)
    assert piece_state(g, "P2.3")["state"] == "token"
    assert piece_state(g, "P2.4")["state"] == "damaged"


def damaged_before_resolve(seed):
    """Resolve, P2's d20 position 7 damaged in an earlier phase."""
    g = started(seed, ("d6", "d20"))
    g.apply("damage P2 pos=7")
    for p in ("P1", "P2"):
        g.apply("power %s 20" % p)
    return to_phase(g, "resolve")


# Rules: "If you repair a space, remove the damage token and replace it with a card
# token. If that space was targeted with an attack, resolve the attack next. If the
# attack does not destroy the space, replace the card token with a card from your hand"
@pytest.mark.parametrize("repair_first", [False, True])
def test_an_attack_on_a_space_being_repaired_is_resolved_next(repair_first):
    g = damaged_before_resolve(SEED_DEFENSE_7_FIRST)
    if repair_first:
        g.apply("repair P2 pos=7")
    g.apply("mark P2 pos=7")
    if not repair_first:  # the attack waits: all happens at once
        assert g.state["message"] == "P2's card 7 waits for a repair"
        refused(g, "defend P2 pos=7 level=0", "P2's card 7 is damaged: nothing to defend")
        g.apply("repair P2 pos=7")
        assert g.state["message"] == "P2's card 7 repaired: a card token"
    refused(g, "next", "P2's card 7 is targeted: defend it")
    g.apply("defend P2 pos=7 level=0")  # a 7: the attack does not destroy it
    assert piece_state(g, "P2.7")["state"] == "card"
    assert g.state["message"] == "P2's card 7 is a card again"


def test_a_repaired_space_whose_defense_fails_is_damaged_again():
    g = damaged_before_resolve(SEED_DEFENSE_NO_7)
    g.apply("mark P2 pos=7")
    g.apply("repair P2 pos=7")
    g.apply("defend P2 pos=7 level=0")
    assert piece_state(g, "P2.7")["state"] == "damaged"
    refused(g, "repair P2 pos=7", "was damaged this Resolve phase")


def test_an_attack_on_a_damaged_space_nobody_repairs_is_dropped_at_the_end_of_resolve():
    g = damaged_before_resolve(SEED_DEFENSE_7_FIRST)
    g.apply("mark P2 pos=7")
    g.apply("next")  # nothing to defend: a damaged space is not defended
    seven = piece_state(g, "P2.7")
    assert (seven["state"], seven["targeted"]) == ("damaged", 0)


# -- the end ------------------------------------------------------------------------------


def test_three_alerts_at_the_end_of_a_round_lose():
    # Rules: "If you have three or more alert tokens on your deck at the end of a round ...
    # You lose and your opponent wins."
    g = to_phase(started(1), "recover")
    g.apply("set P2.alerts 3")
    assert g.state["result"] is None
    g.apply("next")
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")


def test_a_matrix_all_damaged_loses_and_both_losing_at_once_is_a_tie():
    # Rules: "If you have three or more alert tokens on your deck or all spaces in your
    # matrix are filled with damage tokens, the game ends ... If you both lose, the game is
    # a tie."
    g = started(1, ("d4", "d4"))
    for pos in range(1, 5):
        g.apply("damage P1 pos=%d" % pos)
    to_phase(g, "recover")
    g.apply("set P2.alerts 3")
    g.apply("next")
    assert (g.state["result"], g.state["winner"]) == ("tie", None)
    assert screen_lines(g)[6].startswith("A tie")
    g = started(1, ("d4", "d4"))
    for pos in range(1, 5):
        g.apply("damage P1 pos=%d" % pos)
    to_phase(g, "recover")
    g.apply("next")
    assert (g.state["result"], g.state["winner"]) == ("win", "P2")


# -- variants -----------------------------------------------------------------------------


def test_async_play_goes_fewest_faces_first():
    # Rules: "Asynchronous Play: The player with the Commander with the fewest faces goes
    # first. If tied, choose randomly. Just take turns"
    g = started(1, ("d12", "d4"), **{"async": True})
    assert g.state["order"] == ["P2", "P1"]
    g.apply("next")  # Command, in turns: P2 rolls first
    assert g.active_player() == "P2" and [r["player"] for r in rolls(g, "command")] == ["P2"]
    g.apply("next")
    assert g.active_player() == "P1" and [r["player"] for r in rolls(g, "command")] == [
        "P2", "P1"]
    to_phase(g, "resolve")
    refused(g, "attack P1 level=1", "it is P2's turn")
    g.apply("attack P2 level=1")


def test_async_ties_are_broken_at_random_once_for_the_game():
    orders = set()
    for seed in range(20):
        g = started(seed, ("d6", "d6"), **{"async": True})
        first = list(g.state["order"])
        assert [e for e in g.log if e["event"] == "tiebreak"]
        for _ in range(14):
            g.apply("next")
        assert g.state["order"] == first
        orders.add(tuple(first))
    assert orders == {("P1", "P2"), ("P2", "P1")}


def test_double_command_rolls_twice_and_the_player_chooses():
    # Rules: "Double Command: Each player rolls two Commanders during the Command phase and
    # picks one to use."
    g = started(3, ("d6", "d8"), double_command=True)
    g.apply("next")
    command = rolls(g, "command")
    assert [(r["player"], r["reason"]) for r in command] == [
        ("P1", "command 1"), ("P1", "command 2"), ("P2", "command 1"), ("P2", "command 2")]
    refused(g, "next", "P1 must choose a roll first")
    refused(g, "choose P1 roll=3", "choose roll=3: it is one of 1 2")
    g.apply("choose P1 roll=2")
    g.apply("choose P2 roll=1")
    assert player(g, "P1")["active"] == command[1]["rolls"][0]
    assert player(g, "P2")["active"] == command[2]["rolls"][0]
    refused(g, "choose P1 roll=1", "P1 has no rolls to choose from")
    g.apply("next")


def test_battle_royale_takes_3_to_6_players_names_targets_and_limits_decks():
    # Rules: "Battle Royale: ... more than two players. You may not have more cards in your
    # deck at the start of the game than 20 cards, plus 10 cards per player"
    g = at_resolve(1, ("d6", "d8", "d4"), battle_royale=True)
    assert "Deck limit 50" in [e["text"] for e in g.log if e["event"] == "note"]
    refused(g, "attack P1 level=1", "name the player attacked: P2")
    g.apply("attack P1 level=1 on=P3")
    assert rolls(g, "attack")[-1]["player"] == "P3" and targeted(g, "P3")
    six = started(1, ("d4",) * 6, battle_royale=True)
    assert "Deck limit 80" in [e["text"] for e in six.log if e["event"] == "note"]
    with pytest.raises(Illegal, match="takes 2 to 6 players"):
        new(1, players=7)


def test_async_turns_pass_only_once_the_players_business_is_done():
    # Rules: "Asynchronous Play: The player with the Commander with the fewest faces goes
    # first ... Just take turns; everything else is unchanged." A turn ends with its
    # Commander settled, its attack aimed and every target defended.
    g = started(2, ("d4", "d8"), **{"async": True})
    for pos in range(1, 5):
        g.apply("neutralize P1 pos=%d" % pos)
    g.apply("power P1 5")
    g.apply("next")  # Command: P1's turn (4 faces) first
    assert g.active_player() == "P1" and player(g, "P1")["todo"] == "unneutralize"
    refused(g, "next", "P1 must unneutralize first")
    assert [r["player"] for r in rolls(g, "command")] == ["P1"]  # P2 has not rolled yet
    g.apply("unneutralize P1 pay=1")  # the last token paid off: the card activates
    assert player(g, "P1")["active"] > 0
    g.apply("next")
    assert g.active_player() == "P2" and [r["player"] for r in rolls(g, "command")] == [
        "P1", "P2"]
    to_phase(g, "resolve")
    assert g.active_player() == "P1"
    g.apply("attack P1 level=2")
    refused(g, "next", "P1 must pick a target first")
    g.apply("target P1 pos=%d" % player(g, "P1")["aim"][0])
    pos = list(targeted(g, "P2"))[0]
    refused(g, "next", "P2's card %d is targeted: defend it" % pos)
    g.apply("defend P2 pos=%d level=1" % pos)  # the defender rolls in the attacker's turn
    g.apply("next")
    assert g.active_player() == "P2"
    refused(g, "attack P1 level=1", "it is P2's turn")
    g.apply("attack P2 level=1")


def test_async_with_three_players_goes_fewest_faces_first_and_breaks_a_tie_once():
    orders = set()
    for seed in range(12):
        g = started(seed, ("d8", "d4", "d8"), battle_royale=True, **{"async": True})
        assert g.state["order"][0] == "P2"  # fewest faces
        orders.add(tuple(g.state["order"]))
        for _ in range(13):  # two rounds: the tie stays broken the same way
            g.apply("next")
        assert tuple(g.state["order"]) in orders and len(
            [e for e in g.log if e["event"] == "tiebreak"]) == 1
    assert orders == {("P2", "P1", "P3"), ("P2", "P3", "P1")}


def test_battle_royale_goes_on_without_a_player_who_lost():
    # Rules: "Battle Royale: You can try playing with more than two players." A player who
    # loses is out; the last one left wins.
    g = started(1, ("d6", "d8", "d4"), battle_royale=True)
    for pos in range(1, 5):
        g.apply("damage P3 pos=%d" % pos)
    to_phase(g, "recover")
    g.apply("next")
    assert g.state["lost"] == ["P3"] and g.state["result"] is None
    assert screen_lines(g)[4].startswith("P3x ")
    to_phase(g, "resolve")
    refused(g, "attack P1 level=1 on=P3", "attack another player still in")
    g.apply("attack P1 level=1")  # one opponent left: no need to name them
    assert rolls(g, "attack")[-1]["player"] == "P2"
    g.apply("defend P2 pos=%d level=0" % rolls(g, "attack")[-1]["rolls"][0])
    to_phase(g, "recover")
    g.apply("set P2.alerts 3")
    g.apply("next")
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")


def test_three_players_are_a_battle_royale_even_without_the_option():
    # Rules: "Battle Royale: You can try playing with more than two players. You may not
    # have more cards in your deck ... than 20 cards, plus 10 cards per player"
    g = at_resolve(1, ("d6", "d8", "d4"))
    assert "Deck limit 50" in [e["text"] for e in g.log if e["event"] == "note"]
    refused(g, "attack P2 level=1", "name the player attacked: P1 or P3")
    assert "Deck limit 40" in [e["text"] for e in started(1).log if e["event"] == "note"]


# -- undo and replay ----------------------------------------------------------------------

EVERY_ACTION = [
    "next", "power P1 5", "damage P1 pos=4", "repair P1 pos=6", "token P1 pos=3",
    "card P1 pos=2", "neutralize P2 pos=1", "attack P1 level=1", "attack P1 level=2",
    "attack P1 level=2 mode=split", "attack P1 level=3 mode=split",
    "attack P1 level=3 mode=triple", "mark P2 pos=2",
    "mark P2 pos=2 neutralizing", "defend P2 pos=5 level=3", "defend P2 pos=5 level=0",
    "roll d20 2", "add P1.power 1", "set P1.1.state token", "bonus P1 attack",
]


def undone_exactly(g, action):
    """Undo gives the state back, keeps what was done in the log (marked undone) and
    the dice drawn: redo gives the same event, the action done again new dice."""
    state, logged, dice = canonical(g.state), g.logged(), g.rng.snapshot()
    event = g.apply(action)
    g.apply("undo agreed")
    assert canonical(g.state) == state
    rolled = "|" in event
    if rolled:  # what it rolled stays in the log, marked undone
        assert g.log[-1] == {"event": "undo", "action": event.split("|")[0]}
        assert any(entry.get("undone") for entry in g.log_since(logged))
    else:
        assert g.logged() == logged
    assert (g.rng.snapshot() == dice) == (not rolled)  # dice never rewind
    g.apply("redo")  # the same dice again
    assert g.history.events[-1] == event
    g.apply("undo agreed")
    again = g.apply(action)
    assert again.split("|")[0] == event.split("|")[0]
    g.apply("undo agreed")


@pytest.mark.parametrize("action", EVERY_ACTION)
def test_every_action_is_undone_exactly(action):
    g = started(7)
    g.apply("damage P1 pos=6")  # before Resolve: a repair may take it
    for p in ("P1", "P2"):
        g.apply("power %s 20" % p)
    g = to_phase(g, "resolve")
    if action.startswith("defend"):
        g.apply("mark P2 pos=5")
    undone_exactly(g, action)


def test_command_phase_actions_are_undone_exactly():
    g = command_with_every_position("neutralized")
    g.apply("power P1 5")
    for action in ("unneutralize P1 free", "unneutralize P1 pay=1", "unneutralize P1 pay=2"):
        undone_exactly(g, action)
    g = started(3, double_command=True)
    g.apply("next")
    for action in ("choose P1 roll=1", "choose P2 roll=2"):
        undone_exactly(g, action)
    g = at_resolve(5)
    g.apply("attack P1 level=3")
    undone_exactly(g, "target P1 pos=%d" % player(g, "P1")["aim"][0])
    g = new(5)
    undone_exactly(g, "commander P1 d8")
    g = command_with_every_position("damaged")
    undone_exactly(g, "reroll P1")
    undone_exactly(g, "extra_die P1")
    undone_exactly(g, "bonus P1 roll")
    g = at_resolve(5, ("d6", "d8", "d4"), battle_royale=True)
    undone_exactly(g, "attack P1 level=1 on=P3")


# -- a whole game ---------------------------------------------------------------------------


def plan_game(seed):
    """A full two-player game's actions, chosen as players would: attack every Resolve
    with an active card (level 2 when affordable), pick the first rolled target, defend
    every target at level 1, pay nothing for neutralized cards."""
    g = started(seed, ("d4", "d6"))
    actions = ["commander P1 d4", "commander P2 d6"]

    def do(action):
        g.apply(action)
        actions.append(action)

    while g.state["result"] is None and g.state["round"] < 40:
        phase = g.phase()["name"]
        if phase == "command":
            for p in ("P1", "P2"):
                if player(g, p)["todo"] == "unneutralize":
                    do("unneutralize %s free" % p)
        if phase == "resolve":
            for p in ("P1", "P2"):
                if not player(g, p)["active"]:
                    continue
                level = 2 if player(g, p)["power"] >= 3 else 1
                do("attack %s level=%d" % (p, level))
                if player(g, p)["todo"] == "target":
                    do("target %s pos=%d" % (p, player(g, p)["aim"][0]))
            for key in sorted(g.state["pieces"]):
                while piece_state(g, key)["targeted"] and \
                        piece_state(g, key)["state"] != "damaged":  # (waits for a repair)
                    owner, pos = key.split(".")
                    do("defend %s pos=%s level=1" % (owner, pos))
        do("next")
    return actions, g


def test_a_whole_two_player_game_runs_to_its_end_the_same_in_both_runtimes():
    actions, g = plan_game(8)  # a short game: 6 rounds
    assert g.state["result"] in ("win", "tie")
    cp = play(str(FULL), None, 8, {}, actions, "cpython").state
    mp = play(str(FULL), None, 8, {}, actions, "micropython").state
    assert canonical(cp) == canonical(mp)
    assert cp["result"] == g.state["result"] and cp["seed"] == 8
    # Rules: both lose conditions are checked "at the end of a round"
    assert cp["phase"] == "recover"
    # every roll is in the log with its player, die, rolls and reason
    for entry in cp["log"]:
        if entry["event"] == "roll":
            assert set(entry) == {"event", "player", "die", "rolls", "reason"}
            assert entry["player"] in ("P1", "P2") and entry["reason"]
    reasons = {e["reason"].split(" (")[0] for e in cp["log"] if e["event"] == "roll"}
    assert {"command", "attack by P1", "attack by P2"} <= reasons
    assert any(r.startswith("defense of") for r in reasons)
    assert " wins: " in " ".join(cp["screen"]) or "A tie" in " ".join(cp["screen"])


# -- on the device ------------------------------------------------------------------------


def test_on_the_device_an_attack_and_its_defense_come_from_the_game_menu(rig):
    start_game(rig, "juggernauts")
    pick(rig, 1)  # P1: d6
    pick(rig, 2)  # P2: d8
    rig.keys("a")  # past the reveal: Energize
    rig.keys("a", "a", "a")
    assert rig.lines[1] == "Resolve"
    open_menu_item(rig, "Attack")
    # in player words: no argument keys (mode=, on=), no empty flag
    assert rig.lines[1:6] == ["player <P1>", "level <1>", "aim <accurate>",
                              "cards discarded <0>", "attacking <P2>"]
    rig.keys(*["down"] * 5)
    assert "neutralizing <no>" in rig.lines
    rig.keys("a")  # level 1, accurate, no discard, the other player
    game = game_of(rig)
    assert game.history.events[-1].startswith("attack discard=0 level=1 mode=accurate on=P2 p=P1|")
    pos = rolls(game, "attack")[-1]["rolls"][0]
    assert targeted(game, "P2") == {pos: 1}
    rig.keys("b", "b")
    rig.keys("a")  # next is refused: the target has not defended
    assert game.phase()["name"] == "resolve"
    open_menu_item(rig, "Defend")
    # Rules: "When one of your undamaged spaces is targeted by an attack, select a defense
    # level": the form opens at the targeted card, at level 1 (0 Power)
    assert rig.lines[1:4] == ["player <P2>", "card <%d>" % pos, "level <1>"]
    rig.keys("right")  # another player: the fields below are worked out again
    assert rig.lines[1] == "player <P1>" and rig.lines[3] == "level <1>"  # still 1, not 0
    rig.keys("left")
    assert rig.lines[1:4] == ["player <P2>", "card <%d>" % pos, "level <1>"]
    rig.keys("a")
    assert game.history.events[-1].startswith("defend discard=0 level=1 p=P2 pos=%d" % pos)
    assert targeted(game, "P2") == {}


def test_on_the_device_alert_tokens_blink_amber_then_red_at_2_never_like_a_colour(rig):
    # Issue 4: "alert tokens shown (amber, then red at 2)"; a roll spins; a win shows the
    # winner's colour. P1's own colour is red: a warning blinks (lit, dark), a colour
    # stays lit, so P1 at 2 alerts never looks like P1 at none.
    from arbiter.screens.colours import AMBER, RED

    start_game(rig, "juggernauts")
    pick(rig, 0)
    pick(rig, 0)
    rig.keys("a")  # past the reveal: Energize, everyone at once
    dark = (0, 0, 0)
    first, last = 0, len(rig.frame.leds) - 1  # an LED of P1's arc, one of P2's

    seen = rig.led_colours()
    assert seen[first] == {lit(rig, RED)} and seen[last] == {lit(rig, (0, 64, 255))}  # steady
    for alerts, colour in ((1, AMBER), (2, RED)):
        act(rig, "set P2.alerts %d" % alerts)
        seen = rig.led_colours()
        assert seen[last] == {lit(rig, colour), dark}  # blinking
        assert seen[first] == {lit(rig, RED)}  # P1 steady in its own red
    act(rig, "set P1.alerts 2")
    assert rig.led_colours()[first] == {lit(rig, RED), dark}  # now P1's arc blinks
    for _ in range(5):  # to Recover
        act(rig, "next")
    act(rig, "set P2.alerts 3")
    act(rig, "set P1.alerts 0")
    act(rig, "next")
    assert game_of(rig).state["winner"] == "P1"
    rig.run(3000)
    seen = rig.led_colours()
    assert all(colours == {lit(rig, RED)} for colours in seen)  # P1's colour, steady


def test_pass_to_a_player_lights_the_ring_in_that_players_colour_alone(rig):
    # The screen says "Pass to P2": the ring must not show P1's colour beside it.
    from arbiter.screens.colours import RED

    blue = (0, 64, 255)
    start_game(rig, "juggernauts")
    assert rig.lines[3] == "Pass to P1"
    assert {frozenset(c) for c in rig.led_colours()} <= {frozenset({lit(rig, RED)}),
                                                          frozenset({(0, 0, 0)})}
    assert {lit(rig, RED)} in rig.led_colours()
    pick(rig, 0)
    assert rig.lines[3] == "Pass to P2"
    assert {frozenset(c) for c in rig.led_colours()} <= {frozenset({lit(rig, blue)}),
                                                          frozenset({(0, 0, 0)})}
    assert {lit(rig, blue)} in rig.led_colours()


def test_on_the_device_a_pick_leaves_no_trace_until_all_have_picked(tmp_path):
    # Rules: "Conceal a die in your hand ... reveal your Commanders simultaneously."
    # Issue 4: "Nothing on screen, LEDs or serial output hints at a pick until all have
    # picked" (the full ruleset on the device; rulesets/juggernauts.json in test_device_games)
    seen = []
    for steps in (0, 5):  # P1 picks d4 on one device, d20 on another
        folder = tmp_path / str(steps)
        folder.mkdir()
        rig = Rig(folder, seed=3)
        start_game(rig, "juggernauts")
        pick(rig, steps)
        rig.run(2000)
        assert rig.lines[3:5] == ["Pass to P2", "others look away"]
        seen.append((rig.frame.ram, rig.frame.leds, list(rig.app.log.lines)))
    assert seen[0] == seen[1]
    pick(rig, 0)  # P2: d4; now both are shown at once
    assert rig.lines[1:3] == ["P1: d20", "P2: d4"]


def matrix_page(rig):
    """The matrix page on the screen as (player, {position: square}). The cursor's square
    is inverted, so it is read again with the cursor moved one square on."""
    squares = {}
    for move in ("", "right", "left"):
        rig.keys(*[move] if move else [])
        player, cursor = rig.lines[0].split()[:2]  # "P1 #2 card"
        cursor = cursor.lstrip("#")
        for line in rig.lines[1:7]:
            words = line.split()
            if not words or not words[0].isdigit():
                continue
            first, cells = int(words[0]), words[1:]
            if first <= int(cursor) < first + 4:
                cells.insert(int(cursor) - first, None)
            for i, cell in enumerate(cells):
                if cell is not None:
                    squares[first + i] = cell
    return player, squares


def test_on_the_device_each_players_matrix_is_a_grid_of_positions(rig):
    # Rules: "count occupied spaces (spaces occupied by cards, damage tokens, or card
    # tokens) in your matrix, starting with the upper right and reading across, down to the
    # lower left"; issue 4: "The matrix of each player, positions 1..N, each card, damaged,
    # neutralized (with a token count) or token, shown as a compact grid."
    resolve_on_the_device(rig, 5, 1)  # P1: d20, P2: d6
    for action in ("damage P1 pos=3", "neutralize P1 pos=4", "neutralize P1 pos=4",
                   "token P1 pos=9", "damage P1 pos=20", "mark P1 pos=10", "mark P1 pos=4"):
        act(rig, action)
    rig.keys("down")  # from the play screen, a key away
    assert rig.lines[0] == "P1 #1 card"
    assert [line.split()[0] for line in rig.lines[1:6]] == ["1", "5", "9", "13", "17"]
    player, squares = matrix_page(rig)
    assert player == "P1" and len(squares) == 20
    assert {pos: sq for pos, sq in squares.items() if sq != "C"} == {
        3: "X", 4: "N2*", 9: "T", 10: "C*", 20: "X"}
    assert rig.lines[6:8] == ["A:P2 B:back", "d20 Pw1 Al0 H5"]
    rig.keys("right", "right", "right")
    assert rig.lines[0] == "P1 #4 neutralized"
    rig.keys("a")  # the next player's matrix
    player, squares = matrix_page(rig)
    assert player == "P2" and squares == {pos: "C" for pos in range(1, 7)}
    assert rig.lines[7] == "d6 Pw1 Al0 H5"
    rig.keys("b")
    assert rig.lines[1] == "Resolve"
    open_menu_item(rig, "Matrix")  # and from the game menu
    assert rig.lines[0] == "P1 #1 card"
    rig.keys("b", "b")
    assert game_of(rig).history.events[-1] == "mark p=P1 pos=4"  # looking changed nothing


def test_on_the_device_a_battle_royale_attack_offers_the_other_players(rig):
    # Issue 4: "battle_royale (3-6 players; attacks name their target player)"
    start_game(rig, "juggernauts", "right", "down", "down", "down", "right")  # 3, royale
    game = game_of(rig)
    assert game.players == 3 and game.options["battle_royale"] is True
    for steps in (1, 2, 0):
        pick(rig, steps)
    rig.keys("a", "a", "a", "a")
    assert rig.lines[0] == "R1 Resolve"  # 3 players: the round and phase in the bar
    open_menu_item(rig, "Attack")
    assert rig.lines[1] == "player <P1>" and rig.lines[5] == "attacking <P2>"
    assert rig.app.screen.fields[4][1] == ["P2", "P3"]
    rig.keys("right")  # P2 attacks: the others are P1 and P3
    assert rig.lines[1] == "player <P2>" and rig.app.screen.fields[4][1] == ["P1", "P3"]
    rig.keys("down", "down", "down", "down", "right", "a")  # on P3
    assert game.history.events[-1].startswith("attack discard=0 level=1 mode=accurate on=P3 p=P2|")
    assert rolls(game, "attack")[-1]["player"] == "P3"


def test_each_phase_s_fast_path_opens_what_the_table_does_there():
    from arbiter.screens.fast import fast_action

    # Rules: "Energize: Add a token to your Power Pool. ... Take care of any cards or
    # effects that occur during the Energize phase (like gaining or draining additional
    # Power tokens) now."
    g = started()
    assert g.phase()["name"] == "energize" and fast_action(g) == "power"
    # "If you're trying to activate a card with a neutralization token on it, you have
    # two options": the one who rolled it answers first
    assert fast_action(command_with_every_position("neutralized")) == "unneutralize"
    # "Double Command: Each player rolls two Commanders during the Command phase and picks
    # one to use"; once picked, "Take care of any cards or effects that occur during the
    # Command phase (like re-rolling your Commander ...)"
    g = started(3, ("d6", "d8"), double_command=True)
    g.apply("next")
    assert fast_action(g) == "choose"
    g.apply("choose P1 roll=1")
    assert fast_action(g) == "choose"  # P2's pick is still due
    g.apply("choose P2 roll=1")
    assert fast_action(g) == "reroll"
    # "Activate: ... If the card has any effects that occur during the Activate phase
    # (like activating other cards), resolve them now."
    assert fast_action(to_phase(g, "activate")) == "bonus"
    # Resolve: "If you're launching an attack, select an attack level ... you pick which
    # one actually gets targeted", then "When one of your undamaged spaces is targeted by
    # an attack, select a defense level"
    g = at_resolve(SEED_AIMS_AT_TWO)
    assert fast_action(g) == "attack"
    g.apply("attack P1 level=2")
    assert fast_action(g) == "target"
    g.apply("target P1 pos=%d" % player(g, "P1")["aim"][0])
    assert fast_action(g) == "attack"  # P2's active card has not attacked yet
    g.apply("attack P2 level=1")
    assert fast_action(g) == "defend"


def resolve_on_the_device(rig, p1=1, p2=2):
    """A game on the device at its first Resolve, the screen's game: the Commanders
    picked by their place in the list (P1's d6 and P2's d8 by default)."""
    start_game(rig, "juggernauts")
    pick(rig, p1)
    pick(rig, p2)
    rig.keys("a", "a", "a", "a")  # the reveal, then to Resolve
    assert rig.lines[1] == "Resolve"
    return game_of(rig)


def test_on_the_device_defend_opens_at_the_targeted_card_its_levels_in_order(rig):
    # Rules: "When one of your undamaged spaces is targeted by an attack, select a defense
    # level, spend the required Power, then roll your Commander the number of times
    # indicated." and "First level defense (0 Power): Roll three times / Second level
    # defense (3 Power): Roll 5 times / Third level defense (8 Power): Roll 7 times";
    # "you can use a zero-level defense. Roll your Commander once."
    game = resolve_on_the_device(rig)
    act(rig, "set P2.active 0")  # P2 has no attack to make
    act(rig, "attack P1 level=1")
    aimed = list(targeted(game, "P2"))
    other = 1 if aimed != [1] else 2
    act(rig, "mark P2 pos=%d" % other)  # a second target, by a card's effect
    rig.keys("right")  # the fast path: Defend, at P2's first targeted card, level 1
    first, second = sorted(aimed + [other])
    assert " ".join(rig.lines[-3:-1]) == "Defend: P2 card <%d> level <1>" % first
    rig.keys("down")  # the next targeted card, before any other
    assert " ".join(rig.lines[-3:-1]) == "Defend: P2 card <%d> level <1>" % second
    levels = []
    for key in ("right", "right", "left", "left", "left"):
        rig.keys(key)
        levels.append(re.search(r"level <(\d)>$", rig.lines[-2]).group(1))
    assert levels == ["2", "3", "2", "1", "0"]
    rig.keys("a")
    assert game.history.events[-1].startswith("defend discard=0 level=0 p=P2 pos=%d|" % second)


def test_on_the_device_pick_target_opens_at_the_rolled_positions(rig):
    # Rules: "your opponent rolls his or her Commander two times to determine which card in
    # his or her matrix may be targeted and you pick which one actually gets targeted"
    game = resolve_on_the_device(rig)
    act(rig, "power P1 3")
    act(rig, "attack P1 level=2")
    aim = player(game, "P1")["aim"]
    rig.keys("right")  # the fast path: Pick target, at the first position rolled
    assert rig.lines[-3:-1] == ["Pick target: <P1>", "card <%d>" % aim[0]]
    rig.keys("right")
    assert rig.lines[-2] == "card <%d>" % aim[1]
    rig.keys("a")
    assert targeted(game, "P2") == {aim[1]: 1}


def active_card(rig, player):
    """The active card's position on ``player``'s line of the play screen (``Ac6``)."""
    line = next(line for line in rig.lines if line.startswith(player + " "))
    return int(re.search(r"Ac(\d+)", line).group(1))


def test_a_whole_two_player_game_on_the_device_needs_no_pen_and_paper(make_rig):
    whole_game(make_rig(seed=10))  # seed 10: its dice bring an unneutralize


def whole_game(rig):
    # Issue 4: "A complete two-player game runs to its end on `arbiter sim` with no step
    # that needs pen and paper." Every choice below is made from what the screen shows:
    # the phase, and the refusals that say who must act: the targeted card to defend, the
    # neutralized card rolled. Each phase's common action is done by the fast path.
    start_game(rig, "juggernauts")
    pick(rig, 1)  # P1: d6
    pick(rig, 2)  # P2: d8
    rig.keys("a")
    game = game_of(rig)
    phases, was = set(), None
    for _ in range(400):
        if game.state["result"]:
            break
        phases.add(rig.lines[1])
        if rig.lines[1] == "Resolve" and was != "Resolve":
            # an attack comes from an active card: "Ac0" on the screen, none
            if active_card(rig, "P1"):
                do(rig, "Attack", ["P1", 1, "accurate", 0, "P2", "neutralizing"])
            if active_card(rig, "P2"):
                do(rig, "Attack", ["P2"])  # level 1 on P1
        was = rig.lines[1]
        rig.keys("a")
        notice = said(rig)
        aimed = re.search(r"(P\d)'s card (\d+) is targeted: defend it", notice)
        if aimed:  # a position targeted twice is defended twice
            do(rig, "Defend", [aimed.group(1), int(aimed.group(2)), 1])
        refused = re.search(r"(P\d) must unneutralize", notice)
        if refused:
            do(rig, "Remove token", [refused.group(1), 0, 0, "free"])
    state = game.state
    assert state["result"] and phases >= {"Energize", "Command", "Resolve", "Recover"}
    assert ("%s wins: " % state["winner"] if state["winner"] else "A tie") in " ".join(rig.lines)
    assert any(e.startswith("unneutralize") for e in game.history.events)  # it came to that
    assert any(e.startswith("defend") for e in game.history.events)


# -- fair play (issue 19): the exploits, replayed, now fail ---------------------------------


def test_a_revealed_commander_cannot_be_picked_again():
    # rule: "A revealed secret stays revealed. Undo stops at a reveal, with the reason on
    # screen."
    g = new()
    g.apply("commander P1 d12")
    g.apply("commander P2 d4")
    for undo in ("undo", "undo agreed"):
        refused(g, undo, "no undo past a reveal: a revealed secret stays revealed")
    assert [e["event"] for e in g.log].count("reveal") == 1


def test_a_failed_defense_undone_and_redone_higher_gets_fresh_dice():
    # rule: "Every roll takes the next numbers of the game's generator, whatever was
    # undone." A level-0 defense that failed, undone (with agreement) and done at level 1,
    # rolls the dice that came next, not the failed defense's again.
    g = at_resolve(SEED_DEFENSE_NO_7, ("d6", "d20"))
    g.apply("mark P2 pos=7")
    failed = g.apply("defend P2 pos=7 level=0")
    refused(g, "undo", "undo needs everyone's agreement")
    g.apply("undo agreed")
    straight = at_resolve(SEED_DEFENSE_NO_7, ("d6", "d20"))
    straight.apply("mark P2 pos=7")
    straight.apply("defend P2 pos=7 level=0")
    straight.apply("roll d20 3")  # the three dice after the failed one
    again = g.apply("defend P2 pos=7 level=1")
    assert again.split("|")[1] == straight.history.events[-1].split("|")[1]
    undone = [e for e in g.log if e["event"] == "roll" and e.get("undone")]
    assert [e["rolls"] for e in undone] == [[int(failed.split("|")[1])]]  # still in the log
