"""The smallest MicroPython heap a session runs in, found by bisection.

A heap "runs" the session when real MicroPython shows exactly the frames
CPython shows and nothing crashed (the firmware catches a MemoryError inside
the app and shows it, so a failed run does not always raise). The figure
holds for the emulator's collection policy (session.py: automatic GC off,
collected between main-loop passes when less than a quarter is free), which
is close to, not equal to, the Pico's. Nor is "runs in H" monotonic in H:
when the collections fall and how the heap fragments move with H (the game
runs in 192 KB and fails in some larger heaps). The bisection therefore starts
from the smallest of a few known heaps that runs, and the figure is the
smallest heap it found, an estimate to within a few KB.
"""

from __future__ import annotations

from pathlib import Path

from host_tools.emulator.mpwasm import PICO_HEAP
from host_tools.emulator.paths import FIRMWARE
from host_tools.emulator.session import SessionOutput, run_session

STEP = 1024
LOWEST, HIGHEST = 8 * 1024, 512 * 1024
BUDGET = 48 * 1024  # per game: a quarter of the ~192 KB a Pico gives MicroPython


def attempt(seed: int, script: str, heap: int, reference: SessionOutput,
            preload: bool = True, firmware: Path = FIRMWARE) -> SessionOutput | None:
    """The run's output when it ran whole in ``heap``, else None."""
    try:
        out = run_session(seed, script, "micropython", heap=heap, firmware=firmware,
                          preload=preload)
    except RuntimeError:
        return None
    crashed = any("crash" in line or "MemoryError" in line for line in out.serial)
    return None if crashed or out.frames != reference.frames else out


def smallest_heap(seed: int, script: str, preload: bool = True,
                  firmware: Path = FIRMWARE) -> dict:
    """{"heap": smallest heap in bytes (None: not even HIGHEST), "heap_high",
    "heap_live": the most in use (garbage included) and the most alive after a
    collection, in the run at that heap, "runs": attempts made}."""
    reference = run_session(seed, script, "cpython")
    runs, best, high = 1, None, None
    for start in (PICO_HEAP, HIGHEST):
        runs += 1
        best = attempt(seed, script, start, reference, preload, firmware)
        if best is not None:
            high = start // STEP
            break
    if best is None:
        return {"heap": None, "heap_high": None, "heap_live": None, "runs": runs}
    low = LOWEST // STEP  # low fails (assumed), high runs
    while high - low > 1:
        mid = (low + high) // 2
        runs += 1
        out = attempt(seed, script, mid * STEP, reference, preload, firmware)
        if out is None:
            low = mid
        else:
            high, best = mid, out
    return {"heap": high * STEP, "heap_high": best.counters["heap_high"],
            "heap_live": best.counters["heap_live"], "runs": runs}


def code_bytes(firmware: Path = FIRMWARE) -> int:
    """Heap the firmware's own modules take once imported (bytecode, functions,
    constants), measured under real MicroPython. On a Pico whose firmware is frozen
    into flash (a custom build) this part moves out of the heap; what is left of a
    game's figure is its data and its garbage."""
    from host_tools.emulator.session import import_order, run_driver

    modules = [name for name in import_order("vsession", True) if name.startswith("arbiter")]
    body = ("gc.collect()\nbase = gc.mem_alloc()\n"
            + "".join(f"__import__({name!r})\n" for name in modules)
            + "gc.collect()\nprint('code', gc.mem_alloc() - base)\n")
    result = run_driver("drvdata", body, {}, 1024 * 1024, firmware, preload=False)
    return next(int(line.split()[1]) for line in result.stdout.splitlines()
                if line.startswith("code "))
