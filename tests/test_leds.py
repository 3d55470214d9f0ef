"""The LED ring: capped brightness, animations driven by time, writes only on change."""

from arbiter.hw.ring import PLAYER_COLOURS, Leds
from vboard import VirtualNeoPixel


def make(cap=25):
    np = VirtualNeoPixel(12)
    return Leds(np, cap), np


def lit(np):
    return [tuple(np.shown[i : i + 3]) for i in range(0, len(np.shown), 3)]


def test_cap_scales_every_channel():
    leds, np = make(cap=25)
    leds.set_base((255, 128, 0), 4)
    leds.tick(0)
    assert lit(np)[:5] == [(63, 32, 0)] * 4 + [(0, 0, 0)]
    leds.brightness = 50
    leds.set_base((255, 255, 255))
    leds.tick(1)
    assert lit(np)[0] == (31, 31, 31)


def test_nothing_is_written_when_nothing_changes():
    leds, np = make()
    leds.set_base(PLAYER_COLOURS[1])
    leds.tick(0)
    writes = np.writes
    for now in range(10, 5000, 10):
        leds.tick(now)
    assert np.writes == writes


def test_spin_moves_a_dot_then_settles_on_the_result():
    leds, np = make()
    leds.spin(PLAYER_COLOURS[0], 1000, then_lit=5)
    positions = []
    for now in range(1000, 1700, 10):
        leds.tick(now)
        on = [i for i, rgb in enumerate(lit(np)) if rgb != (0, 0, 0)]
        assert len(on) == 1
        positions.append(on[0])
    assert len(set(positions)) == 12  # went all the way round
    leds.tick(1700)
    assert not leds.animating
    assert [rgb != (0, 0, 0) for rgb in lit(np)] == [True] * 5 + [False] * 7


def test_reveal_flash_blinks_in_the_players_colour_then_restores():
    leds, np = make()
    leds.set_base((0, 0, 0), 0)
    leds.flash(PLAYER_COLOURS[2], 0, times=2)
    seen = []
    for now in range(0, 700, 20):
        leds.tick(now)
        seen.append(lit(np)[0])
    assert (0, 55, 0) in seen and seen.count((0, 0, 0)) > 3
    assert lit(np) == [(0, 0, 0)] * 12 and not leds.animating


def test_disabled_ring_is_dark_whatever_the_picture():
    leds, np = make()
    leds.set_base((255, 0, 0))
    leds.set_enabled(False)
    leds.tick(0)
    assert lit(np) == [(0, 0, 0)] * 12
    leds.set_enabled(True)
    leds.tick(1)
    assert lit(np)[0] == (63, 0, 0)


def test_a_blinking_arc_goes_lit_and_dark_twice_a_second_and_the_rest_stay_lit():
    # a warning (Juggernauts' alert tokens) blinks, so it is never read as a player's colour
    leds, np = make()
    leds.set_arcs([(255, 0, 0), (0, 64, 255)])
    leds.blink_arcs([True, False])
    shown = []
    writes = np.writes
    for now in range(0, 2000, 10):
        leds.tick(now)
        shown.append((lit(np)[0], lit(np)[11]))
    assert {first for first, _ in shown} == {(63, 0, 0), (0, 0, 0)}
    assert {last for _, last in shown} == {(0, 16, 63)}
    assert np.writes - writes == 4  # written only when the blink turns: every 500 ms
    leds.set_arcs([(255, 0, 0), (0, 64, 255)])  # a new picture blinks only if told
    leds.tick(2750)
    assert lit(np)[0] == (63, 0, 0)
