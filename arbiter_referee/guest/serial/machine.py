"""A little of ``machine`` for the emulated Arbiter: resets go to the host.

``reset()`` is a hard reset (the emulator starts a fresh MicroPython and runs
``main.py``, as a Pico does at power-on); ``soft_reset()`` is Ctrl-D's.
"""

import host


def reset():
    host.call("reset", "hard")


def soft_reset():
    host.call("reset", "soft")


def bootloader(*_args):
    raise OSError("the emulated Arbiter has no bootloader")


def freq(*_args):
    return 125000000


def unique_id():
    return b"ARBITER0"


def idle():
    pass
