"""Each bundled game's whole recorded session on the chip: MicroPython's own rp2 port
in an emulated RP2040 (arbiter_referee.chip), the firmware as ``arbiter deploy``
installs it. What a Pico's stack and heap hold is measured there: the deepest C
stack (and the probe's frames left below it); the heap (read from the collector's
allocation table) at its least free at a pass's end, its peak in use (as each
collection starts, and at each pass's end) and its live part (the most a collection
left), and the smallest heap the session plays in (the port's made smaller); and how
long each press takes (press_time)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter_referee.bench import heap, press_time
from arbiter_referee.chip import probe
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import run_session

HEAP_STEP = 4 * 1024  # the smallest heap's search steps
STEPS = 2  # progress steps a game: its session, then the smallest heap it plays in


def _play(pico, game, expected, folder: Path, heap: int | None = None,
          give_up: bool = False, meter: bool = False) -> dict:
    """The game's whole session on the chip with a GC heap of ``heap`` bytes (None: the
    port's), beside ``expected`` (CPython's). ``give_up``: stop at the first line on
    the serial console that CPython did not print (a run that cannot fit)."""
    from arbiter_referee.chip.session import Chip

    factory_flash(folder)
    with Chip(folder, game.device_seed, "script", pico, heap=heap, meter=meter) as chip:
        def strayed():
            said = [line for line in chip.serial_lines()[:-1] if line]  # whole lines
            return said != expected.serial[:len(said)]

        whole = chip.play(game.keys, strayed if give_up else None)
        serial = [line for line in chip.serial_lines() if line]
        final = bytes.fromhex(expected.frames[-1].split(" ram=")[1])
        return {"whole": whole, "same_actions": whole and serial == expected.serial,
                "same_screen": bytes(chip.board.oled.ram) == final, "serial": serial,
                "stats": chip.stats(), "chip": chip}


def smallest_heap(pico, game, expected, live: int, folder: Path) -> dict:
    """The smallest heap, in HEAP_STEP steps, in which the whole session gives
    CPython's actions and screen. No heap under ``live`` (what a collection left
    alive) can; the need lies above it, where an action's working set counts too,
    and games stand near the budget: so the search starts at the budget (or above
    ``live``), goes down a step at a time while a run plays, else up until one does.
    A run that cannot ends at its first stray line. {"heap": bytes (None: not even
    the port's), "tried": {bytes: plays}}."""
    least, most = -(-live // HEAP_STEP), pico.heap_bytes() // HEAP_STEP
    tried = {}

    def plays(steps):
        run = _play(pico, game, expected, folder / f"heap-{steps}", steps * HEAP_STEP,
                    give_up=True)
        tried[steps * HEAP_STEP] = ok = run["same_actions"] and run["same_screen"]
        return ok

    steps = min(max(least, heap.BUDGET // HEAP_STEP), most)
    if plays(steps):
        while steps > least and plays(steps - 1):
            steps -= 1
    else:
        steps += 1
        while steps <= most and not plays(steps):
            steps += 1
    return {"heap": steps * HEAP_STEP if steps <= most else None, "tried": tried}


def session(pico, game, progress=None) -> dict:
    """One game's whole recorded session on the chip, beside CPython's, and the
    smallest heap it plays in (``progress(what)`` before the search)."""
    stack = probe.measure(pico)
    with tempfile.TemporaryDirectory() as folder:
        expected = run_session(game.device_seed, game.keys, "cpython",
                               flash_dir=Path(folder) / "cpython")
        run = _play(pico, game, expected, Path(folder) / "chip", meter=True)
        chip = run["chip"]
        figures = run["stats"]
        presses = press_time.figures(chip.edges_made, chip.passes, chip.board.panel_changes)
        serial = run["serial"]
        if progress:
            progress(f"{game.name}: the smallest heap it plays in on the chip")
        smallest = {"heap": None, "tried": {}} if pico.heap_bytes() is None else \
            smallest_heap(pico, game, expected, figures["heapLive"], Path(folder) / "heaps")
    used = figures["deepestStack"]
    free = figures["leastFree"]
    return {
        "same_actions": run["same_actions"], "same_screen": run["same_screen"],
        "troubles": [line for line in serial if "crash" in line or "Traceback" in line],
        "stack_bytes": used, "stack_probe_left": stack.probe_left(used),
        "heap_free_least": None if free in (None, float("inf")) else free,
        "heap_bytes": figures["heapBytes"], "heap_peak": figures["heapPeak"],
        "heap_live": figures["heapLive"], "heap_smallest": smallest["heap"],
        "heap_smallest_tried": smallest["tried"], "heap_budget": heap.BUDGET,
        "heap_budget_ok": smallest["heap"] is not None and smallest["heap"] <= heap.BUDGET,
        "heap_boards": heap.boards(smallest["heap"]),
        "collections": figures["collections"],
        "cycles": figures["cycles"], "passes": figures["passes"],
        "cpu_share": _shares(figures),
        "flash_erases": figures["flashErases"], "flash_bytes": figures["flashBytes"],
        **presses,
    }


def figures(pico, games, progress=None) -> dict:
    """Every game's session figures, and the probe's own (``progress(what)`` before
    each of a game's STEPS)."""
    stack = probe.measure(pico)
    out = {"probe": {"frames": stack.probe, "base_bytes": stack.base,
                     "call_bytes": stack.per_call, "limit_bytes": probe.LIMIT},
           "games": {}}
    for game in games:
        if progress:
            progress(f"{game.name}: the whole recorded session on the chip (rp2 port)")
        out["games"][game.name] = session(pico, game, progress)
    return out


def lines(result: dict) -> list[str]:
    p = result["probe"]
    out = [f"== on the chip: MicroPython's rp2 port in an emulated RP2040 (C stack "
           f"{probe.STACK_BYTES} B; the probe reaches {p['frames']} frames from main.py, "
           f"a call takes {p['call_bytes']} B)"]
    for name, g in result["games"].items():
        same = "same actions and screen as CPython" if g["same_actions"] and \
            g["same_screen"] else "DIFFERS from CPython"
        free = "-" if g["heap_free_least"] is None else f"{g['heap_free_least'] / 1024:.1f} KB"
        out.append(f"  {name:12} deepest stack {g['stack_bytes']:,} B ({g['stack_probe_left']} "
                   f"of the probe's frames left); least heap free {free}; "
                   f"{g['cycles'] / 125e6:.1f} s of CPU at 125 MHz; {same}")
        cpu, panel, screen = g["cpu_ms"], g["panel_ms"], g["screen_ms"]
        smallest = g["heap_smallest"]
        fits = "-" if smallest is None else \
            f"{smallest // 1024} KB: {'PASS' if g['heap_budget_ok'] else 'OVER'}"
        out.append(f"  {'':12} heap (of {_kb(g['heap_bytes'])}): peak in use "
                   f"{_kb(g['heap_peak'])}, live {_kb(g['heap_live'])}; plays whole in "
                   f"{fits} (budget {g['heap_budget'] // 1024} KB)")
        out.append(f"  {'':12} {g['presses']} presses: CPU per press {cpu['median']} ms "
                   f"median, {cpu['p95']} p95, {cpu['worst']} worst; press to panel "
                   f"{panel['median']} / {panel['p95']} / {panel['worst']} ms, to its "
                   f"screen {screen['median']} / {screen['p95']} / {screen['worst']} ms "
                   f"({g['no_change']} changed nothing); an idle pass "
                   f"{g['idle_pass_ms']} ms, {g['wakeups_per_s']} wake-ups/s")
        share = g.get("cpu_share") or {}
        if share:
            out.append(f"  {'':12} of the CPU: collecting the heap "
                       f"{share.get('gc_collect', 0):.0%}, finding room in it (frames "
                       f"too) {share.get('gc_alloc', 0):.0%}, looking up new strings "
                       f"{share.get('qstr_find_strn', 0):.0%}")
    return out


def _shares(figures: dict) -> dict:
    """Of the session's CPU, the part (0 to 1) in each metered function (METERED:
    collecting, allocating, looking up strings; each with what it calls)."""
    return {name: round(meter["cycles"] / figures["cycles"], 3)
            for name, meter in figures.get("meters", {}).items()}


def _kb(n) -> str:
    return "-" if n is None else f"{n / 1024:.1f} KB"
