"""A little of ``machine`` for the emulated Arbiter: resets go to the host.

``reset()`` is a hard reset (the emulator starts a fresh MicroPython and runs
``main.py``, as a Pico does at power-on); ``soft_reset()`` is Ctrl-D's.
"""

import time

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


class WDT:
    """The watchdog: the host keeps its time (the RP2040's runs on its own clock) and
    resets the device when it is not fed in time; it cannot be stopped."""

    def __init__(self, id=0, timeout=5000):
        host.call("wdt", str(timeout))
        self._fed = time.ticks_ms()

    def feed(self):
        now = time.ticks_ms()
        if time.ticks_diff(now, self._fed) >= 500:  # not a host call at every pass
            self._fed = now
            host.call("feed", "")
