"""Fuzzing every bundled ruleset with random actions, legal and not (seeded).

For each ruleset, 10,000 actions: nothing crashes (every refusal is an
``Illegal`` with a reason), every counter stays within its bounds, a refused
action changes nothing, and undoing an event restores the previous state
exactly (redo restores the next)."""

import random

import pytest
from helpers.game import rules, snapshot

from arbiter.game import Illegal
from arbiter.game.actions import pending_pick
from arbiter.game.effects import action
from arbiter.game.engine import Game
from arbiter_referee.rulesets import bundled

ACTIONS_PER_RULESET = 10_000
NEW_GAME_EVERY = 250  # keeps replays (and so the run) short


def random_action(rng, game):
    state = game.state
    players = list(state["players"]) + ["P9"]
    pieces = list(state["pieces"]) + ["P1.zz"]
    counters = list(game.rules.get("counters", {})) + ["bogus"]
    piece_counters = list(game.rules.get("pieces", {}).get("counters", {})) or ["hp"]
    number = rng.choice([0, 1, 2, 3, -1, -3, 5, 20, -50, 999])
    secret, picker = pending_pick(game)
    if secret and rng.random() < 0.5:  # mostly-right picks, so games get going
        return f"pick {picker} {rng.choice(secret['choices'])}"
    choice = rng.random()
    if choice < 0.15 and game.rules.get("actions"):  # guided: an action the game accepts
        for _ in range(12):
            name = rng.choice(sorted(game.rules["actions"]) + ["next"])
            text = by_params(rng, game, name, players, pieces, number)
            if accepted(game, text):
                return text
    if choice < 0.25:
        return "next"
    if choice < 0.45:
        return f"add {rng.choice(players)}.{rng.choice(counters)} {number}"
    if choice < 0.55:
        return f"set {rng.choice(pieces)}.{rng.choice(piece_counters)} {number}"
    if choice < 0.62:
        return f"roll {rng.choice(['d6', 'd20', 'd0', 'x', 'd1001'])} {rng.choice([1, 3, 0, 40])}"
    if choice < 0.72:
        secrets = game.rules.get("secrets") or [{"choices": ["x"]}]
        return f"pick {rng.choice(players)} {rng.choice(secrets[0]['choices'] + ['d7'])}"
    if choice < 0.85 and game.rules.get("actions"):
        name = rng.choice(sorted(game.rules["actions"]))
        if rng.random() < 0.5:  # by the action's params, from its choices where it has them
            return by_params(rng, game, name, players, pieces, number)
        return f"{name} {rng.choice(players)} {number}"
    if choice < 0.9:
        return rng.choice(["undo", "redo"])
    return rng.choice(["", "fly away", "add", "set P1", "add P1.power", "roll", "pick",
                       "next now", "add P1..x 1", "set P1.k1.damage.x 2"])


def accepted(game, text):
    """Whether the game would accept an action now (tried, then taken back)."""
    from arbiter.game.actions import parse
    from arbiter.game.state import clone

    state, rng, length = clone(game.state), game.rng.snapshot(), len(game.log)
    try:
        game.do(text, *parse(text))
    except Illegal:
        return False
    game.state, game.log = state, game.log[:length]
    game.rng.restore(rng)
    return True


def by_params(rng, game, name, players, pieces, number):
    """``name`` and a value for each of its params, chosen in turn as the device's form
    offers them: each param's choices worked out with those before it bound."""
    chosen = {}
    for param in (action(game, name) or {}).get("params", []):
        chosen[param] = rng.choice(param_options(game, name, param, players, pieces, number,
                                                 chosen))
    return " ".join([name] + list(chosen.values()))


def param_options(game, name, param, players, pieces, number, bound=None):
    """What the device's form would offer for a param (plus the fuzz's wrong ones),
    the params before it ``bound`` as the form binds them (forms.param_choices)."""
    from arbiter.game import RuleError
    from arbiter.game.expr import evaluate

    offered = (action(game, name) or {}).get("choices", {})
    if param in offered:
        saved, game.binding = game.binding, dict(bound or {})
        try:
            values = evaluate(game, offered[param])
        except RuleError:  # as the form: nothing it can offer, so all
            values = pieces if param in ("k", "t") else []
        finally:
            game.binding = saved
        return [str(v) for v in values] or [str(number)]
    if param == "p":  # mostly real players, the one whose turn it is most
        return players + [p for p in players[:-1]] + [game.active_player() or "P1"] * 3
    if param in ("k", "t"):
        return pieces
    return [str(number)]


def declared_checks(game, text):
    """Whether ``text`` keeps what its ruleset action declares, as the game stands:
    its phases, ``who: "turn"`` and its ``strict`` arguments among their choices."""
    from arbiter.game.actions import parse

    try:
        name, args = parse(text)
    except Illegal:
        return True
    spec = action(game, name)
    if spec is None or game.state["round"] == 0 or game.state["result"]:
        return True
    if spec.get("phases") and game.phase()["name"] not in spec["phases"]:
        return False
    named = dict(zip(spec.get("params", ()), args["_"], strict=False), **{
        k: v for k, v in args.items() if k != "_"})
    if spec.get("who") == "turn" and game.active_player() and "p" in named:
        if named["p"] != game.active_player():
            return False
    for key in spec.get("strict", ()):  # a fixed list (an expression may need bindings)
        offered = spec["choices"][key]
        if key in named and isinstance(offered, list) and named[key] not in offered:
            return False
    return True


def check_bounds(game):
    for kind, records, specs in (
        ("player", game.state["players"], game.rules.get("counters", {})),
        ("piece", game.state["pieces"], game.rules.get("pieces", {}).get("counters", {})),
    ):
        for key, record in records.items():
            for name, spec in specs.items():
                if "choices" in spec:
                    assert record[name] in spec["choices"], (key, name, record[name])
                    continue
                low, high = game.bounds(spec, kind, key)
                value = record[name]
                assert (low is None or value >= low) and (high is None or value <= high), (
                    key, name, value, low, high)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(bundled()))
def test_random_actions_never_crash_or_break_bounds_and_undo_is_exact(name):
    data = rules(name)
    rng = random.Random(f"fuzz-{name}")
    spec = data.get("players", {})
    game, refused, applied, undo_checks = None, 0, 0, 0
    for i in range(ACTIONS_PER_RULESET):
        # a new game now and then, and soon after one ends (a few refusals of a game
        # that is over are enough)
        if i % NEW_GAME_EVERY == 0 or game.state["result"] and rng.random() < 0.1:
            players = rng.randint(spec.get("min", 2), spec.get("max", 2))
            game = Game(data, players=players, seed=rng.randrange(2**32))
        action = random_action(rng, game)
        before = snapshot(game)
        declared = declared_checks(game, action)
        try:
            event = game.apply(action)
        except Illegal as exc:
            assert exc.reason, action
            assert snapshot(game) == before, f"refused {action!r} changed the game"
            refused += 1
            continue
        applied += 1
        check_bounds(game)
        assert declared, f"{action!r} was accepted against what its action declares"
        if event not in ("undo", "redo") and rng.random() < 0.3:
            after = snapshot(game)
            try:
                game.apply("undo agreed")
            except Illegal as exc:  # a reveal is never undone, and stays as it was
                assert "reveal" in exc.reason and snapshot(game)[0] == after[0], action
                continue
            # the state as before; the log keeps what was undone, the dice move on only
            assert snapshot(game)[0] == before[0], f"undo of {action!r} was not exact"
            game.apply("redo")
            kept = (after[0], after[2], after[3])
            assert (snapshot(game)[0], snapshot(game)[2], snapshot(game)[3]) == kept, \
                f"redo of {action!r} was not exact"
            undo_checks += 1
    assert applied > 1000 and refused > 1000 and undo_checks > 300
