"""Each bundled game's whole recorded session on the chip: MicroPython's own rp2 port
in an emulated RP2040 (arbiter_referee.chip), the firmware as ``arbiter deploy``
installs it. What a Pico's stack and heap hold is measured there: the deepest C
stack (and the probe's frames left below it) and the least heap free at a pass's end
(after the main loop's collection: what is alive); and how long each press takes
(press_time)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter_referee.bench import press_time
from arbiter_referee.chip import probe
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import run_session


def session(pico, game) -> dict:
    """One game's whole recorded session on the chip, beside CPython's."""
    from arbiter_referee.chip.session import Chip

    stack = probe.measure(pico)
    with tempfile.TemporaryDirectory() as folder:
        expected = run_session(game.device_seed, game.keys, "cpython",
                               flash_dir=Path(folder) / "cpython")
        factory_flash(Path(folder) / "chip")
        with Chip(Path(folder) / "chip", game.device_seed, "script", pico) as chip:
            chip.play(game.keys)
            figures = chip.stats()
            presses = press_time.figures(chip.edges_made, chip.passes,
                                         chip.board.panel_changes)
            serial = [line for line in chip.serial_lines() if line]
            screen = bytes(chip.board.oled.ram)
    final = bytes.fromhex(expected.frames[-1].split(" ram=")[1])
    used = figures["deepestStack"]
    free = figures["leastFree"]
    return {
        "same_actions": serial == expected.serial, "same_screen": screen == final,
        "troubles": [line for line in serial if "crash" in line or "Traceback" in line],
        "stack_bytes": used, "stack_probe_left": stack.probe_left(used),
        "heap_free_least": None if free in (None, float("inf")) else free,
        "cycles": figures["cycles"], "passes": figures["passes"],
        "flash_erases": figures["flashErases"], "flash_bytes": figures["flashBytes"],
        **presses,
    }


def figures(pico, games, progress=None) -> dict:
    """Every game's session figures, and the probe's own (``progress(what)`` before
    each)."""
    stack = probe.measure(pico)
    out = {"probe": {"frames": stack.probe, "base_bytes": stack.base,
                     "call_bytes": stack.per_call, "limit_bytes": probe.LIMIT},
           "games": {}}
    for game in games:
        if progress:
            progress(f"{game.name}: the whole recorded session on the chip (rp2 port)")
        out["games"][game.name] = session(pico, game)
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
        cpu, panel = g["cpu_ms"], g["panel_ms"]
        out.append(f"  {'':12} {g['presses']} presses: CPU per press {cpu['median']} ms "
                   f"median, {cpu['p95']} p95, {cpu['worst']} worst; press to panel "
                   f"{panel['median']} / {panel['p95']} / {panel['worst']} ms "
                   f"({g['no_change']} changed nothing); an idle pass "
                   f"{g['idle_pass_ms']} ms, {g['wakeups_per_s']} wake-ups/s")
    return out
