"""A ruleset as the PC sends it to a device: compiled from its JSON source.

Data only: a head, then each action's effects as the
text of their JSON, in lines of at most LINE_BYTES after their length, each
team's JSON in a line, the effects of each phase, trigger and the setup in a line,
and each action's JSON in a line (its effects the byte offset of their line, or
the list of their lines'), then the ruleset's JSON with its teams, those effects
and actions their lines' offsets (``ruleset.LINES_HEAD``). The device parses no
effects at load and holds none of their text: it reads an action from flash when
it is offered or done, effects when they run, and a team when a player takes it.
So loading a
ruleset no longer needs a heap three times the file's size (Jugger TTG: 197 KB
in use while it parsed) and the game holds none of its actions' effects.
The device checks a compiled ruleset as it checks its source (ruleset.steps).
"""

from __future__ import annotations

import json
from pathlib import Path

from arbiter_referee.paths import RULESETS, passed_record, use_firmware_path

# The longest line an action's effects are split into (an effect longer than this
# is a line alone): the device reads a line whole, and a nearly full heap may have
# 2 KB free in all but no free block of 2 KB (Juggernauts' 2,087-byte attack).
LINE_BYTES = 512


def compiled(source: bytes) -> bytes:
    """The bytes a device keeps for the ruleset ``source`` (its JSON text)."""
    use_firmware_path()
    from arbiter.game.ruleset import LINES_HEAD, pack_effects

    try:
        data = json.loads(source)
    except ValueError:  # sent as it is: the device says why it refuses it
        return source
    if not isinstance(data, dict):
        return source
    pack_effects(data)  # the firmware's own: the same text the device would make
    lines = []
    at = len(LINES_HEAD) + 9  # the head: its 8 digits and a newline

    def place(text: str) -> int:
        """A line for ``text`` (its length in 5 digits, then it): its byte offset."""
        nonlocal at
        line = b"%05d%s" % (len(text), text.encode())  # ASCII: dumps escapes the rest
        lines.append(line)
        offset, at = at, at + len(line) + 1
        return offset

    for spec in (data.get("actions") or {}).values():
        if isinstance(spec, dict) and isinstance(spec.get("effects"), str):
            offsets = [place(text) for text in _split(spec["effects"])]
            spec["effects"] = offsets[0] if len(offsets) == 1 else offsets
    teams = data.get("teams")
    if isinstance(teams, list) and teams and all(isinstance(team, dict) for team in teams):
        for i, team in enumerate(teams):  # a line each: read when a player takes it
            teams[i] = place(_text(team))
    for holder, key in _effects_kept(data):  # a line each: read when they run
        holder[key] = place(_text(holder[key]))
    actions = data.get("actions")
    if isinstance(actions, dict) and actions and \
            all(isinstance(spec, dict) for spec in actions.values()):
        for name, spec in actions.items():  # a line each: read when the action is wanted
            actions[name] = place(_text(spec))
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    if not lines:
        return body
    head = f"{LINES_HEAD}{at:08d}\n".encode()
    return b"".join([head, *(line + b"\n" for line in lines), body])


def _text(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _effects_kept(data: dict) -> list[tuple[dict, str]]:
    """Where a ruleset holds effects besides its actions, as (holder, key): those of
    ruleset.effects_places that are lists of objects (the device refuses the rest as
    it would the source's)."""
    from arbiter.game.ruleset import effects_places

    return [(holder, key) for holder, key, _ in effects_places(data)
            if isinstance(holder[key], list) and
            all(isinstance(effect, dict) for effect in holder[key])]


def _split(text: str) -> list[str]:
    """An action's effects text (a JSON list) as the texts of lists of at most
    LINE_BYTES, in order; joined they are ``text`` again (the device checks so)."""
    groups: list[list[str]] = [[]]
    size = 2
    for effect in json.loads(text):
        part = json.dumps(effect, separators=(",", ":"))
        if groups[-1] and size + 1 + len(part) > LINE_BYTES:
            groups.append([])
            size = 2
        groups[-1].append(part)
        size += 1 + len(part)
    return ["[" + ",".join(group) + "]" for group in groups]


def compiled_copy(path: Path, folder: Path, name: str | None = None) -> Path:
    """The ruleset file ``path`` compiled into ``folder`` as NAME.json (``name``, else
    the file's own): what a device is sent. ValueError when it is over the device's
    cap (a source within its own can still be: its lines escape what is not ASCII)."""
    data = compiled(Path(path).read_bytes())
    from arbiter.game.ruleset import MAX_FILE_BYTES  # (compiled() put it on the path)

    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"{path}: compiled, it is {len(data)} bytes; a device takes at "
                         f"most {MAX_FILE_BYTES}")
    target = Path(folder) / ((name or Path(path).stem) + ".json")
    target.write_bytes(data)
    return target


def factory_flash(flash_dir: Path) -> None:
    """A new device's flash: the bundled rulesets in ``rulesets/``, compiled (compiled.py)
    as a deploy leaves them (each checked by the device at its push, which noted so in
    NAME.ok; every bundled ruleset passes the check: tests/test_docs_rulesets.py).
    A flash that already has the folder is left as it is."""
    target = Path(flash_dir) / "rulesets"
    if target.exists():
        return
    target.mkdir(parents=True)
    for path in sorted(RULESETS.glob("*.json")):
        data = compiled_copy(path, target).read_bytes()
        (target / (path.stem + ".ok")).write_text(passed_record(data))
