"""``arbiter run``: play a ruleset headless, in CPython or real MicroPython."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from host_tools.emulator.paths import RULESETS
from host_tools.emulator.screen_text import read_lines
from host_tools.emulator.session import run_driver, use_firmware_path

RUN_HEAP = 192 * 1024  # what a Pico gives MicroPython


def bundled() -> dict[str, Path]:
    return {path.stem: path for path in sorted(RULESETS.glob("*.json"))}


def ruleset_path(name_or_file: str) -> Path:
    path = Path(name_or_file)
    if path.suffix == ".json" or path.exists():
        return path
    known = bundled()
    if name_or_file not in known:
        raise FileNotFoundError(f"no ruleset {name_or_file!r}; bundled: {', '.join(known)}")
    return known[name_or_file]


@dataclass
class Outcome:
    state: dict | None
    refused: tuple[int, str] | None  # (action number, reason)


def _parse(text: str) -> Outcome:
    state, screen, refused = None, None, None
    for line in text.splitlines():
        if line.startswith("R "):
            state = json.loads(line[2:])
        elif line.startswith("S "):
            screen = read_lines(bytes.fromhex(line[2:]))
        elif line.startswith("X "):
            number, _, reason = line[2:].partition(" ")
            refused = (int(number), reason)
    if state is not None:
        state["screen"] = screen
    return Outcome(state, refused)


def play(ruleset: str, players: int | None, seed: int, options: dict, actions: list[str],
         runtime: str = "cpython") -> Outcome:
    path = ruleset_path(ruleset)
    if runtime == "cpython":
        text = path.read_text()
        use_firmware_path()
        import vrun

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            vrun.main(text, players, seed, options, actions)
        return _parse(out.getvalue())
    result = run_driver("vrun", (
        "game = vrun.load_file(drvdata.RULESET)\n"
        "gc.collect()\n"
        "game = vrun.start(game, drvdata.PLAYERS, drvdata.SEED, drvdata.OPTIONS)\n"
        "ok = game is not None\n"
        "i = 0\n"
        "while ok and i < len(drvdata.ACTIONS):\n"
        "    gc.collect()\n"
        "    ok = vrun.act(game, i + 1, drvdata.ACTIONS[i])\n"
        "    i += 1\n"
        "gc.collect()\n"
        "if ok:\n"
        "    vrun.finish(game)\n"), {"/rs": (path.parent, False)}, RUN_HEAP,
        data={"RULESET": "/rs/" + path.name, "PLAYERS": players, "SEED": seed, "OPTIONS": options,
              "ACTIONS": actions})
    if result.exit_code != 0:
        raise RuntimeError(f"MicroPython failed:\n{result.stderr}")
    return _parse(result.stdout)


def format_text(state: dict) -> str:
    lines = [f"{state['ruleset']}  round {state['round']}  phase {state['phase']}"
             + (f"  active {state['active']}" if state["active"] else "")]
    for player, values in state["players"].items():
        lines.append(f"  {player}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    if state["result"]:
        lines.append(f"  result: {state['result']}"
                     + (f", {state['winner']} wins" if state["winner"] else ""))
    lines.append("  screen:")
    lines += [f"    |{line}" for line in state["screen"]]
    return "\n".join(lines)


def main(args) -> int:
    options = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            print(f"arbiter run: --option needs NAME=VALUE, got {item!r}", file=sys.stderr)
            return 2
        options[name] = {"true": True, "false": False}.get(value.lower(), value)
    try:
        outcome = play(args.ruleset, args.players, args.seed, options, args.do, args.runtime)
    except FileNotFoundError as exc:
        print(f"arbiter run: {exc}", file=sys.stderr)
        return 2
    if outcome.refused:
        number, reason = outcome.refused
        where = f"action {number} ({args.do[number - 1]!r})" if number else "setup"
        print(f"arbiter run: {where} refused: {reason}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(outcome.state, sort_keys=True))
    else:
        print(format_text(outcome.state))
    return 0
