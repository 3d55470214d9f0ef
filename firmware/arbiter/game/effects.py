"""Effects in rulesets: what phases, triggers and actions do to the game.

Each effect is an object with one of these keys:
``add`` (PATH, ``n``), ``set`` (PATH, ``to``), ``roll`` (DIE, ``count``,
``player``, ``reason``, ``as``), ``opposed`` (two rolls compared, ties re-rolled),
``require`` (EXPR, ``reason``: refuses the action), ``if`` (EXPR, ``then``,
``else``), ``each_player`` / ``each_piece`` (effects with ``$p`` / ``$k`` bound),
``let`` (NAME, ``be``), ``say`` (a list of parts), ``win`` / ``lose`` (a player),
``tie``, ``turn_order`` (recompute the order), ``make_pieces`` (``of``, ``count``,
``prefix``: numbered pieces, such as a matrix's positions), ``for_each`` (a list,
``as``, ``do``), ``call`` (another action's effects, ``with`` its arguments),
``team`` (give a player a team), ``next`` (move on, as the ``next`` action),
``repeat`` (effects ``until`` a condition holds), ``draw`` / ``shuffle`` / ``append`` /
``remove`` (cards and lists: see decks.py).
"""

from arbiter.game.errors import Illegal, RuleError
from arbiter.game.expr import EMPTY, evaluate


def run(game, effects):
    for effect in effects:
        _one(game, effect)


def _one(game, effect):
    if "add" in effect:
        path = effect["add"]
        game.change(path, game.get(path) + _int(evaluate(game, effect.get("n", 1))))
    elif "set" in effect:
        game.change(effect["set"], evaluate(game, effect.get("to")))
    elif "roll" in effect:
        count = _int(evaluate(game, effect.get("count", 1)))
        who = evaluate(game, effect.get("player", "$p")) if "player" in effect else game.bound("p")
        die = evaluate(game, effect["roll"])  # a name, or an expression such as a pick
        game.roll(die, count, who, game.text(effect.get("reason", "")), effect.get("as"))
    elif "opposed" in effect:
        _opposed(game, effect)
    elif "require" in effect:
        if not evaluate(game, effect["require"]):
            raise Illegal(game.text(effect.get("reason", "not allowed now")))
    elif "if" in effect:
        run(game, effect.get("then", ()) if evaluate(game, effect["if"]) else
            effect.get("else", ()))
    elif "each_player" in effect:
        for player in game.players_in_order():
            game.with_binding("p", player, effect["each_player"])
    elif "each_piece" in effect:
        owner = evaluate(game, effect["of"]) if "of" in effect else None
        for key in game.piece_keys(owner):
            if "where" not in effect or game.bound_eval("k", key, effect["where"]):
                game.with_binding("k", key, effect["each_piece"])
    elif "let" in effect:
        game.vars[effect["let"]] = evaluate(game, effect.get("be"))
    elif "say" in effect:
        game.say(game.text(effect["say"]))
    elif "win" in effect:
        game.pending_win.append(evaluate(game, effect["win"]))
    elif "lose" in effect:
        game.pending_lose.append(evaluate(game, effect["lose"]))
    elif "tie" in effect:
        game.pending_tie = True
    elif "make_pieces" in effect:
        spec = effect["make_pieces"]
        owner = game.path(spec.get("of", "$p"))
        for i in range(_int(evaluate(game, spec["count"]))):
            game.add_piece(owner, {"key": "%s%d" % (spec.get("prefix", ""), i + 1),
                                   "stats": spec.get("stats", EMPTY)})
    elif "turn_order" in effect:
        game.order_players(effect["turn_order"])
    elif "for_each" in effect:
        items = evaluate(game, effect["for_each"])
        for item in items if isinstance(items, list) else [items]:
            game.with_binding(effect.get("as", "t"), str(item), effect.get("do", ()))
    elif "call" in effect:
        _call(game, effect)
    elif "team" in effect:
        from arbiter.game.teams import find, give

        who = evaluate(game, effect["player"]) if "player" in effect else game.bound("p")
        give(game, who, find(game, evaluate(game, effect["team"])))
    elif "next" in effect:
        game.next_phase()
    elif "repeat" in effect:
        _repeat(game, effect)
    elif "draw" in effect or "shuffle" in effect or "append" in effect or "remove" in effect:
        from arbiter.game import decks

        if "draw" in effect:
            decks.draw(game, effect)
        elif "shuffle" in effect:
            decks.shuffle(game, effect)
        else:
            decks.change_list(game, effect)
    else:
        raise RuleError("unknown effect %r" % (effect,))


def _call(game, effect):
    """Runs a ruleset action's effects (not its phase check) with the arguments in
    ``with``; ``p``, ``k`` and ``t`` among them bind ``$p``, ``$k`` and ``$t``."""
    spec = game.rules.get("actions", EMPTY).get(effect["call"])
    if spec is None:
        raise RuleError("no action %s to call" % effect["call"])
    if len(game.calls) >= 8:
        raise RuleError("calls nested too deep")
    args = {}
    for name, form in effect.get("with", EMPTY).items():
        args[name] = evaluate(game, form)
    saved = game.args, game.binding
    game.calls.append(effect["call"])
    game.args, game.binding = args, dict(game.binding)
    try:
        bind_args(game, args)
        run(game, spec.get("effects", ()))
    finally:
        game.args, game.binding = saved
        game.calls.pop()


def _repeat(game, effect):
    """Runs the effects, then again until ``until`` holds (at most 100 times)."""
    for _ in range(100):
        run(game, effect["repeat"])
        if evaluate(game, effect["until"]):
            return
    raise RuleError("repeat: still not done after 100 times")


def _int(value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("not a whole number: %r" % (value,))
    return value


def _opposed(game, effect):
    """Two sides roll; the better score wins; ties re-roll unless ``ties`` is "keep".

    ``{"opposed": {"a": {...roll}, "b": {...roll}, "score": "hits"|"sum", "as": NAME}}``
    sets var NAME to "a", "b" or "tie"."""
    spec = effect["opposed"]
    score = spec.get("score", "sum")
    for _ in range(100):
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


def bind_args(game, args):
    """Arguments p, k and t name a player or piece: checked, then bound as $p, $k, $t."""
    for bind in ("p", "k", "t"):
        if bind in args:
            value = str(args[bind])
            known = game.state["players"] if "." not in value else game.state["pieces"]
            if value not in known:
                raise Illegal("no such player or piece: " + value)
            game.binding[bind] = value
