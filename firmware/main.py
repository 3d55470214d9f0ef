"""Arbiter firmware entry point (runs at boot on the Pico)."""

import micropython

from arbiter.hw.flash import Flash
from arbiter.store import game_on_flash

# From here the USB port is the table's while a game is on flash, unless the table let
# a PC connect before this reset: a PC's Ctrl-C no longer stops the firmware
# (board.usb_open). Only the table opens it (screens/usb.py).
if game_on_flash(Flash()) and not Flash().exists("usb.open"):
    micropython.kbd_intr(-1)
del Flash, game_on_flash

import gc  # noqa: E402

import board  # noqa: E402  (the hardware objects are made before the heap fragments)

gc.collect()

from arbiter import device  # noqa: E402

device.run(board)
