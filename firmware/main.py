"""Arbiter firmware entry point (runs at boot on the Pico)."""

import micropython

# The USB port is the table's from the first line: a PC's Ctrl-C no longer stops the
# firmware (board.usb_open), even while the imports below load. It opens again at once
# with no game on flash (a maker's device), or if the table let a PC connect before
# this reset; else only the table opens it (screens/usb.py).
micropython.kbd_intr(-1)

from arbiter.hw.flash import Flash  # noqa: E402
from arbiter.store import USB_OPEN, game_on_flash  # noqa: E402

if not game_on_flash(Flash()) or Flash().exists(USB_OPEN):
    micropython.kbd_intr(3)
del Flash, USB_OPEN, game_on_flash

import gc  # noqa: E402

import board  # noqa: E402  (the hardware objects are made before the heap fragments)

gc.collect()

from arbiter import device  # noqa: E402

try:
    device.run(board)
finally:  # a PC's Ctrl-C stopped it (the table let a PC connect): B is boot.py's again
    import boot  # noqa: F401
