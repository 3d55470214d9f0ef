"""Debounce, long press and auto-repeat, sampled every millisecond (harsher than the
device's 10 ms loop), with contact chatter on every edge."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.hw.buttons import (
    DOWN,
    LEFT,
    LONG,
    PRESS,
    REPEAT,
    RIGHT,
    UP,
    A,
    Buttons,
    button_of,
    kind_of,
)


class Contacts:
    """Six active-low contacts whose level follows a timeline of edges."""

    def __init__(self):
        self.levels = [1] * 6
        self.readers = [lambda i=i: self.levels[i] for i in range(6)]


def drive(buttons, contacts, timeline, until):
    """Sample every ms; ``timeline`` is [(t, button, level)] sorted by t."""
    events, k = [], 0
    for now in range(until):
        while k < len(timeline) and timeline[k][0] <= now:
            _, button, level = timeline[k]
            contacts.levels[button] = level
            k += 1
        buttons.poll(now)
        ev = buttons.next_event()
        while ev >= 0:
            events.append((now, button_of(ev), kind_of(ev)))
            ev = buttons.next_event()
    return events


def bouncy_edge(timeline, t, button, level, chatter_ms, rng):
    """The contact flips at random for ``chatter_ms`` before settling."""
    for dt in range(chatter_ms):
        timeline.append((t + dt, button, rng.choice((0, 1))))
    timeline.append((t + chatter_ms, button, level))


def test_1000_chattering_presses_give_exactly_1000_events():
    rng = random.Random(2026)
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    timeline, t = [], 10
    for _ in range(1000):
        bouncy_edge(timeline, t, A, 0, 5, rng)
        t += rng.randint(60, 200)  # a press, including its chatter
        bouncy_edge(timeline, t, A, 1, 5, rng)
        t += rng.randint(60, 200)
    events = drive(buttons, contacts, timeline, t + 100)
    assert events.count((events[0][0], A, PRESS)) == 1
    assert len(events) == 1000
    assert all(button == A and kind == PRESS for _, button, kind in events)


def test_1000_chattering_up_presses_fire_on_press_once_each():
    rng = random.Random(7)
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    timeline, t = [], 10
    for _ in range(1000):
        bouncy_edge(timeline, t, UP, 0, 5, rng)
        t += rng.randint(60, 300)  # shorter than the repeat delay
        bouncy_edge(timeline, t, UP, 1, 5, rng)
        t += rng.randint(60, 200)
    events = drive(buttons, contacts, timeline, t + 100)
    assert [(b, k) for _, b, k in events] == [(UP, PRESS)] * 1000


@settings(max_examples=200, deadline=None, derandomize=True)
@given(chatter=st.integers(0, 10), hold=st.integers(60, 550), seed=st.integers(0, 2**32))
def test_chatter_up_to_10ms_never_doubles_a_press(chatter, hold, seed):
    rng = random.Random(seed)
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    timeline = []
    bouncy_edge(timeline, 5, A, 0, chatter, rng)
    bouncy_edge(timeline, 5 + chatter + hold, A, 1, chatter, rng)
    events = drive(buttons, contacts, timeline, 5 + 2 * chatter + hold + 100)
    assert [(b, k) for _, b, k in events] == [(A, PRESS)]


def test_hold_gives_one_long_press_and_no_short_press():
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    events = drive(buttons, contacts, [(10, A, 0), (2000, A, 1)], 2100)
    assert [(b, k) for _, b, k in events] == [(A, LONG)]
    at = events[0][0]
    assert 600 <= at - 10 <= 650  # about 600 ms after the press


def test_release_just_before_long_press_is_a_short_press():
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    events = drive(buttons, contacts, [(10, A, 0), (550, A, 1)], 700)
    assert [(b, k) for _, b, k in events] == [(A, PRESS)]


def test_holding_down_auto_repeats():
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    events = drive(buttons, contacts, [(10, DOWN, 0), (1510, DOWN, 1)], 1600)
    kinds = [k for _, b, k in events if b == DOWN]
    assert kinds[0] == PRESS
    assert LONG not in kinds
    # debounced at 30 ms; repeats from 430 ms every 120 ms while the contact is closed
    assert kinds.count(REPEAT) == 1 + (1509 - 430) // 120


@pytest.mark.parametrize("arrow", [LEFT, RIGHT])
def test_holding_left_or_right_auto_repeats_as_up_and_down_do(arrow):
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    events = drive(buttons, contacts, [(10, arrow, 0), (1510, arrow, 1)], 1600)
    kinds = [k for _, b, k in events if b == arrow]
    assert kinds == [PRESS] + [REPEAT] * (1 + (1509 - 430) // 120)


def test_two_buttons_at_once_both_count():
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    events = drive(buttons, contacts, [(10, UP, 0), (12, A, 0), (100, UP, 1), (102, A, 1)],
                   300)
    assert sorted((b, k) for _, b, k in events) == [(UP, PRESS), (A, PRESS)]


def test_consumed_press_fires_nothing_until_released():
    contacts = Contacts()
    buttons = Buttons(contacts.readers)
    drive(buttons, contacts, [(0, A, 0)], 40)
    buttons.consume_held()
    events = drive(buttons, contacts, [(0, A, 0), (900, A, 1)], 1000)
    assert events == []


def test_presses_made_during_a_long_pass_count_in_order_at_their_own_times():
    # the pins change while a pass works (a ruleset's load: 300 ms on a Pico); the
    # interrupts' edges keep them, so the next poll finds each press, in order
    from arbiter.hw.buttons import B, Edges

    contacts, edges = Contacts(), Edges()
    buttons = Buttons(contacts.readers, edges)
    buttons.poll(0)
    for at, button, level in [(100, DOWN, 0), (170, DOWN, 1), (190, B, 0),
                              (260, B, 1), (280, A, 0), (350, A, 1)]:
        contacts.levels[button] = level
        edges.push(button, level, at)
    buttons.poll(400)  # the first pass since
    got = []
    while (ev := buttons.next_event()) >= 0:
        got.append((button_of(ev), kind_of(ev), buttons.at))
    assert got == [(DOWN, PRESS, 120), (B, PRESS, 280), (A, PRESS, 370)]


def test_a_long_press_within_one_long_pass_is_long():
    from arbiter.hw.buttons import Edges

    contacts, edges = Contacts(), Edges()
    buttons = Buttons(contacts.readers, edges)
    buttons.poll(0)
    edges.push(A, 0, 100)
    edges.push(A, 1, 900)  # held 800 ms: past the 600 ms of a long press
    buttons.poll(1000)
    # long from the press made certain (100 + 20 ms), as when sampled
    assert (button_of(buttons.next_event()), buttons.at) == (A, 720)
    assert buttons.next_event() < 0  # and not a short press as well


def test_a_full_ring_of_edges_loses_no_level():
    # a mashed keypad fills the ring: the pins are read again, so no button sticks
    from arbiter.hw.buttons import Edges

    contacts, edges = Contacts(), Edges()
    buttons = Buttons(contacts.readers, edges)
    buttons.poll(0)
    for k in range(40):
        edges.push(UP, k % 2, 10 + k)
    contacts.levels[UP] = 0  # the last edge, the 40th, was dropped: UP is held
    assert edges.lost
    buttons.poll(100)
    buttons.poll(200)
    assert buttons.any_held()
