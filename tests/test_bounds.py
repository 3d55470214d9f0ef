"""Every action of any ruleset ends soon: a loop in the rules is refused (Illegal, with
the reason), never a hang, a deep recursion or a heap filled."""

import json
import time

import pytest

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter.game.ruleset import RulesetError
from arbiter_referee.compiled import loaded

BASE = {"format": 1, "name": "loop", "players": {"min": 2, "max": 2},
        "counters": {"hp": {"start": 0}}, "dice": {"d6": {"faces": 6}},
        "phases": [{"name": "a", "per_player": True}, {"name": "b"}]}


def rules(**blocks):
    return dict(BASE, **blocks)


LOOPS = {
    "a trigger that fires itself": rules(
        triggers=[{"counter": "hp", "at": 1, "effects": [{"set": "$p.hp", "to": 0},
                                                         {"add": "$p.hp"}]}],
        actions={"go": {"params": ["p"], "effects": [{"add": "$p.hp"}]}}),
    "two triggers firing each other": rules(
        counters={"hp": {"start": 0}, "mp": {"start": 0}},
        triggers=[{"counter": "hp", "at": 1, "effects": [{"set": "$p.mp", "to": 0},
                                                         {"set": "$p.mp", "to": 1}]},
                  {"counter": "mp", "at": 1, "effects": [{"set": "$p.hp", "to": 0},
                                                         {"set": "$p.hp", "to": 1}]}],
        actions={"go": {"params": ["p"], "effects": [{"add": "$p.hp"}]}}),
    "next on entering a phase, when a counter says": rules(
        phases=[{"name": n, "enter": [{"if": {">": [{"get": "P1.hp"}, 0]},
                                       "then": [{"next": True}]}]} for n in "ab"],
        actions={"go": {"params": ["p"], "effects": [{"add": "P1.hp"}, {"next": True}]}}),
    "nested repeats": rules(actions={"go": {"params": ["p"], "effects": [{"repeat": [{"repeat": [
        {"repeat": [{"add": "$p.hp"}], "until": False}], "until": False}],
        "until": False}]}}),
    "calls fanning out": rules(actions={
        "go": {"params": ["p"], "effects": [{"call": "f"}] * 10},
        "f": {"private": True, "effects": [{"call": "g"}] * 10},
        "g": {"private": True, "effects": [{"call": "h"}] * 10},
        "h": {"private": True, "effects": [{"add": "$p.hp"}] * 10}}),
    "a huge roll, counted at play": rules(actions={"go": {"params": ["p"], "effects": [
        {"roll": "d6", "count": {"*": [{"get": "$p.hp"}, 10 ** 7]}}]}},
        counters={"hp": {"start": 1}}),
    "pieces without end, counted at play": rules(actions={"go": {"params": ["p"], "effects": [
        {"make_pieces": {"count": {"+": [100000, 0]}}}]}}),
    "a loop over every piece of every piece": rules(
        pieces={"each": [{"key": "k%d" % i} for i in range(40)]},
        actions={"go": {"params": ["p"], "effects": [
            {"each_piece": [{"each_piece": [{"each_piece": [{"add": "$p.hp"}]}]}]}]}}),
}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_a_looping_action_is_refused_with_a_reason(name):
    game = Game(loaded(json.dumps(LOOPS[name])), 2, seed=1)
    before = json.dumps(game.state, sort_keys=True)
    started = time.perf_counter()
    with pytest.raises(Illegal) as refused:
        game.apply("go P1")
    assert time.perf_counter() - started < 2
    assert "\n" not in refused.value.reason
    assert json.dumps(game.state, sort_keys=True) == before  # nothing of it stays
    assert game.count() == 0
    game.apply("next")  # and the game goes on


@pytest.mark.parametrize("effect", [{"roll": "d6", "count": 10 ** 7},
                                    {"make_pieces": {"count": 100000}}])
def test_a_huge_count_written_in_a_ruleset_is_refused_when_it_loads(effect):
    # the engine's bound at play (above) is for counts worked out as the game runs
    written = rules(actions={"go": {"params": ["p"], "effects": [effect]}})
    with pytest.raises(RulesetError, match=r"^actions\.go\.effects\[0\]\.(make_pieces\.)?count: "
                       "must be 0\\.\\.\\d+$"):
        loaded(json.dumps(written))


def test_next_with_words_after_it_is_refused_not_journaled():
    game = Game(loaded(json.dumps(BASE)), 2, seed=1)
    for text in ("next junk", "next 3", "next by=P1"):
        with pytest.raises(Illegal, match="usage: next"):
            game.apply(text)
    assert game.count() == 0
    assert game.apply("NEXT") == "next"


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_under_micropython_a_looping_ruleset_is_refused_at_load_or_at_play(name, tmp_path):
    # a Pico's heap and a real C stack: refused (by the check, or the action by a
    # bound), never a crash, a MemoryError or a recursion error
    from arbiter_referee.headless import play

    path = tmp_path / "loop.json"
    path.write_text(json.dumps(LOOPS[name]))
    outcome = play(str(path), 2, 1, {}, ["go P1", "next"], "micropython")
    assert outcome.refused is not None
    number, reason = outcome.refused
    assert number in (0, 1) and "Error" not in reason and "recursion" not in reason, reason
    assert outcome.refused == play(str(path), 2, 1, {}, ["go P1", "next"]).refused
