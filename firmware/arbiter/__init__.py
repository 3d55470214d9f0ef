"""Arbiter's portable core: runs on MicroPython and CPython alike.

Nothing here imports ``machine`` or reads a clock: time comes in as ``now_ms``
and hardware as plain objects handed over by ``board`` (or the emulator).
"""

VERSION = "0.2.0"
