"""Record the bench's device scripts from the test suite's own whole games.

A maintainer's tool, run from a checkout: ``python tests/bench_recorder.py
[NAME ...]`` plays each game (its test, see bench_drivers.py) on a Rig
that logs every key press with its emulated time, and writes
``scripts/NAME.keys`` (a vscript that replays those presses at the same
instants, so the device shows the same frames) and ``scripts/NAME.json`` (the
device game's seed, players, options and every action its journal recorded,
undo and redo included: the same game for the headless engine). Run it again
when the firmware's menus change.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

from helpers.device import game_of

from arbiter_referee.emulator.rig import Rig
from arbiter_referee.paths import PACKAGE

SCRIPTS = PACKAGE / "bench" / "scripts"
DEVICE_SEED = 1  # the Rig's default, which the tests' whole games are written for
SEEDS = {"juggernauts": 10}  # where a whole game's test names another (its dice)


def recording_rig(flash_dir: Path, seed: int = DEVICE_SEED):
    from arbiter.store.journal import JOURNAL
    from vscript import NAMES, START_MS

    class RecordingRig(Rig):
        """A Rig that logs every pin change the tests make, with its emulated time."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.run(START_MS - self.board.elapsed)  # a script's first press comes no sooner
            self.edges, self.journal = [], []
            board, set_pin, append = self.board, self.board.press, self.board.flash.append

            def press(button, level):
                self.edges.append((board.elapsed, button, level))
                set_pin(button, level)

            def journal_append(name, text):
                # every event as the device applied it (the file itself is compacted)
                if name == JOURNAL:
                    self.journal.extend(text.splitlines())
                return append(name, text)

            board.press = press
            board.flash.append = journal_append

        @property
        def presses(self):
            """(press ms, button name, hold ms) of each press."""
            out, down = [], {}
            for at, button, level in self.edges:
                if level == 0:
                    down[button] = at
                elif button in down:
                    pressed = down.pop(button)
                    out.append((pressed, NAMES[button], at - pressed))
            return sorted(out)

    return RecordingRig(flash_dir, seed=seed)


def to_script(presses, gap: int = 120, per_line: int = 16) -> str:
    """vscript words replaying ``presses`` at their exact times (vscript.parse)."""
    from vscript import START_MS

    words, at = [f"gap={gap}"], START_MS
    for press_at, name, hold in presses:
        if press_at < at:
            raise ValueError(f"press at {press_at} ms before the script can ({at} ms)")
        if press_at > at:
            words.append(f"wait={press_at - at}")
        words.append(name if hold == 80 else f"{name}:long" if hold == 900
                     else f"{name}:hold={hold}")
        at = press_at + hold + gap
    lines = [" ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]
    return "\n".join(lines) + "\n"


def record(name: str) -> tuple[str, dict]:
    import bench_drivers as drivers

    from arbiter.game.rng import dice_seed

    with tempfile.TemporaryDirectory() as folder:
        with contextlib.redirect_stdout(io.StringIO()):  # the firmware's serial log
            rig = recording_rig(Path(folder), SEEDS.get(name, DEVICE_SEED))
            drivers.PLAYERS[name](rig)
            rig.run(1000)
        game = game_of(rig)
        if not game.state.get("result"):
            raise AssertionError(f"{name}: the game did not end: {rig.lines}")
        # a roll's dice (after "|") are left out: the seed rolls them again
        actions = [line.split("|")[0] for line in rig.journal if not line.startswith("#")]
        # the dice seed (the device's and the players' part, hashed): the headless
        # game rolls the same dice from it alone
        meta = {"ruleset": name, "device_seed": SEEDS.get(name, DEVICE_SEED),
                "players": game.players, "seed": dice_seed(game.seed, game.mix),
                "options": game.options, "result": game.state["result"],
                "winner": game.state.get("winner"), "actions": actions}
        return to_script(rig.presses), meta


def main(argv: list[str]) -> int:
    import bench_drivers as drivers

    for name in argv or sorted(drivers.PLAYERS):
        keys, meta = record(name)
        (SCRIPTS / f"{name}.keys").write_text(keys)
        (SCRIPTS / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{name}: {len(keys.split())} words, {len(meta['actions'])} actions, "
              f"{meta['result']} {meta['winner'] or ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
