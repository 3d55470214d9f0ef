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


from arbiter.game import RuleError

EMPTY = {}  # the default of an absent section: never written (a ``{}`` default allocates)


def _num(x):
    if isinstance(x, bool) or not isinstance(x, int):
        raise RuleError("not a whole number: %r" % (x,))
    return x


def _all(ctx, args):
    return [evaluate(ctx, a) for a in args]


def evaluate(ctx, form):
    """``ctx`` is the game's evaluation context (see context.py)."""
    if not isinstance(form, dict):
        if isinstance(form, list):
            return _all(ctx, form)
        return form
    if len(form) != 1:
        raise RuleError("an expression has exactly one operator: %r" % (form,))
    for op in form:  # no allocation: the one key
        do = OPERATORS.get(op)
        if do is None:
            raise RuleError("unknown operator " + op)
        return do(ctx, form[op])
    raise RuleError("an expression has one operator")  # not reached: there is one key


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


def _compare(ctx, op, arg):
    # the operands as they come: no pair built (this runs at every step)
    if not isinstance(arg, list) or len(arg) != 2:
        raise RuleError("two operands expected: %r" % (arg,))
    a, b = evaluate(ctx, arg[0]), evaluate(ctx, arg[1])
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if op == "in":
        return a in b
    a, b = _num(a), _num(b)
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def _and(ctx, arg):
    for a in arg:
        if not evaluate(ctx, a):
            return False
    return True


def _or(ctx, arg):
    for a in arg:
        if evaluate(ctx, a):
            return True
    return False


def _pieces(ctx, arg, op):
    values = ctx.piece_values(evaluate(ctx, arg.get("of")), arg["value"], arg.get("where"))
    if op == "sum_pieces":
        return sum(values)
    return max(values) if values else 0


def _split(ctx, arg):
    text, sep = _all(ctx, arg)
    return [part for part in str(text).split(sep) if part]


def _join(ctx, arg):
    items, sep = _all(ctx, arg)
    return sep.join(str(item) for item in items)


def _unique(ctx, arg):
    out = []
    for item in evaluate(ctx, arg):
        if item not in out:
            out.append(item)
    return out


def _lookup(ctx, arg):
    key, keys, values = _all(ctx, arg)
    if key not in keys:
        raise RuleError("%r is not one of %r" % (key, keys))
    return values[keys.index(key)]


def _lists(op, a):
    if op == "concat":
        out = []
        for part in a:
            out += part
        return out
    items = a[0]
    if not isinstance(items, list) and not isinstance(items, str):  # no tuple built
        raise RuleError("not a list: %r" % (items,))
    if op == "at":  # the item at a place (from 0; -1 is the last), null past the end
        i = _num(a[1])
        return items[i] if -len(items) <= i < len(items) else None
    if op == "slice":
        return items[_num(a[1]):_num(a[2])]
    n = _num(a[1])  # at_least: how many numbers in the list are n or more
    return len([x for x in items if _num(x) >= n])


# Each operator: a function of the context and its argument (as written).
OPERATORS = {
    "+": lambda c, a: _arith(c, "+", a), "-": lambda c, a: _arith(c, "-", a),
    "*": lambda c, a: _arith(c, "*", a), "//": lambda c, a: _arith(c, "//", a),
    "min": lambda c, a: _arith(c, "min", a), "max": lambda c, a: _arith(c, "max", a),
    "abs": lambda c, a: _arith(c, "abs", a),
    "==": lambda c, a: _compare(c, "==", a), "!=": lambda c, a: _compare(c, "!=", a),
    "<": lambda c, a: _compare(c, "<", a), "<=": lambda c, a: _compare(c, "<=", a),
    ">": lambda c, a: _compare(c, ">", a), ">=": lambda c, a: _compare(c, ">=", a),
    "and": _and, "or": _or, "not": lambda c, a: not evaluate(c, a),
    "if": lambda c, a: evaluate(c, a[1] if evaluate(c, a[0]) else a[2]),
    "in": lambda c, a: _compare(c, "in", a),
    "get": lambda c, a: c.get(evaluate(c, a)), "opt": lambda c, a: c.option(a),
    "val": lambda c, a: c.value(a), "arg": lambda c, a: c.arg(a),
    "stat": lambda c, a: c.stat(a), "var": lambda c, a: c.var(a),
    "rolls": lambda c, a: c.roll_result(a, "rolls"), "sum": lambda c, a: c.roll_result(a, "sum"),
    "hits": lambda c, a: c.roll_result(a, "sum"),  # with success faces the sum is the hits
    "count_pieces": lambda c, a: c.count_pieces(evaluate(c, a.get("of")), a.get("where")),
    "max_pieces": lambda c, a: _pieces(c, a, "max_pieces"),
    "sum_pieces": lambda c, a: _pieces(c, a, "sum_pieces"),
    "bound": lambda c, a: c.bound(a), "players_where": lambda c, a: c.count_players(a),
    "others": lambda c, a: _others(c, evaluate(c, a)),
    "now": lambda c, a: c.now(a), "split": _split,
    "list_pieces": lambda c, a: c.piece_values(evaluate(c, a.get("of")),
                                               a.get("value", {"bound": "k"}), a.get("where")),
    "join": _join, "len": lambda c, a: len(evaluate(c, a)), "unique": _unique,
    "lookup": _lookup,
    "at": lambda c, a: _lists("at", _all(c, a)), "slice": lambda c, a: _lists("slice", _all(c, a)),
    "concat": lambda c, a: _lists("concat", _all(c, a)),
    "at_least": lambda c, a: _lists("at_least", _all(c, a)),
}


def _others(ctx, but):
    """The players still in, in turn order, but one (a target to name)."""
    return [p for p in ctx.players_in_order() if p != but]
