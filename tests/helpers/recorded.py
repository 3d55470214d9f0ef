"""The bench's recorded games (arbiter_referee/bench/scripts) pressed on a fresh
emulated device at the instants they were recorded, as ``arbiter sim --keys`` plays
them: each play screen the players saw, once the device had nothing left to do."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from arbiter_referee.bench.scenarios import load
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.screen_text import read_lines


def play_screens(name):
    """Each new settled play screen of the recorded game ``name``: (the play screen,
    its eight lines), to the script's end."""
    from arbiter.device import Device
    from arbiter.screens.play import PlayScreen
    from vboard import EmulationDone, VirtualBoard

    recorded = load(name)
    with tempfile.TemporaryDirectory() as flash, \
            contextlib.redirect_stdout(io.StringIO()):  # the serial console
        factory_flash(Path(flash))
        board = VirtualBoard(recorded.device_seed, recorded.keys, flash + "/")
        device = board.device = Device(board)
        last = None
        try:
            while True:
                board.sleep_ms(device.tick())
                app = device.app
                if app is None or app.dirty or app.later is not None or \
                        app.idle is not None or not isinstance(app.screen, PlayScreen):
                    continue
                lines = read_lines(board.oled.ram)
                if lines != last:
                    last = lines
                    yield app.screen, lines
        except EmulationDone:
            return
