"""Loading and checking a ruleset: a clear reason, with its JSON path, or a ruleset.

The same checks run on the host (``arbiter validate``, which adds a JSON
Schema pass and line numbers) and on the device before a ruleset is used.
"""

import json

from arbiter import unload
from arbiter.game import FORMAT  # noqa: F401  (re-exported for the host's validate)
from arbiter.game.effects import EFFECTS
from arbiter.game.expr import EMPTY, OPERATORS

MAX_BYTES = 32768  # a ruleset must parse comfortably in a Pico's heap
MAX_PLAYERS = 8

MAX_DEPTH = 32  # JSON nesting (the bundled games reach 20): the walks here and the
# engine's recurse, and a Pico's C stack is small
MAX_FACES = 100  # entries of a die's face list

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


_shapes = None  # arbiter.game.shapes while a check runs


def check(data):
    """``data`` if the engine runs it in bounded time and memory, else RulesetError
    saying why and where. The shapes' checks (arbiter.game.shapes) come for this
    and go after: a Pico's heap holds this module while the ruleset is parsed."""
    global _shapes
    # by name: loaded here and not before, even by the emulator's preload
    _shapes = __import__("arbiter.game.shapes", None, None, ("check",))
    try:
        return _check(data)
    finally:
        _shapes = None
        unload("arbiter.game.shapes")


def _check(data):
    _obj(data, "")
    version = data.get("format")
    if version != FORMAT:
        _fail("format", "format %r is not understood; this Arbiter reads format %d"
              % (version, FORMAT))
    if _too_deep(data, MAX_DEPTH):
        _fail("", "nested over %d deep" % MAX_DEPTH)
    _shapes.check(data, (_fail, _bad_operator, _bad_forms))
    players = _obj(data.get("players", {}), "players")
    low = _int(players.get("min", 2), "players.min", 1, MAX_PLAYERS)
    high = _int(players.get("max", low), "players.max", 1, MAX_PLAYERS)
    if low > high:
        _fail("players", "min %d exceeds max %d" % (low, high))
    _int(players.get("default", low), "players.default", low, high)
    _shapes.check_pieces(data, high)
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
    _exprs(_obj(data.get("grid", {}), "grid"), "grid", True)
    for i, page in enumerate(data.get("pages", [])):
        _exprs(_obj(page, "pages[%d]" % i).get("lines", []), "pages[%d].lines" % i)
    if "leds" in data:
        _check_leds(_obj(data["leds"], "leds"))
    for i, end in enumerate(data.get("end", [])):
        _obj(end, "end[%d]" % i)
        if end.get("at", "always") not in ("always", "round_end", "turn_start"):
            _fail("end[%d].at" % i, "must be always, round_end or turn_start")
    return data


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
            if not faces:
                _fail(path + ".faces", "a die needs at least one face")
            if len(faces) > MAX_FACES:
                _fail(path + ".faces", "a die has at most %d faces" % MAX_FACES)
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
    bad = _shapes.bad_fields(effect, kind, data)
    if bad is not None:
        return bad
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
