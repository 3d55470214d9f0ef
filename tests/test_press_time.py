"""The bench's press times on the chip (arbiter_referee.bench.press_time), worked out
from a made-up session whose answer is known: when a press acts, the CPU it adds
over idling, and how long until the panel changes."""

from arbiter_referee.bench import press_time

MS = 125_000  # cycles in a ms at 125 MHz
DOWN, A, B = 1, 4, 5


def test_arrows_act_on_the_press_a_and_b_on_the_release_or_while_held_long():
    edges = [(1_000_000, 10, DOWN, 0), (1_080_000, 20, DOWN, 1),
             (1_300_000, 30, A, 0), (1_380_000, 40, A, 1),
             (2_000_000, 50, B, 0), (2_900_000, 60, B, 1)]
    assert press_time.fires(edges) == [(1_000_000, 10), (1_380_000, 40),
                                       (2_600_000, None)]


def test_a_press_costs_its_passes_above_idle_and_shows_when_the_panel_changes_and_settles():
    idle = MS // 2  # every idle pass: 0.5 ms
    passes, total, at = [], 0, 0
    for _ in range(100):  # 1 s of idle passes, 10 ms apart
        at += 10_000
        total += idle
        passes.append((at, idle, total))
    edges = [(at, total, DOWN, 0), (at + 80_000, total, DOWN, 1)]
    pressed_cycles = total
    at += 20_000  # the debounce: the pass that finds the press
    total += 40 * MS  # it works 40 ms, the panel written after 30 of them
    panel = [(at, pressed_cycles + 2 * MS), (at, pressed_cycles + 30 * MS)]  # mark, screen
    passes.append((at, 40 * MS, total))
    for _ in range(10):
        at += 10_000
        total += idle
        passes.append((at, idle, total))
    figures = press_time.figures(edges, passes, panel)
    assert figures["presses"] == 1
    assert figures["cpu_ms"]["median"] == 40 - 0.5  # above what an idle pass costs
    assert figures["panel_ms"]["median"] == 20 + 2  # the debounce, then the press's mark
    assert figures["screen_ms"]["median"] == 20 + 30  # and its screen, the work done
    assert figures["idle_pass_ms"] == 0.5
    assert figures["no_change"] == 0
    seconds = at / 1e6 + total / (1000 * MS)
    assert figures["wakeups_per_s"] == round(len(passes) / seconds, 1)


def test_a_press_that_changes_nothing_on_the_panel_is_counted_apart():
    passes = [(10_000 * k, MS // 2, MS // 2 * k) for k in range(1, 50)]
    edges = [(100_000, MS // 2 * 10, A, 0), (180_000, MS // 2 * 18, A, 1)]
    figures = press_time.figures(edges, passes, [])
    assert (figures["no_change"], figures["panel_ms"]["median"],
            figures["screen_ms"]["median"]) == (1, None, None)
