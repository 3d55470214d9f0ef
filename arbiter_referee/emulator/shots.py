"""Pictures of each bundled game's play screen, as players see it mid-game
(``arbiter sim --screenshots DIR``): the bench's recorded key scripts, the
tests' own whole games, pressed on a fresh emulated device until a third of the
game's actions are applied and the play screen is up, then drawn as PNG."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from arbiter_referee.emulator.frames import Frame, to_png

PRESS_MS, LONG_MS = 80, 900


def _play_screen(rig):
    from arbiter.screens.play import PlayScreen

    screen = rig.app.screen
    return screen if isinstance(screen, PlayScreen) else None


def play_until(rig, keys: str, actions: int) -> bool:
    """Press ``keys`` (a button script) until the game in play has ``actions`` applied
    and its play screen is on top. False if the script ends first."""
    gap = 250
    for word in keys.split():
        name, _, arg = word.partition(":")
        key, _, value = word.partition("=")
        if key == "gap":
            gap = int(value)
        elif key == "wait":
            rig.run(int(value))
        elif key in ("press", "chatter"):
            continue
        else:
            rig.press(name, hold=LONG_MS if arg == "long" else PRESS_MS, gap=gap)
            screen = _play_screen(rig)
            if screen and screen.game.count() >= actions:
                rig.run(1000)  # past the LEDs' spin
                return True
    return False


def write_all(folder: str | Path) -> list[Path]:
    """docs/play-NAME.png for each game the bench has a recorded script of."""
    from arbiter_referee.bench.scenarios import GAMES
    from arbiter_referee.emulator.rig import Rig

    written = []
    for game in GAMES:
        with tempfile.TemporaryDirectory() as flash, \
                contextlib.redirect_stdout(io.StringIO()):  # the serial console
            rig = Rig(Path(flash), seed=game.device_seed)
            if not play_until(rig, game.keys or "", max(3, len(game.actions) // 3)):
                raise RuntimeError(f"{game.name}: the recorded keys never reach mid-game")
            path = Path(folder) / f"play-{game.name}.png"
            to_png(Frame.from_board(rig.board), path)
            written.append(path)
    return written
