"""Loading and checking a ruleset: a clear reason, with its JSON path, or a ruleset.

The same checks run on the host (``arbiter validate``, which adds a JSON
Schema pass and line numbers) and on the device before a ruleset is used.
"""

import json

from arbiter.game import FORMAT, LINES, MAX_PIECES  # noqa: F401  (FORMAT: host's validate)
from arbiter.game.jobs import let_go

EMPTY = {}  # an absent section (never written)

PHASE_EFFECTS = ("enter", "exit", "turn", "leave")  # a phase's lists of effects

MAX_FILE_BYTES = 40960  # a device's ruleset, compiled: it must load in a Pico's heap

# A device reads rulesets compiled on the PC (arbiter_referee/compiled.py), one
# shape: this head, the JSON's byte offset in 8 digits and a newline, then lines
# (each its text's length in 5 digits, then the text), then the ruleset's JSON.
# In that JSON each action is the offset of its line (an action's JSON, whose
# ``effects`` are the offsets of their lines: a long list is split, a Pico reads a
# line whole), each team is the offset of its line, and each place of effects
# besides the actions (effects_places) the offset of its line. Still data: the
# device checks each line as the source it stands for. An older head is refused.
LINES_HEAD = "//arbiter compiled 2 "
_START = len(LINES_HEAD) + 9  # the first line's offset: after the head's digits
MAX_PLAYERS = 8

MAX_DEPTH = 32  # JSON nesting (the bundled games reach 20): the walks here and the
# engine's recurse, and a Pico's C stack is small
MAX_FACES = 100  # entries of a die's face list


class RulesetError(ValueError):
    def __init__(self, path, message):
        super().__init__("%s: %s" % (path or "ruleset", message))
        self.path = path
        self.message = message


def check_size(size):
    """Refuse a device's file over the cap before reading it (``size`` in bytes)."""
    if size is not None and size > MAX_FILE_BYTES:
        raise RulesetError("", "too large: %d bytes, the limit is %d" % (size, MAX_FILE_BYTES))


def read(stream, lines, passed=False):
    """A compiled ruleset from its open file (its size checked first, ``check_size``),
    checked; raises RulesetError. ``lines``: the function giving the text of the line
    at a byte offset of the same file (hw.flash.Flash.lines): the ruleset keeps it
    (``LINES``), and the engine reads its actions, effects and teams through it when
    they are wanted. The text is never held whole, so a big ruleset loads in a
    small heap."""
    data = None
    for step in steps(stream, lines, passed):
        data = step
    return data


def steps(stream, lines, passed=False):
    """``read`` a step at a time: parse, share equal strings and forms, check. Each
    ``next`` does one; the last gives the ruleset. Between the steps a Pico's heap
    can let go of what the step before left (the device loads in as many main-loop
    passes). ``passed``: these exact bytes passed the checks before
    (arbiter.store.checked), so no line is read and the walks are skipped."""
    end = _lines_end(stream)
    try:
        data = json.load(stream)
    except ValueError as exc:
        raise RulesetError("", "not valid JSON (%s)" % exc) from None
    except RuntimeError:  # CPython's parser recursing past its stack
        raise RulesetError("", "nested over %d deep" % MAX_DEPTH) from None
    _obj(data, "")
    placed = ()
    if not passed:  # each line read in its place, checked as the source it stands for
        placed = _in_place(data, lines, end)
        if too_deep(data, MAX_DEPTH):  # before any walk below recurses
            raise RulesetError("", "nested over %d deep" % MAX_DEPTH)
    yield None
    data = shared(data)
    yield None
    if not passed:
        # the actions' effects are set aside, then checked an action a step: all
        # parsed at once they would not fit a Pico W's heap
        refs = {}
        actions = data.get("actions")
        for name in actions if isinstance(actions, dict) else ():  # (check says if not)
            spec = actions[name]
            if isinstance(spec, dict) and "effects" in spec:
                refs[name] = spec.pop("effects")
        check(data, False)  # only reads: sharing first changes nothing it sees
        yield None
        for name in refs:
            path = "actions.%s.effects" % name
            check_effects(data, name, _effects(lines, refs[name], end, path))
            yield None
        for holder, key, at in placed:  # read again when wanted
            holder[key] = at
    data[LINES] = lines
    yield data


def _lines_end(stream):
    """Where a compiled file's lines end and its JSON starts, the stream left there;
    RulesetError if the file is not compiled, or compiled by an older Arbiter."""
    head = stream.read(_START)
    if head[:len(LINES_HEAD)] != LINES_HEAD:
        raise RulesetError("", "not compiled for this Arbiter: send it with arbiter push")
    digits = head[len(LINES_HEAD):]
    end = int(digits[:8]) if digits[:8].isdigit() and digits[8:] == "\n" else 0
    if end < _START:
        raise RulesetError("", "a compiled ruleset's head is broken")
    stream.seek(end)
    return end


def _in_place(data, lines, end):
    """Each action, team and place of effects of ``data`` read from its line into
    its place, to be checked: [(its holder, its key, its line's offset)], to be put
    back after. An action's effects stay the offsets of their lines (``_effects``)."""
    placed = []
    actions = data.get("actions")
    for name in actions if isinstance(actions, dict) else ():
        placed.append((actions, name, actions[name]))
        actions[name] = _value(lines, actions[name], end, "actions." + name)
    teams = data.get("teams")
    for i in range(len(teams) if isinstance(teams, list) else 0):
        placed.append((teams, i, teams[i]))
        teams[i] = _value(lines, teams[i], end, "teams[%d]" % i)
    for holder, key, path in effects_places(data):
        placed.append((holder, key, holder[key]))
        holder[key] = _value(lines, holder[key], end, path)
    return placed


def _value(lines, at, end, path):
    """The JSON of the line at byte ``at``, parsed; refused, naming ``path``, if no
    line is there or it is not JSON."""
    try:
        text = lines(at) if _START <= at < end - 6 else None
    except (TypeError, ValueError, OSError):  # not an offset, or no length there
        text = None
    if text is None or at + 5 + len(text) >= end:
        _fail(path, "not a line of the file")
    try:
        return json.loads(text)
    except ValueError:
        _fail(path, "not valid JSON")
    except RuntimeError:
        _fail("", "nested over %d deep" % MAX_DEPTH)


def _effects(lines, offsets, end, path):
    """An action's effects from their lines (``offsets``), one list again."""
    if not isinstance(offsets, list) or not offsets:
        _fail(path, "not lines of the file")
    if len(offsets) == 1:
        return _value(lines, offsets[0], end, path)
    effects = []
    for at in offsets:
        part = _value(lines, at, end, path)
        if not isinstance(part, list):
            _fail(path, "must be a list of effects")
        effects += part
    return effects


def effects_places(data):
    """Where a ruleset holds effects besides its actions: [(the dict that holds them,
    its key, their path)], each phase's ``enter``, ``exit``, ``turn`` and ``leave``,
    each trigger's ``effects`` and the ``setup``, whatever they hold. The PC compiles
    each into a line (arbiter_referee/compiled.py), the device reads it back."""
    found = []
    phases = data.get("phases")
    for i in range(len(phases) if isinstance(phases, list) else 0):
        if isinstance(phases[i], dict):
            for key in PHASE_EFFECTS:
                if key in phases[i]:
                    found.append((phases[i], key, "phases[%d].%s" % (i, key)))
    triggers = data.get("triggers")
    for i in range(len(triggers) if isinstance(triggers, list) else 0):
        if isinstance(triggers[i], dict) and "effects" in triggers[i]:
            found.append((triggers[i], "effects", "triggers[%d].effects" % i))
    if "setup" in data:
        found.append((data, "setup", "setup"))
    return found


# The walks below keep their own stack (a Pico's C stack holds a few dozen Python
# calls, a ruleset nests 20 deep): a list or object a level, with the place of its
# next value, so the stack grows with the depth, never with a list's length (300
# pieces would be a block of heap of their own), and nothing is allocated per value.


def _item(node, i):
    """A list's or an object's ``i``-th key (None past the end): objects are small,
    counted through; no list of keys made."""
    if isinstance(node, list):
        return i if i < len(node) else None
    for key in node:
        if not i:
            return key
        i -= 1
    return None


def shared(value):
    """``value`` with equal strings, equal one-key forms such as
    ``{"get": "$k.name"}``, and equal lists of plain values (Kaiju's ``"phases":
    ["action"]``) made one object: a ruleset repeats them dozens of times and a
    Pico's heap is small. The engine never changes a ruleset, so sharing is safe
    (objects stay apart: a test may change a parsed ruleset's piece)."""
    strings, forms, flat = {}, {}, {}
    if not isinstance(value, list) and not isinstance(value, dict):
        return value
    todo = [value, 0]  # (a list or an object, the place of its next value)
    while todo:
        i, node = todo.pop(), todo.pop()
        key = _item(node, i)
        if key is None:  # its values shared: it is shared itself, in its holder
            same = _one_of(node, forms, flat)
            if not todo:
                return same
            holder = todo[-2]
            holder[_item(holder, todo[-1] - 1)] = same
            continue
        todo.append(node)
        todo.append(i + 1)
        item = node[key]
        if isinstance(item, str):
            node[key] = strings.setdefault(item, item)
        elif isinstance(item, list) or isinstance(item, dict):
            todo.append(item)
            todo.append(0)
    return value


def _one_of(value, forms, flat):
    """The first of its equals for a one-key form of a string or a list of plain
    values (its repr the key: True and 1 differ there), else ``value``. Empty
    lists stay apart."""
    if isinstance(value, dict):
        if len(value) == 1:
            for key in value:
                if isinstance(value[key], str):
                    same = forms.get(key)  # not setdefault(key, {}): a dict made each time
                    if same is None:
                        same = forms[key] = {}
                    return same.setdefault(value[key], value)
        return value
    if not value:
        return value
    for item in value:
        if isinstance(item, dict) or isinstance(item, list):
            return value
    return flat.setdefault(repr(value), value)


def too_deep(value, room):
    """Whether ``value`` nests more than ``room`` lists and objects deep."""
    todo = [value, 0]  # (a list or an object, the place of its next value)
    if not isinstance(value, list) and not isinstance(value, dict):
        return False
    while todo:
        if len(todo) > 2 * room:
            return True
        i, node = todo.pop(), todo.pop()
        key = _item(node, i)
        if key is None:
            continue
        todo.append(node)
        todo.append(i + 1)
        item = node[key]
        if isinstance(item, list) or isinstance(item, dict):
            todo.append(item)
            todo.append(0)
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


def check(data, deep=True):
    """``data`` if the engine runs it in bounded time and memory, else RulesetError
    saying why and where. The shapes' checks (arbiter.game.shapes) come for this
    and go after: a Pico's heap holds this module while the ruleset is parsed."""
    return _with_shapes(_check, data, deep)


def check_effects(data, name, effects):
    """Action ``name``'s effects, read from their lines, checked as ``check`` checks
    effects (RulesetError saying why and where)."""
    if too_deep(effects, MAX_DEPTH - 3):  # actions.NAME.effects: 3 deep already
        _fail("", "nested over %d deep" % MAX_DEPTH)  # as its source is refused
    bad = _with_shapes(_bad_text_forms, effects, data)
    if bad is not None:
        _fail("actions.%s.effects%s" % (name, bad[0]), bad[1])


def _bad_text_forms(effects, data):
    return _shapes.bad_forms(effects, data)


def _with_shapes(walk, a, b):
    """``walk(a, b)`` with the shapes' checks (arbiter.game.shapes) loaded,
    then let go: a Pico's heap holds this module while the ruleset is parsed."""
    global _shapes
    # by name: loaded here and not before, even by the emulator's preload
    _shapes = __import__("arbiter.game.shapes", None, None, ("check",))
    try:
        return walk(a, b)
    finally:
        _shapes = None
        let_go("game", "shapes")
        let_go("game", "words")  # (the shapes, and their names of effects and operators)


def _check(data, deep):
    _obj(data, "")
    version = data.get("format")
    if version != FORMAT:
        _fail("format", "format %r is not understood; this Arbiter reads format %d"
              % (version, FORMAT))
    if deep and too_deep(data, MAX_DEPTH):  # (steps has looked)
        _fail("", "nested over %d deep" % MAX_DEPTH)
    players = _obj(data.get("players", {}), "players")
    low = _int(players.get("min", 2), "players.min", 1, MAX_PLAYERS)
    high = _int(players.get("max", low), "players.max", 1, MAX_PLAYERS)
    if low > high:
        _fail("players", "min %d exceeds max %d" % (low, high))
    _int(players.get("default", low), "players.default", low, high)
    _too_many_pieces(data, high)  # before a walk through them all
    _shapes.check(data, _fail)
    _shapes.check_pieces(data, _fail)
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
    for i, phase in enumerate(data.get("phases", [])):
        _obj(phase, "phases[%d]" % i)
        if not isinstance(phase.get("name"), str):
            _fail("phases[%d].name" % i, "must be a string")
        for key in ("confirm", "on_a", "fast"):
            # fast "" says the phase has no common action; an expression says which
            # (fast.py: Jugger's act, then attack)
            if key == "fast" and phase.get(key).__class__ is dict:
                continue
            if phase.get(key) and phase[key] not in data.get("actions", {}) or \
                    phase.get(key, 0) == "" and key != "fast":
                _fail("phases[%d].%s" % (i, key), "unknown action %r" % (phase[key],))
        menu = phase.get("menu", ())
        for name in menu if isinstance(menu, list) else ():
            if name not in data.get("actions", {}):
                _fail("phases[%d].menu" % i, "unknown action %r" % (name,))
    for i, secret in enumerate(data.get("secrets", [])):
        path = "secrets[%d]" % i
        _obj(secret, path)
        choices = secret.get("choices")
        if not (isinstance(choices, dict) and "phase" in secret) and \
                (not isinstance(choices, list) or not choices):
            _fail(path + ".choices", "must be a non-empty list" + (
                " or an expression" if "phase" in secret else
                " (an expression only in a secret picked in play: phase)"))
        if "phase" in secret and secret["phase"] not in ([
                phase.get("name") for phase in data.get("phases", ()) if isinstance(phase, dict)]
                or ["play"]):
            _fail(path + ".phase", "unknown phase %r" % (secret["phase"],))
        if not isinstance(secret.get("prompt", ""), (str, list)):
            _fail(path + ".prompt", "must be text, or a list of texts and expressions")
    for name in data.get("table", ()):
        if name not in data.get("game", {}):
            _fail("table." + str(name), "unknown game value %r" % (name,))
    for i, name in enumerate(data.get("face_down", ())):
        if name not in data.get("game", {}):
            _fail("face_down[%d]" % i, "unknown game value %r" % (name,))
    for i, shown in enumerate(data.get("show", ())):
        if not isinstance(shown, (str, dict)):
            _fail("show[%d]" % i, "must be text (a counter) or an expression")
    for name, action in data.get("actions", {}).items():
        for key in action.get("strict", ()):
            if key not in action.get("choices", {}):
                _fail("actions.%s.strict" % name, "%s has no choices to be among" % key)
    _check_teams(data, counters)
    if "leds" in data:
        _check_leds(_obj(data["leds"], "leds"))
    for i, end in enumerate(data.get("end", [])):
        _obj(end, "end[%d]" % i)
        if end.get("at", "always") not in ("always", "round_end", "turn_start"):
            _fail("end[%d].at" % i, "must be always, round_end or turn_start")
    return data


def _too_many_pieces(data, players):
    """The pieces a game starts with stay under MAX_PIECES (lists of them: their
    shapes are checked after)."""
    pieces = data.get("pieces", EMPTY)
    pieces = pieces if isinstance(pieces, dict) else EMPTY
    each = pieces.get("each", ())
    lists = list(pieces.get("by_player", EMPTY).values()) \
        if isinstance(pieces.get("by_player"), dict) else []
    teams = data.get("teams", ())
    lists += [team.get("pieces", ()) for team in teams if isinstance(team, dict)] \
        if isinstance(teams, list) else []
    count = (len(each) if isinstance(each, list) else 0) + max(
        [len(items) for items in lists if isinstance(items, list)] or [0])
    if count * players > MAX_PIECES:
        _fail("pieces", "%d pieces or more; at most %d" % (count * players, MAX_PIECES))


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


def _check_leds(leds):
    """The ``leds`` block (game/lights.py): its expressions use known operators; its
    flashes are colours or players."""
    for phase, colours in _obj(leds.get("flash", EMPTY), "leds.flash").items():
        for i, colour in enumerate(colours if isinstance(colours, list) else [None]):
            if not (isinstance(colour, str) and colour[:1] == "P"):  # or a player's colour
                colour_of(colour, "leds.flash.%s[%d]" % (phase, i))
