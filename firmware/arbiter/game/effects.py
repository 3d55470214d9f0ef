"""Effects in rulesets: what phases, triggers and actions do to the game.

An effect is an object with exactly one key of ``EFFECTS`` (its name) and that
effect's own fields; ``EFFECTS`` maps each name to the function doing it. The
checker (ruleset.py) and docs/rulesets.md read the same table.
"""

import json
import sys

from micropython import const

from arbiter.game import LINES, MAX_DICE, MAX_PIECES, NATIVE, Illegal, RuleError  # noqa: F401
from arbiter.game.expr import EMPTY, evaluate

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


def _parsed(game, at, cache):
    """Effects (or an action) read from the line at byte ``at`` of the compiled
    ruleset (ruleset.LINES_HEAD) and parsed when wanted, kept by ``cache`` (None: by
    none) from the second time on: what an action does once (its own effects, a
    helper it calls once) is let go when done, what it does in a loop is parsed
    twice, then kept (Jugger's attack held every helper it called, parsed, to its
    end). A rewind's replay keeps each from the first: it does most of them again."""
    parsed = None if cache is None else cache.get(at)
    if parsed is None:
        parsed = json.loads(game.rules[LINES](at))
        if cache is not None:  # None: seen once
            cache[at] = parsed if at in cache or game.kept_parses is not None else None
    return parsed


def of_action(game, spec):
    """An action's effects, a list of them per line: parsed when done (kept for an
    action ``call``ed in a loop, see _parsed), so a Pico's heap holds not the parse
    of every action nor its text. A long action's lines are parsed one at a time
    and kept by none, its whole parse never held, but in a rewind's replay
    (undo.rewind): there each is parsed once for all."""
    lines = spec.get("effects", ())
    cache = game.parsed if len(lines) == 1 else game.kept_parses
    for at in lines:
        yield _parsed(game, at, cache)


def of_phase(game, phase, key):
    """A phase's ``enter``, ``exit``, ``turn`` or ``leave`` effects (see kept)."""
    return kept(game, phase.get(key))


def kept(game, at):
    """The effects of a place besides the actions (a phase's, a trigger's, the
    setup's), read from the line at byte ``at`` (None: there are none) when they
    run, once per action or rewind that runs them again (see _parsed)."""
    return () if at is None else _parsed(game, at, game.parsed)


# The runner keeps its own stack of what is under way: effects nested however deep
# take the same few frames of a Pico's C stack, where a frame or two a level did not
# fit (Juggernauts' attack nests 9). The stack is one list, kept between runs (a run
# inside a run, a trigger's, works above the other's frames), a frame being _W
# slots on it, changed in place: a frame allocates nothing (a list a block was most
# of an action's garbage). A block's effect (if, each_player, call...) opens its
# frame on top, and the runner goes on with it.
_STACK = []
_W = const(8)  # slots a frame: its kind, then (by kind)
_RUN = const(0)  # effects, the next one's place
_EACH = const(1)  # items, the next one's place, the name bound, its block, ``where``, the
# binding (None: not bound yet), what the name was bound to before
_REPEAT = const(2)  # the effect, times run
_PARTS = const(3)  # an action's parts (of_action); a call's: the caller's args and binding
_BIND = const(4)  # name, binding, what it was bound to before: given back when the run ends


def _frame(kind, a=None, b=None, c=None, d=None, e=None, f=None, g=None):
    stack = _STACK
    stack.append(kind)
    stack.append(a)
    stack.append(b)
    stack.append(c)
    stack.append(d)
    stack.append(e)
    stack.append(f)
    stack.append(g)


def _open(game, effects):
    """A block's effects to run next."""
    game.steps += len(effects)  # a count, no allocation: the bound on a looping ruleset
    if game.steps > MAX_STEPS:
        raise RuleError("the action takes over %d steps: a loop?" % MAX_STEPS)
    _frame(_RUN, effects, 0)


def run(game, effects, name=None, value=None, spec=None):
    """Runs ``effects`` (or action ``spec``'s, a part at a time: of_action), with
    ``$name`` bound to ``value`` if given (set in place and given back after, not
    copied: this runs for every piece looked at)."""
    stack = _STACK
    base = len(stack)
    try:
        if name is not None:
            binding = game.binding
            _frame(_BIND, name, binding, binding.get(name))
            binding[name] = value
        if spec is not None:
            _frame(_PARTS, of_action(game, spec))
        else:
            _open(game, effects)
        while len(stack) > base:
            top = len(stack) - _W
            kind = stack[top]
            if kind == _RUN:
                effects, i = stack[top + 1], stack[top + 2]
                if i >= len(effects):
                    _close(game)
                    continue
                stack[top + 2] = i + 1
                effect = effects[i]
                for name in effect:  # its fields are not names in the table
                    do = EFFECTS.get(name)
                    if do is not None:
                        do(game, effect)  # (a block's opens its frame)
                        break
                else:
                    raise RuleError("unknown effect %r" % (effect,))
            elif kind == _EACH:
                _each_next(game, top)
            elif kind == _REPEAT:
                effect = stack[top + 1]
                if stack[top + 2] and evaluate(game, effect["until"]):
                    _close(game)
                elif stack[top + 2] >= MAX_REPEATS:
                    raise RuleError("repeat: still not done after %d times" % MAX_REPEATS)
                else:
                    stack[top + 2] += 1
                    _open(game, effect["repeat"])
            elif kind == _PARTS:
                part = next(stack[top + 1], None)
                if part is None:
                    _close(game)
                else:
                    _open(game, part)
                part = None  # garbage before the next part is parsed
            else:
                _close(game)
    except BaseException:
        while len(stack) > base:  # what the frames bound is given back, however it ends
            _close(game)
        raise


def _close(game):
    """The top frame done (or left by an error): what it bound given back."""
    stack = _STACK
    top = len(stack) - _W
    kind = stack[top]
    if kind == _PARTS and stack[top + 4]:  # a call's: the caller's args and binding
        game.args, game.binding = stack[top + 2], stack[top + 3]
        game.calls.pop()
    elif kind == _BIND:
        _give_back(stack[top + 2], stack[top + 1], stack[top + 3])
    elif kind == _EACH and stack[top + 6] is not None:
        _give_back(stack[top + 6], stack[top + 3], stack[top + 7])
    for _ in range(_W):  # (not del stack[top:]: a slice is garbage)
        stack.pop()


def _give_back(binding, name, old):
    if old is None:
        binding.pop(name, None)
    else:
        binding[name] = old


def _each_next(game, top):
    """each_player, each_piece, for_each: the next item bound and its block to run."""
    stack = _STACK
    items, i, name, where = stack[top + 1], stack[top + 2], stack[top + 3], stack[top + 5]
    while i < len(items):
        item = items[i]
        i += 1
        if where is None or game.bound_eval(name, item, where):
            stack[top + 2] = i
            if stack[top + 6] is None:  # the first: what the name was bound to, to give back
                stack[top + 6] = game.binding
                stack[top + 7] = game.binding.get(name)
            stack[top + 6][name] = item
            _open(game, stack[top + 4])
            return
    _close(game)


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
    _open(game, effect.get("then", ()) if evaluate(game, effect["if"]) else
          effect.get("else", ()))


def _each_player(game, effect):
    """``each_player``: effects with ``$p`` bound to each player still in, in turn order."""
    _frame(_EACH, game.players_in_order(), 0, "p", effect["each_player"])


def _each_piece(game, effect):
    """``each_piece``: effects with ``$k`` bound to each piece (``of`` a player, ``where``)."""
    owner = evaluate(game, effect["of"]) if "of" in effect else None
    _frame(_EACH, game.piece_keys(owner), 0, "k", effect["each_piece"], effect.get("where"))


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
    from arbiter.game.jobs import let_go
    from arbiter.game.order import order_players

    game.state["order"] = order_players(game, effect["turn_order"])
    let_go("game", "order")


def _for_each(game, effect):
    """``for_each`` LIST, ``as`` (t), ``do``: effects with ``$as`` bound to each item."""
    items = evaluate(game, effect["for_each"])
    items = [str(item) for item in (items if isinstance(items, list) else [items])]
    _frame(_EACH, items, 0, effect.get("as", "t"), effect.get("do", ()))


def action(game, name, cache=None):
    """The ruleset's action ``name`` (None: no such action), read from its line
    (ruleset.LINES_HEAD) and parsed when wanted, once per ``cache`` (the action in
    progress: ``game.parsed``), so a game holds none of its actions' fields between
    actions (Kaiju's were 7 KB)."""
    at = game.rules.get("actions", EMPTY).get(name)
    return None if at is None else _parsed(game, at, cache)


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
    game.calls.append(effect["call"])
    # the caller's args and binding, given back when the call ends (or fails)
    _frame(_PARTS, of_action(game, spec), game.args, game.binding, True)
    game.args, game.binding = args, game.binding.copy()
    bind_args(game, args)


def _team(game, effect):
    """``team`` NAME or NUMBER, ``player``: that player takes the team (see teams.py)."""
    from arbiter.game.jobs import let_go
    from arbiter.game.teams import find, give

    who = evaluate(game, effect["player"]) if "player" in effect else game.bound("p")
    try:
        give(game, who, find(game, evaluate(game, effect["team"])))
    finally:
        let_go("game", "teams")  # a setup's code: not held through the game


def _combat(game, effect):
    """``combat``: see combat.py (loaded only by a ruleset with combats); a clash's
    hits and what it says are effects run next."""
    from arbiter.game.combat import combat

    then = combat(game, effect)
    if then is not None:
        _open(game, then)


def _next(game, effect):
    """``next``: move on, as the ``next`` action does."""
    deeper(game)
    game.next_phase()
    game.depth -= 1


def _repeat(game, effect):
    """``repeat``: effects, then again until ``until`` holds."""
    _frame(_REPEAT, effect, 0)


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
    """``draw``, ``take``, ``shuffle``, ``append``, ``remove``: cards and lists (decks.py),
    whose code is held for the action's other cards and let go at its end
    (Game.clear_scratch): loaded again for each, a hand dealt cost a third more."""
    from arbiter.game import decks

    if "draw" in effect:
        decks.draw(game, effect)
    elif "take" in effect:
        decks.take(game, effect)
    elif "shuffle" in effect:
        decks.shuffle(game, effect)
    else:
        decks.change_list(game, effect)


def _native(game, effect):
    """``native`` "MODULE.NAME": a game's own logic in firmware code (game/natives/:
    Tactics Joker's board of armies), imported only when the game runs it."""
    if effect["native"] not in NATIVE:
        raise RuleError("unknown native " + str(effect["native"]))
    module, _, fn = effect["native"].partition(".")
    full = "arbiter.game.natives." + module
    __import__(full)
    getattr(sys.modules[full], fn)(game)


EFFECTS = {
    "add": _add, "set": _set, "roll": _roll, "opposed": _opposed, "require": _require,
    "if": _if, "each_player": _each_player, "each_piece": _each_piece, "let": _let,
    "say": _say, "win": _win, "lose": _lose, "tie": _tie, "make_pieces": _make_pieces,
    "turn_order": _turn_order, "for_each": _for_each, "call": _call, "team": _team,
    "next": _next, "repeat": _repeat, "draw": _cards, "shuffle": _cards, "append": _cards,
    "remove": _cards, "take": _cards, "combat": _combat, "native": _native,
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
