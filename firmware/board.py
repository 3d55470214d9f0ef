"""The Pico board: the only module that touches ``machine``.

Builds the real I2C bus, button pins and NeoPixel chain from the wiring in
``arbiter/hw/wiring.py`` (overridden by ``config.json`` on the flash) and hands
them to the portable core as plain objects and callables.
"""

import os
import sys
import time

import machine
import micropython
import neopixel as _neopixel

from arbiter.game.jobs import let_go
from arbiter.hw import wiring as _wiring
from arbiter.hw.buttons import Edges
from arbiter.hw.flash import Flash

flash = Flash("")
wiring, errors = _wiring.from_flash(flash)

i2c = machine.I2C(
    wiring["i2c_id"],
    sda=machine.Pin(wiring["sda"]),
    scl=machine.Pin(wiring["scl"]),
    freq=wiring["i2c_freq"],
)
# Buttons close to ground; pin.value is the reader (0 = pressed). Each change is
# also caught by a hard interrupt, timed, into a ring: a press made while a pass
# works (a ruleset's load) still counts, in order, at its own time.
_pins = tuple(machine.Pin(wiring["buttons"][name], machine.Pin.IN, machine.Pin.PULL_UP)
              for name in _wiring.BUTTON_NAMES)
button_readers = tuple(pin.value for pin in _pins)
button_edges = Edges()


def _watch(index, pin):
    def changed(pin):  # in the interrupt: nothing here may allocate
        button_edges.push(index, pin.value(), time.ticks_ms())

    pin.irq(changed, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING, hard=True)


for _index, _pin in enumerate(_pins):
    _watch(_index, _pin)
del _pins, _index, _pin
neopixel = _neopixel.NeoPixel(machine.Pin(wiring["led_pin"], machine.Pin.OUT),
                             wiring["led_count"])
del _wiring
let_go("hw", "wiring")  # read once, at boot: its code leaves the heap

ticks_ms = time.ticks_ms
sleep_ms = time.sleep_ms
# The watchdog: a pass of the main loop feeds it; a hang (or a REPL left behind by
# a killed transfer) resets the Pico, which boots back into its game. Once started
# it cannot be stopped: a PC's command feeds it too (transfer.py).
WATCHDOG_MS = 8000  # the RP2040's longest is 8.3 s
feed = machine.WDT(timeout=WATCHDOG_MS).feed


def entropy_seed():
    # os.urandom on the RP2040 draws from the ring oscillator's random bit.
    return int.from_bytes(os.urandom(8), "big")


def print_exception(exc):
    sys.print_exception(exc)


def usb_open(allowed):
    """Whether Ctrl-C on the USB serial (how mpremote and every PC tool take over the
    device) stops the firmware. Closed during a game, so no PC reads its journal
    unless the table chose Connect to PC (screens/usb.py)."""
    micropython.kbd_intr(3 if allowed else -1)
    if allowed:  # a PC's knocks while closed were kept as input: the REPL must not see them
        import select

        waiting = select.poll()
        waiting.register(sys.stdin, select.POLLIN)
        while waiting.poll(0):
            sys.stdin.buffer.read(1)
