"""The shapes of a ruleset's blocks: which fields each has and what each holds, and
the bounds on counts. Part of the check (ruleset.py), loaded only while a check
runs: a Pico's heap does not hold it while a ruleset is parsed."""

from micropython import const

from arbiter.game.words import EFFECT_NAMES, MAX_DICE, MAX_PIECES, NATIVE, OPERATOR_NAMES

# forms whose argument is an object of named fields, not an expression
PARAMS = ("count_pieces", "max_pieces", "sum_pieces", "make_pieces", "opposed",
          "turn_order", "with", "list_pieces", "stats", "cost", "list_players", "sum_players",
          "max_players", "min_players", "top_player", "bottom_player")
# the fields of an effect that hold effects
NESTED = ("then", "else", "each_player", "each_piece", "do", "repeat")

# Each block's fields and what each holds, as text (a table would hold more of a
# Pico's heap): "s" text, "i" a whole number, "b" true or false, "c" a choice (text,
# number, true/false), "n" text or number, "v" a game value (a choice or a list),
# "a" anything, "x" an expression, "f" effects; "[T" a list of T, "{T" an object of
# any names to T, "@NAME" the block NAME; "!" first: required. A field not listed is
# refused: a misspelt one would be silently ignored.
_SHAPES = {
    "players": " min:i max:i default:i names:[s colours:[s warn:@warn pulse:@pulse ",
    "warn": " counter:!s amber:i red:i ", "pulse": " counter:!s at:i ",
    "option": " choices:![c default:c label:s ", "die": " faces:!a label:s ",
    "counter": " start:x min:x max:x choices:[s label:s hidden:b ",
    "pieces": " counters:{@counter stats:{n each:[@piece by_player:{[@piece ",
    "piece": " key:!s name:s stats:{n ",
    "secret": " name:!s prompt:x field:s action:s choices:!x phase:s on_reveal:f "
              "after_reveal:f ",
    "phase": " name:!s label:s per_player:x skip_if:x repeat_until:x enter:f turn:f leave:f "
             "exit:f confirm:s on_a:s key_a:s fast:x menu:x ",
    "order": " by:s die:s key:x high_first:b ",
    "trigger": " counter:!s on:s at:!x falls:b effects:f ",
    "end": " at:s win_if:x lose_if:x why:s ", "leds": " piece:!x level:x flash:{[s ",
    "grid": " value:s armies:s cell:x name:x caption:x shown:x columns:i label:s ",
    "page": " label:!s phases:[s lines:![x ", "team": " name:!s counters:{i pieces:[@piece ",
    "action": " params:[s flags:[s phases:[s label:s labels:{s choices:{x defaults:x "
              "preview:b knob:[s focus:x private:b who:x limit:@limit strict:[s range:{[x "
              "repeats:[s effects:f ",
    "limit": " per:!x times:i as:s named:s ",
    "combat": " lead:![s reply:![s costs:{s pool:!s spent:!s cap:!s free:s hit:!s place:s "
              "knock:s out:s over:s ",
    # the argument of the effects that take an object of fields
    "opposed": " a:!@side b:!@side score:s as:s ties:s reason:x ",
    "side": " die:!x count:x player:x as:s ",
    "make_pieces": " of:x count:!x prefix:s from:x stats:{x ",
}
_SHAPES["turn_order"] = _SHAPES["order"]
_SHAPES["top"] = _TOP = (
    " $schema:s format:!i name:!s title:s notes:s players:@players options:{@option "
    "values:{x game:{v dice:{@die counters:{@counter pieces:@pieces secrets:[@secret "
    "setup:f round_label:s show:[x phases:[@phase turn_order:@order triggers:[@trigger "
    "end:[@end tiebreak:[x leds:@leds grid:@grid pages:[@page table:{s teams:[@team "
    "combat:@combat "
    "actions:{@action face_down:[s ")
_ENUMS = {"by": ("fixed", "roll", "value"), "on": ("player", "piece"),
          "per": ("turn", "phase", "round", "game")}
# Each effect's fields besides its name (opposed, make_pieces and turn_order take an
# object: their blocks above).
_FIELDS = {
    "add": " n ", "set": " to ", "roll": " count player reason as ", "require": " reason ",
    "if": " then else ", "each_piece": " of where ", "let": " be ", "for_each": " as do ",
    "call": " with ", "team": " player ", "repeat": " until ",
    "draw": " count to as reason empty ", "shuffle": " to reason ", "append": " item ",
    "remove": " item reason ", "native": " ", "take": " count to as empty ",
    "combat": " a d dp foe kind cost damage toughness combo knockdown ",
}
_KEY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_SCALARS = ("must be text or a number", "must be text, a number or true/false",
            "must be text, a number, true/false or a list")


# The walk keeps its own stack (a ruleset nests 20 deep; a Pico's C stack holds a
# few dozen Python calls): each value still to check as (value, what it must be,
# the shapes' text, a place in it, its place in its holder: a list's index, an
# object's key, or None; and for a holder, which of its values is next). A holder
# goes through its values one at a time, so the stack holds a value a level, not
# every sibling. A holder's place stays on ``path`` until its values are checked,
# so a mistake's path is there, built only when one is found.
_BLOCK = const(0)  # an object of the fields of a block of the shapes (text: the block's)
_FIELD = const(1)  # one of them (at: where its shape is in the block, -1: not a field)
_ENUM = const(2)  # a field with a few values (after its shape)
_MISSING = const(3)  # the block's required fields (after the others)
_SHAPE = const(4)  # a value of the shape at ``at`` in ``text``
_FORMS = const(5)  # a list of effects
_EFFECT = const(6)  # an effect
_COUNTS = const(7)  # an effect's counts (after its own fields)
_OPS = const(8)  # an expression
_NAMED = const(9)  # an object of named fields (a form of PARAMS), or an expression
# a holder's values, one at a time, each as: its shape (_SHAPE), a field of a block,
# an effect, an expression, a named field or an expression, an effect's field (but
# its lists of effects, checked as such)
_OF_SHAPE = const(10)
_OF_BLOCK = const(11)
_OF_EFFECTS = const(12)
_OF_OPS = const(13)
_OF_NAMED = const(14)
_OF_EFFECT = const(15)


def check(data, fail):
    """The blocks of ``data`` against their shapes; ``fail(path, reason)`` raises
    (ruleset.py's RulesetError) for the first mistake."""
    for name in data:
        if _find(_TOP, name, ":") < 0:
            fail(name, "unknown block")
    bad = walk(data, _BLOCK, data, _TOP)
    if bad is not None:
        fail(bad[0][1:], bad[1])
    if not word(data["name"], "abcdefghijklmnopqrstuvwxyz0123456789_-") or \
            len(data["name"]) > 24:
        fail("name", "must be 1 to 24 of a-z, 0-9, _ and -")
    phases = data.get("phases", ())
    if phases and all({"next": True} in phase.get("enter", ()) for phase in phases):
        fail("phases", "every phase moves on as it is entered: a loop")
    grid = data.get("grid", {})
    if grid and ("value" in grid) == ("cell" in grid):
        fail("grid", "needs either value or cell")


def bad_forms(effects, data):
    """None, or (the path below ``effects``, the reason): effects are one-key objects
    from the known vocabulary, with their own fields, and the dice they roll exist."""
    return walk(effects, _FORMS, data)


def walk(value, what, data, text=""):
    """None, or (the path below ``value``, the reason): ``value`` checked as ``what``
    (_BLOCK and the block's ``text``, _FORMS, _OPS). It allocates little: paths are
    made only for a mistake."""
    todo, path = [], []
    _push(todo, value, what, text, 0, None, 0)
    while todo:
        depth = todo.pop()  # (one at a time: six popped in one line make a tuple)
        key = todo.pop()
        at = todo.pop()
        text = todo.pop()
        what = todo.pop()
        value = todo.pop()
        while len(path) > depth:  # the path of what holds it (a slice: garbage)
            path.pop()
        if what >= _OF_SHAPE:  # a holder: its next value (key: its place)
            _next(todo, value, what, text, at, key, depth)
            continue
        if key is not None:
            path.append(key)
        bad = _visit(todo, value, what, text, at, data, len(path), key)
        if bad is not None:
            return "".join([("[%d]" % part if part.__class__ is int else "." + part)
                            for part in path]) + bad[0], bad[1]
    return None


def _push(todo, value, what, text, at, key, depth):
    """A value to check as ``what``, ``key`` its place in its holder (None: the
    value the path leads to; for a holder, the place of its next value), ``depth``
    the length of the path to its holder."""
    todo.append(value)
    todo.append(what)
    todo.append(text)
    todo.append(at)
    todo.append(key)
    todo.append(depth)


def _next(todo, holder, what, text, at, i, depth):
    """A holder's value ``i`` to check, and the holder again for the one after."""
    if isinstance(holder, list):
        if i >= len(holder):
            return
        key = i
    else:
        n, key = 0, None
        for name in holder:  # the i-th key (objects are small: no list of keys made)
            if n == i:
                key = name
                break
            n += 1
        if key is None:
            return
    value = holder[key]
    _push(todo, holder, what, text, at, i + 1, depth)
    if what == _OF_EFFECT and key in NESTED and isinstance(value, list):
        return  # (checked as effects: _effect)
    if what == _OF_SHAPE:
        _push(todo, value, _SHAPE, text, at, key, depth)
    elif what == _OF_BLOCK:
        _push(todo, value, _FIELD, text, _find(text, key, ":"), key, depth)
    elif what == _OF_EFFECTS:
        _push(todo, value, _EFFECT, "", 0, key, depth)
    elif what == _OF_OPS:
        _push(todo, value, _OPS, "", 0, key, depth)
    else:
        _push(todo, value, _NAMED if key in PARAMS and isinstance(value, dict) else _OPS,
              "", 0, key, depth)


def _visit(todo, value, what, text, at, data, depth, key):
    """None, or (the path below ``value``, the reason); what is inside to check next
    goes on ``todo`` (``depth``: the length of the path to ``value``, ``key`` its
    place in its holder: a field's name)."""
    if what == _SHAPE:
        return _shape(todo, value, text, at, depth)
    if what == _BLOCK:
        if not isinstance(value, dict):
            return "", "must be an object"
        _push(todo, value, _MISSING, text, 0, None, depth)
        _push(todo, value, _OF_BLOCK, text, 0, 0, depth)
        return None
    if what == _FIELD:
        if at < 0:
            return "", "unknown field"
        if key in _ENUMS:
            _push(todo, value, _ENUM, key, 0, None, depth)
        _push(todo, value, _SHAPE, text, at, None, depth)
        return None
    if what == _ENUM:  # (an expression: a limit's own scope; text: the field's name)
        if not isinstance(value, dict) and value not in _ENUMS[text]:
            return "", "must be one of " + ", ".join(_ENUMS[text])
        return None
    if what == _MISSING:  # (after its fields: a mistake in one is said first)
        need = text.count(":!")
        for key in value:
            if need and text.startswith("!", _find(text, key, ":")):
                need -= 1
        if need:
            for word in text.split():  # (allocates: only for the mistake)
                name, _, shape = word.partition(":")
                if shape[:1] == "!" and name not in value:
                    return "." + name, "is missing"
        return None
    if what == _FORMS:
        if not isinstance(value, list):
            return "", "must be a list of effects"
        _push(todo, value, _OF_EFFECTS, "", 0, 0, depth)
        return None
    if what == _EFFECT:
        return _effect(todo, value, data, depth)
    if what == _COUNTS:
        return _counts(value, text)
    if what == _OPS:
        if isinstance(value, list):
            _push(todo, value, _OF_OPS, "", 0, 0, depth)
            return None
        if not isinstance(value, dict):
            return None
        if len(value) == 1:
            for key in value:
                if key not in OPERATOR_NAMES and key not in EFFECT_NAMES:
                    return "", "unknown operator %r" % key
    elif not isinstance(value, dict):  # _NAMED of what is not an object: an expression
        _push(todo, value, _OPS, "", 0, None, depth)
        return None
    _push(todo, value, _OF_NAMED, "", 0, 0, depth)
    return None


def _shape(todo, value, text, at, depth):
    """``value`` against the shape at ``text[at:]`` (see _SHAPES), read in place."""
    if text.startswith("!", at):
        at += 1
    if text.startswith("[", at) or text.startswith("{", at):
        if text.startswith("[", at) and not isinstance(value, list):
            return "", "must be a list"
        if text.startswith("{", at) and not isinstance(value, dict):
            return "", "must be an object"
        _push(todo, value, _OF_SHAPE, text, at + 1, 0, depth)
        return None
    if text.startswith("@", at):
        _push(todo, value, _BLOCK, _SHAPES[text[at + 1:text.find(" ", at)]], 0, None, depth)
        return None
    if text.startswith("x", at):
        if isinstance(value, dict) and len(value) != 1:
            return "", "an expression has exactly one operator"
        _push(todo, value, _OPS, "", 0, None, depth)
        return None
    if text.startswith("f", at):
        _push(todo, value, _FORMS, "", 0, None, depth)
        return None
    code = "isbncva".find(text[at])
    if code < 3:  # (no tuple of the types: one made per value is garbage)
        if code == 0 and (not isinstance(value, int) or isinstance(value, bool)):
            return "", "must be a whole number"
        if code == 1 and not isinstance(value, str):
            return "", "must be text"
        if code == 2 and not isinstance(value, bool):
            return "", "must be true or false"
        return None
    if isinstance(value, bool):  # not an int to MicroPython, an int to CPython
        return None if code != 3 else ("", _SCALARS[0])
    if code == 6 or isinstance(value, str) or isinstance(value, int) or \
            code == 5 and isinstance(value, list):
        return None
    return "", _SCALARS[code - 3]


def _effect(todo, effect, data, depth):
    """An effect's name and own fields; what is inside it to check next: the block
    of its argument (opposed, make_pieces, turn_order), its counts, its lists of
    effects, then its expressions."""
    if not isinstance(effect, dict):
        return "", "must be an object"
    kind, kinds = None, 0
    for key in effect:
        if key in EFFECT_NAMES:
            kind, kinds = key, kinds + 1
    if kinds != 1:
        return "", ("exactly one effect key expected (add, set, roll, require, if, "
                    "each_player, ...: see docs/rulesets.md)")
    if kind == "roll" and isinstance(effect["roll"], str) and \
            effect["roll"] not in data.get("dice", {}):
        return ".roll", "unknown die %r" % (effect["roll"],)
    if kind == "native" and not (isinstance(effect["native"], str) and
                                 effect["native"] in NATIVE):
        module = str(effect["native"]).partition(".")[0]
        offered = [n[len(module) + 1:] for n in NATIVE if n.startswith(module + ".")]
        if offered:  # what its module offers
            return ".native", "unknown native %r: %s has %s" % (
                effect["native"], module, " ".join(offered))
        modules = []
        for n in NATIVE:
            if n.partition(".")[0] not in modules:
                modules.append(n.partition(".")[0])
        return ".native", "unknown native %r: the firmware's are in %s" % (
            effect["native"], " ".join(modules))
    if kind == "call" and effect["call"] not in data.get("actions", {}):
        return ".call", "unknown action %r" % (effect["call"],)
    fields = _FIELDS.get(kind, " ")
    for key in effect:
        if key != kind and _find(fields, key, " ") < 0:
            return "." + key, "not a field of %s (%s)" % (
                kind, ", ".join(fields.split()) if fields != " " else "it has none")
    # pushed last first: its expressions are checked last
    _push(todo, effect, _OF_EFFECT, "", 0, 0, depth)
    for i in range(len(NESTED) - 1, -1, -1):
        if NESTED[i] in effect:  # (a list: only a compiled action's own effects are text)
            _push(todo, effect[NESTED[i]], _FORMS, "", 0, NESTED[i], depth)
    _push(todo, effect, _COUNTS, kind, 0, None, depth)
    if kind == "opposed" or kind == "make_pieces" or kind == "turn_order":
        _push(todo, effect[kind], _BLOCK, _SHAPES[kind], 0, kind, depth)
    return None


def _counts(effect, kind):
    """The counts written in an effect are within the bounds; a repeat ends."""
    count = effect["make_pieces"].get("count") if kind == "make_pieces" else \
        effect.get("count") if kind == "roll" or kind == "draw" or kind == "take" else None
    if isinstance(count, int) and not 0 <= count <= (MAX_PIECES if kind == "make_pieces"
                                                     else MAX_DICE):
        return ".count", "must be 0..%d" % (MAX_PIECES if kind == "make_pieces" else MAX_DICE)
    if kind == "repeat" and "until" not in effect:
        return ".until", "is missing (a repeat without it never ends)"
    return None


def _find(text, key, after):
    """Where ``key`` is a whole word in ``text`` followed by ``after`` (":" or " "),
    the index past that, else -1; nothing allocated."""
    i = text.find(key)
    while i >= 0:
        if text.startswith(" ", i - 1) and text.startswith(after, i + len(key)):
            return i + len(key) + 1
        i = text.find(key, i + 1)
    return -1


def word(text, letters):
    """Whether ``text`` is a non-empty string of ``letters`` only."""
    if not isinstance(text, str) or not text:
        return False
    for c in text:
        if c not in letters:
            return False
    return True


def check_pieces(data, fail):
    """Piece keys are words (their count: ruleset._too_many_pieces)."""
    pieces = data.get("pieces", {})
    lists = [("pieces.each", pieces.get("each", []))]
    by_player = pieces.get("by_player", {})
    lists += [("pieces.by_player." + p, by_player[p]) for p in by_player]
    teams = data.get("teams", [])
    lists += [("teams[%d].pieces" % i, teams[i].get("pieces", [])) for i in range(len(teams))]
    for path, items in lists:
        for i, piece in enumerate(items):
            if not word(piece["key"], _KEY_LETTERS):
                fail("%s[%d].key" % (path, i), "must be letters, digits and _")
