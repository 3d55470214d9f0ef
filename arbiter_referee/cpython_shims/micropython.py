"""CPython stand-in for MicroPython's ``micropython`` module (what the firmware uses)."""


def const(value):
    return value


def heap_lock():
    """No heap to lock in CPython; the allocation tests run under real MicroPython."""
    return 0


def heap_unlock():
    return 0


def kbd_intr(char):
    """Ctrl-C from a serial line: CPython has none to refuse."""
