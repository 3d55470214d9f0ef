"""Arbiter's portable core: runs on MicroPython and CPython alike.

Nothing here imports ``machine`` or reads a clock: time comes in as ``now_ms``
and hardware as plain objects handed over by ``board`` (or the emulator).
"""

VERSION = "0.2.0"


def unload(name):
    """Forgets a module used for one job (a ruleset's checks) so its code leaves a
    Pico's heap until it is imported again. Only under MicroPython: CPython has
    room, and there a module's classes must stay the ones others imported."""
    import sys

    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
