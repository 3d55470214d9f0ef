"""Arbiter firmware entry point (runs at boot on the Pico)."""

import gc

import board  # first: the hardware objects are made before the heap fragments

gc.collect()

from arbiter import device  # noqa: E402

device.run(board)
