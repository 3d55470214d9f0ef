"""Play a ruleset headless, in CPython or real MicroPython (``arbiter run``)."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arbiter_referee.build import device_firmware
from arbiter_referee.compiled import compiled_copy, loaded
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.emulator.session import run_driver, use_firmware_path
from arbiter_referee.rulesets import ruleset_path

# a Pico W's heap, the smallest board's; the engine runs there as a device runs it:
# its .mpy modules, each loaded when first needed
RUN_HEAP = 192 * 1024


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
         runtime: str = "cpython", mix: str | None = None) -> Outcome:
    """``mix``: the players' part of the dice (rng.dice_seed), None for none."""
    path = ruleset_path(ruleset)
    if runtime == "cpython":
        return _play_here(path.read_text(), players, seed, options, actions, mix)
    with tempfile.TemporaryDirectory() as folder:  # the ruleset as a device keeps it
        result = _play_micropython(compiled_copy(path, Path(folder)), players, seed, options,
                                   actions, mix)
    if result.exit_code != 0:
        raise RuntimeError(f"MicroPython failed:\n{result.stderr}")
    return _parse(result.stdout)


def _play_micropython(path: Path, players: int | None, seed: int, options: dict,
                      actions: list[str], mix: str | None):
    return run_driver("vrun", (
        "steps = vrun.load_steps(drvdata.RULESET)\n"
        "done = False\n"
        "while not done:\n"
        "    gc.collect()\n"
        "    done, game = vrun.load_step(steps)\n"
        "steps = None\n"
        "gc.collect()\n"
        "game = vrun.start(game, drvdata.PLAYERS, drvdata.SEED, drvdata.OPTIONS, drvdata.MIX)\n"
        "ok = game is not None\n"
        "i = 0\n"
        "while ok and i < len(drvdata.ACTIONS):\n"
        "    gc.collect()\n"
        "    ok = vrun.act(game, i + 1, drvdata.ACTIONS[i])\n"
        "    i += 1\n"
        "gc.collect()\n"
        "if ok:\n"
        "    vrun.finish(game)\n"), {"/rs": (path.parent, False)}, RUN_HEAP, device_firmware(),
        {"RULESET": "/rs/" + path.name, "PLAYERS": players, "SEED": seed, "OPTIONS": options,
         "ACTIONS": actions, "MIX": mix}, preload=False)


def _play_here(text: str, players: int | None, seed: int, options: dict,
               actions: list[str], mix: str | None = None) -> Outcome:
    """The same steps as vrun, in this process: the state as the engine gives it."""
    use_firmware_path()
    import vrun

    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # vrun prints only why something was refused
        try:
            rules = loaded(text)
        except ValueError as exc:  # as vrun.load_step says it
            print("X 0 " + str(exc))
            rules = None
        game = vrun.start(rules, players, seed, options, mix)
        done = game is not None and all(vrun.act(game, i + 1, action)
                                        for i, action in enumerate(actions))
    if not done:
        return _parse(out.getvalue())
    state = game.public()
    state["screen"] = read_lines(vrun.screen_ram(game))
    return Outcome(state, None)
