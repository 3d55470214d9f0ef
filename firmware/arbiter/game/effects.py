"""Effects in rulesets: what phases, triggers and actions do to the game.

An effect is an object with exactly one key of ``EFFECTS`` (its name) and that
effect's own fields; ``EFFECTS`` maps each name to the function doing it. The
checker (ruleset.py) and docs/rulesets.md read the same table.
"""

import json
import sys

from arbiter.game import LINES, Illegal, RuleError
from arbiter.game.expr import EMPTY, evaluate
from arbiter.game.words import MAX_DICE, MAX_PIECES, NATIVE  # noqa: F401  (the engine's)

MAX_CALLS = 8  # ``call`` nested this deep is a ruleset's loop
MAX_REPEATS = 100  # a ``repeat`` or a tied ``opposed`` roll gives up after this many
# Bounds on one action, so any ruleset's action ends soon on a Pico (the checker
# refuses what it can see; these catch the rest, as a refusal):
MAX_STEPS = 600  # effects run (a bundled game's action runs at most 119)
# triggers and ``next`` set off inside one another (bundled games: 2): each level is
# three or four calls deeper, and a Pico's C stack holds a few dozen (tests/test_stack.py)
MAX_DEPTH = 2


def deeper(game):
    """One level more of triggers or ``next`` inside one another; the caller steps
    back out (an error leaves it: clear_scratch zeroes it after every action)."""
    game.depth += 1
    if game.depth > MAX_DEPTH:
        raise RuleError("the rules set each other off over %d deep: a loop?" % MAX_DEPTH)


def _parsed(game, kept, cache):
    """Effects (or an action) as a loaded ruleset keeps them, JSON text or (compiled)
    the byte offset of their line on flash (ruleset.LINES_HEAD), parsed when wanted
    and kept by ``cache`` (None: by none) from the second time on: what an action
    does once (its own effects, a helper it calls once) is let go when done, what it
    does in a loop is parsed twice, then kept (Jugger's attack held every helper it
    called, parsed, to its end). A rewind's replay keeps each from the first: it
    does most of them again."""
    parsed = None if cache is None else cache.get(kept)
    if parsed is None:
        parsed = json.loads(kept if isinstance(kept, str) else game.rules[LINES](kept))
        if cache is not None:  # None: seen once
            cache[kept] = parsed if kept in cache or game.kept_parses is not None else None
    return parsed


def of_action(game, spec):
    """An action's effects, a list of them per line: parsed when done (kept for an
    action ``call``ed in a loop, see _parsed), so a Pico's heap holds not the parse
    of every action nor, compiled, its text. A long action's lines are parsed one
    at a time and kept by none, its whole parse never held, but in a rewind's
    replay (History.rewind): there each is parsed once for all."""
    effects = spec.get("effects", ())
    if isinstance(effects, str) or type(effects) is int:
        yield _parsed(game, effects, game.parsed)
    elif effects and type(effects[0]) is int:  # the offsets of its lines
        for at in effects:
            yield _parsed(game, at, game.kept_parses)
    else:
        yield effects  # none, or parsed: a ruleset made in code (a test's)


def of_phase(game, phase, key):
    """A phase's ``enter``, ``exit``, ``turn`` or ``leave`` effects (see kept)."""
    return kept(game, phase.get(key, ()))


def kept(game, effects):
    """Effects as a loaded ruleset keeps them besides its actions': a phase's as their
    JSON text (ruleset.pack), a compiled ruleset's on a device (a phase's, a
    trigger's, the setup's) the byte offset of their line on flash; parsed when they
    run (once per action or rewind that runs them again, see _parsed)."""
    if isinstance(effects, str) or type(effects) is int:
        return _parsed(game, effects, game.parsed)
    return effects


# The runner keeps its own stack of what is under way, a frame each (a list,
# changed in place): effects nested however deep take the same few frames of a
# Pico's C stack, where a frame or two a level did not fit (Juggernauts' attack
# nests 9). A block's effect (if, each_player, call...) gives the frame to run.
_RUN = 0  # [_RUN, effects, the next one's place]
_EACH = 1  # [_EACH, items, next place, name, block, binding (None: unbound), old, where]
_REPEAT = 2  # [_REPEAT, the effect, times run]
_PARTS = 3  # [_PARTS, an action's parts (of_action)]; a call's also holds the caller's
# args and binding, given back when it ends
_BIND = 4  # [_BIND, name, binding, old]: given back when the run ends


def action_frame(game, spec):
    """What runs an action's effects, a part at a time (of_action): ``run(game, None,
    frame=action_frame(game, spec))``, called so, not through a function of its own,
    is a frame less deep on a Pico's short C stack."""
    return [_PARTS, of_action(game, spec)]


def _block(game, effects):
    game.steps += len(effects)  # a count, no allocation: the bound on a looping ruleset
    if game.steps > MAX_STEPS:
        raise RuleError("the action takes over %d steps: a loop?" % MAX_STEPS)
    return [_RUN, effects, 0]


def run(game, effects, name=None, value=None, frame=None):
    """Runs ``effects`` (or ``frame``), with ``$name`` bound to ``value`` if given (set
    in place and given back after, not copied: this runs for every piece looked at)."""
    todo = []
    if name is not None:
        binding = game.binding
        todo.append([_BIND, name, binding, binding.get(name)])
        binding[name] = value
    todo.append(frame or _block(game, effects))
    try:
        while todo:
            frame = todo[-1]
            kind = frame[0]
            if kind == _RUN:
                effects, i = frame[1], frame[2]
                if i >= len(effects):
                    todo.pop()
                    continue
                frame[2] = i + 1
                effect = effects[i]
                for name in effect:  # its fields are not names in the table
                    do = EFFECTS.get(name)
                    if do is not None:
                        more = do(game, effect)
                        if more is not None:  # a block: its frame runs next
                            todo.append(more)
                        break
                else:
                    raise RuleError("unknown effect %r" % (effect,))
            elif kind == _EACH:
                _each_next(game, todo, frame)
            elif kind == _REPEAT:
                effect = frame[1]
                if frame[2] and evaluate(game, effect["until"]):
                    todo.pop()
                elif frame[2] >= MAX_REPEATS:
                    raise RuleError("repeat: still not done after %d times" % MAX_REPEATS)
                else:
                    frame[2] += 1
                    todo.append(_block(game, effect["repeat"]))
            elif kind == _PARTS:
                part = next(frame[1], None)
                if part is None:
                    _end(game, todo.pop())
                else:
                    todo.append(_block(game, part))
                part = None  # garbage before the next part is parsed
            else:
                _end(game, todo.pop())
    except BaseException:
        while todo:  # what the frames bound is given back, however the run ends
            _end(game, todo.pop())
        raise


def _end(game, frame):
    """A frame done (or left by an error): what it bound given back."""
    kind = frame[0]
    if kind == _PARTS and len(frame) > 2:  # a call's: the caller's args and binding
        game.args, game.binding = frame[2], frame[3]
        game.calls.pop()
    elif kind == _BIND or kind == _EACH and frame[5] is not None:
        name, binding, old = (frame[1], frame[2], frame[3]) if kind == _BIND else \
            (frame[3], frame[5], frame[6])
        if old is None:
            binding.pop(name, None)
        else:
            binding[name] = old


def _each_next(game, todo, frame):
    """each_player, each_piece, for_each: the next item bound and its block to run."""
    items, i, name, where = frame[1], frame[2], frame[3], frame[7]
    while i < len(items):
        item = items[i]
        i += 1
        if where is None or game.bound_eval(name, item, where):
            frame[2] = i
            if frame[5] is None:  # the first: what the name was bound to, to give back
                frame[5] = game.binding
                frame[6] = game.binding.get(name)
            frame[5][name] = item
            todo.append(_block(game, frame[4]))
            return
    _end(game, todo.pop())


def _add(game, effect):
    """``add`` PATH, ``n`` (1): a counter goes up (or down)."""
    path = effect["add"]
    game.change(path, game.get(path) + _int(evaluate(game, effect.get("n", 1))))


def _set(game, effect):
    """``set`` PATH, ``to``: a value becomes another."""
    game.change(effect["set"], evaluate(game, effect.get("to")))


def _roll(game, effect):
    """``roll`` DIE (a name or an expression), ``count``, ``player``, ``reason``, ``as``."""
    count = _int(evaluate(game, effect.get("count", 1)))
    who = evaluate(game, effect.get("player", "$p")) if "player" in effect else game.bound("p")
    die = evaluate(game, effect["roll"])
    game.roll(die, count, who, game.text(effect.get("reason", "")), effect.get("as"))


def _require(game, effect):
    """``require`` EXPR, ``reason``: refuses the action unless EXPR holds."""
    if not evaluate(game, effect["require"]):
        raise Illegal(game.text(effect.get("reason", "not allowed now")))


def _if(game, effect):
    """``if`` EXPR, ``then``, ``else``."""
    return _block(game, effect.get("then", ()) if evaluate(game, effect["if"]) else
                  effect.get("else", ()))


def _each(items, name, block, where=None):
    return [_EACH, items, 0, name, block, None, None, where]


def _each_player(game, effect):
    """``each_player``: effects with ``$p`` bound to each player still in, in turn order."""
    return _each(game.players_in_order(), "p", effect["each_player"])


def _each_piece(game, effect):
    """``each_piece``: effects with ``$k`` bound to each piece (``of`` a player, ``where``)."""
    owner = evaluate(game, effect["of"]) if "of" in effect else None
    return _each(game.piece_keys(owner), "k", effect["each_piece"], effect.get("where"))


def _let(game, effect):
    """``let`` NAME, ``be``: a var for the rest of the action."""
    game.vars[effect["let"]] = evaluate(game, effect.get("be"))


def _say(game, effect):
    """``say``: a message, a list of parts (as Context.text: inline, a call less deep)."""
    parts = effect["say"]
    game.say(parts if isinstance(parts, str) else
             "".join([str(part) for part in evaluate(game, parts)]))


def _win(game, effect):
    game.pending_win.append(evaluate(game, effect["win"]))


def _lose(game, effect):
    game.pending_lose.append(evaluate(game, effect["lose"]))


def _tie(game, effect):
    game.pending_tie = True


def _make_pieces(game, effect):
    """``make_pieces`` {``of``, ``count``, ``prefix``, ``from``, ``stats``}: numbered pieces,
    such as a matrix's positions, or a card put into play (its stats worked out)."""
    spec = effect["make_pieces"]
    owner = game.path(spec.get("of", "$p"))
    first = _int(evaluate(game, spec.get("from", 1)))
    stats = spec.get("stats", EMPTY)
    if stats:  # expressions, worked out once for the pieces made now
        stats = {name: evaluate(game, value) for name, value in stats.items()}
    for i in range(_int(evaluate(game, spec["count"]))):
        game.add_piece(owner, {"key": "%s%d" % (spec.get("prefix", ""), first + i),
                               "stats": stats})


def _turn_order(game, effect):
    """``turn_order``: the order worked out again (see order.py; its code loaded for
    it and let go, as Game.order_players does, here: a call less deep)."""
    from arbiter import unload
    from arbiter.game.order import order_players

    game.state["order"] = order_players(game, effect["turn_order"])
    unload("arbiter.game.order")


def _for_each(game, effect):
    """``for_each`` LIST, ``as`` (t), ``do``: effects with ``$as`` bound to each item."""
    items = evaluate(game, effect["for_each"])
    items = [str(item) for item in (items if isinstance(items, list) else [items])]
    return _each(items, effect.get("as", "t"), effect.get("do", ()))


def action(game, name, cache=None):
    """The ruleset's action ``name`` (None: no such action). A compiled ruleset on a
    device keeps the byte offset of its line (ruleset.LINES_HEAD): read and parsed when
    wanted, once per ``cache`` (the action in progress: ``game.parsed``), so a game
    holds none of its actions' fields between actions (Kaiju's were 7 KB)."""
    spec = game.rules.get("actions", EMPTY).get(name)
    return _parsed(game, spec, cache) if type(spec) is int else spec


def _call(game, effect):
    """``call`` ACTION, ``with``: a ruleset action's effects (not its phase check) with
    the arguments in ``with``; ``p``, ``k`` and ``t`` among them bind ``$p``, ``$k``, ``$t``."""
    spec = action(game, effect["call"], game.parsed)
    if spec is None:
        raise RuleError("no action %s to call" % effect["call"])
    if len(game.calls) >= MAX_CALLS:
        raise RuleError("calls nested too deep")
    # copied whole, then filled in place: no table grows, no (name, form) pairs
    forms = effect.get("with", EMPTY)
    args = forms.copy()
    for name in forms:
        args[name] = evaluate(game, forms[name])
    frame = [_PARTS, None, game.args, game.binding]  # given back when the call ends
    game.calls.append(effect["call"])
    game.args, game.binding = args, game.binding.copy()
    try:
        bind_args(game, args)
    except BaseException:
        _end(game, frame)
        raise
    frame[1] = of_action(game, spec)
    return frame


def _team(game, effect):
    """``team`` NAME or NUMBER, ``player``: that player takes the team (see teams.py)."""
    from arbiter import unload
    from arbiter.game.teams import find, give

    who = evaluate(game, effect["player"]) if "player" in effect else game.bound("p")
    try:
        give(game, who, find(game, evaluate(game, effect["team"])))
    finally:
        unload("arbiter.game.teams")  # a setup's code: not held through the game


def _combat(game, effect):
    """``combat``: see combat.py (loaded only by a ruleset with combats); a clash's
    hits and what it says are effects run next."""
    from arbiter.game.combat import combat

    then = combat(game, effect)
    return None if then is None else _block(game, then)


def _next(game, effect):
    """``next``: move on, as the ``next`` action does."""
    deeper(game)
    game.next_phase()
    game.depth -= 1


def _repeat(game, effect):
    """``repeat``: effects, then again until ``until`` holds."""
    return [_REPEAT, effect, 0]


def _opposed(game, effect):
    """Two sides roll; the better score wins; ties re-roll unless ``ties`` is "keep".

    ``{"opposed": {"a": {...roll}, "b": {...roll}, "score": "hits"|"sum", "as": NAME}}``
    sets var NAME to "a", "b" or "tie"."""
    spec = effect["opposed"]
    score = spec.get("score", "sum")
    for _ in range(MAX_REPEATS):
        results = []
        for side in ("a", "b"):
            roll = spec[side]
            who = evaluate(game, roll.get("player"))
            count = _int(evaluate(game, roll.get("count", 1)))
            name = roll.get("as", side)
            game.roll(roll["die"], count, who, spec.get("reason", "opposed roll"), name)
            results.append(game.roll_result(name, score))
        if results[0] != results[1] or spec.get("ties") == "keep":
            break
    game.vars[spec.get("as", "winner")] = (
        "a" if results[0] > results[1] else "b" if results[1] > results[0] else "tie")


def _cards(game, effect):
    """``draw``, ``shuffle``, ``append``, ``remove``: cards and lists (see decks.py),
    whose code is held for the action's other cards and let go at its end
    (Game.clear_scratch): loaded again for each, a hand dealt cost a third more."""
    from arbiter.game import decks

    if "draw" in effect:
        decks.draw(game, effect)
    elif "shuffle" in effect:
        decks.shuffle(game, effect)
    else:
        decks.change_list(game, effect)


def _native(game, effect):
    """``native`` "MODULE.NAME": a game's own logic in firmware code (Tactics Joker's
    board of armies), imported only when the game runs it."""
    if effect["native"] not in NATIVE:
        raise RuleError("unknown native " + str(effect["native"]))
    module, _, fn = effect["native"].partition(".")
    full = "arbiter.game." + module
    __import__(full)
    getattr(sys.modules[full], fn)(game)


EFFECTS = {
    "add": _add, "set": _set, "roll": _roll, "opposed": _opposed, "require": _require,
    "if": _if, "each_player": _each_player, "each_piece": _each_piece, "let": _let,
    "say": _say, "win": _win, "lose": _lose, "tie": _tie, "make_pieces": _make_pieces,
    "turn_order": _turn_order, "for_each": _for_each, "call": _call, "team": _team,
    "next": _next, "repeat": _repeat, "draw": _cards, "shuffle": _cards, "append": _cards,
    "remove": _cards, "combat": _combat, "native": _native,
}


def _int(value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("not a whole number: %r" % (value,))
    return value


def bind_args(game, args):
    """Arguments p, k and t name a player or piece: checked, then bound as $p, $k, $t."""
    for bind in ("p", "k", "t"):
        if bind in args:
            value = str(args[bind])
            known = game.state["players"] if "." not in value else game.state["pieces"]
            if value not in known:
                raise Illegal("no such player or piece: " + value)
            game.binding[bind] = value
