"""The shapes of a ruleset's blocks: which fields each has and what each holds, and
the bounds on counts. Part of the check (ruleset.py), loaded only while a check
runs: a Pico's heap does not hold it while a ruleset is parsed."""

from arbiter.game.effects import MAX_DICE, MAX_PIECES

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
    "secret": " name:!s prompt:s field:s action:s choices:![a on_reveal:f ",
    "phase": " name:!s label:s per_player:x skip_if:x repeat_until:x enter:f turn:f leave:f "
             "exit:f confirm:s on_a:s key_a:s fast:x ",
    "order": " by:s die:s key:x high_first:b ",
    "trigger": " counter:!s on:s at:!x falls:b effects:f ",
    "end": " at:s win_if:x lose_if:x ", "leds": " piece:!x level:x flash:{[s ",
    "grid": " value:s armies:s cell:x name:x caption:x shown:x columns:i label:s ",
    "page": " label:!s phases:[s lines:![x ", "team": " name:!s counters:{i pieces:[@piece ",
    "action": " params:[s flags:[s phases:[s label:s choices:{x defaults:x preview:b "
              "knob:[s private:b who:x limit:@limit strict:[s effects:f ",
    "limit": " per:!x times:i as:s named:s ",
    "combat": " lead:![s reply:![s costs:{s pool:!s spent:!s cap:!s free:s hit:!s out:s over:s ",
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
    "end:[@end tiebreak:[x leds:@leds grid:@grid pages:[@page teams:[@team combat:@combat "
    "actions:{@action ")
_ENUMS = {"by": ("fixed", "roll", "value"), "on": ("player", "piece"),
          "per": ("turn", "phase", "round", "game")}
# Each effect's fields besides its name (opposed, make_pieces and turn_order take an
# object: their blocks above).
_FIELDS = {
    "add": " n ", "set": " to ", "roll": " count player reason as ", "require": " reason ",
    "if": " then else ", "each_piece": " of where ", "let": " be ", "for_each": " as do ",
    "call": " with ", "team": " player ", "repeat": " until ",
    "draw": " count to as reason empty ", "shuffle": " to reason ", "append": " item ",
    "remove": " item reason ", "native": " ",
    "combat": " a d dp foe kind cost damage toughness combo knockdown ",
}
_KEY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_SCALARS = ("must be text or a number", "must be text, a number or true/false",
            "must be text, a number, true/false or a list")
# ruleset.py's fail, bad_operator and bad_forms, handed over by ``check`` (this
# module does not import it back)
_ruleset = []


def _fail(path, message):
    _ruleset[0](path, message)  # raises RulesetError


def bind(ruleset):
    """``ruleset``: ruleset.py's fail, bad_operator and bad_forms; fail raises on a
    mistake."""
    _ruleset[:] = ruleset


def check(data, ruleset):
    """The blocks of ``data`` against their shapes (``ruleset``: see ``bind``)."""
    bind(ruleset)
    for key in data:
        if _find(_TOP, key, ":") < 0:
            _fail(key, "unknown block")
    bad = bad_block(data, _TOP, data)
    if bad is not None:
        _fail(bad[0][1:], bad[1])
    if not word(data["name"], "abcdefghijklmnopqrstuvwxyz0123456789_-") or \
            len(data["name"]) > 24:
        _fail("name", "must be 1 to 24 of a-z, 0-9, _ and -")
    phases = data.get("phases", ())
    if phases and all({"next": True} in phase.get("enter", ()) for phase in phases):
        _fail("phases", "every phase moves on as it is entered: a loop")
    grid = data.get("grid", {})
    if grid and ("value" in grid) == ("cell" in grid):
        _fail("grid", "needs either value or cell")


def bad_fields(effect, kind, data):
    """None, or (path, reason): ``effect`` (of ``kind``) has only its own fields,
    and the counts written in it are within the bounds."""
    fields = _FIELDS.get(kind, " ")
    for key in effect:
        if key != kind and _find(fields, key, " ") < 0:
            return "." + key, "not a field of %s (%s)" % (
                kind, ", ".join(fields.split()) if fields != " " else "it has none")
    if kind == "opposed" or kind == "make_pieces" or kind == "turn_order":
        bad = bad_block(effect[kind], _SHAPES[kind], data)
        if bad is not None:
            return "." + kind + bad[0], bad[1]
    count = effect["make_pieces"].get("count") if kind == "make_pieces" else \
        effect.get("count") if kind == "roll" or kind == "draw" else None
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


def bad_shape(value, text, at, data):
    """None, or (the path below ``value``, the reason): ``value`` against the shape
    at ``text[at:]`` (see _SHAPES). Read in place, the shapes make no garbage, and
    paths are built only for a mistake."""
    if text.startswith("!", at):
        at += 1
    if text.startswith("[", at) or text.startswith("{", at):
        if text.startswith("[", at):
            if not isinstance(value, list):
                return "", "must be a list"
            i = 0
            while i < len(value):
                bad = bad_shape(value[i], text, at + 1, data)
                if bad is not None:
                    return "[%d]%s" % (i, bad[0]), bad[1]
                i += 1
            return None
        if not isinstance(value, dict):
            return "", "must be an object"
        for key in value:
            bad = bad_shape(value[key], text, at + 1, data)
            if bad is not None:
                return "." + key + bad[0], bad[1]
        return None
    if text.startswith("@", at):
        return bad_block(value, _SHAPES[text[at + 1:text.find(" ", at)]], data)
    if text.startswith("x", at):
        if isinstance(value, dict) and len(value) != 1:
            return "", "an expression has exactly one operator"
        return _ruleset[1](value)
    if text.startswith("f", at):
        return _ruleset[2](value, data)
    code = "isbncva".find(text[at])
    if code < 3:
        if not isinstance(value, (int, str, bool)[code]) or code == 0 and isinstance(value, bool):
            return "", ("must be a whole number", "must be text", "must be true or false")[code]
        return None
    if isinstance(value, bool):  # not an int to MicroPython, an int to CPython
        return None if code != 3 else ("", _SCALARS[0])
    if code == 6 or isinstance(value, (str, int)) or code == 5 and isinstance(value, list):
        return None
    return "", _SCALARS[code - 3]


def bad_block(value, block, data):
    """``_bad_shape`` of a block: its fields known, the required ones there."""
    if not isinstance(value, dict):
        return "", "must be an object"
    required = 0
    for key in value:
        at = _find(block, key, ":")
        if at < 0:
            return "." + key, "unknown field"
        required += 1 if block.startswith("!", at) else 0
        bad = bad_shape(value[key], block, at, data)
        if bad is None and key in _ENUMS and not isinstance(value[key], dict) and \
                value[key] not in _ENUMS[key]:  # (an expression: a limit's own scope)
            bad = "", "must be one of " + ", ".join(_ENUMS[key])
        if bad is not None:
            return "." + key + bad[0], bad[1]
    if required < block.count(":!"):
        for word in block.split():  # (allocates: only for the mistake)
            if word.partition(":")[2][:1] == "!" and word.partition(":")[0] not in value:
                return "." + word.partition(":")[0], "is missing"
    return None


def word(text, letters):
    """Whether ``text`` is a non-empty string of ``letters`` only."""
    if not isinstance(text, str) or not text:
        return False
    for c in text:
        if c not in letters:
            return False
    return True


def check_pieces(data, players):
    """Piece keys are words, and the pieces a game starts with stay under MAX_PIECES."""
    pieces = data.get("pieces", {})
    lists = [("pieces.each", pieces.get("each", []))]
    by_player = pieces.get("by_player", {})
    lists += [("pieces.by_player." + p, by_player[p]) for p in by_player]
    teams = data.get("teams", [])
    lists += [("teams[%d].pieces" % i, teams[i].get("pieces", [])) for i in range(len(teams))]
    for path, items in lists:
        for i, piece in enumerate(items):
            if not word(piece["key"], _KEY_LETTERS):
                _fail("%s[%d].key" % (path, i), "must be letters, digits and _")
    each = len(lists[0][1]) * players
    most = max([len(items) for _, items in lists[1:]] or [0]) * players
    if each + most > MAX_PIECES:
        _fail("pieces", "%d pieces or more; at most %d" % (each + most, MAX_PIECES))
