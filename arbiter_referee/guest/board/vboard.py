"""The virtual Arbiter board: the same interface as the firmware's ``board.py``.

Buttons follow a scripted timeline, the clock moves only in ``sleep_ms``, the
I2C bus feeds a ``VirtualSSD1306`` and counts bytes, the NeoPixels keep what
was last written, and the flash is a folder. Each loop pass that changed the
OLED or the LEDs is reported to ``on_frame``.
"""

import sys

from arbiter.game.jobs import let_go
from arbiter.hw.buttons import Edges
from arbiter.hw.flash import Flash
from arbiter.hw.ticks import PERIOD
from vscript import edges
from vssd1306 import VirtualSSD1306


class EmulationDone(BaseException):
    """Raised from ``sleep_ms`` when the script has run out (not an Exception: the
    firmware's top-level handler must not catch it)."""


class WatchdogReset(BaseException):
    """Raised from ``sleep_ms`` when the emulated watchdog was not fed in time: the
    caller boots a fresh device on the same flash, as the Pico's watchdog does."""


WATCHDOG_MS = 8000  # as board.py sets the Pico's


class VirtualI2C:
    def __init__(self, devices):
        self.devices = devices
        self.bytes_sent = 0  # payload bytes, control bytes included
        self.transactions = 0

    def writeto(self, addr, buf):
        self.writevto(addr, (buf,))

    def writevto(self, addr, bufs):
        device = self.devices.get(addr)
        if device is None:
            raise OSError(19)  # ENODEV, as the Pico reports a missing device
        sent = 0
        for buf in bufs:
            sent += len(buf)
        self.transactions += 1
        self.bytes_sent += sent
        device.receive_parts(bufs)  # read in place: a Pico's bus copies nothing

    def scan(self):
        return sorted(self.devices)


class VirtualNeoPixel:
    def __init__(self, count):
        self.n = count
        self.buf = bytearray(count * 3)
        self.shown = bytearray(count * 3)  # what the LEDs show: the last write
        self.writes = 0

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        self.buf[i * 3] = rgb[0]
        self.buf[i * 3 + 1] = rgb[1]
        self.buf[i * 3 + 2] = rgb[2]

    def __getitem__(self, i):
        return (self.buf[i * 3], self.buf[i * 3 + 1], self.buf[i * 3 + 2])

    def write(self):
        self.writes += 1
        self.shown[:] = self.buf


class VirtualFlash(Flash):
    def __init__(self, root):
        super().__init__(root)
        self.bytes_written = 0
        self.writes = 0

    def wrote(self, count):
        self.bytes_written += count
        self.writes += 1


class VirtualBoard:
    def __init__(self, seed, script="", flash_root="", on_frame=None, start_ms=0,
                 panel_ram=None):
        self.flash = VirtualFlash(flash_root)
        from arbiter.hw import wiring  # read once, at boot, then let go as board.py does

        self.wiring, self.errors = wiring.from_flash(self.flash)
        let_go("hw", "wiring")
        self.oled = VirtualSSD1306(ram=panel_ram)
        self.i2c = VirtualI2C({self.wiring["oled_addr"]: self.oled})
        self.neopixel = VirtualNeoPixel(self.wiring["led_count"])
        self.levels = bytearray(b"\x01" * 6)  # pull-ups: 1 = released
        self.button_readers = tuple(self._reader(i) for i in range(6))
        self.button_edges = Edges()  # as the Pico's pin interrupts fill it
        self._seed = seed
        self._draws = -1  # entropy_seed calls before
        self.now = start_ms % PERIOD
        self.elapsed = 0  # unwrapped virtual ms since boot
        self._edges = edges(script)
        self._edge = next(self._edges)
        self.end_ms = -1  # when the script's last edge is reached; None: never
        self.on_frame = on_frame
        self._last_leds = bytearray(len(self.neopixel.shown))
        self._last_state = -1
        self.wakeups = 0
        self.fed_at = 0  # the emulated watchdog: last fed (elapsed ms)
        self.usb = True  # whether Ctrl-C from a PC would stop the firmware (board.usb_open)

    def _reader(self, i):
        levels = self.levels
        return lambda: levels[i]

    def entropy_seed(self):
        """The emulator seed at boot, then a new value each call, all fixed by the
        emulator seed: a recorded game replays with the same dice."""
        self._draws += 1
        if not self._draws:
            return self._seed
        import hashlib

        digest = hashlib.sha256(("%d/%d" % (self._seed, self._draws)).encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def feed(self):
        self.fed_at = self.elapsed

    def usb_open(self, allowed):
        self.usb = allowed

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.wakeups += 1
        self.check_frame()
        if self.end_ms is not None and 0 <= self.end_ms <= self.elapsed:
            raise EmulationDone()
        if self.elapsed - self.fed_at > WATCHDOG_MS:
            raise WatchdogReset()
        target = self.elapsed + ms
        while self._edge is not None and self._edge[0] <= target:
            at, button, level = self._edge
            if button < 0:
                if self.end_ms is not None:
                    self.end_ms = at
                self._edge = None
                break
            self._change(button, level, (self.now + at - self.elapsed) % PERIOD)
            self._edge = next(self._edges)
        self.elapsed = target
        self.now = (self.now + ms) % PERIOD

    def press(self, button, level, at=None):
        """Set a button's pin level (0 = pressed), for tests and pages driving by hand:
        its edge timed now, or ``at`` (ms since boot, since the last pass: a click the
        page made between two passes, as a pin interrupt times it)."""
        when = self.now if at is None else (self.now + at - self.elapsed) % PERIOD
        self._change(button, level, when)

    def _change(self, button, level, at):
        if self.levels[button] != level:  # a pin interrupt fires on a change only
            self.levels[button] = level
            self.button_edges.push(button, level, at)

    def check_frame(self):
        """Report a frame when the panel or the LEDs changed since the last one."""
        oled, shown = self.oled, self.neopixel.shown
        state = (1 if oled.on else 0) | (2 if oled.inverted else 0) | oled.contrast << 2
        if state == self._last_state and not oled.changed and shown == self._last_leds:
            return
        self._last_state = state
        oled.changed = False
        self._last_leds[:] = shown
        if self.on_frame:
            self.on_frame(self)

    def print_exception(self, exc):
        if hasattr(sys, "print_exception"):
            sys.print_exception(exc)
        else:
            import traceback

            traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)
