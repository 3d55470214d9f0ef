"""Loading and checking a ruleset: a clear reason, with its JSON path, or a ruleset.

The same checks run on the host (``arbiter validate``, which adds a JSON
Schema pass and line numbers) and on the device before a ruleset is used.
"""

import json

from arbiter.game import FORMAT  # noqa: F401  (re-exported for the host's validate)
from arbiter.game.effects import EFFECTS, MAX_DICE, MAX_PIECES
from arbiter.game.expr import EMPTY, OPERATORS

MAX_BYTES = 32768  # a ruleset must parse comfortably in a Pico's heap
MAX_PLAYERS = 8
_TOP = ("$schema", "format", "name", "title", "players", "options", "values", "dice", "counters",
        "pieces", "secrets", "phases", "turn_order", "triggers", "end", "tiebreak", "actions",
        "setup", "round_label", "show", "notes", "game", "teams", "grid", "leds", "pages")


MAX_DEPTH = 32  # JSON nesting (the bundled games reach 20): the walks here and the
# engine's recurse, and a Pico's C stack is small
MAX_FACES = 100  # entries of a die's face list

# Each block's fields and what each holds: "s" text, "i" a whole number, "b" true or
# false, "c" a choice (text, number, true/false), "n" text or number, "v" a game
# value (a choice or a list), "a" anything, "x" an expression, "f" effects; "[T" a
# list of T, "{T" an object of any names to T, "@NAME" the block NAME. A field not
# listed is refused: a misspelt one would be silently ignored.
_SHAPES = {
    "": {"$schema": "s", "format": "i", "name": "s", "title": "s", "notes": "s",
         "players": "@players", "options": "{@option", "values": "{x", "game": "{v",
         "dice": "{@die", "counters": "{@counter", "pieces": "@pieces",
         "secrets": "[@secret", "setup": "f", "round_label": "s", "show": "[s",
         "phases": "[@phase", "turn_order": "@order", "triggers": "[@trigger",
         "end": "[@end", "tiebreak": "[x", "leds": "@leds", "grid": "@grid",
         "pages": "[@page", "teams": "[@team", "actions": "{@action"},
    "players": {"min": "i", "max": "i", "default": "i", "names": "[s", "colours": "[s",
                "warn": "@warn", "pulse": "@pulse"},
    "warn": {"counter": "s", "amber": "i", "red": "i"},
    "pulse": {"counter": "s", "at": "i"},
    "option": {"choices": "[c", "default": "c", "label": "s"},
    "die": {"faces": "a", "label": "s"},
    "counter": {"start": "x", "min": "x", "max": "x", "choices": "[s", "label": "s"},
    "pieces": {"counters": "{@counter", "stats": "{n", "each": "[@piece",
               "by_player": "{[@piece"},
    "piece": {"key": "s", "name": "s", "stats": "{n"},
    "secret": {"name": "s", "prompt": "s", "field": "s", "action": "s", "choices": "[a",
               "on_reveal": "f"},
    "phase": {"name": "s", "label": "s", "per_player": "x", "skip_if": "x",
              "repeat_until": "x", "enter": "f", "turn": "f", "leave": "f", "exit": "f",
              "confirm": "s"},
    "order": {"by": "s", "die": "s", "key": "x", "high_first": "b"},
    "trigger": {"counter": "s", "on": "s", "at": "x", "falls": "b", "effects": "f"},
    "end": {"at": "s", "win_if": "x", "lose_if": "x"},
    "leds": {"piece": "x", "level": "x", "flash": "{[s"},
    "grid": {"value": "s", "cell": "x", "name": "x", "caption": "x", "shown": "x",
             "columns": "i", "label": "s"},
    "page": {"label": "s", "phases": "[s", "lines": "[x"},
    "team": {"name": "s", "counters": "{i", "pieces": "[@piece"},
    "action": {"params": "[s", "flags": "[s", "phases": "[s", "label": "s",
               "choices": "{x", "defaults": "x", "preview": "b", "private": "b",
               "effects": "f"},
    # the argument of the effects that take an object of fields
    "opposed": {"a": "@side", "b": "@side", "score": "s", "as": "s", "ties": "s",
                "reason": "x"},
    "side": {"die": "x", "count": "x", "player": "x", "as": "s"},
    "make_pieces": {"of": "x", "count": "x", "prefix": "s", "stats": "{n"},
    "turn_order": "@order",
}
_REQUIRED = {"": ("format", "name"), "die": ("faces",), "option": ("choices",),
             "secret": ("name", "choices"), "phase": ("name",), "piece": ("key",),
             "trigger": ("counter", "at"), "page": ("label", "lines"), "team": ("name",),
             "warn": ("counter",), "pulse": ("counter",), "leds": ("piece",),
             "opposed": ("a", "b"), "side": ("die",), "make_pieces": ("count",)}
_ENUMS = {"by": ("fixed", "roll", "value"), "on": ("player", "piece")}
# Each effect's fields besides its name; the forms in _SHAPES take an object instead.
_FIELDS = {
    "add": ("n",), "set": ("to",), "roll": ("count", "player", "reason", "as"),
    "require": ("reason",), "if": ("then", "else"), "each_piece": ("of", "where"),
    "let": ("be",), "for_each": ("as", "do"), "call": ("with",), "team": ("player",),
    "repeat": ("until",), "draw": ("count", "to", "as", "reason", "empty"),
    "shuffle": ("to", "reason"), "append": ("item",), "remove": ("item", "reason"),
}
_KINDS = {"s": str, "b": bool}
_KEY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_SCALARS = {"n": "must be text or a number", "c": "must be text, a number or true/false",
            "v": "must be text, a number, true/false or a list"}

# forms whose argument is an object of named fields, not an expression
_PARAMS = ("count_pieces", "max_pieces", "sum_pieces", "make_pieces", "opposed",
           "turn_order", "with", "list_pieces")


class RulesetError(ValueError):
    def __init__(self, path, message):
        super().__init__("%s: %s" % (path or "ruleset", message))
        self.path = path
        self.message = message


def check_size(size):
    """Refuse a file over the cap before reading it (``size`` in bytes, as the host counts)."""
    if size is not None and size > MAX_BYTES:
        raise RulesetError("", "too large: %d bytes, the limit is %d" % (size, MAX_BYTES))


def parse(text):
    """Text to a checked ruleset dict; raises RulesetError."""
    if len(text) > MAX_BYTES:
        raise RulesetError("", "too large: %d bytes, the limit is %d" % (len(text), MAX_BYTES))
    return _checked(text, json.loads)


def read(stream):
    """``parse`` from an open file (its size checked first, ``check_size``): the
    text is never held whole, so a big ruleset loads in a small heap."""
    return _checked(stream, json.load)


def _checked(source, load):
    data = None
    for step in steps(source, load):
        data = step
    return data


def steps(source, load=json.load):
    """``read`` a step at a time: parse, share equal strings, share equal forms,
    check. Each ``next`` does one; the last gives the ruleset. Between the steps
    a Pico's heap can let go of what the step before left (the device loads in
    as many main-loop passes)."""
    try:
        data = load(source)
    except ValueError as exc:
        raise RulesetError("", "not valid JSON (%s)" % exc) from None
    except RuntimeError:  # CPython's parser recursing past its stack
        raise RulesetError("", "nested over %d deep" % MAX_DEPTH) from None
    if _too_deep(data, MAX_DEPTH):  # before any walk below recurses
        raise RulesetError("", "nested over %d deep" % MAX_DEPTH)
    yield None
    data = share(data, {}, False)
    yield None
    data = share(data, {}, True)
    yield None
    check(data)  # only reads: sharing first changes nothing it sees
    yield data


def share(value, seen, forms):
    """Equal strings (``forms`` False), or equal one-key forms such as
    ``{"get": "$k.name"}`` (True), become one object: a ruleset repeats them
    dozens of times and a Pico's heap is small. The engine never changes a
    ruleset, so sharing is safe."""
    if isinstance(value, str):
        return value if forms else seen.setdefault(value, value)
    if isinstance(value, list):
        for i in range(len(value)):
            value[i] = share(value[i], seen, forms)
    elif isinstance(value, dict):
        for key in value:
            value[key] = share(value[key], seen, forms)
            if forms and len(value) == 1 and isinstance(value[key], str):
                same = seen.get(key)  # not setdefault(key, {}): a dict made each time
                if same is None:
                    same = seen[key] = {}
                return same.setdefault(value[key], value)
    return value


def _too_deep(value, room):
    """Whether ``value`` nests more than ``room`` lists and objects deep (the walk
    goes no deeper than that: it is safe on anything JSON gave)."""
    if isinstance(value, dict):
        for key in value:  # no allocation: a walk of every value in a small heap
            if room == 0 or _too_deep(value[key], room - 1):
                return True
    elif isinstance(value, list):
        for i in range(len(value)):
            if room == 0 or _too_deep(value[i], room - 1):
                return True
    return False


def _bad_shape(value, shape, data):
    """None, or (the path below ``value``, the reason): ``value`` against ``shape``
    (see _SHAPES). Paths are built only for a mistake."""
    code = shape[0]
    if code == "[" or code == "{":
        if not isinstance(value, list if code == "[" else dict):
            return "", "must be a list" if code == "[" else "must be an object"
        keys = range(len(value)) if code == "[" else value
        for key in keys:
            bad = _bad_shape(value[key], shape[1:], data)
            if bad is not None:
                return ("[%d]" % key if code == "[" else "." + key) + bad[0], bad[1]
        return None
    if code == "@":
        block = _SHAPES[shape[1:]]
        if isinstance(block, str):
            return _bad_shape(value, block, data)
        if not isinstance(value, dict):
            return "", "must be an object"
        for key in _REQUIRED.get(shape[1:], ()):
            if key not in value:
                return "." + key, "is missing"
        for key in value:
            field = block.get(key)
            if field is None:
                return "." + key, "unknown field"
            bad = _bad_shape(value[key], field, data)
            if bad is None and key in _ENUMS and value[key] not in _ENUMS[key]:
                bad = "", "must be one of " + ", ".join(_ENUMS[key])
            if bad is not None:
                return "." + key + bad[0], bad[1]
        return None
    if code == "x":
        if isinstance(value, dict) and len(value) != 1:
            return "", "an expression has exactly one operator"
        return _bad_operator(value)
    if code == "f":
        return _bad_forms(value, data)
    if code == "i" or code == "s" or code == "b":
        if not isinstance(value, _KINDS.get(code, int)) or \
                code == "i" and isinstance(value, bool):
            return "", ("must be a whole number", "must be text", "must be true or false")[
                "isb".index(code)]
        return None
    if isinstance(value, bool):  # not an int to MicroPython, an int to CPython
        return None if code != "n" else ("", _SCALARS[code])
    if code == "a" or isinstance(value, (str, int)) or code == "v" and isinstance(value, list):
        return None
    return "", _SCALARS[code]


def _fail(path, message):
    raise RulesetError(path, message)


def _obj(value, path):
    if not isinstance(value, dict):
        _fail(path, "must be an object")
    return value


def _int(value, path, low=None, high=None):
    if isinstance(value, bool) or not isinstance(value, int):
        _fail(path, "must be a whole number")
    if low is not None and value < low or high is not None and value > high:
        _fail(path, "must be %s..%s" % (low, high))
    return value


def check(data):
    _obj(data, "")
    version = data.get("format")
    if version != FORMAT:
        _fail("format", "format %r is not understood; this Arbiter reads format %d"
              % (version, FORMAT))
    for key in data:
        if key not in _TOP:
            _fail(key, "unknown block")
    if _too_deep(data, MAX_DEPTH):
        _fail("", "nested over %d deep" % MAX_DEPTH)
    bad = _bad_shape(data, "@", data)
    if bad is not None:
        _fail(bad[0][1:], bad[1])
    if not _word(data["name"], "abcdefghijklmnopqrstuvwxyz0123456789_-") or \
            len(data["name"]) > 24:
        _fail("name", "must be 1 to 24 of a-z, 0-9, _ and -")
    players = _obj(data.get("players", {}), "players")
    low = _int(players.get("min", 2), "players.min", 1, MAX_PLAYERS)
    high = _int(players.get("max", low), "players.max", 1, MAX_PLAYERS)
    if low > high:
        _fail("players", "min %d exceeds max %d" % (low, high))
    _int(players.get("default", low), "players.default", low, high)
    _check_pieces(data, high)
    phases = data.get("phases", ())
    if phases and all({"next": True} in phase.get("enter", ()) for phase in phases):
        _fail("phases", "every phase moves on as it is entered: a loop")
    for i, name in enumerate(players.get("names", [])):
        if not isinstance(name, str) or not 0 < len(name) <= 12:
            _fail("players.names[%d]" % i, "must be a name of 1 to 12 characters")
    for i, colour in enumerate(players.get("colours", [])):
        colour_of(colour, "players.colours[%d]" % i)
    _check_options(_obj(data.get("options", {}), "options"))
    _check_dice(_obj(data.get("dice", {}), "dice"))
    counters = _obj(data.get("counters", {}), "counters")
    _check_counters(counters, "counters")
    pieces = _obj(data.get("pieces", {}), "pieces")
    piece_counters = _obj(pieces.get("counters", {}), "pieces.counters")
    _check_counters(piece_counters, "pieces.counters")
    for i, trigger in enumerate(data.get("triggers", [])):
        path = "triggers[%d]" % i
        _obj(trigger, path)
        pool = piece_counters if trigger.get("on") == "piece" else counters
        if trigger.get("counter") not in pool:
            _fail(path + ".counter", "unknown counter %r" % (trigger.get("counter"),))
        _forms(trigger.get("effects", []), path + ".effects", data)
    for i, phase in enumerate(data.get("phases", [])):
        _obj(phase, "phases[%d]" % i)
        if not isinstance(phase.get("name"), str):
            _fail("phases[%d].name" % i, "must be a string")
        for key in ("enter", "turn", "leave", "exit"):
            _forms(phase.get(key, []), "phases[%d].%s" % (i, key), data)
        if "confirm" in phase and phase["confirm"] not in data.get("actions", {}):
            _fail("phases[%d].confirm" % i, "unknown action %r" % (phase["confirm"],))
    for name, action in _obj(data.get("actions", {}), "actions").items():
        _obj(action, "actions." + name)
        _forms(action.get("effects", []), "actions.%s.effects" % name, data)
    for i, secret in enumerate(data.get("secrets", [])):
        path = "secrets[%d]" % i
        _obj(secret, path)
        if not isinstance(secret.get("choices"), list) or not secret["choices"]:
            _fail(path + ".choices", "must be a non-empty list")
    _check_teams(data, counters)
    grid = _obj(data.get("grid", {}), "grid")
    _exprs(grid, "grid", True)
    if grid and ("value" in grid) == ("cell" in grid):
        _fail("grid", "needs either value or cell")
    for i, page in enumerate(data.get("pages", [])):
        _exprs(_obj(page, "pages[%d]" % i).get("lines", []), "pages[%d].lines" % i)
    if "leds" in data:
        _check_leds(_obj(data["leds"], "leds"))
    for i, end in enumerate(data.get("end", [])):
        _obj(end, "end[%d]" % i)
        if end.get("at", "always") not in ("always", "round_end", "turn_start"):
            _fail("end[%d].at" % i, "must be always, round_end or turn_start")
    return data


def _word(text, letters):
    """Whether ``text`` is a non-empty string of ``letters`` only."""
    if not isinstance(text, str) or not text:
        return False
    for c in text:
        if c not in letters:
            return False
    return True


def _check_pieces(data, players):
    """Piece keys are words, and the pieces a game starts with stay under MAX_PIECES."""
    pieces = data.get("pieces", {})
    lists = [("pieces.each", pieces.get("each", []))]
    by_player = pieces.get("by_player", {})
    lists += [("pieces.by_player." + p, by_player[p]) for p in by_player]
    teams = data.get("teams", [])
    lists += [("teams[%d].pieces" % i, teams[i].get("pieces", [])) for i in range(len(teams))]
    for path, items in lists:
        for i, piece in enumerate(items):
            if not _word(piece["key"], _KEY_LETTERS):
                _fail("%s[%d].key" % (path, i), "must be letters, digits and _")
    each = len(lists[0][1]) * players
    most = max([len(items) for _, items in lists[1:]] or [0]) * players
    if each + most > MAX_PIECES:
        _fail("pieces", "%d pieces or more; at most %d" % (each + most, MAX_PIECES))


def _check_teams(data, counters):
    teams = data.get("teams", [])
    if not isinstance(teams, list):
        _fail("teams", "must be a list of teams")
    names = []
    for i, team in enumerate(teams):
        path = "teams[%d]" % i
        _obj(team, path)
        name = team.get("name")
        if not isinstance(name, str) or not name or " " in name:
            _fail(path + ".name", "must be a word")
        if name.lower() in names:
            _fail(path + ".name", "two teams are called %s" % name)
        names.append(name.lower())
        for counter in _obj(team.get("counters", {}), path + ".counters"):
            if counter not in counters:
                _fail(path + ".counters." + counter, "unknown counter")
        keys = [piece.get("key") for piece in team.get("pieces", [])]
        if len(set(keys)) != len(keys):
            _fail(path + ".pieces", "two pieces have the same key")


def colour_of(text, path="colour"):
    """``"#rrggbb"``, checked (the LED ring parses it: the game never does)."""
    if not isinstance(text, str) or len(text) != 7 or text[0] != "#" or \
            any(c not in "0123456789abcdefABCDEF" for c in text[1:]):
        _fail(path, "must be a colour like #ff8800")
    return text


def _check_options(options):
    for name, option in options.items():
        path = "options." + name
        _obj(option, path)
        choices = option.get("choices")
        if not isinstance(choices, list) or not choices:
            _fail(path + ".choices", "must be a non-empty list")
        if option.get("default", choices[0]) not in choices:
            _fail(path + ".default", "must be one of the choices")


def _check_dice(dice):
    for name, die in dice.items():
        path = "dice." + name
        _obj(die, path)
        faces = die.get("faces")
        if isinstance(faces, list):
            if not 0 < len(faces) <= MAX_FACES:
                _fail(path + ".faces", "a die has 1 to %d faces" % MAX_FACES)
            for i, face in enumerate(faces):
                _int(face, "%s.faces[%d]" % (path, i), 0, 99)
        elif faces is None:
            _fail(path + ".faces", "a die needs faces (a count, or a list of face values)")
        else:
            _int(faces, path + ".faces", 1, 1000)


def _check_counters(counters, where):
    for name, counter in counters.items():
        path = where + "." + name
        _obj(counter, path)
        if "choices" in counter:
            if not isinstance(counter["choices"], list) or not counter["choices"]:
                _fail(path + ".choices", "must be a non-empty list")
            continue
        low, high = counter.get("min"), counter.get("max")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            _fail(path, "min %d exceeds max %d" % (low, high))
        start = counter.get("start", 0)
        if isinstance(start, int) and isinstance(low, int) and start < low or \
                isinstance(start, int) and isinstance(high, int) and start > high:
            _fail(path + ".start", "outside min..max")


def _forms(effects, path, data):
    bad = _bad_forms(effects, data)
    if bad is not None:
        _fail(path + bad[0], bad[1])


def _bad_forms(effects, data):
    """None, or (the path below ``effects``, the reason): effects are one-key objects
    from the known vocabulary and the dice they roll exist. Like ``_bad_operator``
    the walk allocates nothing until it finds a mistake."""
    if not isinstance(effects, list):
        return "", "must be a list of effects"
    for i in range(len(effects)):
        bad = _bad_effect(effects[i], data)
        if bad is not None:
            return "[%d]%s" % (i, bad[0]), bad[1]
    return None


def _bad_effect(effect, data):
    if not isinstance(effect, dict):
        return "", "must be an object"
    kind, kinds = None, 0
    for key in effect:
        if key in EFFECTS:
            kind, kinds = key, kinds + 1
    if kinds != 1:
        return "", ("exactly one effect key expected (add, set, roll, require, if, "
                    "each_player, ...: see docs/rulesets.md)")
    if kind == "roll" and isinstance(effect["roll"], str) and \
            effect["roll"] not in data.get("dice", {}):
        return ".roll", "unknown die %r" % (effect["roll"],)
    if kind == "call" and effect["call"] not in data.get("actions", {}):
        return ".call", "unknown action %r" % (effect["call"],)
    fields = _FIELDS.get(kind, ())
    for key in effect:
        if key != kind and key not in fields:
            return "." + key, "not a field of %s (%s)" % (
                kind, ", ".join(fields) if fields else "it has none")
    if kind == "opposed" or kind == "make_pieces" or kind == "turn_order":
        bad = _bad_shape(effect[kind], "@" + kind, data)
        if bad is not None:
            return "." + kind + bad[0], bad[1]
    count = effect["make_pieces"].get("count") if kind == "make_pieces" else \
        effect.get("count") if kind == "roll" or kind == "draw" else None
    if isinstance(count, int) and not 0 <= count <= (MAX_PIECES if kind == "make_pieces"
                                                     else MAX_DICE):
        return ".count", "must be 0..%d" % (MAX_PIECES if kind == "make_pieces" else MAX_DICE)
    if kind == "repeat" and "until" not in effect:
        return ".until", "is missing (a repeat without it never ends)"
    for key in ("then", "else", "each_player", "each_piece", "do", "repeat"):
        if key in effect and isinstance(effect[key], list):
            bad = _bad_forms(effect[key], data)
            if bad is not None:
                return "." + key + bad[0], bad[1]
    return _bad_operator(effect)


def _exprs(form, path, params=False):
    """A one-key object is an operator, except the named fields of a form in
    ``_PARAMS`` (``{"count_pieces": {"of": "$p"}}``)."""
    bad = _bad_operator(form, params)
    if bad is not None:
        _fail(path + bad[0], bad[1])


def _bad_operator(form, params=False):
    """None, or (the path below ``form``, the reason). Paths are built only for a
    mistake: the walk allocates nothing, so a big ruleset checks in a small heap."""
    if isinstance(form, dict):
        for key in form:
            value = form[key]
            if len(form) == 1 and not params and key not in OPERATORS and key not in EFFECTS:
                return "", "unknown operator %r" % key
            bad = _bad_operator(value, key in _PARAMS and isinstance(value, dict))
            if bad is not None:
                return "." + key + bad[0], bad[1]
    elif isinstance(form, list):
        for i in range(len(form)):
            bad = _bad_operator(form[i])
            if bad is not None:
                return "[%d]%s" % (i, bad[0]), bad[1]
    return None


def _check_leds(leds):
    """The ``leds`` block (game/lights.py): its expressions use known operators; its
    flashes are colours or players."""
    for key in ("piece", "level"):
        _exprs(leds.get(key), "leds." + key)
    for phase, colours in _obj(leds.get("flash", EMPTY), "leds.flash").items():
        for i, colour in enumerate(colours if isinstance(colours, list) else [None]):
            if not (isinstance(colour, str) and colour[:1] == "P"):  # or a player's colour
                colour_of(colour, "leds.flash.%s[%d]" % (phase, i))
