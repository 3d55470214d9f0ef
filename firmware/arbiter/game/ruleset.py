"""Loading and checking a ruleset: a clear reason, with its JSON path, or a ruleset.

The same checks run on the host (``arbiter validate``, which adds a JSON
Schema pass and line numbers) and on the device before a ruleset is used.
"""

import json

from arbiter.game import FORMAT, LINES, MAX_PIECES  # noqa: F401  (FORMAT: host's validate)
from arbiter.game.jobs import let_go

EMPTY = {}  # an absent section (never written)

PHASE_EFFECTS = ("enter", "exit", "turn", "leave")  # a phase's lists of effects

MAX_BYTES = 32768  # a ruleset as written must parse comfortably in a Pico's heap
MAX_FILE_BYTES = 40960  # a device's file, its source or compiled (below)

# A ruleset compiled on the PC (arbiter_referee/compiled.py): this head, the JSON's
# byte offset in 8 digits and a newline, then lines of the actions' effects (each
# line's text's length in 5 digits, then the text: a JSON list of effects), of the
# teams (a team's JSON each), of the phases', triggers' and setup's effects (a list
# each) and of the actions (an action's JSON each, its effects their line's byte
# offset, or a list of their lines': an action's long effects are split, a Pico
# reads a line whole), then the ruleset's JSON, whose teams, those effects and
# actions are their lines' offsets. Still data: an action's lines joined are
# checked as its effects, a team's as a team, an action's as an action, the rest
# as the effects they stand for.
LINES_HEAD = "//arbiter lines "
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


def parse(text):
    """Text (a device's file, compiled or not) to a checked ruleset dict; raises
    RulesetError. A source's own cap, MAX_BYTES, is the host's to check. A compiled
    ruleset's effects come back as their text (the host has the room)."""
    check_size(len(text))
    return _checked(text, json.loads)


def read(stream, passed=False, lines=None):
    """``parse`` from an open file (its size checked first, ``check_size``): the
    text is never held whole, so a big ruleset loads in a small heap."""
    return _checked(stream, json.load, passed, lines)


def _checked(source, load, passed=False, lines=None):
    data = None
    for step in steps(source, load, passed, lines):
        data = step
    return data


def steps(source, load=json.load, passed=False, lines=None):
    """``read`` a step at a time: parse, share equal strings and forms, check, pack
    the actions' effects. Each ``next`` does one; the last gives the ruleset.
    Between the steps a Pico's heap can let go of what the step before left (the
    device loads in as many main-loop passes). ``passed``: these exact bytes passed
    the checks before (arbiter.store.checked), so the walks are skipped. ``lines``:
    a function giving the line at a byte offset of this file (hw.flash.Flash.lines);
    with it a compiled ruleset's effects stay on flash, the ruleset's ``LINES``
    read them; without it they are read here, as text."""
    end = _lines_end(source)  # 0: not compiled
    try:
        data = load(source[end:] if end and isinstance(source, str) else source)
    except ValueError as exc:
        raise RulesetError("", "not valid JSON (%s)" % exc) from None
    except RuntimeError:  # CPython's parser recursing past its stack
        raise RulesetError("", "nested over %d deep" % MAX_DEPTH) from None
    teams = data.get("teams") if end and isinstance(data, dict) else None
    if _offsets(teams) and not (passed and lines):  # read for the checks: a game
        data["teams"] = _teams(source, teams, end)  # reads them from flash
    else:
        teams = None
    specs = data.get("actions") if end and isinstance(data, dict) else None
    if _placed(specs) and not (passed and lines):  # read for the checks: a game
        data["actions"] = _actions(source, specs, end)  # reads each when it is wanted
    else:
        specs = None
    # the phases', triggers' and setup's effects: read for the checks, kept on flash
    kept = _effects_read(source, data, end) if end and not (passed and lines) else ()
    if not passed and too_deep(data, MAX_DEPTH):  # before any walk below recurses
        raise RulesetError("", "nested over %d deep" % MAX_DEPTH)
    yield None
    data = shared(data)
    yield None
    # a compiled ruleset's effects are set aside, then checked an action a step:
    # all parsed at once they would not fit a Pico W's heap
    refs = {}
    actions = data.get("actions") if isinstance(data, dict) else None
    for name in actions if isinstance(actions, dict) else ():  # (check says if not)
        spec = actions[name]
        if isinstance(spec, dict) and _compiled_effects(spec.get("effects"), end):
            refs[name] = spec.pop("effects")
    if not passed:
        check(data, False)  # only reads: sharing first changes nothing it sees
        yield None
    if teams is not None and lines is not None:  # checked: read when taken
        data["teams"] = teams
    pack(data)  # the set-aside effects are text or on flash already
    for name in refs:
        ref = text = refs[name]
        if not isinstance(ref, str) and not (passed and lines):  # else left on flash
            text = _lines_text(source, ref, end)
            if text is None:
                _fail("actions.%s.effects" % name, "not a line of the file")
        if not passed:
            check_text(data, name, text)
        data["actions"][name]["effects"] = text if lines is None else ref
        text = None
        if not passed:
            yield None
    if specs is not None and lines is not None:  # checked: read when wanted
        data["actions"] = specs
    for holder, key, at in kept if lines is not None else ():  # read when they run
        holder[key] = at
    if end and lines is not None:
        data[LINES] = lines
    yield data


def _compiled_effects(effects, end):
    """Whether ``effects`` are an action's as compiled: JSON text, or (in a compiled
    file, ``end`` not 0) the byte offset of their line or the offsets of their lines."""
    return isinstance(effects, str) or (end and (type(effects) is int or _offsets(effects)))


def _offsets(effects):
    """Whether ``effects`` are the byte offsets of an action's lines (its effects
    parsed are a list of objects)."""
    if not isinstance(effects, list) or not effects:
        return False
    for at in effects:
        if type(at) is not int:
            return False
    return True


def _lines_end(source):
    """Where a compiled file's lines end and its JSON starts, a stream left there;
    0 (a stream at its start) if it is not compiled. ``source``: a stream or text."""
    if _read(source, 0, len(LINES_HEAD)) != LINES_HEAD:
        _read(source, 0, 0)  # the JSON starts there
        return 0
    digits = _read(source, len(LINES_HEAD), 9)
    end = int(digits) if digits[:8].isdigit() and digits[8:] == "\n" else 0
    if end < len(LINES_HEAD) + 9:
        raise RulesetError("", "a compiled ruleset's head is broken")
    _read(source, end, 0)
    return end


def _line(source, at, end):
    """The effects text of the line at byte ``at`` of a compiled file whose lines
    end at ``end`` (hw.flash.Flash.lines reads it so in play), or None if no line
    is there."""
    if not len(LINES_HEAD) + 9 <= at < end - 6:
        return None
    digits = _read(source, at, 5)
    size = int(digits) if digits.isdigit() else end
    return _read(source, at + 5, size) if at + 5 + size < end else None


def _teams(source, offsets, end):
    """A compiled ruleset's teams, parsed from their lines (``offsets``)."""
    return [_parsed_line(source, offsets[i], end, "teams[%d]" % i)
            for i in range(len(offsets))]


def _parsed_line(source, at, end, path):
    """The JSON of the line at byte ``at`` (_line), parsed; refused, naming ``path``,
    if there is no line or it is not JSON."""
    text = _line(source, at, end)
    try:
        return json.loads(text)
    except (TypeError, ValueError, RuntimeError):  # None: not a line
        _fail(path, "not a line of the file" if text is None else "not valid JSON")


def _placed(actions):
    """Whether ``actions`` are a compiled ruleset's: each the byte offset of its line."""
    if not isinstance(actions, dict) or not actions:
        return False
    for name in actions:
        if type(actions[name]) is not int:
            return False
    return True


def _actions(source, offsets, end):
    """A compiled ruleset's actions, parsed from their lines (``offsets``)."""
    actions = {}
    for name in offsets:
        actions[name] = _parsed_line(source, offsets[name], end, "actions." + name)
    return actions


def effects_places(data):
    """Where a ruleset holds effects besides its actions: [(the dict that holds them,
    its key, their path)], each phase's ``enter``, ``exit``, ``turn`` and ``leave``,
    each trigger's ``effects`` and the ``setup``, whatever they hold. The PC compiles
    each into a line (arbiter_referee/compiled.py), the device reads it back."""
    found = []
    phases = data.get("phases") if isinstance(data, dict) else None
    for i in range(len(phases) if isinstance(phases, list) else 0):
        if isinstance(phases[i], dict):
            for key in PHASE_EFFECTS:
                if key in phases[i]:
                    found.append((phases[i], key, "phases[%d].%s" % (i, key)))
    triggers = data.get("triggers") if isinstance(data, dict) else None
    for i in range(len(triggers) if isinstance(triggers, list) else 0):
        if isinstance(triggers[i], dict) and "effects" in triggers[i]:
            found.append((triggers[i], "effects", "triggers[%d].effects" % i))
    if isinstance(data, dict) and "setup" in data:
        found.append((data, "setup", "setup"))
    return found


def _effects_read(source, data, end):
    """A compiled ruleset's phases', triggers' and setup's effects that are the byte
    offsets of their lines, each parsed from its line in its place: [(the dict that
    holds it, its key, the offset)]."""
    kept = []
    for holder, key, path in effects_places(data):
        at = holder[key]
        if type(at) is int:
            holder[key] = _parsed_line(source, at, end, path)
            kept.append((holder, key, at))
    return kept


def _lines_text(source, ref, end):
    """An action's effects text: its line's at byte ``ref``, or its lines' at each
    offset of ``ref`` joined (each a JSON list); None if one is not a line."""
    if type(ref) is int:
        return _line(source, ref, end)
    parts = []
    for at in ref:
        text = _line(source, at, end)
        if text is None or text[:1] != "[" or text[-1:] != "]":
            return None
        parts.append(text[1:-1])
    return "[" + ",".join(parts) + "]"


def _read(source, at, size):
    """``size`` characters at ``at`` of a stream (left after them) or a text."""
    if isinstance(source, str):
        return source[at:at + size]
    source.seek(at)
    return source.read(size)


def pack(data):
    """Each action's effects as their JSON text (``pack_effects``), each team as its
    text too (compiled, its line's offset: steps): a team is read only when a
    player takes it (Jugger's four rosters parsed hold 4 KB more than their text,
    and their text 2.9 KB more than their offsets); so are the phases' effects, parsed
    when a phase starts, ends or turns (effects.of_phase: Jugger's hold 2.4 KB more
    parsed), and the actions' ``choices`` that are expressions, parsed when worked
    out (actions.offered_form), as bytes: a choice may be a plain string."""
    pack_effects(data)
    actions = data.get("actions")
    for spec in actions.values() if isinstance(actions, dict) else ():
        choices = spec.get("choices") if isinstance(spec, dict) else None
        for key in choices if isinstance(choices, dict) else ():
            if isinstance(choices[key], dict):
                choices[key] = json.dumps(choices[key], separators=(",", ":")).encode()
    phases = data.get("phases")
    for phase in phases if isinstance(phases, list) else ():
        for key in PHASE_EFFECTS:
            if isinstance(phase.get(key), list):
                phase[key] = json.dumps(phase[key], separators=(",", ":"))
    teams = data.get("teams")
    if isinstance(teams, list):  # read when a player takes one (teams.py)
        data["teams"] = [team if isinstance(team, str) or type(team) is int else
                         json.dumps(team, separators=(",", ":")) for team in teams]


def pack_effects(data):
    """Each action's effects as their JSON text, parsed when the action is done
    (``effects.of_action``): the actions' effects are half a parsed ruleset, their
    text a third of that, and one action's parse is a pass's garbage. What the PC
    does before it sends a ruleset (arbiter_referee/compiled.py)."""
    actions = data.get("actions")
    for spec in actions.values() if isinstance(actions, dict) else ():
        if isinstance(spec, dict) and isinstance(spec.get("effects"), list):
            spec["effects"] = json.dumps(spec["effects"], separators=(",", ":"))


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


def check_text(data, name, text):
    """Action ``name``'s effects as a compiled ruleset keeps them, their JSON text,
    checked as ``check`` checks effects (RulesetError saying why and where)."""
    try:
        effects = json.loads(text)
    except ValueError:
        _fail("actions.%s.effects" % name, "not valid JSON")
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
    for i, secret in enumerate(data.get("secrets", [])):
        path = "secrets[%d]" % i
        _obj(secret, path)
        if not isinstance(secret.get("choices"), list) or not secret["choices"]:
            _fail(path + ".choices", "must be a non-empty list")
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
