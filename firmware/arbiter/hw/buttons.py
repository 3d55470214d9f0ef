"""Debounced buttons: press, long press and auto-repeat from raw 0/1 readers.

Each reader is a callable returning the pin level (buttons pull to ground, so
0 means pressed). ``poll(now_ms)`` samples them; events wait in a small ring
and come out of ``next_event()`` as small ints, so polling allocates nothing.
Buttons that repeat (the four arrows) fire on the press itself; the others fire on
release, or once as a long press while held, never both. ``activity`` is raised
by the first sample of a press, before the debounce: waking the display needs
no more, so a tap wakes it however short.

A pass of the main loop can take a few hundred ms (a ruleset's load, a resume): a
press made and let go within it is never sampled. So the board also hands over
``Edges``, each pin change with its time as a pin interrupt caught it, and
``poll`` first goes through those, in order, at their own times. Each event keeps
the time it became certain (``at`` after ``next_event``): the moment the player
pressed, however late the pass that reads it.
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
_EDGES = const(32)  # pin changes one pass may hold: a thumb makes about 10 a second


def event(button, kind):
    return button * 4 + kind


def button_of(ev):
    return ev >> 2


def kind_of(ev):
    return ev & 3


class Edges:
    """Pin changes as interrupts catch them: (button, level, ms) in a ring made once,
    as an interrupt may not allocate. Only ``push`` (the interrupt) moves ``written``
    and only ``Buttons.poll`` moves ``read``, so neither can spoil the other's count.
    A full ring drops the newest and says so (``lost``): the next poll reads the pins
    to find where they are."""

    def __init__(self):
        self.button = bytearray(_EDGES)
        self.level = bytearray(_EDGES)
        self.at = [0] * _EDGES
        self.written = 0  # both count modulo 2 * _EDGES: full and empty differ
        self.read = 0
        self.lost = True  # (none caught yet: the pins are read once, as they are)

    def push(self, button, level, at):
        n = self.written
        if (n - self.read) % (2 * _EDGES) == _EDGES:
            self.lost = True
            return
        k = n % _EDGES
        self.button[k] = button
        self.level[k] = level
        self.at[k] = at
        self.written = (n + 1) % (2 * _EDGES)


class Buttons:
    debounce_ms = 20  # chatter shorter than this never counts as a change
    long_press_ms = 600
    repeat_delay_ms = 400
    repeat_every_ms = 120
    repeating = (UP, DOWN, LEFT, RIGHT)

    def __init__(self, readers, edges=None, active_low=True):
        self._readers = readers
        self._edges = edges
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
        self._ring_at = [0] * _RING
        self._head = 0
        self._count = 0
        self.at = 0  # when the event next_event last gave became certain (ms)
        self.activity = False  # a button went down since the flag was cleared

    def poll(self, now):
        # every pass, awake or not: nothing here allocates. An idle pass stays in
        # this function: few locals, so the rp2 port keeps its frame on the C stack
        # (one of more than 11 words it takes from the heap, a slow search there)
        edges = self._edges
        if edges is None:
            self._settle(now, True)
            return
        if edges.read != edges.written:
            self._take_edges(edges)
        # with edges, the pins are read only when some were lost (and at the start): a
        # read would time a change by the pass's start, before the edge it follows
        if edges.lost:
            edges.lost = False
            self._settle(now, True)
        elif max(self._raw) or max(self._stable):  # (buttons up and at rest need nothing)
            self._settle(now, False)

    # The functions a press goes through keep to 11 words of frame or less, so the
    # rp2 port puts them on the C stack, not the heap (see poll)
    def _take_edges(self, edges):
        while edges.read != edges.written:
            self._take_edge(edges, edges.read % _EDGES)
            edges.read = (edges.read + 1) % (2 * _EDGES)

    def _take_edge(self, edges, k):
        at, button = edges.at[k], edges.button[k]
        for i in range(len(self._raw)):  # what other buttons made certain before it
            if i != button and (self._raw[i] or self._stable[i]):  # goes first: the
                self._sample(i, self._raw[i], at)  # events stay in time order
        self._sample(button, 1 if edges.level[k] == self._active else 0, at)

    def _settle(self, now, read):
        """Each button's level now: its pin's if ``read``, else the last edge's."""
        for i in range(len(self._readers)):
            level = (1 if self._readers[i]() == self._active else 0) if read else self._raw[i]
            if level or self._raw[i] or self._stable[i]:  # (up and at rest: nothing)
                self._sample(i, level, now)

    def _sample(self, i, raw, now):
        """Button ``i`` reads ``raw`` (1: pressed) at ``now``: first what the level it
        had until then settled into, then the change, if it is one."""
        last = self._raw[i]
        if last != self._stable[i] and diff(now, self._certain_at(i)) >= 0:
            self._stable[i] = last  # it lasted: certain from then on
            if last:
                self._pressed(i, self._certain_at(i))
            else:
                self._released(i, self._certain_at(i))
        if last and self._stable[i] and not self._consumed[i]:
            self._held(i, now if raw == last else add(now, -1))  # (held until just before)
        if raw != last:
            self._raw[i] = raw
            self._changed_at[i] = now
            if raw:
                self.activity = True

    def _certain_at(self, i):
        """When button ``i``'s last change had lasted the debounce."""
        return add(self._changed_at[i], self.debounce_ms)

    def _pressed(self, i, at):
        self._down_at[i] = at
        self._long_done[i] = 0
        if self._consumed[i]:
            return
        if i in self.repeating:
            self._push(event(i, PRESS), at)
            self._next_repeat[i] = add(at, self.repeat_delay_ms)
        # other buttons decide on release or at the long-press time

    def _released(self, i, at):
        if self._consumed[i]:
            self._consumed[i] = 0
        elif i not in self.repeating and not self._long_done[i]:
            self._push(event(i, PRESS), at)

    def _held(self, i, now):
        if i in self.repeating:
            at = self._next_repeat[i]
            if diff(now, at) >= 0:
                self._push(event(i, REPEAT), at)
                self._next_repeat[i] = add(now, self.repeat_every_ms)  # none piled up
        elif not self._long_done[i]:
            at = add(self._down_at[i], self.long_press_ms)
            if diff(now, at) >= 0:
                self._long_done[i] = 1
                self._push(event(i, LONG), at)

    def _push(self, ev, at):
        if self._count == _RING:
            return  # a mashed keypad drops the newest, never corrupts the ring
        k = (self._head + self._count) % _RING
        self._ring[k] = ev
        self._ring_at[k] = at
        self._count += 1

    def next_event(self):
        if not self._count:
            return NONE
        ev = self._ring[self._head]
        self.at = self._ring_at[self._head]
        self._head = (self._head + 1) % _RING
        self._count -= 1
        return ev

    def consume_held(self):
        """Held buttons fire nothing until released (used when waking the display)."""
        for i in range(len(self._stable)):
            if self._stable[i] or self._raw[i]:
                self._consumed[i] = 1
        self._count = 0

    def held_at_start(self, i):
        """Whether button ``i`` is held as the device starts (its pin, before any poll);
        if so, it fires nothing until released."""
        if self._readers[i]() != self._active:
            return False
        self._consumed[i] = 1
        return True

    def any_held(self):
        for i in range(len(self._stable)):
            if self._stable[i]:
                return True
        return False
