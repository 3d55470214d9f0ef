"""The generic engine: events, illegal actions, undo and redo, secrets, turn order,
end conditions, triggers, and the same game in both runtimes."""

import json
import re

import pytest
from helpers.game import (
    apply,
    canonical,
    new_game,
    piece_state,
    player,
    refused,
    rules,
    undoes_and_redoes_exactly,
)

from arbiter.game import Illegal, ruleset
from arbiter.game.engine import Game
from arbiter.game.public import public_state
from arbiter.game.rng import commitment
from arbiter_referee.compiled import loaded
from arbiter_referee.headless import play
from arbiter_referee.rulesets import bundled


def test_every_bundled_ruleset_starts():
    for name in bundled():
        g = new_game(name, seed=1)
        assert g.state["round"] in (0, 1)  # 0: secrets to pick first
        assert public_state(g)["ruleset"] == name


def test_illegal_action_changes_nothing_and_says_why():
    g = new_game("kaiju", seed=3)
    g.apply("add P1.energy 2")
    for action, reason in [
        ("add P1.energy -100", "below its minimum 0"),
        ("add P9.energy 1", "no such player or piece: P9"),
        ("roar P1", "roar is for the action phase, not start"),
        ("glory P1 0", "Glory gained is 1 or more"),
        ("fly P1", "unknown action fly"),
        ("add P1.k1.damage 500", "above its maximum 99"),
        ("set P1.energy lots", "takes a whole number"),
    ]:
        refused(g, action, re.escape(reason))  # and nothing changed


def test_undo_and_redo_step_through_events():
    g = new_game("kaiju", seed=3)
    actions = ["add P1.energy 3", "next", "next", "add P2.glory 4", "next"]
    undoes_and_redoes_exactly(g, actions)
    for _ in actions:
        g.apply("undo")
    refused(g, "undo", "nothing to undo")
    for _ in actions:
        g.apply("redo")
    refused(g, "redo", "nothing to redo")


def test_a_new_action_after_undo_clears_redo():
    g = new_game("kaiju", seed=3)
    g.apply("add P1.energy 3")
    g.apply("undo")
    g.apply("add P1.energy 1")
    refused(g, "redo", "nothing to redo")


def test_dice_never_rewind_an_undone_roll_is_not_rolled_again():
    # rule: "Every roll takes the next numbers of the game's generator, whatever was undone."
    straight = new_game("tactics", seed=9, actions=["roll d6 5", "roll d6 5"])
    g = new_game("tactics", seed=9)
    first = g.apply("roll d6 5")
    g.apply("undo agreed")
    again = g.apply("roll d6 5")
    assert again == straight.history.events[-1] and again != first  # no undoing until lucky
    assert g.rng.snapshot() == straight.rng.snapshot()


def test_undo_of_a_roll_needs_agreement_and_keeps_its_dice_in_the_log():
    # rule: "Undoing an action that rolled dice or showed a secret needs the other
    # players' agreement"; "An undone action's rolls stay in the journal and in the log,
    # marked undone."
    g = new_game("tactics", seed=9)
    event = g.apply("roll d6 3")
    dice = event.split("|")[1]
    refused(g, "undo", re.escape("undo needs everyone's agreement (undo agreed): its rolls "
                                 f"{dice} stay in the log"))
    g.apply("undo agreed")
    rolls = [e for e in g.log if e["event"] == "roll"]
    assert rolls[-1]["undone"] is True and rolls[-1]["rolls"] == [int(d) for d in dice.split(",")]
    assert g.log[-1] == {"event": "undo", "action": "roll d6 3"}
    g.apply("redo")  # exactly the undone event, its own dice
    assert g.history.events[-1] == event


def test_undo_of_what_rolled_nothing_stays_one_step_and_leaves_the_log():
    # rule: "Undo of anything else (a correction, a counter, a phase with no roll) stays
    # one long press."
    g = new_game("kaiju", seed=3)
    before = list(g.log)
    g.apply("add P1.energy 3")
    g.apply("undo")
    assert g.log == before


def test_redo_gives_the_undone_dice_and_new_rolls_go_on_after():
    straight = new_game("tactics", seed=9, actions=["roll d20", "roll d20", "roll d20"])
    g = new_game("tactics", seed=9, actions=["roll d20", "roll d20"])
    second = g.history.events[-1]
    g.apply("undo agreed")
    g.apply("redo")
    assert g.history.events[-1] == second
    assert g.apply("roll d20") == straight.history.events[-1]


def test_roll_event_carries_results_and_log_entry():
    g = new_game("tactics", seed=9)
    event = g.apply("roll d20 3 for=dispute")
    text, bar, dice = event.partition("|")
    assert text == "roll d20 3 for=dispute"
    entry = g.log[-1]
    assert entry["event"] == "roll" and entry["die"] == "d20" and entry["reason"] == "dispute"
    assert dice == ",".join(map(str, entry["rolls"]))
    assert len(entry["rolls"]) == 3 and all(1 <= r <= 20 for r in entry["rolls"])


def test_secret_picks_stay_hidden_until_all_have_picked():
    g = new_game("juggernauts", seed=4)
    g.apply("pick P1 d12")
    seen = json.dumps(public_state(g))
    assert "d12" not in seen  # not in players, log or anywhere
    refused(g, "next", "P2 must pick a commander first")
    refused(g, "pick P1 d4", "it is P2's turn to pick")
    g.apply("pick P2 d4")
    state = public_state(g)
    assert state["players"]["P1"]["commander"] == "d12"
    assert state["players"]["P2"]["commander"] == "d4"
    reveal = [e for e in state["log"] if e["event"] == "reveal"]
    assert reveal == [{"event": "reveal", "secret": "commander",
                       "picks": {"P1": "d12", "P2": "d4"}}]
    assert len([k for k in state["pieces"] if k.startswith("P1.")]) == 12


def test_turn_order_by_value_breaks_ties_at_random_once_and_keeps_it():
    orders = set()
    for seed in range(40):
        g = new_game("kaiju", seed=seed, players=4)
        orders.add(tuple(g.state["order"]))
        first = list(g.state["order"])
        for _ in range(30):
            g.apply("next")
        assert g.state["order"] == first  # fixed for the game
    # Titans (60) and Abyss (55) lead; Swarm and Default tie at 50: the shuffle decides
    assert orders == {("P1", "P2", "P3", "P4"), ("P1", "P2", "P4", "P3")}


def test_turn_order_by_value_puts_highest_first(tmp_path):
    data = rules("kaiju")
    g = Game(data, players=3, seed=1)
    g.apply("set P2.initiative 70")
    g.order_players(data["turn_order"])
    assert g.state["order"][0] == "P2"


def test_glory_win_at_20_and_tiebreak():
    g = new_game("kaiju", seed=2, players=3)
    g.apply("set P1.glory 19")
    assert g.state["result"] is None
    g.apply("glory P1 1")
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")
    refused(g, "next", "the game is over")
    assert public_state(g)["seed"] == 2  # revealed at the end


def test_knock_out_trigger_at_fortitude_plus_bonus():
    g = new_game("kaiju", seed=2)
    apply(g, "add {Kraken}.damage 6")  # FORTITUDE 6, Abyss's bonus +1: out at 7
    assert piece_state(g, "Kraken")["ko"] == 0
    apply(g, "add {Kraken}.damage 1")
    assert piece_state(g, "Kraken")["ko"] == 1


def test_last_team_standing_wins():
    g = new_game("kaiju", seed=2, players=3)
    apply(g, "add {Kraken}.damage 7", "add {Leviath}.damage 8")
    assert g.state["lost"] == ["P2"] and g.state["result"] is None
    for name in ("Hive", "Stinger", "Drone"):  # Swarm: FORTITUDE 3, 3, 2, bonus +3
        apply(g, "add {%s}.damage 7" % name)
    assert (g.state["result"], g.state["winner"]) == ("win", "P1")


def test_everyone_losing_at_once_is_a_tie():
    g = new_game("juggernauts", seed=2)
    g.apply("pick P1 d4")
    g.apply("pick P2 d4")
    while g.phase()["name"] != "recover":
        g.apply("next")
    g.apply("set P1.alerts 3")
    g.apply("set P2.alerts 3")
    assert g.state["result"] is None  # checked at the end of the round
    g.apply("next")
    assert (g.state["result"], g.state["winner"]) == ("tie", None)


def test_options_change_numbers_and_bad_options_are_refused():
    short = new_game("jugger", seed=1)
    long = new_game("jugger", seed=1, options={"length": "long"})
    assert short.value("target") == 1 and long.value("target") == 3
    with pytest.raises(Illegal, match="option length must be one of short, long"):
        new_game("jugger", options={"length": "medium"})
    with pytest.raises(Illegal, match="unknown option"):
        new_game("jugger", options={"speed": "fast"})
    with pytest.raises(Illegal, match="takes 2 to 2 players"):
        new_game("jugger", players=3)


def test_replay_rebuilds_the_same_state():
    g = new_game("jugger", seed=8)
    for action in ["next", "next", "add P1.j1.crouch 3", "next", "next", "next", "next"]:
        g.apply(action)
    again = new_game("jugger", seed=8)
    again.history.replay(g.history.events)
    assert again.state == g.state and again.log == g.log


def test_commitment_is_a_hash_of_the_seed():
    assert commitment(5) != commitment(6)
    assert len(commitment(5)) == 64  # all 256 bits of SHA-256: no two seeds found to share
    assert public_state(new_game("kaiju", seed=5))["commitment"] == commitment(5)


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_illegal_action_in_run_reports_and_exits_2(runtime):
    outcome = play("kaiju", None, 1, {}, ["next", "roar P1"], runtime)
    assert outcome.refused == (2, "roar is for the action phase, not draw")
    assert outcome.state is None


def test_run_gives_identical_json_in_both_runtimes():
    actions = ["commander P1 d8", "commander P2 d6", "next", "next", "add P1.power 2", "undo",
               "redo", "roll d20 2", "next", "next", "next", "next", "next"]
    cp = play("juggernauts", None, 11, {"async": "true"}, actions, "cpython")
    mp = play("juggernauts", None, 11, {"async": "true"}, actions, "micropython")
    assert cp.refused is None
    assert canonical(cp.state) == canonical(mp.state)
    assert cp.state["screen"][0].startswith("Juggernauts")


def phased(phases, **extra):
    data = {"format": 1, "name": "phased", "counters": {"n": {"start": 0}},
            "players": {"min": 2, "max": 4},
            "phases": phases, **extra}
    return Game(loaded(json.dumps(data)), players=3, seed=1)


def test_a_skipped_turn_phase_is_skipped_whole():
    g = phased([
        {"name": "draw", "enter": [{"add": "P1.n"}]},
        {"name": "duel", "per_player": True, "skip_if": {">=": [{"get": "P1.n"}, 2]},
         "turn": [{"add": "$p.n", "n": 10}], "exit": [{"add": "P2.n", "n": 100}]},
        {"name": "end"}])
    g.apply("next")  # round 1: P1.n is 1, the duel is played: a turn each
    assert g.phase()["name"] == "duel" and g.active_player() == "P1"
    for _ in range(3):
        g.apply("next")
    assert g.phase()["name"] == "end"
    assert [g.state["players"][p]["n"] for p in ("P1", "P2", "P3")] == [11, 110, 10]
    g.apply("next")  # round 2: P1.n reaches 12 at draw
    g.apply("next")  # the duel is skipped: no turn effects, no exit, straight to end
    assert g.phase()["name"] == "end" and g.state["round"] == 2
    assert [g.state["players"][p]["n"] for p in ("P1", "P2", "P3")] == [12, 110, 10]


def test_a_round_of_skipped_phases_does_not_loop_forever():
    g = phased([{"name": "a", "skip_if": True}, {"name": "b", "skip_if": True}])
    g.apply("next")
    assert g.state["round"] >= 1  # it stopped somewhere, and answered


def test_named_fields_of_a_form_are_not_read_as_operators():
    data = {"format": 1, "name": "fields", "counters": {"n": {"start": 0}},
            "pieces": {"counters": {"hp": {"start": 2}}},
            "setup": [{"make_pieces": {"count": 2}}],
            "actions": {"tally": {"effects": [
                {"set": "$p.n", "to": {"count_pieces": {"of": "P1"}}}]}}}
    ruleset.check(data)
    data["actions"]["tally"]["effects"][0]["to"] = {"count_peices": {"of": "P1"}}
    with pytest.raises(ruleset.RulesetError, match="unknown operator 'count_peices'"):
        ruleset.check(data)


# An action says who may do it and how often; the engine refuses the rest, with the
# reason, the same on both runtimes.
TURNS = {
    "format": 1, "name": "turns", "players": {"min": 2, "max": 2, "default": 2},
    "counters": {"coins": {"start": 0}}, "game": {"defender": "P2", "combat": 1},
    "pieces": {"counters": {"hp": {"start": 1, "min": 0}}, "each": [{"key": "a"}, {"key": "b"}]},
    "phases": [{"name": "play", "per_player": True}, {"name": "market"}],
    "actions": {
        "shout": {"params": ["p"], "who": "turn", "limit": {"per": "turn", "as": "action"},
                  "effects": [{"add": "$p.coins", "n": 1}]},
        "rest": {"params": ["p"], "who": "turn", "limit": {"per": "turn", "as": "action"},
                 "effects": []},
        "block": {"params": ["p"], "who": {"get": "game.defender"}, "effects": []},
        "bet": {"params": ["p", "n"], "limit": {"per": "round", "times": 2},
                "effects": [{"add": "$p.coins", "n": {"arg": "n"}}]},
        # once per combat: a count lasts while the expression keeps its value
        "fight": {"params": ["p"], "limit": {"per": {"get": "game.combat"}, "named": "combat"},
                  "effects": []},
        "truce": {"effects": [{"add": "game.combat", "n": 1}]},
        # with what the state allows: only a piece still standing is hit
        "hit": {"params": ["k"], "strict": ["k"],
                "choices": {"k": {"list_pieces": {"where": {">": [{"get": "$k.hp"}, 0]}}}},
                "effects": [{"add": "$k.hp", "n": -1}]},
    },
}


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("actions, refusal", [
    (["shout P2"], "it is P1's turn, not P2's"),  # out of turn
    (["shout P1", "shout P1"], "P1 already took its action this turn"),  # twice in a turn
    (["shout P1", "rest P1"], "P1 already took its action this turn"),  # one of a set
    (["block P1"], "only P2 may block now"),  # who an expression names
    (["bet P1 1", "next", "bet P1 1", "next", "bet P1 1"], "P1 already took all 2 bet this round"),
    (["bet P1 1 amount=3"], "bet has no argument amount; it takes p n"),  # misspelt
    (["fight P1", "fight P1"], "P1 already took its fight this combat"),  # per combat
    (["hit P1.a", "hit P1.a"], "hit k=P1.a: it is one of P1.b P2.a P2.b"),  # a fallen piece
])
def test_who_may_act_and_how_often_is_refused_with_the_reason(tmp_path, runtime, actions,
                                                              refusal):
    path = tmp_path / "turns.json"
    path.write_text(json.dumps(TURNS))
    outcome = play(str(path), None, 1, {}, actions, runtime)
    assert outcome.refused == (len(actions), refusal)


def test_a_turns_limit_starts_again_with_the_next_turn_and_round():
    game = new_game(json.loads(json.dumps(TURNS)), actions=[
        "shout P1", "next", "shout P2", "next", "next",  # round 2: P1's turn again
        "shout P1", "bet P2 2", "bet P2 3", "fight P1", "truce", "fight P1"])
    assert game.state["round"] == 2
    assert (player(game, "P1")["coins"], player(game, "P2")["coins"]) == (2, 6)
    undoes_and_redoes_exactly(game, ["next", "shout P2", "bet P1 1"])


STATS = {
    "format": 1, "name": "stats", "players": {"min": 2, "max": 2, "default": 2},
    "counters": {"score": {"start": 0}},
    "pieces": {"stats": {"reach": 1, "kind": "foot"},
               "each": [{"key": "a", "stats": {"power": 2}}, {"key": "b"}]},
    "actions": {
        "strike": {"params": ["k"], "effects": [
            {"add": "P1.score", "n": {"+": [{"stat": "power"}, {"stat": "reach"}]}}]},
        "mount": {"params": ["k"], "effects": [{"set": "$k.kind", "to": "horse"},
                                               {"set": "$k.reach", "to": 3}]},
    },
}


# A card put into play mid-game is a piece: make_pieces numbers it on from ``from`` and
# works its ``stats`` out, so a second ally is P1.a2 with its own FORTITUDE.
CARDS = {
    "format": 1, "name": "cards", "players": {"min": 2, "max": 2, "default": 2},
    "actions": {"ally": {"params": ["p", "n"], "effects": [{"make_pieces": {
        "count": 1, "prefix": "a", "from": {"+": [{"count_pieces": {"of": {"bound": "p"}}}, 1]},
        "stats": {"fortitude": {"arg": "n"}}}}]}},
}


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_pieces_made_in_play_are_numbered_on_with_stats_worked_out(tmp_path, runtime):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(CARDS))
    outcome = play(str(path), None, 1, {}, ["ally P1 3", "ally P1 5", "ally P2 4"], runtime)
    assert outcome.refused is None
    pieces = outcome.state["pieces"]
    assert sorted(pieces) == ["P1.a1", "P1.a2", "P2.a1"]
    assert [pieces[k]["stats"]["fortitude"] for k in sorted(pieces)] == [3, 5, 4]


def said_last(state):
    return [e["text"] for e in state["log"] if e["event"] == "note"][-1]


# A combat card by card: the engine pays each card from the stat left in this combat,
# then the pool up to the cap; an unpaid card is a BLUFF; damage less toughness; a
# combo keeps the initiative; two passes in succession end it.
DUEL = {
    "format": 1, "name": "duel", "players": {"min": 2, "max": 2, "default": 2},
    "counters": {"gold": {"start": 3}, "used": {"start": 0}, "paid": {"start": 0},
                 "free": {"start": 0}},
    "pieces": {"counters": {"wounds": {"start": 0}},
               "each": [{"key": "h", "stats": {"might": 2, "cap": 2}}]},
    "combat": {"lead": ["strike"], "reply": ["block"], "costs": {"used": "might"},
               "pool": "gold", "spent": "paid", "cap": "cap", "free": "free", "hit": "hurt"},
    "actions": {
        "fight": {"params": ["p"], "effects": [
            {"combat": "begin", "a": "P1.h", "d": ["P2.h"], "dp": "P2", "foe": "P2's hero"}]},
        "card": {"params": ["p", "kind", "might", "gold", "dmg", "tough"], "flags": ["combo"],
                 "effects": [{"combat": "card", "kind": {"arg": "kind"},
                              "cost": {"used": {"arg": "might"}, "x": {"arg": "gold"}},
                              "damage": {"arg": "dmg"}, "toughness": {"arg": "tough"},
                              "combo": {"arg": ["combo", 0]}}]},
        "none": {"params": ["p"], "effects": [{"combat": "pass"}]},
        "hurt": {"params": ["k", "n"], "private": True,
                 "effects": [{"add": "$k.wounds", "n": {"arg": "n"}}]},
    },
}


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_changed_stat_is_the_pieces_own_and_takes_effect(tmp_path, runtime):
    # Issue 23: "set P1.j2.attack 3 is accepted and has no effect on the dice"
    path = tmp_path / "stats.json"
    path.write_text(json.dumps(STATS))
    actions = ["set P1.a.power 5", "mount P1.b", "set P2.b.kind chariot", "strike P1.a",
               "strike P1.b"]
    outcome = play(str(path), None, 1, {}, actions, runtime)
    assert outcome.refused is None
    pieces = outcome.state["pieces"]
    assert (pieces["P1.a"]["stats"]["power"], pieces["P1.b"]["stats"]["kind"]) == (5, "horse")
    assert pieces["P2.b"]["stats"]["kind"] == "chariot" and pieces["P2.a"]["stats"]["power"] == 2
    assert outcome.state["players"]["P1"]["score"] == (5 + 1) + (0 + 3)
    game = new_game(json.loads(json.dumps(STATS)), actions=actions[:1])
    assert game.rules["pieces"]["each"][0]["stats"]["power"] == 2  # the ruleset stays
    undoes_and_redoes_exactly(game, ["mount P1.b", "set P2.a.power 4"])


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_a_combat_card_by_card_pays_bluffs_and_deals_damage(tmp_path, runtime):
    path = tmp_path / "duel.json"
    path.write_text(json.dumps(DUEL))
    actions = ["fight P1", "card P1 strike 2 1 4 0 combo",  # might 2 of 2, 1 gold
               "card P2 block 0 0 0 1",  # 4 - 1
               "card P1 strike 1 1 5 0",  # might spent: 2 gold, over the cap 2: a BLUFF
               "card P2 block 1 0 0 2",  # paid: the bluff does nothing
               "none P2", "none P1"]  # P2 had the initiative: both pass, it ends
    outcome = play(str(path), None, 1, {}, actions, runtime)
    assert outcome.refused is None
    state = outcome.state
    assert (state["pieces"]["P2.h"]["wounds"], state["pieces"]["P1.h"]["wounds"]) == (3, 0)
    assert (state["players"]["P1"]["gold"], state["players"]["P1"]["paid"]) == (2, 1)
    assert state["game"]["combat"] == 0 and said_last(state) == "Combat over: P1 and P2"
    said = [e["text"] for e in state["log"] if e["event"] == "note"]
    assert said[:3] == ["h fights P2's hero: P1 has the initiative",
                        "P1 strike: paid, gold 1; P2 replies",
                        "P1 deals 3, P2 deals 0. Combo: P1 has the initiative"]
    assert "P1 bluffs, deals 0, P2 deals 0. P2 has the initiative" in said
    refusal = play(str(path), None, 1, {}, actions[:2] + ["card P1 strike 0 0 1 0"],
                   runtime).refused
    assert refusal == (3, "it is P2's card now")


@pytest.mark.parametrize("name", ["juggernauts", "impactics", "jugger", "tactics", "kaiju"])
def test_a_preview_leaves_the_game_as_it_was_in_every_recorded_game(name):
    # A preview works on a copy that shares the players' and pieces' records until
    # one is changed (Game.writable): every action of the bench's recorded games,
    # previewed before it is done, leaves the game's state exactly as it was, the
    # game's own records the very objects they were, and says what the action says.
    import copy

    from arbiter.game.preview import preview
    from arbiter_referee.bench import scenarios

    recorded = {g.name: g for g in scenarios.GAMES}[name]
    game = Game(rules(name), recorded.players, recorded.options, recorded.seed)
    said = 0
    for action in recorded.actions:
        before = copy.deepcopy(game.state)
        records = {k: v for part in ("players", "pieces") for k, v in game.state[part].items()}
        text = preview(game, action, {})
        assert game.state == before, action
        assert all(game.state["players" if "." not in k else "pieces"][k] is v
                   for k, v in records.items()), action
        try:
            game.apply(action)
        except Illegal:
            continue
        if text and not game.rolls and game.state["message"]:
            assert text == game.state["message"], action
            said += 1
    assert said  # some actions said what they did, as previewed


@pytest.mark.parametrize("name", ["juggernauts", "impactics", "jugger", "tactics", "kaiju"])
def test_a_snapshot_stays_as_it_was_taken_while_the_game_goes_on(name):
    # A snapshot shares the game's records until the game changes one (it copies it
    # first: Game.writable), so undo and a refusal's rollback find each snapshot as
    # it was: every recorded game, played as a device plays it, its snapshots checked
    # against copies made when each was taken, after every action.
    import copy

    from arbiter.store.journal import DEVICE_KEEP
    from arbiter_referee.bench import scenarios

    recorded = {g.name: g for g in scenarios.GAMES}[name]
    game = Game(rules(name), recorded.players, recorded.options, recorded.seed, DEVICE_KEEP)
    taken = {}
    for action in recorded.actions:
        try:
            game.apply(action)
        except Illegal:
            pass
        for count, state, _ in game.history.snaps:
            kept = taken.setdefault(id(state), (state, copy.deepcopy(state)))
            assert state == kept[1], (action, count)
    assert len(taken) >= 3



@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("junk, reason", [("undo P1", "usage: undo, undo agreed"),
                                          ("undo 1", "usage: undo, undo agreed"),
                                          ("undo junk", "usage: undo, undo agreed"),
                                          ("undo agreed=1", "usage: undo, undo agreed"),
                                          ("redo agreed", "usage: redo"),
                                          ("redo 2", "usage: redo")])
def test_junk_after_undo_or_redo_is_refused_as_after_next(junk, reason, runtime):
    # docs/rulesets.md, generic actions: "`undo` | take back the last action (`undo
    # agreed` when the table must agree); nothing else may follow it" (issue 44: `undo
    # P1`, `undo 1`, `undo junk` were taken as a plain undo)
    outcome = play("kaiju", 2, 3, {}, ["add P1.energy 3", "undo", "redo", junk], runtime)
    assert outcome.refused == (4, reason)
