"""Seeded mutants of the bundled rulesets, as a designer's slips make them: a name
misspelt, a field left out or of the wrong kind, a number out of place. What the
checker (``arbiter validate``) accepts of them must start and play without a
Python exception: a fault found only at play is a refusal with its reason.
``arbiter bench --mutants N`` makes N (the issue's 2,000); the suite a sample."""

from __future__ import annotations

import copy
import json
import random

from arbiter_referee.rulesets import bundled

TYPOS = "abcdefghijklmnopqrstuvwxyz_"
EVERY = 100  # mutants between two lines of the bench's progress


def _places(node, path=()):
    """Every (path, value) of a JSON tree, the root's children first."""
    out = []
    stack = [(path, node)]
    while stack:
        here, value = stack.pop()
        out.append((here, value))
        if isinstance(value, dict):
            stack.extend((here + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((here + (i,), v) for i, v in enumerate(value))
    return out


def _typo(rng, text):
    if not text:
        return "x"
    i = rng.randrange(len(text))
    kind = rng.randrange(3)
    if kind == 0:  # a letter dropped
        return text[:i] + text[i + 1:] or "x"
    if kind == 1:  # a letter changed
        return text[:i] + rng.choice(TYPOS) + text[i + 1:]
    return text[:i] + text[i:i + 2][::-1] + text[i + 2:]  # two swapped


def mutate(rng, data):
    """One slip in a copy of ``data``; (the copy, what was done)."""
    data = copy.deepcopy(data)
    places = [p for p in _places(data) if p[0]]
    path, value = rng.choice(places)
    holder = data
    for key in path[:-1]:
        holder = holder[key]
    last = path[-1]
    what = rng.randrange(8)
    where = ".".join(map(str, path))
    if what == 0 and isinstance(holder, dict):
        del holder[last]
        return data, f"{where} left out"
    if what == 1 and isinstance(last, str):
        holder[_typo(rng, last)] = holder.pop(last)
        return data, f"{where} misspelt as a key"
    if what == 2 and isinstance(value, str):
        holder[last] = _typo(rng, value)
        return data, f"{where} misspelt"
    if what == 3 and isinstance(value, int) and not isinstance(value, bool):
        holder[last] = rng.choice([-1, 0, 1, value + 1, -value, 99, 1000])
        return data, f"{where} = {holder[last]}"
    if what == 4:
        holder[last] = rng.choice(["x", 1, True, [], {}, None, [1], {"get": "$p.x"}])
        return data, f"{where} of another kind"
    if what == 5 and isinstance(holder, list):
        holder.insert(last, copy.deepcopy(value))
        return data, f"{where} twice"
    if what == 6 and isinstance(value, dict) and value:
        key = rng.choice(sorted(value))
        value[_typo(rng, key)] = value.pop(key)
        return data, f"{where}.{key} misspelt as a key"
    if isinstance(value, list) and value:
        del value[rng.randrange(len(value))]
        return data, f"{where}: an item left out"
    holder[last] = copy.deepcopy(rng.choice(places)[1])
    return data, f"{where} replaced by another part"


def sources():
    return {name: json.loads(path.read_text()) for name, path in bundled().items()}


def random_action(rng, game) -> str:
    """A pick when one is due, else ``next``, undo, redo, a correction or one of the
    ruleset's actions with players, pieces, numbers (some out of range) and words."""
    from arbiter.game.actions import pending_pick

    secret, picker = pending_pick(game)
    if secret is not None:
        return f"pick {picker} {rng.choice(secret['choices'] + ['nothing'])}"
    state = game.state
    words = list(state["players"]) + list(state["pieces"]) + [
        str(rng.choice([0, 1, 2, 3, 6, -1, 31, 99])), "x", "1,1", "P1,P1"]
    choice = rng.random()
    if choice < 0.2:
        return "next"
    if choice < 0.3:
        return rng.choice(["undo", "undo agreed", "redo"])
    if choice < 0.4:
        counters = list(game.rules.get("counters", {})) or ["x"]
        return f"add {rng.choice(list(state['players']))}.{rng.choice(counters)} {words[-5]}"
    name = rng.choice(sorted(game.rules.get("actions", {})) or ["next"])
    return " ".join([name] + [rng.choice(words) for _ in range(rng.randrange(4))])


def trial(text: str, seed: int, actions: int = 10) -> tuple[bool, str | None]:
    """(accepted, trouble): the checker's verdict on ``text``, and for a ruleset it
    accepts, what went wrong starting and playing ``actions`` random actions
    (None: nothing did; refusals are no trouble)."""
    from arbiter_referee.rulesets import check_text

    if check_text(text) is not None:
        return False, None
    from arbiter.game import Illegal
    from arbiter.game.engine import Game
    from arbiter.screens.view import play_lines
    from arbiter_referee.compiled import loaded

    rng = random.Random(seed)
    try:
        game = Game(loaded(text), seed=seed)
        for _ in range(actions):
            try:
                game.apply(random_action(rng, game))
            except Illegal:
                pass
            play_lines(game)  # what the device draws after each
        game.public()
    except Exception as exc:  # noqa: BLE001  the trouble, in a line
        return True, f"{type(exc).__name__}: {exc}"
    return True, None


def run(count: int, seed: int = 44, first: int = 0, progress=None) -> dict:
    """Mutants ``first`` to ``first + count`` of the seeded series: how many were made
    and accepted, and each accepted one that failed, as (ruleset, slip, trouble)."""
    rng = random.Random(seed)
    data = sources()
    names = sorted(data)
    accepted, failed = 0, []
    for i in range(first + count):
        name = names[i % len(names)]
        mutant, what = mutate(rng, data[name])
        if i < first:
            continue
        ok, trouble = trial(json.dumps(mutant), seed + i)
        accepted += ok
        if trouble:
            failed.append((name, what, trouble))
        if progress and (i - first + 1) % EVERY == 0:
            progress(f"mutants up to {i + 1:,}: {accepted:,} accepted, {len(failed)} failed")
    return {"made": count, "accepted": accepted, "failed": failed}


def line(result: dict) -> str:
    return (f"{result['made']:,} mutants of the bundled rulesets: {result['accepted']:,} "
            f"accepted by the checker, {len(result['failed'])} of them failed to start or "
            f"raised")
