"""Debounced buttons: press, long press and auto-repeat from raw 0/1 readers.

Each reader is a callable returning the pin level (buttons pull to ground, so
0 means pressed). ``poll(now_ms)`` samples them; events wait in a small ring
and come out of ``next_event()`` as small ints, so polling allocates nothing.
Buttons that repeat (the four arrows) fire on the press itself; the others fire on
release, or once as a long press while held, never both. ``activity`` is raised
by the first sample of a press, before the debounce: waking the display needs
no more, so a tap wakes it however short.
"""

from micropython import const

from arbiter.hw.ticks import add, diff

UP = const(0)
DOWN = const(1)
LEFT = const(2)
RIGHT = const(3)
A = const(4)
B = const(5)

PRESS = const(0)
LONG = const(1)
REPEAT = const(2)
NONE = const(-1)

_RING = const(16)


def event(button, kind):
    return button * 4 + kind


def button_of(ev):
    return ev >> 2


def kind_of(ev):
    return ev & 3


class Buttons:
    debounce_ms = 20  # chatter shorter than this never counts as a change
    long_press_ms = 600
    repeat_delay_ms = 400
    repeat_every_ms = 120
    repeating = (UP, DOWN, LEFT, RIGHT)

    def __init__(self, readers, active_low=True):
        self._readers = readers
        self._active = 0 if active_low else 1
        n = len(readers)
        self._raw = bytearray(n)  # last sample, 1 = pressed
        self._stable = bytearray(n)  # debounced state
        self._consumed = bytearray(n)  # held buttons that must not fire until released
        self._long_done = bytearray(n)
        self._changed_at = [0] * n
        self._down_at = [0] * n
        self._next_repeat = [0] * n
        self._ring = bytearray(_RING)
        self._head = 0
        self._count = 0
        self.activity = False  # a button went down since the flag was cleared

    def poll(self, now):
        # every pass, awake or not: the arrays in locals (an attribute costs a lookup)
        readers = self._readers
        last = self._raw
        stable = self._stable
        active = self._active  # (one line of four would build a tuple: garbage)
        for i in range(len(readers)):
            raw = 1 if readers[i]() == active else 0
            if raw != last[i]:
                last[i] = raw
                self._changed_at[i] = now
                if raw:
                    self.activity = True
            elif raw != stable[i]:
                if diff(now, self._changed_at[i]) >= self.debounce_ms:
                    stable[i] = raw
                    if raw:
                        self._pressed(i, now)
                    else:
                        self._released(i)
            elif raw and not self._consumed[i]:
                self._held(i, now)

    def _pressed(self, i, now):
        self._down_at[i] = now
        self._long_done[i] = 0
        if self._consumed[i]:
            return
        if i in self.repeating:
            self._push(event(i, PRESS))
            self._next_repeat[i] = add(now, self.repeat_delay_ms)
        # other buttons decide on release or at the long-press time

    def _released(self, i):
        if self._consumed[i]:
            self._consumed[i] = 0
        elif i not in self.repeating and not self._long_done[i]:
            self._push(event(i, PRESS))

    def _held(self, i, now):
        if i in self.repeating:
            if diff(now, self._next_repeat[i]) >= 0:
                self._push(event(i, REPEAT))
                self._next_repeat[i] = add(now, self.repeat_every_ms)
        elif not self._long_done[i] and diff(now, self._down_at[i]) >= self.long_press_ms:
            self._long_done[i] = 1
            self._push(event(i, LONG))

    def _push(self, ev):
        if self._count == _RING:
            return  # a mashed keypad drops the newest, never corrupts the ring
        self._ring[(self._head + self._count) % _RING] = ev
        self._count += 1

    def next_event(self):
        if not self._count:
            return NONE
        ev = self._ring[self._head]
        self._head = (self._head + 1) % _RING
        self._count -= 1
        return ev

    def consume_held(self):
        """Held buttons fire nothing until released (used when waking the display)."""
        for i in range(len(self._stable)):
            if self._stable[i] or self._raw[i]:
                self._consumed[i] = 1
        self._count = 0

    def any_held(self):
        for i in range(len(self._stable)):
            if self._stable[i]:
                return True
        return False
