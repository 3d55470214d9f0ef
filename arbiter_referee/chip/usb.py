"""``arbiter emulate --runtime chip``: a Pico's own MicroPython in an emulated RP2040,
its USB serial (TinyUSB's CDC) behind a pseudo-terminal.

The chip runs on a Pico's clock paced by the PC's: while its CPU sleeps the timer
moves with the wall clock, while it works it moves by its cycles at 125 MHz. The
emulation is slower than a Pico, so the chip's time never runs ahead of the PC's:
mpremote's timeouts and the firmware's watchdog keep their meaning. What the PC
sends reaches the chip's USB at once, mid-pass too (a busy chip hears the PC every
BUSY_US of its time), and what it sends back goes to the port. The port appears
once the chip's USB has enumerated, early in its boot and before ``main.py``, and
goes at every reset, as a Pico's does. The flash folder is the whole flash: read
at power-on, written back at every reset and at the end.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

from arbiter_referee.chip.session import BUTTONS, Chip, ChipError
from arbiter_referee.emulator.serial.buttons import Buttons

BUSY_US = 10_000  # the chip's time a busy pass runs before the PC's bytes go in
LOOK_S = 0.05  # the longest wait between two looks at the buttons and the stop


class ChipDevice:
    """The chip behind ``port`` (emulator.serial.port.PtyPort), its flash ``flash_dir``."""

    def __init__(self, port, flash_dir: Path, seed: int, firmware, screen) -> None:
        self.port = port
        self.screen = screen
        self.buttons = Buttons()
        self.stopped = False
        self.failed = False
        self._reset = False  # the folder is to be written: the chip reset
        self._plug = False  # the port is to appear once it is
        self._ready: Callable[[], None] | None = None
        self._levels = "0" * len(BUTTONS)  # Buttons' levels: 1 pressed
        self.chip = Chip(flash_dir, seed, "pico", firmware, on_frame=self._frame,
                         with_firmware=False, on_serial=port.write, on_usb=self._usb,
                         on_reset=self._on_reset)

    def _frame(self, board) -> None:
        self.screen.show(board.oled.on, bytes(board.oled.ram))

    def _usb(self) -> None:
        if self._reset:  # the folder first: a PC back on the port may read it at once
            self._plug = True
            return
        self.port.plug()
        if self._ready is not None:  # the first time: say where the port is
            ready, self._ready = self._ready, None
            ready()

    def _on_reset(self, _reason: str) -> None:
        self.port.unplug()  # the new chip's USB enumerates anew
        self._reset = True

    def _press(self) -> None:
        levels = self.buttons.levels()  # once per batch of passes: each level lasts some
        if not levels:
            return
        for i, (was, now) in enumerate(zip(self._levels, levels, strict=True)):
            if was != now:
                self.chip.set_pin(i, 0 if now == "1" else 1)  # pressed pulls the pin low
        self._levels = levels

    def run(self, ready: Callable[[], None]) -> None:
        self._ready = ready
        chip = self.chip
        try:
            self._loop()
        except ChipError as exc:
            if not self.stopped:  # (a Ctrl-C at the terminal stops Node.js too)
                self.failed = True
                print(f"arbiter emulate: {exc}", file=sys.stderr, flush=True)
        finally:
            self.port.close()
            with contextlib.suppress(ChipError):
                if not self.failed:
                    chip.save_flash()  # what the chip wrote, kept in the folder
            chip.close()

    def _loop(self) -> None:
        chip, port = self.chip, self.port
        last = time.monotonic()
        while not self.stopped:
            data = port.take()
            if data:
                chip.send_serial(data)
            if chip.passes:  # (kept by Chip for the bench; not needed here)
                chip.passes.clear()
                chip.board.panel_changes.clear()
                self._press()
            now = chip.now_us + int((time.monotonic() - last) * 1e6)  # the PC's time
            wake = chip.live(now, now + BUSY_US)
            last = time.monotonic()
            if self._reset:
                chip.save_flash()
                self._reset = False
                if self._plug:
                    self._plug = False
                    self._usb()
            if wake is None or wake > chip.now_us:  # asleep: wait for its timer or the PC
                due = LOOK_S if wake is None else (wake - chip.now_us) / 1e6
                data = port.take(min(due, LOOK_S))
                if data:
                    chip.send_serial(data)

    def close(self) -> None:
        self.stopped = True
