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
  (how many are n or more: dice that reach a threshold), ``{"count": [x, list]}``
  (how many are x); ``{"others": P}``: the players still in, in turn order, but P.
- over the players still in, in turn order, ``$p`` bound to each (``{"value": expr,
  "where": expr}``): ``list_players``, ``sum_players``, ``max_players``,
  ``min_players`` (0 when none), and ``top_player`` / ``bottom_player``: the one
  whose value is highest / lowest (the first in turn order of those level), null
  when none meets ``where``.
"""


from micropython import const

from arbiter.game import RuleError

EMPTY = {}  # the default of an absent section: never written (a ``{}`` default allocates)

# How each operator takes its argument (OPERATORS):
_WORKED = const(0)  # its operands worked out first: the argument's items (a list), else it
_ONE = const(1)  # its argument worked out as one value (a list of forms: a list of values)
_WRITTEN = const(2)  # its argument as written: a name, read from the context
_AND = const(3)  # and, or, if, a named value, an arg: worked out a step at a time
_OR = const(4)
_IF = const(5)
_VAL = const(6)
_ARG = const(7)
_COUNT = const(8)  # over the pieces or the players, each bound in turn
_VALUES = const(9)
_PLAYERS = const(10)
_EACH = const(11)  # over the players, with a value and a where

# The machine's steps, each on its stack as (item, extra, step):
_TODO, _DONE = [], []  # the stacks, kept between walks (evaluate)
_idle = True  # whether they are free
_EVAL = const(0)  # work out a form
_COMBINE = const(1)  # its operands are worked out: apply the operator (item: the form)
_LIST = const(2)  # a list's items are worked out (item: the list)
_NEXT = const(3)  # and, or, if: the last operand is worked out (extra: its place)
_OVER = const(4)  # a loop over pieces or players (extra: its state, _loop)


def _num(x):
    if isinstance(x, bool) or not isinstance(x, int):
        raise RuleError("not a whole number: %r" % (x,))
    return x


def evaluate(ctx, form):
    """``ctx`` is the game's evaluation context (see context.py). The walk keeps its
    own stack: however deep a form nests, it takes one frame of a Pico's C stack,
    where a frame a level did not fit (the bundled games nest 15 levels)."""
    if form.__class__ is not dict:
        if form.__class__ is not list:
            return form
    elif len(form) == 1:  # the most common forms, read at every step: no stacks made
        for op in form:  # no allocation: the one key
            if OPERATORS.get(op) == _WRITTEN:
                return _written(ctx, op, form[op])
            if op == "get" and form[op].__class__ is str:
                return ctx.get(form[op])
    global _idle
    if _idle:  # the stacks kept for the next walk: a list made and left per walk was
        _idle = False  # most of an action's garbage (thousands of walks an action)
        todo, done = _TODO, _DONE
    else:  # a walk inside another (none today, but the context's calls could)
        todo, done = [], []
    todo.append(form)
    todo.append(None)
    todo.append(_EVAL)
    try:
        while todo:
            step, extra, item = todo.pop(), todo.pop(), todo.pop()
            if step == _EVAL:
                if item.__class__ is list:
                    todo.append(item)
                    todo.append(None)
                    todo.append(_LIST)
                    for i in range(len(item) - 1, -1, -1):
                        todo.append(item[i])
                        todo.append(None)
                        todo.append(_EVAL)
                elif item.__class__ is not dict:
                    done.append(item)
                else:
                    _start(ctx, item, todo, done)
            elif step == _COMBINE:
                done.append(_combine(ctx, item, done))
            elif step == _LIST:
                done.append(_last(done, len(item)))
            elif step == _NEXT:
                _next(item, extra, todo, done)
            else:
                _over(ctx, item, extra, todo, done)
    except BaseException:
        # a loop's binding is given back, however the walk ends
        for i in range(len(todo) - 1, 1, -3):
            if todo[i] == _OVER:
                _unbind(todo[i - 1])
        del todo[:]
        del done[:]
        raise
    finally:
        if todo is _TODO:
            _idle = True
    return done.pop()


def _start(ctx, form, todo, done):
    """A one-key form met: its value, or the steps that will give it."""
    if len(form) != 1:
        raise RuleError("an expression has exactly one operator: %r" % (form,))
    for op in form:
        arg = form[op]
    how = OPERATORS.get(op)
    if how is None:
        raise RuleError("unknown operator " + op)
    if how == _WRITTEN:
        done.append(_written(ctx, op, arg))
        return
    if how == _VAL:  # a named value: its form in its place
        values = ctx.rules.get("values", EMPTY)
        if arg not in values:
            raise RuleError("unknown value %s" % (arg,))
        todo.append(values[arg])
        todo.append(None)
        todo.append(_EVAL)
        return
    if how == _ARG:  # [NAME, DEFAULT]: the default only when not given
        if arg.__class__ is list and arg[0] not in ctx.args:
            todo.append(arg[1])
            todo.append(None)
            todo.append(_EVAL)
        else:
            done.append(ctx.arg(arg))
        return
    if how >= _COUNT:  # over the pieces (their owner first) or the players
        if how != _PLAYERS and arg.__class__ is not dict:
            raise RuleError("%s takes an object of fields: %r" % (op, arg))
        todo.append(form)
        todo.append(None)
        todo.append(_OVER)
        if how < _PLAYERS:
            todo.append(arg.get("of"))
            todo.append(None)
            todo.append(_EVAL)
        return
    if how >= _AND:
        if arg.__class__ is list and not arg and how != _IF:
            done.append(how == _AND)  # and of nothing holds, or of nothing does not
        else:
            todo.append(form)
            todo.append(0)
            todo.append(_NEXT)
            todo.append(arg[0] if arg.__class__ is list else arg)
            todo.append(None)
            todo.append(_EVAL)
        return
    todo.append(form)
    todo.append(None)
    todo.append(_COMBINE)
    if how == _WORKED and arg.__class__ is list:
        if op in _PAIRS and len(arg) != 2:
            raise RuleError("two operands expected: %r" % (arg,))
        for i in range(len(arg) - 1, -1, -1):
            todo.append(arg[i])
            todo.append(None)
            todo.append(_EVAL)
    else:
        if op in _PAIRS:
            raise RuleError("two operands expected: %r" % (arg,))
        todo.append(arg)
        todo.append(None)
        todo.append(_EVAL)


def _written(ctx, op, arg):
    if op == "opt":
        return ctx.option(arg)
    if op == "stat":
        return ctx.stat(arg)
    if op == "var":
        return ctx.var(arg)
    if op == "bound":
        return ctx.bound(arg)
    if op == "now":
        return ctx.now(arg)
    return ctx.roll_result(arg, "rolls" if op == "rolls" else "sum")  # hits: the sum of
    # success faces


def _next(form, i, todo, done):
    """and, or, if: operand ``i`` is worked out; on to the next, or the value."""
    for op in form:
        arg = form[op]
    v = done.pop()
    if op == "if":  # the condition: the branch it picks is the value
        todo.append(arg[1] if v else arg[2])
        todo.append(None)
        todo.append(_EVAL)
        return
    last = i + 1 >= (len(arg) if arg.__class__ is list else 1)
    if (not v if op == "and" else v) or last:
        done.append(bool(v))
        return
    todo.append(form)
    todo.append(i + 1)
    todo.append(_NEXT)
    todo.append(arg[i + 1])
    todo.append(None)
    todo.append(_EVAL)


def _combine(ctx, form, done):
    """An operator's value, its operands worked out (on top of ``done``)."""
    for op in form:
        arg = form[op]
    n = len(arg) if OPERATORS[op] == _WORKED and arg.__class__ is list else 1
    if op in _ARITH:
        return _arith(op, done, n)
    if op in _PAIRS:  # the two operands off the stack: no list of them made
        b = done.pop()
        return _compare(op, done.pop(), b)
    if n == 1:
        v = done.pop()
    else:
        args = _last(done, n)
    if op == "not":
        return not v
    if op == "get":
        return ctx.get(v)
    if op == "len":
        return len(v)
    if op == "others":
        return [p for p in ctx.players_in_order() if p != v]
    if op == "unique":
        out = []
        for item in v:
            if item not in out:
                out.append(item)
        return out
    if n == 1:
        args = [v]  # a list operator given one form: its items come from its value
    return _lists(op, args)


def _last(done, n):
    """The last ``n`` values, taken off the stack into a list of their own."""
    out = [None] * n
    for i in range(n - 1, -1, -1):
        out[i] = done.pop()
    return out


def _arith(op, done, n):
    # folded in order, the operands taken off the stack: no list of them made
    out = None
    if n == 1 and done[-1].__class__ is list:  # one list: its items ({"+": hand})
        items = done.pop()
        done.extend(items)
        n = len(items)
    first = len(done) - n
    for i in range(first, len(done)):
        v = _num(done[i])
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
    while len(done) > first:  # (not del done[first:]: a slice is garbage)
        done.pop()
    if out is None:
        if op in ("+", "-"):
            return 0
        raise RuleError("%s of nothing" % op)
    if op == "abs":
        return abs(out)
    return -out if op == "-" and n == 1 else out


def _compare(op, a, b):
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


def _lists(op, a):
    if op == "split":
        text, sep = a
        return [part for part in str(text).split(sep) if part]
    if op == "join":
        items, sep = a
        return sep.join([str(item) for item in items])
    if op == "lookup":
        key, keys, values = a
        if key not in keys:
            raise RuleError("%r is not one of %r" % (key, keys))
        return values[keys.index(key)]
    if op == "concat":
        out = []
        for part in a:
            out += part
        return out
    items = a[1] if op == "count" else a[0]
    if not isinstance(items, list) and not isinstance(items, str):  # no tuple built
        raise RuleError("not a list: %r" % (items,))
    if op == "at":  # the item at a place (from 0; -1 is the last), null past the end
        i = _num(a[1])
        return items[i] if -len(items) <= i < len(items) else None
    if op == "slice":
        return items[_num(a[1]):_num(a[2])]
    if op == "count":
        return len([x for x in items if x == a[0]])
    n = _num(a[1])  # at_least: how many numbers in the list are n or more
    return len([x for x in items if _num(x) >= n])


def _over(ctx, form, state, todo, done):
    """A loop's next step: a key bound and its ``where`` or value to work out; or,
    past the last, the loop's value. ``state``: None at first (the pieces' owner
    then on top of ``done``), then [the operator, its fields, the keys, the next
    one's place, the count or the values so far, the name bound, what the name was
    bound to before, the binding (None: not yet bound), what is to be worked out
    (0: the first, 1: the ``where``, 2: the value)], changed in place."""
    if state is None:
        for op in form:
            fields = form[op]
        how = OPERATORS[op]
        if how == _PLAYERS:
            state = [op, {"where": fields}, ctx.players_in_order(), 0, 0, "p", None, None, 0]
        elif how == _EACH:
            state = [op, fields, ctx.players_in_order(), 0, [], "p", None, None, 0]
        else:
            keys = ctx.piece_keys(done.pop())
            state = [op, fields, keys, 0, 0 if op == "count_pieces" else [], "k", None,
                     None, 0]
    op, fields, keys = state[0], state[1], state[2]
    counting = op == "count_pieces" or op == "players_where"
    if state[8] == 1:  # its where is worked out
        if done.pop():
            if not counting:  # its value next, the key still bound
                state[8] = 2
                todo.append(None)
                todo.append(state)
                todo.append(_OVER)
                todo.append(fields.get("value", _KEYS[state[5]]))
                todo.append(None)
                todo.append(_EVAL)
                return
            state[4] += 1
        state[3] += 1
    elif state[8] == 2:  # its value is worked out
        state[4].append(done.pop())
        if op == "top_player" or op == "bottom_player":  # and whose it is
            state[4].append(keys[state[3]])
        state[3] += 1
    where = fields.get("where")
    if counting and where is None:  # every one counts
        state[3] = state[4] = len(keys)
    if state[3] >= len(keys):
        _unbind(state)
        done.append(_gathered(op, state[4]))
        return
    if state[7] is None:  # the first: what the name was bound to, to give back
        state[7] = ctx.binding
        state[6] = ctx.binding.get(state[5])
    state[7][state[5]] = keys[state[3]]
    todo.append(None)
    todo.append(state)
    todo.append(_OVER)
    state[8] = 2 if where is None else 1
    todo.append(fields.get("value", _KEYS[state[5]]) if where is None else where)
    todo.append(None)
    todo.append(_EVAL)


def _gathered(op, values):
    """A loop's value from the values it gathered (top and bottom: value, key pairs)."""
    if op == "sum_pieces" or op == "sum_players":
        return sum([_num(v) for v in values])
    if op == "max_pieces" or op == "max_players":
        return max([_num(v) for v in values]) if values else 0
    if op == "min_players":
        return min([_num(v) for v in values]) if values else 0
    if op == "top_player" or op == "bottom_player":
        best = None
        for i in range(0, len(values), 2):
            v = _num(values[i])
            if best is None or (v > values[best] if op == "top_player" else v < values[best]):
                best = i
        return None if best is None else values[best + 1]
    return values


def _unbind(state):
    binding = state[7] if state is not None else None
    if binding is None:
        return
    if state[6] is None:
        binding.pop(state[5], None)
    else:
        binding[state[5]] = state[6]
    state[7] = None


# a loop's value when none is given: the pieces' keys, the players'
_KEYS = {"k": {"bound": "k"}, "p": {"bound": "p"}}
_ARITH = ("+", "-", "*", "//", "min", "max", "abs")
_PAIRS = ("==", "!=", "<", "<=", ">", ">=", "in")

# Each operator and how it takes its argument (the checker and docs/rulesets.md
# read the names).
OPERATORS = {
    "+": _WORKED, "-": _WORKED, "*": _WORKED, "//": _WORKED, "min": _WORKED,
    "max": _WORKED, "abs": _WORKED,
    "==": _WORKED, "!=": _WORKED, "<": _WORKED, "<=": _WORKED, ">": _WORKED,
    ">=": _WORKED, "in": _WORKED,
    "and": _AND, "or": _OR, "not": _ONE, "if": _IF,
    "get": _ONE, "opt": _WRITTEN, "val": _VAL, "arg": _ARG, "stat": _WRITTEN,
    "var": _WRITTEN, "rolls": _WRITTEN, "sum": _WRITTEN, "hits": _WRITTEN,
    "bound": _WRITTEN, "now": _WRITTEN,
    "count_pieces": _COUNT, "players_where": _PLAYERS, "max_pieces": _VALUES,
    "sum_pieces": _VALUES, "list_pieces": _VALUES,
    "others": _ONE, "split": _WORKED, "join": _WORKED, "len": _ONE, "unique": _ONE,
    "lookup": _WORKED, "at": _WORKED, "slice": _WORKED, "concat": _WORKED,
    "at_least": _WORKED, "count": _WORKED,
    "list_players": _EACH, "sum_players": _EACH, "max_players": _EACH, "min_players": _EACH,
    "top_player": _EACH, "bottom_player": _EACH,
}
