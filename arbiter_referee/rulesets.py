"""Rulesets on the PC: the bundled ones, and the check before one goes to a device.

The check is the firmware's own (arbiter/game/ruleset.py), run here, then the
names the ruleset uses (names.py) and a trial start of a game: ``arbiter
validate`` refuses all the device's check refuses, in the same words, and what
would fail only at play. The host adds line and column to bad JSON; the JSON
Schema is for editors.
"""

from __future__ import annotations

import json
from pathlib import Path

from arbiter_referee.emulator.session import use_firmware_path
from arbiter_referee.paths import RULESETS, SCHEMA


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


def schema_errors(data) -> list[str]:
    """What the JSON Schema (for editors: completion and hints as one types) says of
    ``data``; the verdict is the firmware's (``check_text``), which refuses at least
    all of this (tests/test_checker.py)."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
    return [error.message for error in validator.iter_errors(data)]


def check_text(text: str) -> str | None:
    """None when the ruleset is good, else a one-line reason naming where. First
    the device's own check (the firmware's code, run here): what it refuses,
    ``arbiter validate`` refuses with the same words. Then what only the whole
    ruleset shows (names.py: a name used but never declared) and a trial start
    (``trial_starts``): a device is sent only what passes all three."""
    use_firmware_path()
    from arbiter.game import ruleset

    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return f"not valid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except RecursionError:
        return f"ruleset: nested over {ruleset.MAX_DEPTH} deep"
    from arbiter_referee.compiled import compiled, loaded

    sent = compiled(text)
    if len(sent) > ruleset.MAX_FILE_BYTES:  # the device's cap is on the file it keeps
        return (f"too large: {len(sent)} bytes compiled, the limit is "
                f"{ruleset.MAX_FILE_BYTES}")
    try:
        rules = loaded(sent)
    except ruleset.RulesetError as exc:
        return _line(str(exc))
    except Exception as exc:  # noqa: BLE001  a checker's bug is a reason, never a traceback
        return _line(f"cannot check it ({type(exc).__name__}: {exc})")
    from arbiter_referee.names import check_names

    return _line(check_names(data) or trial_starts(rules) or "") or None


def trial_starts(rules: dict) -> str | None:
    """Why a game of ``rules`` cannot start, or None: a game started with every
    player count and each option's every choice (the others at their defaults), its
    secrets picked (each player the first choice it may pick) so that play begins
    and the setup runs, and the play screen drawn. What the device's check cannot see without
    playing (a value or a setup that fails when worked out) is found here, before a
    table meets it as "Can't start"."""
    from arbiter.game import Illegal
    from arbiter.game.actions import pending_pick
    from arbiter.game.engine import Game
    from arbiter.screens.view import play_lines

    spec = rules.get("players", {})
    low = spec.get("min", 2)
    tries = [{}] + [{name: choice} for name, option in rules.get("options", {}).items()
                    for choice in option["choices"][1:]]
    for players in range(low, spec.get("max", low) + 1):
        for options in tries:
            told = "".join(f", {name} {value}" for name, value in options.items())
            try:
                game = Game(rules, players, options, seed=1)
                for _ in range(players * len(rules.get("secrets", ()))):
                    _pick(game, *pending_pick(game))
                game.public()
                play_lines(game)
            except Illegal as exc:
                return f"a game of {players} players{told} cannot start: {exc.reason}"
            except Exception as exc:  # noqa: BLE001  the engine's words, on one line
                return (f"a game of {players} players{told} cannot start: "
                        f"{type(exc).__name__}: {exc}")
    return None


def _pick(game, secret, player) -> None:
    """``player`` picks the first choice of ``secret`` it may (Illegal if none)."""
    from arbiter.game import Illegal
    from arbiter.game.picks import pick_choices

    if secret is None:
        return
    for choice in pick_choices(game, secret, player):
        try:
            game.apply(f"pick {player} {choice}")
            return
        except Illegal as exc:
            refused = exc
    raise refused


def _no_constant(name: str):
    raise json.JSONDecodeError(f"{name} is not JSON (MicroPython refuses it)", name, 0)


def _line(text: str) -> str:
    """One line, of a reasonable length: a reason, not the file back."""
    text = " ".join(text.split())
    return text if len(text) <= 160 else text[:157] + "..."


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


def named(ruleset: str, host_check: bool = True) -> tuple[str, Path]:
    """A ruleset a device may be sent: (its name, its file); FileNotFoundError or
    ValueError says why not, as ``FILE: reason``. The name, not the file's, is what
    the device keeps it as (``rulesets/NAME.json``)."""
    path = ruleset_path(ruleset)
    if host_check:
        reason = check_file(path)
        if reason:
            raise ValueError(f"{path}: {reason}")
    try:
        name = json.loads(path.read_text())["name"]
    except (ValueError, KeyError, TypeError, OSError):
        raise ValueError(f"{path}: the ruleset has no name") from None
    if not isinstance(name, str) or not name.replace("_", "").replace("-", "").isalnum():
        raise ValueError(f"{path}: name {name!r} cannot be a file name on the device")
    return name, path


def own_rulesets(files: list[str]) -> list[tuple[str, Path]]:
    """A designer's files for an emulated device, each as (its name, the file), checked
    as ``arbiter validate`` checks it: ValueError, ``FILE: reason``, for the first that
    is wrong, before the device starts."""
    try:
        return [named(file) for file in files]
    except FileNotFoundError as exc:
        raise ValueError(str(exc)) from None


def with_teams(ruleset: str, teams: str, folder: Path) -> Path:
    """The ruleset with the players' own teams from a teams file (a JSON list of
    teams, or an object holding one as ``teams``), written in ``folder`` under the
    ruleset's file name: each team replaces the ruleset's of the same name or is
    added after them, and an action's choice that lists the ruleset's team names
    (Jugger's ``roster``) lists the new ones. ValueError says what is wrong."""
    source = ruleset_path(ruleset)
    data = json.loads(source.read_text())
    try:
        given = json.loads(Path(teams).read_text())
    except json.JSONDecodeError as exc:
        raise ValueError(f"{teams}: not valid JSON at line {exc.lineno}: {exc.msg}") from None
    if isinstance(given, dict):
        given = given.get("teams")
    if not isinstance(given, list) or not all(
            isinstance(team, dict) and isinstance(team.get("name"), str) for team in given):
        raise ValueError(f"{teams}: a teams file holds a list of teams, each with a name")
    old = [team.get("name") for team in data.get("teams", [])]
    new = {team["name"] for team in given}
    data["teams"] = [team for team in data.get("teams", []) if team.get("name") not in new]
    data["teams"] += given
    names = [team["name"] for team in data["teams"]]
    for spec in data.get("actions", {}).values():
        choices = spec.get("choices", {}) if isinstance(spec, dict) else {}
        for key in choices:
            if choices[key] == old:
                choices[key] = names
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / source.name
    path.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    return path
