"""The board of the emulated Arbiter on a serial line: the virtual board, real time.

Stands in for the flash's ``board`` module when the emulator runs
``main.py``: the firmware meets the same ``VirtualBoard`` as under ``arbiter
sim``, but the clock is MicroPython's own ``time.ticks_ms``, ``sleep_ms``
sleeps in the host (where Ctrl-C from the serial line wakes it and raises
KeyboardInterrupt here, as on a Pico), and every changed frame goes to the
host, which can show the screen.
"""

import binascii
import gc
import time

import host
import machine

from vboard import WATCHDOG_MS, VirtualBoard


class SerialBoard(VirtualBoard):
    def ticks_ms(self):
        return time.ticks_ms()

    def sleep_ms(self, ms):
        before = gc.mem_alloc()
        self.wakeups += 1
        self.check_frame()
        reply = host.call("sleep", str(ms))
        if reply == "i":
            raise KeyboardInterrupt()
        if reply:  # the buttons changed: "1" is pressed (pin low), timed as it came
            now = time.ticks_ms()
            for i in range(6):
                self._change(i, 0 if reply[i] == "1" else 1, now)
        reply = None
        if gc.mem_alloc() != before:  # this board's own garbage (a frame sent, a reply):
            gc.collect()  # a Pico's sleep makes none, and the firmware collects only
            # after a pass that did work (device.run); what is alive is reachable from
            # globals here, as the WASI build's collector needs


    def usb_open(self, allowed):
        # The serial line is the host's: it honours the gate (a Pico's kbd_intr) and
        # drops what a PC sent while it was closed.
        self.usb = allowed
        host.call("usb", "1" if allowed else "0")


def _frame(board):
    oled = board.oled
    host.call("frame", "%d %d %d %s %s" % (
        1 if oled.on else 0, 1 if oled.inverted else 0, oled.contrast,
        binascii.hexlify(board.neopixel.shown).decode(),
        binascii.hexlify(oled.ram).decode()))


_board = SerialBoard(int(host.call("seed", "")), "", "", on_frame=_frame)
flash = _board.flash
wiring = _board.wiring
errors = _board.errors
i2c = _board.i2c
neopixel = _board.neopixel
button_readers = _board.button_readers
button_edges = _board.button_edges
ticks_ms = _board.ticks_ms
sleep_ms = _board.sleep_ms
entropy_seed = _board.entropy_seed
print_exception = _board.print_exception
usb_open = _board.usb_open
feed = machine.WDT(timeout=WATCHDOG_MS).feed  # as board.py arms the Pico's
