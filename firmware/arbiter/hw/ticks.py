"""Tick arithmetic that survives the wrap of ``time.ticks_ms`` (2**30 ms on the Pico)."""

from micropython import const

PERIOD = const(0x40000000)
_MASK = const(0x3FFFFFFF)
_HALF = const(0x20000000)


def diff(new, old):
    """Signed ms from ``old`` to ``new``, like ``time.ticks_diff``."""
    return ((new - old + _HALF) & _MASK) - _HALF


def add(ticks, delta):
    return (ticks + delta) & _MASK
