"""The smallest MicroPython heap a session runs in, found by bisection.

A heap "runs" the session when real MicroPython shows exactly the frames
CPython shows and nothing crashed (the firmware catches a MemoryError inside
the app and shows it, so a failed run does not always raise). The figure
holds for the emulator's collection policy (session.py: automatic GC off,
collected after every main-loop pass that allocated), which is close to, not
equal to, the Pico's. Nor is "runs in H" monotonic in H: how the heap
fragments moves with H. So the figure is the smallest heap the search found,
an estimate to within a few KB.

The search: first a heap that runs (the Pico's, else larger ones). No heap
below that run's peak in use (``heap_high``: a pass's garbage on top of what
is alive, since nothing is collected inside a pass) can run it, and the peak
does not depend on the heap's size; so a heap a little above the peak is
tried next, then bisection: a handful of runs a game.
"""

from __future__ import annotations

import functools
from pathlib import Path

from arbiter_referee.build import device_firmware  # noqa: F401  (the bench's callers use it here)
from arbiter_referee.emulator.session import SessionOutput, run_session
from arbiter_referee.emulator.wasm import PICO_HEAP
from arbiter_referee.paths import FIRMWARE

STEP = 1024
LOWEST, HIGHEST = 8 * 1024, 512 * 1024
# The GC heap stock MicroPython gives on each board since 1.20: all the RAM the
# firmware leaves free (a Pico W's radio takes its part), gc.mem_free() +
# gc.mem_alloc(). The Pico's: the rp2 port v1.28.0 on the chip (tests/test_chip_heap.py
# holds it); the Pico W's and the Pico 2's (rounded) from other builds.
BOARDS = {"pico": 245_888, "pico_w": 196_608, "pico_2": 470 * 1024}
BOARD_NAMES = {"pico": "Pico", "pico_w": "Pico W", "pico_2": "Pico 2"}
# Issue 18: every game in three quarters of a Pico W's heap (under two thirds of
# a Pico's), so the boards people own have room to spare.
BUDGET = 144 * 1024
STARTS = (PICO_HEAP, 320 * 1024, HIGHEST)  # heaps tried first, until one runs the session
# MicroPython's allocation tables take about 2% of the heap; fragmentation a
# few KB more. Below PEAK_LOW times the peak a run cannot fit; PEAK_GUESSES are
# tried before bisecting.
PEAK_LOW, PEAK_GUESSES = 1.015, (1.03, 1.1)


@functools.lru_cache(maxsize=None)
def device_rom() -> Path:
    """The firmware as a Pico built with a ROMFS partition runs it: the .mpy modules
    in a ROMFS image (what ``mpremote romfs deploy`` writes), executed in place from
    memory-mapped flash, so their bytecode and constants stay out of the heap. The
    emulated board's modules go in too: on a Pico their part is C in the firmware."""
    import atexit
    import contextlib
    import io
    import shutil
    import tempfile

    from mpremote.romfs import make_romfs

    from arbiter_referee.build import compile_tree
    from arbiter_referee.paths import GUEST_BOARD

    folder = Path(tempfile.mkdtemp(prefix="arbiter-rom-"))
    atexit.register(shutil.rmtree, folder, True)
    stage = folder / "rom"
    shutil.copytree(device_firmware(), stage, ignore=shutil.ignore_patterns("main.py"))
    compile_tree(stage, GUEST_BOARD)
    with contextlib.redirect_stdout(io.StringIO()):  # it lists every file it adds
        image = make_romfs(str(stage), mpy_cross=False)
    path = folder / "firmware.romfs"
    path.write_bytes(image)
    return path


def boards(smallest: int | None) -> dict:
    """Per board: its heap, the room a game that needs ``smallest`` leaves there
    (bytes and a share of the heap), whether it fits."""
    out = {}
    for board, size in BOARDS.items():
        spare = None if smallest is None else size - smallest
        out[board] = {"heap": size, "headroom": spare,
                      "headroom_pct": None if spare is None else round(100 * spare / size, 1),
                      "fits": spare is not None and spare >= 0}
    return out


def attempt(seed: int, script: str, heap: int, reference: SessionOutput,
            preload: bool = True, firmware: Path = FIRMWARE,
            metered: bool = False) -> SessionOutput | None:
    """The run's output when it ran whole in ``heap``, else None."""
    try:
        out = run_session(seed, script, "micropython", heap=heap, firmware=firmware,
                          preload=preload, metered=metered)
    except RuntimeError:
        return None
    crashed = any("crash" in line or "MemoryError" in line for line in out.serial)
    return None if crashed or out.frames != reference.frames else out


def smallest_heap(seed: int, script: str, preload: bool = True,
                  firmware: Path = FIRMWARE, reference: SessionOutput | None = None) -> dict:
    """{"heap": smallest heap in bytes (None: not even HIGHEST), "heap_high",
    "heap_live": the most in use (garbage included) and the most alive after a
    collection, in the run at that heap, "fuel": that run's, "runs": attempts made}."""
    if reference is None:  # what CPython shows: the same for every firmware form
        reference = run_session(seed, script, "cpython")
    runs, best, high = 1, None, None

    def run(kb):
        nonlocal runs
        runs += 1
        return attempt(seed, script, kb * STEP, reference, preload, firmware, metered=True)

    for start in STARTS:
        best = run(start // STEP)
        if best is not None:
            high = start // STEP
            break
    if best is None:
        return {"heap": None, "heap_high": None, "heap_live": None, "fuel": None,
                "runs": runs}
    peak = max(LOWEST, best.counters["heap_high"])
    low = min(int(peak * PEAK_LOW) // STEP, high - 1)  # fails (assumed), high runs
    for factor in PEAK_GUESSES:
        guess = -(-int(peak * factor) // STEP)
        if guess >= high:
            break
        out = run(guess)
        if out is not None:
            high, best = guess, out
            break
        low = guess
    while high - low > 1:
        mid = (low + high) // 2
        out = run(mid)
        if out is None:
            low = mid
        else:
            high, best = mid, out
    return {"heap": high * STEP, "heap_high": best.counters["heap_high"],
            "heap_live": best.counters["heap_live"], "fuel": best.fuel, "runs": runs}


def code_bytes(firmware: Path = FIRMWARE) -> int:
    """Heap the firmware's own modules take once imported, measured under real
    MicroPython. As .mpy files: bytecode, constants, functions, classes, names. In
    ROMFS (``device_rom``) the bytecode and constants stay in flash; the rest (the
    function and class objects, module and class dicts, the qstr pool's entries)
    is built in the heap at import, frozen modules or not."""
    from arbiter_referee.emulator.session import import_order, run_driver

    modules = [name for name in import_order("vsession", True) if name.startswith("arbiter")]
    body = ("gc.collect()\nbase = gc.mem_alloc()\n"
            + "".join(f"__import__({name!r})\n" for name in modules)
            + "gc.collect()\nprint('code', gc.mem_alloc() - base)\n")
    result = run_driver("drvdata", body, {}, 1024 * 1024, firmware, preload=False)
    return next(int(line.split()[1]) for line in result.stdout.splitlines()
                if line.startswith("code "))
