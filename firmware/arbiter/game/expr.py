"""Expressions in rulesets: JSON forms evaluated against the game, never ``eval``.

A number, string, boolean or null is itself; a list is a list of expressions.
A one-key object is an operator:

- ``{"get": "P1.power"}``: a value by path; ``$p``, ``$k``, ``$t`` stand for the
  bound player, piece and target, ``$a:NAME`` for an action argument and
  ``$v:NAME`` for a var;
- ``{"opt": NAME}``, ``{"val": NAME}`` (a named value), ``{"arg": NAME}``,
  ``{"stat": NAME}`` (of the bound piece), ``{"bound": "p"}`` (the bound key),
  ``{"var": NAME}`` (set by an earlier ``let``);
- ``{"rolls": NAME}``, ``{"sum": NAME}``, ``{"hits": NAME}``: a named roll's
  faces, total, and successes (the total of success faces);
- ``+ - * // min max abs``, ``== != < <= > >=``, ``and or not``,
  ``{"if": [cond, then, else]}``, ``{"in": [x, list]}``;
- ``{"count_pieces": {"of": P, "where": expr}}``, ``{"players_where": expr}``,
  ``{"max_pieces": {...}}`` and ``{"sum_pieces": {"of": P, "value": expr,
  "where": expr}}``;
- ``{"now": "player"|"phase"|"round"}``: whose turn it is (null when all play at
  once), the phase's name, the round; ``{"split": [text, sep]}``: a list of words;
- ``{"list_pieces": {"of", "value", "where"}}`` (a list, by default of keys),
  ``{"join": [list, sep]}``, ``{"len": list}``, ``{"unique": list}`` and
  ``{"lookup": [key, keys, values]}`` (the value in the key's place).
- ``{"at": [list, i]}`` (from 0, -1 the last; null past the end), ``{"slice":
  [list, from, to]}``, ``{"concat": [list, ...]}``, ``{"at_least": [numbers, n]}``
  (how many are n or more: dice that reach a threshold); ``{"others": P}``: the
  players still in, in turn order, but P.
"""


from arbiter.game.errors import RuleError

EMPTY = {}  # the default of an absent section: never written (a ``{}`` default allocates)


def _num(x):
    if isinstance(x, bool) or not isinstance(x, int):
        raise RuleError("not a whole number: %r" % (x,))
    return x


def _all(ctx, args):
    return [evaluate(ctx, a) for a in args]


def _arith(ctx, op, forms):
    # folded as the operands come: no list of values (this runs at every step)
    if not isinstance(forms, list):
        forms = (forms,)
    out = None
    for form in forms:
        v = _num(evaluate(ctx, form))
        if out is None:
            out = v
        elif op == "+":
            out += v
        elif op == "-":
            out -= v
        elif op == "*":
            out *= v
        elif op == "//":
            if v == 0:
                raise RuleError("division by zero")
            out //= v
        elif op == "min":
            out = min(out, v)
        elif op == "max":
            out = max(out, v)
    if out is None:
        if op in ("+", "-"):
            return 0
        raise RuleError("%s of nothing" % op)
    if op == "abs":
        return abs(out)
    return -out if op == "-" and len(forms) == 1 else out


_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


def _pair(arg):
    if not isinstance(arg, list) or len(arg) != 2:
        raise RuleError("two operands expected: %r" % (arg,))


def _compare(op, a, b):
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    a, b = _num(a), _num(b)
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def evaluate(ctx, form):
    """``ctx`` is the game's evaluation context (see engine.Context)."""
    if not isinstance(form, dict):
        if isinstance(form, list):
            return _all(ctx, form)
        return form
    if len(form) != 1:
        raise RuleError("an expression has exactly one operator: %r" % (form,))
    for op in form:
        arg = form[op]
    if op in ("+", "-", "*", "//", "min", "max", "abs"):
        return _arith(ctx, op, arg)
    if op in _COMPARE:
        _pair(arg)
        return _compare(op, evaluate(ctx, arg[0]), evaluate(ctx, arg[1]))
    if op == "and":
        for a in arg:
            if not evaluate(ctx, a):
                return False
        return True
    if op == "or":
        for a in arg:
            if evaluate(ctx, a):
                return True
        return False
    if op == "not":
        return not evaluate(ctx, arg)
    if op == "if":
        return evaluate(ctx, arg[1] if evaluate(ctx, arg[0]) else arg[2])
    if op == "in":
        _pair(arg)
        return evaluate(ctx, arg[0]) in evaluate(ctx, arg[1])
    if op == "get":
        return ctx.get(evaluate(ctx, arg))
    if op == "opt":
        return ctx.option(arg)
    if op == "val":
        return ctx.value(arg)
    if op == "arg":
        return ctx.arg(arg)
    if op == "stat":
        return ctx.stat(arg)
    if op == "var":
        return ctx.var(arg)
    if op in ("rolls", "sum", "hits"):
        return ctx.roll_result(arg, op)
    if op == "count_pieces":
        return ctx.count_pieces(evaluate(ctx, arg.get("of")), arg.get("where"))
    if op in ("max_pieces", "sum_pieces"):
        values = ctx.piece_values(evaluate(ctx, arg.get("of")), arg["value"], arg.get("where"))
        if op == "sum_pieces":
            return sum(values)
        return max(values) if values else 0
    if op == "bound":
        return ctx.bound(arg)
    if op == "players_where":
        return ctx.count_players(arg)
    if op == "others":  # the players still in, in turn order, but one (a target to name)
        but = evaluate(ctx, arg)
        return [p for p in ctx.players_in_order() if p != but]
    if op == "now":
        return ctx.now(arg)
    if op == "split":
        text, sep = _all(ctx, arg)
        return [part for part in str(text).split(sep) if part]
    if op == "list_pieces":
        return ctx.piece_values(evaluate(ctx, arg.get("of")), arg.get("value", {"bound": "k"}),
                                arg.get("where"))
    if op == "join":
        items, sep = _all(ctx, arg)
        return sep.join(str(item) for item in items)
    if op == "len":
        return len(evaluate(ctx, arg))
    if op == "unique":
        out = []
        for item in evaluate(ctx, arg):
            if item not in out:
                out.append(item)
        return out
    if op == "lookup":
        key, keys, values = _all(ctx, arg)
        if key not in keys:
            raise RuleError("%r is not one of %r" % (key, keys))
        return values[keys.index(key)]
    if op in ("at", "slice", "concat", "at_least"):
        return _lists(op, _all(ctx, arg))
    raise RuleError("unknown operator " + op)


def _lists(op, a):
    if op == "concat":
        out = []
        for part in a:
            out += part
        return out
    items = a[0]
    if not isinstance(items, (list, str)):
        raise RuleError("not a list: %r" % (items,))
    if op == "at":  # the item at a place (from 0; -1 is the last), null past the end
        i = _num(a[1])
        return items[i] if -len(items) <= i < len(items) else None
    if op == "slice":
        return items[_num(a[1]):_num(a[2])]
    n = _num(a[1])  # at_least: how many numbers in the list are n or more
    return len([x for x in items if _num(x) >= n])


OPERATORS = ("+", "-", "*", "//", "min", "max", "abs") + _COMPARE + (
    "and", "or", "not", "if", "in", "get", "opt", "val", "arg", "stat", "var", "rolls", "sum",
    "hits", "count_pieces", "players_where", "max_pieces", "sum_pieces", "bound", "now", "split",
    "list_pieces", "join", "len", "unique", "lookup", "at", "slice", "concat", "at_least",
    "others")
