"""The example rulesets in examples/: a designer's games that are not among the five.
Raj (Hol's der Geier) is the simultaneous bid: issue 47, "each round every player
secretly bids a card still in hand, revealed together", in one secret picked in
play, its prize deck face down."""

import json
import random

import pytest
from helpers import REPO
from helpers.examples import CARDS, PRIZES, RAJ, raj_points

from arbiter_referee.emulator import RUNTIMES
from arbiter_referee.headless import play
from arbiter_referee.rulesets import check_file, schema_errors

EXAMPLES = sorted((REPO / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_passes_the_checker_and_the_editors_schema(path):
    assert check_file(path) is None
    assert schema_errors(json.loads(path.read_text())) == []


def bid_plan(players, seed):
    """Each player's 15 bids, a seeded shuffle of their cards: every card once."""
    rng = random.Random(seed)
    plan = {}
    for i in range(players):
        cards = list(CARDS)
        rng.shuffle(cards)
        plan[f"P{i + 1}"] = cards
    return plan


def raj_actions(plan):
    """Each round: every player's pick in turn order, then on to the next round."""
    actions = []
    for round_index in range(15):
        actions += [f"pick {player} {bids[round_index]}" for player, bids in plan.items()]
        actions.append("next")
    return actions[:-1]  # after the last reveal the game is over


def prizes_said(state):
    """The prizes as the play screen announced them, round by round."""
    return [int(entry["text"].split()[1]) for entry in state["log"]
            if entry["event"] == "note" and entry["text"].startswith("Prize ")]


@pytest.mark.parametrize("runtime", RUNTIMES)
@pytest.mark.parametrize("players, seed", [(2, 3), (3, 11), (5, 8)])
def test_a_whole_game_of_raj_scores_as_an_independent_scorer_does(runtime, players, seed):
    # issue 47: "equal bids cancel each other; the highest remaining bid takes a
    # positive prize, the lowest a negative one; if all bids cancel, the prize carries
    # over; each bid card is used once; 15 rounds"
    plan = bid_plan(players, seed)
    outcome = play(str(RAJ), players, seed, {}, raj_actions(plan), runtime)
    assert outcome.refused is None
    state = outcome.state
    prizes = prizes_said(state)
    assert sorted(prizes) == PRIZES  # each prize card turned up once
    bids = [{player: plan[player][r] for player in plan} for r in range(15)]
    revealed = [entry["picks"] for entry in state["log"] if entry["event"] == "reveal"]
    assert revealed == bids  # all revealed at once, as picked
    points = raj_points(prizes, bids)
    assert {p: state["players"][p]["points"] for p in plan} == points
    best = max(points.values())
    leaders = [p for p in points if points[p] == best]
    assert state["result"] == ("win" if len(leaders) == 1 else "tie")
    if len(leaders) == 1:
        assert state["winner"] == leaders[0]
        assert state["why"] == f"{leaders[0]} has the most points after the last prize"
    assert all(state["players"][p]["hand"] == [] for p in plan)


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_bid_card_is_used_once_and_the_pick_says_so(runtime):
    # issue 47: "each bid card is used once"; "a pick that the rules refuse is refused
    # at the pick, with the reason"
    done = ["pick P1 5", "pick P2 7", "next"]
    outcome = play(str(RAJ), 2, 1, {}, done + ["pick P1 5"], runtime)
    assert outcome.refused == (4, "bid is one of 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, "
                                  "13, 14, 15")
    # nothing else is done while bids are due, and nobody bids twice
    assert play(str(RAJ), 2, 1, {}, ["pick P1 5", "next"], runtime).refused == (
        2, "P2 must pick a bid first")
    assert play(str(RAJ), 2, 1, {}, ["pick P1 5", "pick P1 6"], runtime).refused == (
        2, "it is P2's turn to pick")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_a_revealed_bid_stays_revealed(runtime):
    # docs/rulesets.md: "undo stops at a reveal"; a pick not yet revealed may be taken back
    assert play(str(RAJ), 2, 1, {}, ["pick P1 5", "undo"], runtime).state["picking"] == {
        "secret": "bid", "player": "P1"}
    assert play(str(RAJ), 2, 1, {}, ["pick P1 5", "pick P2 7", "undo"], runtime).refused == (
        3, "no undo past a reveal: a revealed secret stays revealed")


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_prize_deck_is_face_down_until_the_game_is_over(runtime):
    # issue 47: "a hidden value never appears in Table, `arbiter run --json`'s public
    # state ... until revealed"
    plan = bid_plan(3, 4)
    actions = raj_actions(plan)
    mid = play(str(RAJ), 3, 4, {}, actions[:9], runtime).state  # in round 3
    assert "deck" not in mid["game"] and mid["face_down"] == {"deck": 12}
    end = play(str(RAJ), 3, 4, {}, actions, runtime).state
    assert end["result"] and end["game"]["deck"] == [] and "face_down" not in end
    turned = prizes_said(end)  # the deck's order, as the game turned it up
    assert prizes_said(mid) == turned[:3]
    assert not in_order(turned[3:], json.dumps(mid))


def in_order(cards, text):
    """Whether ``text`` lists ``cards`` (three or more of them) one after the other,
    as JSON or the screen would."""
    return any(sep.join(str(card) for card in cards[i:i + 3]) in text
               for sep in (", ", " ", ",") for i in range(len(cards) - 2))


def test_a_whole_game_of_raj_plays_on_the_emulated_device(tmp_path, capsys):
    # issue 47: "played whole on the emulated device by a key script"; "a hidden value
    # never appears in Table, ... any frame of a played game, or the serial log"
    from helpers.device import open_setup, seal

    from arbiter_referee.compiled import factory_flash
    from arbiter_referee.emulator.rig import Rig

    factory_flash(tmp_path, [("raj", RAJ)])
    rig = Rig(tmp_path, seed=5)
    open_setup(rig, "raj")
    rig.keys("a")  # two players
    seal(rig)
    screens, prizes = [], []

    def press(*keys):
        for key in keys:
            rig.keys(key)
            rig.settle()
            screens.append(" ".join(rig.lines))

    for round_index in range(15):
        assert rig.lines[0] == f"Raj R{round_index + 1}"
        prizes.append(int(rig.lines[1].split()[2]))  # "Bid for +5 (14 in all)"
        press("a", "a")  # P1 bids the lowest card left
        press("a", "up", "a")  # P2 the highest (the list wraps round)
        if round_index == 14:
            break
        assert rig.lines[0] == "Revealed"
        press("a")  # the reveal read
        if round_index == 2:  # the Table, mid-game: the deck is face down
            press("b")
            rig.keys(*["down"] * (rig.lines.index("Table") - 1), "a")
            assert "deck: 12 face down" in rig.lines
            screens.append(" ".join(rig.lines))
            press("b", "b")
        press("a")  # on to the next round
    bids = [{"P1": r + 1, "P2": 15 - r} for r in range(15)]
    points = raj_points(prizes, bids)
    assert rig.lines[2:4] == [f"P1 Pts{points['P1']}", f"P2 Pts{points['P2']}"]
    best = max(points, key=points.get)
    assert (f"{best} wins: " if points["P1"] != points["P2"] else "A tie") in " ".join(rig.lines)
    assert sorted(prizes) == PRIZES
    serial = capsys.readouterr().out
    for i in range(15):  # before round i's prize is turned up, nothing shows what it is
        assert not any(in_order(prizes[i:], screen) for screen in screens[:5 * i])
    assert not in_order(prizes, serial)
