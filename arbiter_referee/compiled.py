"""A ruleset as the PC sends it to a device: compiled from its JSON source.

Data only, in the one shape a device reads (``ruleset.LINES_HEAD``): a head, then
lines, each the JSON of one part (each action's effects, in lines of at most
LINE_BYTES; each team; the effects of each phase, trigger and the setup; each
action, its effects the offsets of their lines), then the ruleset's JSON with
those parts their lines' offsets. The device parses no effects at load and holds
none of their text: it reads an action from flash when it is offered or done,
effects when they run, and a team when a player takes it. So loading a ruleset
no longer needs a heap three times the file's size (Jugger TTG: 197 KB in use
while it parsed) and the game holds none of its actions' effects. The device
checks each line as the source it stands for (ruleset.steps).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from arbiter_referee.paths import RULESETS, passed_record, use_firmware_path

# The longest line an action's effects are split into (an effect longer than this
# is a line alone): the device reads a line whole, and a nearly full heap may have
# 2 KB free in all but no free block of 2 KB (Juggernauts' 2,087-byte attack).
LINE_BYTES = 512


def compiled(source: bytes | str) -> bytes:
    """The bytes a device keeps for the ruleset ``source`` (its JSON text; a compiled
    one comes back as it is). Text that is not a JSON object is sent behind the head
    as it is: the device says why it refuses it."""
    use_firmware_path()
    from arbiter.game.ruleset import LINES_HEAD, effects_places

    source = source.encode() if isinstance(source, str) else source
    if source.startswith(LINES_HEAD.encode()):
        return source
    try:
        data = json.loads(source)
    except (ValueError, RecursionError):
        data = None
    lines = []
    at = len(LINES_HEAD) + 9  # the head: its 8 digits and a newline

    def place(text: str) -> int:
        """A line for ``text`` (its length in 5 digits, then it): its byte offset."""
        nonlocal at
        line = b"%05d%s" % (len(text), text.encode())  # ASCII: dumps escapes the rest
        lines.append(line)
        offset, at = at, at + len(line) + 1
        return offset

    if isinstance(data, dict):
        actions = data.get("actions")
        for spec in actions.values() if isinstance(actions, dict) else ():
            if isinstance(spec, dict) and "effects" in spec:
                spec["effects"] = [place(text) for text in _split(spec["effects"])]
        teams = data.get("teams")
        for i in range(len(teams) if isinstance(teams, list) else 0):
            teams[i] = place(_text(teams[i]))  # a line each: read when a player takes it
        for holder, key, _ in effects_places(data):  # a line each: read when they run
            holder[key] = place(_text(holder[key]))
        for name in actions if isinstance(actions, dict) else ():
            actions[name] = place(_text(actions[name]))  # read when the action is wanted
        if isinstance(data.get("title"), str):  # first: the device's list of games reads
            data = {"title": data.pop("title"), **data}  # it alone (screens/setup.title)
        source = json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()
    head = f"{LINES_HEAD}{at:08d}\n".encode()
    return b"".join([head, *(line + b"\n" for line in lines), source])


def loaded(source: bytes | str) -> dict:
    """The ruleset ``source`` (its JSON text, or compiled) as a device loads it:
    compiled, then read and checked by the firmware's own loader, its lines read
    from memory (RulesetError when it is refused)."""
    text = compiled(source).decode()
    from arbiter.game import ruleset  # (compiled() put it on the path)

    return ruleset.read(io.StringIO(text), _lines_of(text))


def _lines_of(text: str):
    """The line at a byte offset of compiled ``text``, as hw.flash.Flash.lines reads
    a file's (its lines are ASCII: a character is a byte)."""
    def line(at: int) -> str:
        return text[at + 5:at + 5 + int(text[at:at + 5])]
    return line


def _text(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _split(effects) -> list[str]:
    """An action's effects (a JSON list) as the texts of lists of at most LINE_BYTES,
    in order (the device joins them again); what is not a list, a line as it is."""
    if not isinstance(effects, list):
        return [_text(effects)]
    groups: list[list[str]] = [[]]
    size = 2
    for effect in effects:
        part = _text(effect)
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


def factory_flash(flash_dir: Path, rulesets: list[tuple[str, Path]] = ()) -> None:
    """A new device's flash: the firmware's manifest (build.MANIFEST; not the firmware,
    which the emulator runs from the checkout), the bundled rulesets in ``rulesets/``,
    compiled (compiled.py) as a deploy leaves them (each checked by the device at its
    push, which noted so in NAME.ok; every bundled ruleset passes the check:
    tests/test_docs_rulesets.py).
    A flash that already has the folder is left as it is. Then ``rulesets``, each
    (name, file) already checked on the PC (rulesets.named), is put there as a push
    leaves it, beside the bundled games, in place of one of the same name."""
    target = Path(flash_dir) / "rulesets"
    if not target.exists():
        target.mkdir(parents=True)
        from arbiter_referee.build import MANIFEST, device_firmware

        # the deployed firmware's list of files: its digest is on the New game screen
        (Path(flash_dir) / MANIFEST).write_bytes((device_firmware() / MANIFEST).read_bytes())
        for path in sorted(RULESETS.glob("*.json")):
            _install(path, target, path.stem)
    for name, path in rulesets:
        _install(path, target, name)


def _install(path: Path, folder: Path, name: str) -> None:
    data = compiled_copy(path, folder, name).read_bytes()
    (folder / (name + ".ok")).write_text(passed_record(data))
