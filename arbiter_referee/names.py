"""The names a ruleset uses, checked against those it declares (``arbiter validate``).

The device's check (arbiter/game/ruleset.py) holds every shape and bound a Pico
must: it runs in a Pico's heap. What needs the whole ruleset at once (a counter
added to but declared nowhere, a phase that does not exist, a var no ``let``
sets) is checked here, on the PC, before a ruleset is sent: a designer's slip is
a line from ``arbiter validate``, not a refusal in the middle of a game.
"""

from __future__ import annotations

# Fields every player's or piece's record has besides its counters and stats.
RECORD_FIELDS = {"team", "owner", "name", "key", "stats"}
# Fields that hold a condition: an expression object or true/false, never text.
CONDITIONS = ("win_if", "lose_if", "require", "skip_if", "repeat_until", "until", "where")
# Effects' fields they cannot do without (the device's check knows the optional ones).
REQUIRED = {"set": ("to",), "repeat": ("until",), "shuffle": ("to",)}
# Effects whose field is a path written to (a field or game value exists from then).
WRITERS = (("set", "set"), ("draw", "to"), ("shuffle", "to"), ("append", "append"),
           ("remove", "remove"), ("take", "to"), ("take", "take"))
KEY_A = 12  # the key line's room for what A does


def check_names(data: dict) -> str | None:
    """None, or the first name ``data`` uses that it never declares, and where."""
    found: list[tuple[str, str]] = []
    _walk(data, "", found)
    known = _known(data, found)
    phases = {phase.get("name") for phase in data.get("phases", ()) if isinstance(phase, dict)}
    phases = phases or {"play"}  # a ruleset without phases plays in one, "play"
    actions = data.get("actions", {})
    for where, kind, name in _uses(data, found):
        if kind == "field" and name not in known["field"]:
            return f"{where}: unknown counter or field {name!r} (declare it, or set it first)"
        if kind == "game" and name not in known["game"]:
            return f"{where}: unknown game value {name!r} (declare it in game)"
        if kind == "var" and name not in known["var"]:
            return (f"{where}: var {name!r} is never set (a let, or a draw's, take's or "
                    "opposed's as)")
    for name, action in actions.items():
        for i, phase in enumerate(action.get("phases", ())):
            if phase not in phases:
                return f"actions.{name}.phases[{i}]: unknown phase {phase!r}"
    for i, page in enumerate(data.get("pages", ())):
        for j, phase in enumerate(page.get("phases", ())):
            if phase not in phases:
                return f"pages[{i}].phases[{j}]: unknown phase {phase!r}"
    counters = data.get("counters", {})
    for i, shown in enumerate(data.get("show", ())):
        if isinstance(shown, str) and shown not in counters:
            return f"show[{i}]: unknown counter {shown!r}"
    for i, phase in enumerate(data.get("phases", ())):
        on_a = phase.get("on_a")
        if on_a in actions and actions[on_a].get("params"):
            return (f"phases[{i}].on_a: {on_a} takes {' '.join(actions[on_a]['params'])}: "
                    f"A gives it none")
        key_a = phase.get("key_a", on_a or "")
        if isinstance(key_a, str) and key_a[:2].upper() == "A:":
            return (f"phases[{i}].key_a: {key_a!r}: the screen puts A: before it "
                    f"(write {key_a[2:].strip()!r})")
        if isinstance(key_a, str) and len(key_a) > KEY_A:
            return f"phases[{i}].key_a: {key_a!r} is over {KEY_A} characters (the key line's room)"
    for where, problem, _ in found:
        if problem:
            return f"{where}: {problem}"
    return None


def _walk(node, where: str, found: list) -> None:
    """Every object of the ruleset into ``found`` as (where, "", the object), and
    a malformed condition or effect as (where, the problem, None)."""
    stack = [(node, where)]
    while stack:
        value, here = stack.pop()
        if isinstance(value, dict):
            found.append((here, "", value))
            for key, item in value.items():
                if key in CONDITIONS and isinstance(item, str):
                    found.append((f"{here}.{key}", "a condition is an expression (an object) "
                                                   "or true/false, not text", None))
                stack.append((item, f"{here}.{key}" if here else key))
            for effect, fields in REQUIRED.items():
                if effect in value:
                    for field in fields:
                        if field not in value:
                            found.append((here, f"{effect} needs {field}", None))
        elif isinstance(value, list):
            stack.extend((item, f"{here}[{i}]") for i, item in enumerate(value))


def _objects(data, found):
    for where, problem, value in found:
        if not problem:
            yield where, value


def _uses(data, found):
    """(where, kind, name) of each name used: a path's last field ("field", or
    "game" for game.NAME), a var read ("var")."""
    for where, value in _objects(data, found):
        for key in ("add", "get"):
            path = value.get(key)
            if isinstance(path, str):
                yield from _path_use(f"{where}.{key}", path)
        var = value.get("var")
        if isinstance(var, str):
            yield f"{where}.var", "var", var
        for effect, key in WRITERS:
            path = value.get(key) if effect in value else None
            if isinstance(path, str) and "." in path:  # a path's $v: names are vars
                for part in path.split("."):
                    if part.startswith("$v:"):
                        yield f"{where}.{key}", "var", part[3:]


def _path_use(where: str, path: str):
    parts = path.split(".")
    for part in parts:
        if part.startswith("$v:"):
            yield where, "var", part[3:]
    last = parts[-1]
    if len(parts) < 2 or "$" in last or ":" in last:
        return  # a name worked out at play
    yield where, "game" if parts[0] == "game" and len(parts) == 2 else "field", last


def _known(data, found) -> dict:
    """The names a ruleset declares or writes: fields (counters, stats, secrets'
    fields, names set somewhere), game values, vars."""
    pieces = data.get("pieces", {})
    field = set(RECORD_FIELDS) | set(data.get("counters", {})) | set(pieces.get("counters", {}))
    field |= set(pieces.get("stats", {}))
    specs = list(pieces.get("each", ()))
    for listed in pieces.get("by_player", {}).values():
        specs += listed
    for team in data.get("teams", ()):
        specs += team.get("pieces", ())
        field |= set(team.get("counters", {}))
    for spec in specs:
        field |= set(spec.get("stats", {}))
    for secret in data.get("secrets", ()):
        if isinstance(secret.get("field", secret.get("name")), str):
            field.add(secret.get("field", secret.get("name")))
    game = set(data.get("game", {}))
    var = []
    for _, value in _objects(data, found):
        for effect, key in WRITERS:  # written: a field or game value from then on
            path = value.get(key) if effect in value else None
            if isinstance(path, str) and "." in path:
                last = path.split(".")[-1]
                (game if path.startswith("game.") else field).add(last)
        if isinstance(value.get("let"), str):
            var.append(value["let"])
        if "draw" in value:
            var.append(value.get("as", "drawn"))
        if "take" in value:
            var.append(value.get("as", "taken"))
        if isinstance(value.get("opposed"), dict):
            var.append(value["opposed"].get("as", "winner"))
        if isinstance(value.get("make_pieces"), dict):
            stats = value["make_pieces"].get("stats", {})
            field |= set(stats) if isinstance(stats, dict) else set()
    var = {name for name in var if isinstance(name, str)}  # (the device checks their kind)
    return {"field": field, "game": game, "var": var}
