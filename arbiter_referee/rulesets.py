"""Rulesets on the PC: the bundled ones, and the check before one goes to a device.

The check has three passes, first failure wins: the size cap and JSON syntax
(with line and column), the JSON Schema (structure), then the firmware's own
checks (meaning: references between blocks, bounds), which the device repeats.
"""

from __future__ import annotations

import json
import reprlib
from functools import lru_cache
from pathlib import Path

from arbiter_referee.emulator.session import use_firmware_path
from arbiter_referee.paths import RULESETS, SCHEMA

_SHORT = reprlib.Repr()
_SHORT.maxlist = _SHORT.maxdict = 3
_SHORT.maxstring = _SHORT.maxother = 30


def bundled() -> dict[str, Path]:
    """The games that come with Arbiter: name -> file."""
    return {path.stem: path for path in sorted(RULESETS.glob("*.json"))}


def ruleset_path(name_or_file: str) -> Path:
    """A bundled ruleset's file, or the file given (FileNotFoundError if neither)."""
    path = Path(name_or_file)
    if path.suffix == ".json" or path.exists():
        if not path.is_file():
            raise FileNotFoundError(f"no ruleset file {name_or_file}")
        return path
    known = bundled()
    if name_or_file not in known:
        raise FileNotFoundError(f"no ruleset {name_or_file!r}; bundled: {', '.join(known)}")
    return known[name_or_file]


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    return jsonschema.Draft202012Validator(schema)


def _where(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "ruleset"


def check_text(text: str) -> str | None:
    """None when the ruleset is good, else a short reason naming where."""
    use_firmware_path()
    from arbiter.game import ruleset

    size = len(text.encode())
    if size > ruleset.MAX_BYTES:
        return f"too large: {size} bytes, the limit is {ruleset.MAX_BYTES}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    if not isinstance(data, dict):
        return "ruleset: the top level must be an object"
    if data.get("format") != ruleset.FORMAT:
        return (f"format: format {data.get('format')!r} is not understood; "
                f"this Arbiter reads format {ruleset.FORMAT}")
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        error = min(errors, key=lambda e: len(e.absolute_path))
        # jsonschema quotes the whole offending value: keep a reason to a line or two
        message = error.message.replace(repr(error.instance), _SHORT.repr(error.instance))
        return f"{_where(error.absolute_path)}: {message}"
    try:
        ruleset.check(data)
    except ruleset.RulesetError as exc:
        return str(exc)
    return None


def check_file(path: Path) -> str | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return f"cannot read: {exc.strerror}"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8 text"
    return check_text(text)
