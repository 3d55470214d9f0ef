"""How long a press takes on a Pico, from a recorded session on the chip.

The session runs on the chip's "script" clock: each pin change lands at its instant
with the CPU asleep and the timer stands still while a pass works, so every press
is met alone (no press waits for the last one's work) and the recorded game
replays exactly. A Pico's own clock is the timer plus the CPU's cycles at 125 MHz:
a pass takes its time, then the main loop sleeps.

A press acts when its button's event fires: an arrow on its press, A and B on their
release (or 600 ms into a long press). From there to the next press's moment:

- its CPU: the cycles of the passes ending in that span, less what as many idle
  passes cost (the median pass of the session: almost all of them are idle);
- its press-to-panel time: from the press (the arrow's contact, A's release) to
  the first write that changes a byte on the panel, the debounce included (for A
  and the play screen's arrows, the mark that says the press was seen: ui.busy);
- its press-to-screen time: to the last such write before the next press, when
  what the press did is all on the panel.

All of it is a lower bound: rp2040js counts no flash-cache misses.
"""

from __future__ import annotations

from bisect import bisect_right

from arbiter_referee.bench.bus import median

CPU_HZ = 125_000_000
LONG_MS = 600  # hw.buttons.Buttons.long_press_ms
REPEATING = (0, 1, 2, 3)  # up, down, left, right: they act on the press itself


def fires(edges: list[tuple[int, int, int, int]]) -> list[tuple[int, int | None]]:
    """Each press's moment from the pin changes made, (us, cycles, button, level):
    (us, the CPU's cycles then), or (us, None) for a long press, acting while held at
    a moment no pin change marks."""
    out, down = [], {}
    for micros, cycles, button, level in edges:
        if level == 0:
            down[button] = micros
            if button in REPEATING:
                out.append((micros, cycles))
        elif button in down and button not in REPEATING:
            pressed = down.pop(button)
            if micros - pressed >= LONG_MS * 1000:
                out.append((pressed + LONG_MS * 1000, None))
            else:
                out.append((micros, cycles))
    return sorted(out, key=lambda moment: moment[0])


def figures(edges, passes, panel_changes) -> dict:
    """Per press CPU and press-to-panel times (ms at 125 MHz: median, p95, worst),
    and what an idle pass costs, from a session's pin changes (Chip.edges_made),
    passes (Chip.passes) and panel writes (ChipBoard.panel_changes). Moments are in
    the CPU's cycles since the start, which order everything on the script clock."""
    idle = median([cycles for _at, cycles, _total in passes]) if passes else 0
    ends = [total for _at, _cycles, total in passes]
    ended_at = [at for at, _cycles, _total in passes]
    moments = []
    for micros, cycles in fires(edges):
        if cycles is None:  # the cycles by the end of the last pass before it
            before = bisect_right(ended_at, micros) - 1
            cycles = passes[before][2] if before >= 0 else 0
        moments.append((micros, cycles))
    shown_at = [cycles for _at, cycles in panel_changes]
    cpu, shown, drawn, unseen = [], [], [], 0
    for k, (micros, cycles) in enumerate(moments):
        until = moments[k + 1][1] if k + 1 < len(moments) else float("inf")
        worked = passes[bisect_right(ends, cycles):bisect_right(ends, until)]
        spent = sum(c for _at, c, _total in worked)
        cpu.append(max(0, spent - idle * len(worked)) * 1000 / CPU_HZ)
        change, last = bisect_right(shown_at, cycles), bisect_right(shown_at, until) - 1
        if change <= last:
            for times, (at, when) in ((shown, panel_changes[change]),
                                      (drawn, panel_changes[last])):
                times.append((at - micros) / 1000 + (when - cycles) * 1000 / CPU_HZ)
        else:
            unseen += 1
    span_s = ((passes[-1][0] / 1e6 + ends[-1] / CPU_HZ) if passes else 0)
    return {"presses": len(moments), "cpu_ms": spread(cpu), "panel_ms": spread(shown),
            "screen_ms": spread(drawn),
            "no_change": unseen, "idle_pass_ms": round(idle * 1000 / CPU_HZ, 3),
            "wakeups_per_s": round(len(passes) / span_s, 1) if span_s else 0}


def spread(values: list[float]) -> dict:
    """median, p95 and worst, in ms to a tenth."""
    if not values:
        return {"median": None, "p95": None, "worst": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"median": round(median(ordered), 1), "p95": round(p95, 1),
            "worst": round(ordered[-1], 1)}
