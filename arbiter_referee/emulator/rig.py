"""A virtual board with the real firmware on it, driven by hand (tests, recordings)."""

from __future__ import annotations

from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.frames import Frame
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.emulator.session import use_firmware_path

use_firmware_path()


class Rig:
    """A virtual board with the real firmware on it, driven by hand in tests."""

    def __init__(self, flash_dir, seed=1, config=None, settings=None, factory=True,
                 held=None, fs=None):
        if factory:
            factory_flash(flash_dir)
        if config is not None:
            (flash_dir / "config.json").write_text(config)
        if settings is not None:
            (flash_dir / "settings.json").write_text(settings)
        self.flash_dir = flash_dir
        self.fs = fs  # littlefs (bench.littlefs.Filesystem) in place of the folder
        self.seed = seed
        self.watchdog_resets = 0
        self._power_on(held)
        if held is not None:
            self.run(50)
            self.release(held)
        self.run(50)
        self.settle()

    def settle(self, limit_ms=60000):
        """Run until the device has nothing left to do (a boot's resume reads its
        ruleset a step a pass): its screen drawn, no work waiting for a pass."""
        while limit_ms > 0:
            app = self.device.app
            if app is None or not (app.dirty or app.later is not None or app._booting):
                return
            self.run(10)
            limit_ms -= 10

    def _power_on(self, held=None):
        """``held``: a button's name, held down as the power comes on."""
        from arbiter.device import Device
        from vboard import VirtualBoard
        from vscript import NAMES

        self.board = VirtualBoard(self.seed, "", str(self.flash_dir) + "/")
        self.board.end_ms = None
        if held is not None:
            self.board.press(NAMES.index(held), 0)
        if self.fs is not None:
            from arbiter.hw.flash import Flash

            self.board.flash = Flash("", fs=self.fs)
        self.device = Device(self.board)

    def release(self, name):
        from vscript import NAMES

        self.board.press(NAMES.index(name), 1)

    def reboot(self, seed=2, held=None):
        """Power off and on again: same flash, a fresh device (``held``: a button held
        down as it comes on, released once it has booted)."""
        return Rig(self.flash_dir, seed=seed, factory=False, held=held, fs=self.fs)

    def run(self, ms):
        """Let the device's main loop run for ``ms`` of emulated time. When the
        emulated watchdog bites, the device boots again on the same flash."""
        from vboard import WatchdogReset

        left = ms
        while left > 0:
            board = self.board
            before = board.elapsed
            try:
                board.sleep_ms(self.device.tick())
            except WatchdogReset:
                self.watchdog_resets += 1
                self._power_on()
            left -= board.elapsed - before

    def led_colours(self, ms=1500, step=50):
        """What each LED showed over ``ms`` (past any animation): a set of colours per LED."""
        self.run(1000)
        seen = [set() for _ in self.frame.leds]
        for _ in range(ms // step):
            self.run(step)
            for i, colour in enumerate(self.frame.leds):
                seen[i].add(colour)
        return seen

    def press(self, name, hold=80, gap=120):
        from vscript import NAMES

        button = NAMES.index(name)
        self.board.press(button, 0)
        self.run(hold)
        self.board.press(button, 1)
        self.run(gap)

    def keys(self, *names):
        """Short presses; ``NAME:long`` holds for a long press."""
        for name in names:
            button, _, long = name.partition(":")
            self.press(button, hold=900 if long else 80)

    @property
    def app(self):
        return self.device.app

    @property
    def lines(self):
        return read_lines(self.board.oled.ram)

    @property
    def frame(self):
        return Frame.from_board(self.board)
