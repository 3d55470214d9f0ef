"""The bench's heap figure against a Pico's collector, with a 32-bit MicroPython.

The bench runs the firmware under MicroPython's WASI build, whose collector
cannot see the C stack: it collects only between main-loop passes, so a pass
must fit whole (its garbage on top of what is alive). A Pico collects whenever
an allocation fails, and between busy passes as the firmware asks. This runs
the same recorded sessions, as .mpy files, under a 32-bit build of MicroPython's
unix port (same source version as the WASI build; its collector scans the
stack as the rp2 port's does), with the emulated board frozen into it (on a
Pico the board is C, off the heap; the button script and the panel's RAM are
given on top of the heap measured), and finds the smallest heap each game plays
whole in, same frames as CPython and no crash, with every heap up to 8 KB
larger (a heap can play where one a little larger fails: where the free blocks
lie decides whether a large allocation fits).

    python -m arbiter_referee.bench.calibrate --build SOURCE [--bench FILE] [GAME...]

SOURCE is a checkout of MicroPython at the WASI build's version (1.27); the
build needs gcc's 32-bit support (Debian: gcc-multilib). ``--micropython BIN``
reuses a build. It prints, per game, the smallest heap with collection on
allocation failure, beside the bench's figure from its JSON (``--bench``),
and their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from arbiter_referee.bench import scenarios
from arbiter_referee.bench.heap import STEP, device_firmware
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import SessionOutput, run_session
from arbiter_referee.paths import GUEST_BOARD

BUILD = "build-arbiter32"
# What the rp2 port sets that moves the heap: a qstr's hash in one byte, not the
# unix port's two (each interned name of the firmware's modules is a byte smaller).
RP2_CONFIG = "-DMICROPY_QSTR_BYTES_IN_HASH=1"

# The Pico's main loop (arbiter.device.run): collect after a pass that allocated,
# and whenever an allocation fails (automatic collection stays on). As on a Pico
# the modules are imported from the current folder ("arbiter/app.mpy": each
# module's path is a string the heap keeps). What a Pico holds off its heap, the
# button script, the panel's RAM and the buffer a frame is printed from, is
# allocated first and given on top of the heap measured (reserve); printing a
# frame allocates nothing, so the heap measured is the firmware's alone.
DRIVER = """\
import gc, sys
script = panel = f = base = None
gc.collect()
base = gc.mem_alloc()
with open(%(script)r, 'rb') as f:
    script = f.read()
panel = bytearray(1024)
f = None
from vframe import FrameLine
frame = FrameLine(lambda line, length: sys.stdout.write(line, 0, length))
if %(probe)d:
    gc.collect()
    print('E reserve=%%d' %% (gc.mem_alloc() - base))
    sys.exit()
sys.path[:0] = ['']
import vsession
board, dev = vsession.start(%(seed)d, script, %(flash)r, panel, frame)
script = panel = None
gc.collect()
live = gc.mem_alloc()
high = most = live
while True:
    pause = dev.tick()
    if gc.mem_alloc() != live:
        high = max(high, gc.mem_alloc())
        gc.collect()
        live = gc.mem_alloc()
        most = max(most, live)
    if not vsession.sleep(board, pause):
        break
    if gc.mem_alloc() != live:
        gc.collect()
        live = gc.mem_alloc()
vsession.finish(board)
print('E heap_high=%%d heap_live=%%d' %% (high, most))
"""


def build(source: Path) -> Path:
    """The unix port built 32-bit from ``source``, the emulated board frozen in."""
    with tempfile.TemporaryDirectory() as folder:
        manifest = Path(folder) / "manifest.py"
        manifest.write_text("".join(f"module({path.name!r}, base_path={str(GUEST_BOARD)!r})\n"
                                    for path in sorted(GUEST_BOARD.glob("*.py"))))
        no_lib = Path(folder) / "no-micropython-lib"  # nothing of it is frozen
        no_lib.mkdir()
        (no_lib / "README.md").write_text("")
        subprocess.run(["make", "-C", str(source / "mpy-cross")], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["make", "-C", str(source / "ports" / "unix"), "VARIANT=standard",
                        f"BUILD={BUILD}", "MICROPY_FORCE_32BIT=1", "MICROPY_PY_FFI=0",
                        "MICROPY_PY_BTREE=0", "MICROPY_PY_SSL=0", f"CFLAGS_EXTRA={RP2_CONFIG}",
                        f"FROZEN_MANIFEST={manifest}", f"MPY_LIB_DIR={no_lib}"],
                       check=True, stdout=subprocess.DEVNULL)
    return source / "ports" / "unix" / BUILD / "micropython"


def run(micropython: str, seed: int, script: str, heap: int,
        probe: bool = False) -> subprocess.CompletedProcess:
    """The session under ``micropython`` with a heap of ``heap`` bytes (``probe``:
    only the reserve's allocation, its size printed)."""
    with tempfile.TemporaryDirectory() as folder:
        flash = Path(folder) / "flash"
        flash.mkdir()
        factory_flash(flash)
        (Path(folder) / "script").write_text(script)
        driver = Path(folder) / "driver.py"
        driver.write_text(DRIVER % {"script": str(Path(folder) / "script"), "seed": seed,
                                    "flash": str(flash) + "/", "probe": probe})
        return subprocess.run([micropython, "-X", f"heapsize={heap}", str(driver)],
                              capture_output=True, text=True, cwd=device_firmware())


def reserve(micropython: str, seed: int, script: str) -> int:
    """The bytes the script and the panel's RAM take of the emulated heap."""
    out = SessionOutput.parse(run(micropython, seed, script, 1 << 20, probe=True).stdout)
    return out.counters["reserve"]


def attempt(micropython: str, seed: int, script: str, heap: int,
            reference: SessionOutput, extra: int = 0) -> bool:
    """True when the session plays whole in ``heap`` bytes (with ``extra`` on top
    for what a Pico holds off its heap), as CPython plays it."""
    done = run(micropython, seed, script, heap + extra)
    if done.returncode != 0:
        return False
    out = SessionOutput.parse(done.stdout)
    crashed = any("crash" in line or "MemoryError" in line for line in out.serial)
    return not crashed and out.frames == reference.frames


MARGIN = 8  # KB above the figure that must all play too


def smallest_heap(micropython: str, seed: int, script: str) -> int | None:
    """The smallest heap (to STEP) the session plays whole in, with every heap up to
    MARGIN KB larger: where a collection leaves the free blocks decides whether a
    large allocation fits, so a heap can play where one a little larger fails."""
    reference = run_session(seed, script, "cpython")
    extra = reserve(micropython, seed, script)
    plays: dict[int, bool] = {}

    def tried(kb: int) -> bool:
        if kb not in plays:
            plays[kb] = attempt(micropython, seed, script, kb * STEP, reference, extra)
        return plays[kb]

    low, high = 16, 512  # in KB: 16 fails (assumed), 512 must run
    if not tried(high):
        return None
    while True:
        while high - low > 1:
            mid = (low + high) // 2
            if tried(mid):
                high = mid
            else:
                low = mid
        failed = [kb for kb in range(high + 1, high + 1 + MARGIN) if not tried(kb)]
        if not failed:
            return high * STEP
        low = failed[-1]
        high = min(kb for kb, ok in plays.items() if ok and kb > low)


def figures(micropython: str, seed: int, script: str) -> dict:
    """{"heap": the smallest heap the session plays whole in (smallest_heap; None: not
    even 512 KB), and in a run at that heap "heap_high": the most in use after a
    main-loop pass (its garbage still there), "heap_live": the most alive after a
    collection}, all in bytes of the firmware's own heap (the reserve left out)."""
    found = smallest_heap(micropython, seed, script)
    if found is None:
        return {"heap": None, "heap_high": None, "heap_live": None}
    extra = reserve(micropython, seed, script)
    counters = SessionOutput.parse(run(micropython, seed, script, found + extra).stdout).counters
    return {"heap": found, "heap_high": counters["heap_high"] - extra,
            "heap_live": counters["heap_live"] - extra}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m arbiter_referee.bench.calibrate",
                                     description=__doc__.split("\n\n")[0])
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--build", type=Path, metavar="SOURCE", help="MicroPython's source")
    how.add_argument("--micropython", help="a build made by --build before")
    parser.add_argument("games", nargs="*", default=[*scenarios.NAMES, "menus"])
    parser.add_argument("--bench", type=Path, help="the bench's JSON, for its figures")
    args = parser.parse_args(argv)
    micropython = args.micropython or str(build(args.build))
    bench = json.loads(args.bench.read_text())["device"] if args.bench else {}
    scripts = {game.name: (game.device_seed, game.keys) for game in scenarios.GAMES}
    scripts["menus"] = (1, scenarios.MENUS)
    for name in args.games:
        seed, keys = scripts[name]
        heap = smallest_heap(micropython, seed, keys)
        wasi = bench.get(name, {}).get("heap", {}).get("heap")
        line = f"{name:12} collected on failure: {heap // 1024 if heap else '-'} KB"
        if wasi and heap:
            line += f"; the bench (between passes): {wasi // 1024} KB, ratio {heap / wasi:.2f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
