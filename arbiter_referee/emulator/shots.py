"""Pictures of each bundled game's play screen and piece page, as players see them
mid-game (``arbiter sim --screenshots DIR``): the bench's recorded key scripts, the
tests' own whole games, pressed on a fresh emulated device until a third of the
game's actions are applied and the play screen is up, then drawn as PNG; then the
piece page (Down on the play screen, or the grid's there) opened over it. Then the
play screen with the most players the game takes (the recorded game halfway if it
has them, else a new game's first phase) and the winner's screen at the recorded
game's end."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from arbiter_referee.emulator.frames import Frame, to_png

SETTLE_MS = 1000  # past the LEDs' spin
PAGE_MS = 40  # a pass or two: a script's presses are 80 ms long and 120 ms apart


def play_until(seed: int, flash: str, keys: str, actions: int):
    """The device playing ``keys`` (a button script) at the instants it was recorded,
    as ``arbiter sim --keys`` does (the players' arrows at the seal, hence the dice,
    are the recorded ones), until the game in play has ``actions`` applied and its play
    screen is on top: the board, or None if the script ends first."""
    from arbiter_referee.emulator.session import use_firmware_path

    use_firmware_path()
    from arbiter.device import Device
    from arbiter.screens.play import PlayScreen
    from vboard import EmulationDone, VirtualBoard

    board = VirtualBoard(seed, keys, flash.rstrip("/") + "/")
    device = board.device = Device(board)

    try:
        while True:
            board.sleep_ms(device.tick())
            screen = device.app.screen if device.app else None
            if isinstance(screen, PlayScreen) and screen.game.count() >= actions:
                board.end_ms = None
                until = board.elapsed + SETTLE_MS
                while board.elapsed < until:  # the play screen drawn, after the script's
                    board.sleep_ms(device.tick())  # next presses if they opened something
                    if not isinstance(device.app.screen, PlayScreen):
                        until = max(until, board.elapsed + PAGE_MS)
                return board
    except EmulationDone:
        return None


def write_all(folder: str | Path) -> list[Path]:
    """docs/play-NAME.png for each game the bench has a recorded script of."""
    from arbiter_referee.bench.scenarios import GAMES
    from arbiter_referee.compiled import factory_flash

    written = []
    for game in GAMES:
        with tempfile.TemporaryDirectory() as flash, \
                contextlib.redirect_stdout(io.StringIO()):  # the serial console
            factory_flash(Path(flash))
            board = play_until(game.device_seed, flash, game.keys or "",
                               max(3, len(game.actions) // 3))
            if board is None:
                raise RuntimeError(f"{game.name}: the recorded keys never reach mid-game")
            path = Path(folder) / f"play-{game.name}.png"
            to_png(Frame.from_board(board), path)
            written.append(path)
            path = Path(folder) / f"pieces-{game.name}.png"
            to_png(Frame.from_board(piece_page(board)), path)
            written.append(path)
        path = Path(folder) / f"seats-{game.name}.png"
        to_png(Frame.from_board(seats(game)), path)
        written.append(path)
        with tempfile.TemporaryDirectory() as flash, \
                contextlib.redirect_stdout(io.StringIO()):
            factory_flash(Path(flash))
            board = play_until(game.device_seed, flash, game.keys or "", len(game.actions))
            if board is None or not board.device.app.stack[-1].game.state["result"]:
                raise RuntimeError(f"{game.name}: the recorded keys never reach the end")
            path = Path(folder) / f"win-{game.name}.png"
            to_png(Frame.from_board(board), path)
            written.append(path)
    return written


def seats(game):
    """The play screen with the most players ``game`` (a recorded one) takes, drawn."""
    import json

    from arbiter_referee.compiled import factory_flash
    from arbiter_referee.rulesets import bundled

    players = json.loads(bundled()[game.name].read_text()).get("players", {})
    most = players.get("max", 2)
    with tempfile.TemporaryDirectory() as flash, \
            contextlib.redirect_stdout(io.StringIO()):
        if game.players == most:  # the recorded game has them: halfway through it
            factory_flash(Path(flash))
            board = play_until(game.device_seed, flash, game.keys or "",
                               len(game.actions) // 2)
            if board is None:
                raise RuntimeError(f"{game.name}: the recorded keys never reach halfway")
            return board
        return new_game(Path(flash), game.name, most - players.get(
            "default", players.get("min", 2))).board


def new_game(flash, name, more):
    """A fresh device's new game of the bundled ``name`` with ``more`` players than
    its setup starts at, by keys, past the seal and any secret picks (each player
    takes the first choice): the rig, its play screen drawn."""
    from arbiter_referee.emulator.rig import Rig
    from arbiter_referee.rulesets import bundled

    rules = __import__("json").loads(bundled()[name].read_text())
    rig = Rig(flash)
    rig.keys("a")  # Play a game: the list of games, looked through for this one
    for _ in range(len(bundled()) + 1):
        rig.keys("a")
        while getattr(rig.app.screen, "loads", False):  # the ruleset, a step a pass
            rig.run(10)
        rig.settle()
        if rig.lines[0] == rules.get("title", name):
            break
        rig.keys("b", "down")
    else:
        raise RuntimeError(f"{name} is not in the device's game list")
    rig.keys(*["right"] * more, "a")  # the Players row first, then start
    while rig.lines[0] == "New game":  # each player's part of the dice
        rig.keys("left", "left", "left", "left")
    rig.keys("a")  # past the commitment's photo
    screen = rig.app.screen
    while getattr(getattr(screen, "game", None), "state", {"round": 1})["round"] == 0:
        rig.keys("a", "a")  # a secret pick: the first choice
        if rig.app.screen.__class__.__name__ == "TextPage":  # the reveal
            rig.keys("a")
        screen = rig.app.screen
    rig.run(SETTLE_MS)
    return rig


def piece_page(board):
    """The piece page opened over the play screen, drawn."""
    from arbiter.screens.pieces import piece_page as page
    from arbiter.screens.play import PlayScreen

    app = board.device.app
    app.push(page(next(s for s in app.stack if isinstance(s, PlayScreen)).game))
    app.redraw()
    until = board.elapsed + PAGE_MS  # drawn before the script's next key can act on it
    while board.elapsed < until:
        board.sleep_ms(board.device.tick())
    return board
