"""Double Impactics refereed as its rules say (../shared/seeds/001_79c582e2409a14e1.txt,
digest: ../shared/docs/referee-spec.md section 2). P1 plays the van Dammes, P2 the Goons."""

import json

import pytest
from helpers.device import (
    by_fast_path,
    do,
    fill_form,
    game_of,
    open_menu_item,
    seal,
    start_game,
    until_loaded,
)
from helpers.game import canonical, new_game, notes, refused, undoes_and_redoes_exactly
from helpers.impactics import DODGE_SEED, RULES, dodge_played, new, queue_from_hands, to_combat

from arbiter.game import ruleset
from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.headless import play
from arbiter_referee.paths import RULESETS
from arbiter_referee.rulesets import bundled

DECK = dict(RULES["values"]["deck"])
ALEX = ["forward1", "forward1", "rotate_left", "rotate_left", "rotate_right", "rotate_right",
        "attack", "attack"]
CHAD = ["sidestep_left", "sidestep_left", "sidestep_right", "sidestep_right"]
GOONS = ["P2.gun1", "P2.gun2", "P2.gun3", "P2.kf1", "P2.kf2", "P2.kf3"]
# 2.8: "Kung Fu Goons have the following actions available: Forward 1, Forward 2, Rotate
# Left, Rotate Right, Melee. Gun Goons have the following actions available: Forward 1,
# Rotate Left, Rotate Right, Sidestep Left, Sidestep Right, Melee, Fire."
GOON_ACTS = {"gun": "forward 1, rotate, sidestep, melee, fire",
             "kf": "forward 1 or 2, rotate, melee"}
# chi-square critical values at the 1% level (upper tail), by degrees of freedom
CHI2_1PCT = {17: 33.409, 5: 15.086, 3: 11.345}


def chi2(counts, expected):
    return sum((counts.get(k, 0) - e) ** 2 / e for k, e in expected.items())


# -- hands -------------------------------------------------------------------------------


def test_the_deck_list_is_the_rules_118_cards():
    # 5.1 Materials: 25 Forward 1, 8 Forward 2, ..., 2 Double Roundhouse
    assert sum(DECK.values()) == 118 and len(DECK) == 18
    assert DECK["forward1"] == 25 and DECK["melee"] == 10 and DECK["dodge"] == 5
    assert DECK["double_roundhouse"] == 2 and DECK["diving_shot"] == 4


def test_hands_before_the_first_round_are_permanent_cards_plus_random_ones():
    # 2.7: Alex 2x Forward 1, Rotate Left, Rotate Right, Attack + 2 random;
    # Chad 2x Sidestep Left, Sidestep Right + 4 random
    for seed in range(20):
        game = new(seed).state["game"]
        assert game["alex_hand"][:8] == ALEX and len(game["alex_hand"]) == 10
        assert game["chad_hand"][:4] == CHAD and len(game["chad_hand"]) == 8
        assert all(card in DECK for card in game["alex_hand"][8:] + game["chad_hand"][4:])


def test_random_cards_follow_the_deck_weights_chi_square_at_1_percent(monkeypatch):
    monkeypatch.setattr("arbiter.game.decks.MAX_DRAW", 10000)  # a device draws 100 at most
    # 2.6: "The probability of any card being picked at any given time is always the
    # same": 100,000 draws with replacement, by the same deck list the ruleset deals from
    draws = json.loads((RULESETS / "impactics.json").read_text())
    draws["actions"]["many"] = {"effects": [
        # worked out as the game runs: the checker would refuse a written 10000
        {"draw": {"val": "deck"}, "count": {"+": [10000, 0]}, "as": "d"},
        {"let": "x", "be": 0}]}
    g = new_game(draws, seed=2024)
    counts = {}
    for _ in range(10):
        g.apply("many")
        for card in g.log[-1]["items"] if g.log[-1]["event"] == "draw" else []:
            counts[card] = counts.get(card, 0) + 1
    assert sum(counts.values()) == 100000
    expected = {card: 100000 * w / 118 for card, w in DECK.items()}
    assert chi2(counts, expected) < CHI2_1PCT[17]


def test_the_end_phase_deals_new_hands_and_deal_refuses_a_second_deal():
    # 2.6: in the End phase the hands are replenished and the permanent cards replaced
    g = new(5)
    to_combat(g)
    for _ in range(12):  # 6 cards, each followed by a Goon's move
        g.apply("step")
    g.apply("next")
    assert g.phase()["name"] == "end"
    g.apply("deal")
    hands = g.state["game"]["alex_hand"], g.state["game"]["chad_hand"]
    assert hands[0][:8] == ALEX and len(hands[0]) == 10 and len(hands[1]) == 8
    refused(g, "deal", "dealt already")
    g.apply("next")  # round 2 planning with the hands dealt in the End phase
    assert g.state["round"] == 2 and (g.state["game"]["alex_hand"],
                                      g.state["game"]["chad_hand"]) == hands


def test_next_out_of_the_end_phase_deals_if_nobody_did():
    g = new(6)
    to_combat(g)
    for _ in range(12):  # 6 cards, each followed by a Goon's move
        g.apply("step")
    g.apply("next")
    g.apply("next")
    assert len(g.state["game"]["alex_hand"]) == 10 and len(g.state["game"]["chad_hand"]) == 8
    assert [e for e in g.log if e["event"] == "draw"][-1]["reason"] == "Chad's hand"


# -- planning ------------------------------------------------------------------------------


def test_queue_takes_six_cards_in_order_from_the_hands_with_discards():
    # 2.4: 6 cards, executed in the order picked; a discarded card still takes its slot
    g = new(1)
    g.apply(queue_from_hands(g))
    game = g.state["game"]
    assert game["queue"] == ["alex:forward1", "alex:attack", "alex:rotate_left",
                             "discard:alex:rotate_right", "chad:sidestep_left",
                             "chad:sidestep_right"]
    assert game["queue_who"] == ["alex"] * 4 + ["chad"] * 2
    assert len(game["alex_hand"]) == 6 and len(game["chad_hand"]) == 6


def test_queue_refuses_cards_not_in_hand_and_changes_nothing():
    g = new(1)
    hand = g.state["game"]["alex_hand"] + g.state["game"]["chad_hand"]
    missing = next(c for c in DECK if c not in hand)
    for action, reason in [
        ("queue %s forward1 forward1 attack attack rotate_left" % missing, "no %s in" % missing),
        ("queue " + " ".join(["attack"] * (hand.count("attack") + 1) + ["forward1"] * (
            5 - hand.count("attack"))), "no attack in"),  # one more than the hands hold
        ("queue burn:forward1 forward1 attack attack rotate_left rotate_left",
         r"a card is \[discard:\]\[alex:\|chad:\]NAME, not burn:forward1"),
        ("queue chad:attack forward1 attack attack rotate_left rotate_left",
         "no attack in Chad's hand"),
        ("queue forward1 forward1", "missing c3="),
        ("next", "queue 6 cards first"),
        ("step", "step is for the combat phase"),
    ]:
        refused(g, action, reason)  # and nothing changed


def test_cards_are_queued_one_at_a_time_in_the_order_picked():
    # 2.4: "the van Dammes player chooses 6 cards. These will execute during the Combat
    # Phase in the order picked. ... the card still enters the queue, but the van Dammes
    # take no action when it comes up in the queue."
    g = new(1)
    g.apply("card P1.chad sidestep_left")
    assert g.state["message"] == "1/6 Chad: sidestep_left"
    refused(g, "queue forward1 attack rotate_left rotate_right sidestep_left sidestep_right",
            "6 cards are queued already")  # the six at once: only into an empty queue
    g.apply("card P1.alex rotate_right discard")
    assert g.state["message"] == "2/6 Alex discards rotate_right"
    refused(g, "card P1.chad forward2" if "forward2" not in g.state["game"]["chad_hand"]
            else "card P1.chad backward1", "in Chad's hand")
    refused(g, "card P2.gun1 forward1", "the van Dammes' cards are Alex's and Chad's")
    for card in ("forward1", "forward1", "attack", "attack"):
        g.apply("card P1.alex " + card)
    refused(g, "card P1.alex rotate_left", "6 cards are queued: next begins Combat")
    game = g.state["game"]
    assert game["queue"] == ["chad:sidestep_left", "discard:alex:rotate_right"] + [
        "alex:" + c for c in ("forward1", "forward1", "attack", "attack")]
    assert game["queue_who"] == ["chad"] + ["alex"] * 5
    g.apply("next")
    assert g.phase()["name"] == "combat"
    g.apply("step")
    assert notes(g)[-2:] == ["1/6 chad", "sidestep_left"]  # played in the order picked


def test_the_fast_path_queues_a_card_and_hits_with_what_the_card_played_deals():
    from arbiter.screens.fast import fast_action

    g = new(1)
    assert fast_action(g) == "card"  # 2.4: Planning is choosing the queue's cards
    g.apply(queue_from_hands(g))
    g.apply("next")
    assert fast_action(g) == "hit"  # A plays the cards and moves the Goons
    g.apply("step")  # Alex's Forward 1, then the Goon
    assert kinds(g)[0] == "melee"
    g.apply("step")
    g.apply("step")  # 2.13: "An Attack card causes the character to shoot"
    assert g.state["game"]["queue"][1] == "alex:attack" and kinds(g)[0] == "bullet"


def kinds(g):
    """The Hit form's kinds, in the order offered (first: the one it opens at)."""
    from arbiter.game.effects import action

    return g.evaluate_bound(action(g, "hit")["choices"]["kind"], {})


# -- combat: the living Goon ----------------------------------------------------------------


def test_each_step_plays_the_next_card_then_names_a_living_goon():
    # 2.5: "After each van Dammes card executes, the Goons player makes one move with a
    # randomly chosen Goon": the card first, then the Goon
    g = new(3)
    to_combat(g)
    g.apply("step")
    assert g.state["game"]["step"] == 1 and g.state["game"]["goon"] == ""
    assert notes(g)[-2:] == ["1/6 alex", "forward1"]
    refused(g, "next", "step through the 6 cards and Goon moves first")
    g.apply("step")
    goon = g.state["game"]["goon"]
    assert goon in GOONS and notes(g)[-1] == goon_note(g, goon)
    for _ in range(5):
        g.apply("step")
    assert notes(g)[-1] == "(discarded)"  # the fourth card: queued as a discard
    for _ in range(5):
        g.apply("step")
    refused(g, "step", "all 6 cards are played")
    g.apply("next")


def goon_note(g, goon):
    """What the device says of the Goon that moves: its name and what it may do."""
    return "move %s: %s" % (g.state["pieces"][goon]["name"],
                            GOON_ACTS[goon.split(".")[1].rstrip("123")])


def test_the_moving_goon_is_named_with_what_it_may_do():
    # 2.8: "The Goons player always has a given set of actions available, depending on
    # what Goon has been chosen to move next." (the lists: GOON_ACTS)
    seen = set()
    for seed in range(3, 13):
        g = new(seed)
        to_combat(g)
        for _ in range(6):
            g.apply("step")  # the card
            g.apply("step")  # the Goon
            goon = g.state["game"]["goon"]
            assert notes(g)[-1] == goon_note(g, goon)
            seen.add(notes(g)[-1].split(": ")[1])
    assert seen == set(GOON_ACTS.values())  # a Gun Goon and a Kung Fu Goon said


def test_a_goon_the_card_kills_is_not_the_one_that_moves():
    # 2.5 and 2.10: "When a character loses all his HP, that character dies and is
    # removed from play": the Goon is picked after the card, among the living
    for seed in range(40):
        g = new(seed)
        to_combat(g)
        g.apply("step")  # the card: say it shoots KF Goon 1 dead, and two others
        g.apply("hit P2.kf1 1 kind=roundhouse")
        g.apply("hit P2.gun2 1 kind=bullet")
        g.apply("hit P2.gun3 1 kind=melee")
        for _ in range(11):
            g.apply("step")
            assert g.state["game"]["goon"] in ("", "P2.gun1", "P2.kf2", "P2.kf3")


def test_the_queue_says_whose_card_it_plays():
    # 2.7: "The van Dammes player has 2 hands, one for Alex and one for Chad": a card both
    # hold is queued from the hand it is named by
    g = new(1)  # Alex and Chad each hold a forward1
    hands = g.state["game"]
    assert "forward1" in hands["alex_hand"] and "forward1" in hands["chad_hand"]
    assert {"alex:forward1", "chad:forward1", "discard:chad:dodge"} <= set(hands["offer"])
    g.apply("queue chad:forward1 alex:forward1 discard:chad:sidestep_left attack "
            "chad:dodge sidestep_right")
    game = g.state["game"]
    assert game["queue"] == ["chad:forward1", "alex:forward1", "discard:chad:sidestep_left",
                             "alex:attack", "chad:dodge", "chad:sidestep_right"]
    assert game["queue_who"] == ["chad", "alex", "chad", "alex", "chad", "chad"]
    assert game["chad_hand"].count("forward1") == 1 and game["alex_hand"].count("forward1") == 2
    g.apply("next")
    g.apply("step")
    assert notes(g)[-2:] == ["1/6 chad", "forward1"]


def _goon_counts(dead, seed, n):
    picks = json.loads((RULESETS / "impactics.json").read_text())
    picks["actions"]["many"] = {"effects": [
        {"draw": {"val": "living_goons"}, "count": {"+": [n, 0]}, "as": "g"}]}
    g = new_game(picks, seed=seed)
    to_combat(g)  # hits are for Combat
    for key in dead:
        g.apply("hit %s 1 kind=roundhouse" % key)
    g.apply("many")
    counts = {}
    for goon in g.log[-1]["items"]:
        counts[goon] = counts.get(goon, 0) + 1
    return counts


def test_the_goon_pick_is_uniform_chi_square_at_1_percent(monkeypatch):
    monkeypatch.setattr("arbiter.game.decks.MAX_DRAW", 30000)  # a device draws 100 at most
    counts = _goon_counts([], 77, 30000)
    assert set(counts) == set(GOONS)
    assert chi2(counts, {k: 5000 for k in GOONS}) < CHI2_1PCT[5]
    counts = _goon_counts(["P2.gun1", "P2.kf3"], 78, 20000)
    alive = ["P2.gun2", "P2.gun3", "P2.kf1", "P2.kf2"]
    assert set(counts) == set(alive)
    assert chi2(counts, {k: 5000 for k in alive}) < CHI2_1PCT[3]


# -- HP, damage and Dodge ---------------------------------------------------------------


def test_starting_hp():
    # 2.10: Alex and Chad 2 HP; Gun Goons 1; Kung Fu Goons 2
    pieces = new().state["pieces"]
    assert [pieces[k]["hp"] for k in ["P1.alex", "P1.chad"] + GOONS] == [2, 2, 1, 1, 1, 2, 2, 2]


@pytest.mark.parametrize("kind, hits, dodging, hp_after", [
    ("melee", 1, False, 1),      # 2.11: takes 1 HP of damage
    ("melee", 1, True, 2),       # 2.11: dodging, takes 0 and is no longer dodging
    ("bullet", 1, False, 1),     # 2.12: a bullet, 1 HP
    ("bullet", 1, True, 2),      # 2.12: dodging, 0
    ("explosion", 1, False, 0),  # 2.12: a barrel explosion, 2 HP
    ("explosion", 1, True, 1),   # 2.15: dodging, 1 from an explosion
    ("roundhouse", 1, False, 0),  # 2.14: 100 HP of damage
    ("roundhouse", 1, True, 0),  # 2.14: even if he is dodging
])
def test_each_damage_kind_with_and_without_dodge(kind, hits, dodging, hp_after):
    g = dodge_played()
    if dodging:
        g.apply("dodge P1.chad")
    g.apply("hit P1.chad %d kind=%s" % (hits, kind))
    piece = g.state["pieces"]["P1.chad"]
    assert piece["hp"] == hp_after
    assert piece["dodge"] == 0 or kind == "roundhouse"  # a roundhouse is not dodged
    assert piece["dead"] == (1 if hp_after == 0 else 0)


def test_dodge_lowers_one_hit_then_ends():
    # 2.15: "Once a character Dodges one attack, that character is no longer Dodging"
    g = dodge_played()
    g.apply("dodge P1.chad")
    g.apply("hit P1.chad 1 kind=melee")
    assert g.state["pieces"]["P1.chad"]["hp"] == 2
    g.apply("hit P1.chad 1 kind=melee")
    assert g.state["pieces"]["P1.chad"]["hp"] == 1


def test_one_dodge_card_dodges_one_attack_only():
    # 2.15: "Once a character Dodges one attack, that character is no longer Dodging."
    # The card is used up by the attack it dodged: dodging again on it is refused, and
    # the next hit lands.
    g = dodge_played()
    g.apply("dodge P1.chad")
    g.apply("step")  # the Goon moves, and hits Chad: dodged
    g.apply("hit P1.chad 1 kind=melee")
    assert g.state["pieces"]["P1.chad"]["hp"] == 2
    refused(g, "dodge P1.chad", "Chad's Dodge card is used up: one Dodge, one attack")
    g.apply("hit P1.chad 1 kind=bullet")
    assert g.state["pieces"]["P1.chad"]["hp"] == 1


SEED_DODGE_TWO_ROUNDS = 106  # Chad's hand holds a Dodge card in rounds 1 and 2


def test_a_dodge_card_of_a_later_round_dodges_again():
    # 2.15: "The Dodging state lasts only until the end of the Combat Phase": the next
    # round's Dodge card is a new one, and dodges once again
    g = new(SEED_DODGE_TWO_ROUNDS)
    for _ in range(2):
        assert "dodge" in g.state["game"]["chad_hand"], "seed: a Dodge card each round"
        g.apply("queue chad:dodge alex:forward1 alex:attack alex:rotate_left "
                "alex:rotate_right alex:forward1")
        g.apply("next")
        g.apply("step")
        g.apply("dodge P1.chad")
        g.apply("hit P1.chad 1 kind=bullet")
        assert g.state["pieces"]["P1.chad"]["hp"] == 2  # dodged
        for _ in range(11):
            g.apply("step")
        g.apply("next")
        g.apply("next")  # the End phase deals the next round's hands


def test_simultaneous_explosions_each_lowered_by_dodge():
    # 2.15: several simultaneous barrel explosions: 1 less damage from each
    g = dodge_played()
    g.apply("dodge P1.chad")
    g.apply("hit P1.chad 2 kind=explosion")  # 2 x (2 - 1) = 2
    assert g.state["pieces"]["P1.chad"]["hp"] == 0
    g = dodge_played()
    g.apply("dodge P1.chad")
    g.apply("hit P1.chad 1 kind=explosion")  # 2 - 1
    assert g.state["pieces"]["P1.chad"]["hp"] == 1


def test_all_dodges_end_with_the_combat_phase():
    # 2.15: "The Dodging state lasts only until the end of the Combat Phase"
    g = dodge_played()
    g.apply("dodge P1.chad")
    for _ in range(11):  # the Goon, then 5 more cards and Goons
        g.apply("step")
    g.apply("next")
    assert all(p["dodge"] == 0 for p in g.state["pieces"].values())


def test_a_dodge_comes_from_a_dodge_card_played_in_combat():
    # 2.15: "A Dodge card reduces the damage taken"; 2.5: "During the Combat Phase, the
    # cards chosen by the van Dammes player execute in the order they were picked." The
    # Goons have no cards (2.8): they never dodge.
    g = new(DODGE_SEED)
    refused(g, "dodge P1.chad", "dodge is for the combat phase, not planning")
    g.apply("queue forward1 dodge attack rotate_left sidestep_left sidestep_right")
    g.apply("next")
    refused(g, "dodge P1.chad", "no Dodge card is being played")  # none played yet
    g.apply("step")  # Alex's Forward 1
    refused(g, "dodge P1.chad", "no Dodge card is being played")
    g.apply("step")  # a Goon moves
    g.apply("step")  # Chad's Dodge
    refused(g, "dodge P2.kf1", "only Alex and Chad dodge")
    refused(g, "dodge P1.alex", "the Dodge card is Chad's")
    g.apply("dodge P1.chad")
    assert g.state["pieces"]["P1.chad"]["dodge"] == 1


def test_a_dead_character_cannot_be_hit_or_dodge():
    g = new(4)
    to_combat(g)
    g.apply("hit P2.gun1 1 kind=bullet")
    for action in ("hit P2.gun1 1", "dodge P2.gun1"):
        refused(g, action, "Gun Goon 1 is dead")
    refused(g, "hit P2.kf1 1 kind=laser", "kind is melee, bullet")


# -- the end --------------------------------------------------------------------------------


def test_van_dammes_win_when_every_goon_is_dead():
    # 2.1: they win if they kill off all the Goons
    g = new(8)
    to_combat(g)
    for key in GOONS[:-1]:
        g.apply("hit %s 1 kind=roundhouse" % key)
        assert g.state["result"] is None
    g.apply("hit P2.kf3 2 kind=melee")
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")


def test_van_dammes_win_at_a_victory_location():
    # 2.1 and 4.5: either one reaching a victory location wins; Goons there do nothing
    g = new(8)
    to_combat(g)
    refused(g, "victory P2.kf1", "only Alex or Chad")
    g.apply("victory P1.chad")
    assert g.state["winner"] == "P1"


def test_nothing_hits_or_moves_outside_combat():
    # 2.5: "During the Combat Phase, the cards chosen by the van Dammes player execute in
    # the order they were picked. After each van Dammes card executes, the Goons player
    # makes one move with a randomly chosen Goon." In Planning and End no card plays and
    # no Goon moves: nobody is hit and nobody reaches a victory location.
    g = new(8)
    for _ in range(2):  # Planning, then End
        refused(g, "hit P2.kf1 1 kind=bullet", "nothing hits outside Combat")
        refused(g, "hit P1.alex 1 kind=roundhouse", "nothing hits outside Combat")
        refused(g, "victory P1.chad", "nobody moves outside Combat")
        if g.phase()["name"] == "planning":
            to_combat(g)
            g.apply("hit P2.kf1 1 kind=bullet")  # in Combat, a hit
            assert g.state["pieces"]["P2.kf1"]["hp"] == 1
            for _ in range(12):
                g.apply("step")
            g.apply("next")
    assert g.phase()["name"] == "end" and g.state["result"] is None


def test_goons_win_when_either_van_damme_dies():
    # 2.2: the Goons win if they kill either van Damme
    g = new(8)
    to_combat(g)
    g.apply("hit P1.alex 1 kind=bullet")
    assert g.state["result"] is None
    g.apply("hit P1.alex 1 kind=melee")
    assert g.state["winner"] == "P2"
    refused(g, "step", "the game is over")


def test_a_pages_line_is_checked_like_any_expression():
    data = json.loads(bundled()["impactics"].read_text())
    data["pages"][0]["lines"].append({"gte": [1, 2]})
    with pytest.raises(ruleset.RulesetError, match=r"pages\[0\].lines\[6\]: unknown operator"):
        loaded(json.dumps(data))


# -- undo, replay and a whole game ---------------------------------------------------------

ACTIONS = ["queue dodge attack rotate_left discard:rotate_right sidestep_left sidestep_right",
           "next", "step", "dodge P1.chad", "hit P1.chad 1 kind=bullet", "step", "step",
           "hit P2.kf1 2 kind=explosion"] + ["step"] * 9 + ["next", "deal", "next"]


def test_every_action_undoes_exactly():
    # cards and Goons too
    undoes_and_redoes_exactly(new(DODGE_SEED), ACTIONS + [
        "queue forward1 attack rotate_left rotate_right sidestep_left sidestep_right",
        "next", "victory P1.chad"])


def test_a_whole_game_to_its_end_on_arbiter_run_in_both_runtimes():
    rounds = ACTIONS + ["queue forward1 attack rotate_left rotate_right sidestep_left "
                        "sidestep_right", "next"] + [
        "hit %s 1 kind=roundhouse" % k for k in GOONS if k != "P2.kf1"]
    outs = [play("impactics", None, DODGE_SEED, {}, rounds, runtime=r)
            for r in ("cpython", "micropython")]
    assert outs[0].refused is None and outs[0].state["winner"] == "P1"
    assert canonical(outs[0].state) == canonical(outs[1].state)


# -- on the device (the emulated Pico that `arbiter sim` runs) ------------------------------


def hands_page(g):
    """The Hands page as the rules have it: each hand, then the queue (16 columns)."""
    from arbiter.ui import wrap

    game = g.state["game"]
    lines = ["Alex:"] + merged(game["alex_hand"]) + ["Chad:"] + merged(game["chad_hand"]) + [
        "Queue %d/6:" % len(game["queue"])] + (merged(game["queue"]) or [" -"])
    return [part for line in lines for part in wrap(line)]


def merged(cards):
    out = []
    for card in cards:
        if out and out[-1][0] == card:
            out[-1][1] += 1
        else:
            out.append([card, 1])
    return [" %s x%d" % (c, n) if n > 1 else " " + c for c, n in out]


def page_text(rig):
    """Every line of the text page on screen (scrolled through, wrapped as shown)."""
    return rig.app.screen.lines


def queue_by_hand(rig, g):
    """Alex's first four cards, then Chad's first two, queued one at a time as they are
    picked (2.4: "These will execute during the Combat Phase in the order picked")."""
    hands = g.state["game"]
    picked = [("P1.alex", c) for c in hands["alex_hand"][:4]] + \
        [("P1.chad", c) for c in hands["chad_hand"][:2]]
    for slot, (who, card) in enumerate(picked, 1):
        shown = by_fast_path(rig, "Queue a card", [who, card])  # Right, a card, A
        assert "Queue a card: <%s> card <%s>" % (who[3:].title(), card) in " ".join(shown)
        assert g.state["game"]["queue"][-1] == who[3:] + ":" + card
        assert len(g.state["game"]["queue"]) == slot


def test_a_whole_game_on_the_device(rig):
    from arbiter.ui import wrap

    start_game(rig, "impactics")
    g = game_of(rig)
    assert rig.lines[1] == "Planning"
    rig.keys("down")  # the hands, a key away in Planning
    assert rig.lines[0] == "Hands" and rig.lines[1:3] == ["Alex:", "forward1 x2"]
    assert page_text(rig) == hands_page(g)
    rig.keys("b")
    queue_by_hand(rig, g)
    assert len(g.state["game"]["queue"]) == 6
    rig.keys("a")  # Combat begins: its page, the queue, opens by itself
    assert rig.lines[0] == "Queue" and page_text(rig)[:2] == ["Played 0/6:", " -"]
    rig.keys("a")
    assert rig.lines[1] == "Combat"
    assert rig.lines[2:4] == ["P1 A2 C2", "P2 G1 G1 G1 K2 K2 K2"]  # everyone's HP
    assert rig.lines[-1] == "A:step <>:hit v:queue"  # A: the next card; Left/Right: a hit
    for step in range(1, 7):
        rig.keys("a")  # the card
        entry, who = g.state["game"]["queue"][step - 1], g.state["game"]["queue_who"][step - 1]
        assert entry == who + ":" + entry.split(":")[-1]
        assert g.state["game"]["step"] == step and g.state["game"]["goon"] == ""
        assert rig.lines[5:7] == ["%d/6 %s" % (step, who), entry.split(":")[-1]]
        rig.keys("a")  # then the Goon
        goon = g.state["game"]["goon"]
        assert g.state["pieces"][goon]["dead"] == 0
        said = wrap(goon_note(g, goon))  # the name and the Goon's actions (2.8)
        assert rig.lines[7 - len(said):7] == said
        rig.run(2000)  # the flash over: as many LEDs lit as the Goon's place among the six
        lit = sum(1 for colour in rig.frame.leds if any(colour))
        assert lit == GOONS.index(goon) + 1
        if step == 2:  # Alex's bullet kills that Gun Goon, or wounds a Kung Fu Goon
            do(rig, "Hit", [goon, 1, "bullet"])
    rig.keys("a")  # End: new hands
    assert rig.lines[1] == "End"
    do(rig, "Deal new hands", [])
    rig.keys("a")  # round 2's Planning: the new hands open by themselves
    assert rig.lines[0] == "Hands" and page_text(rig) == hands_page(g)
    assert g.state["round"] == 2
    rig.keys("b")
    queue_by_hand(rig, g)  # hits are for Combat: the cards first
    rig.keys("a", "a")  # Combat, its Queue page, then the play screen
    assert rig.lines[1] == "Combat"
    for goon in GOONS:
        if not g.state["pieces"][goon]["dead"]:
            assert by_fast_path(rig, "Hit", [goon, 1, "roundhouse"])  # Right, Left, A
    assert g.state["winner"] == "P1" and "P1 wins: " in " ".join(rig.lines)


def test_a_page_opened_by_an_action_from_the_menu_is_what_shows_after_it(rig):
    # a phase begun by a form's action (here a ruleset's own "skip", a next): the
    # form and the menu close onto the page, not the page under them
    data = json.loads(bundled()["impactics"].read_text())
    data["name"] = "pagetest"
    data["actions"]["skip"] = {"label": "Skip", "effects": [{"next": True}]}
    (rig.flash_dir / "rulesets" / "pagetest.json").write_bytes(compiled(json.dumps(data)))
    rig.keys("a", "down", "down", "down", "down", "a")  # Play, pagetest
    until_loaded(rig)
    rig.keys("a")  # start
    seal(rig)
    g = game_of(rig)
    assert g.rules["name"] == "pagetest" and rig.lines[1] == "Planning"
    open_menu_item(rig, "Queue 6 cards")
    fill_form(rig, ["alex:" + c for c in ALEX[:4]] + ["chad:" + c for c in CHAD[:2]])
    open_menu_item(rig, "Skip")
    rig.keys("a")
    assert g.phase()["name"] == "combat" and rig.lines[0] == "Queue"
    rig.keys("a")
    assert rig.lines[1] == "Combat"
