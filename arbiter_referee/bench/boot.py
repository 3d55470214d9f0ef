"""Boot: fuel and heap from MicroPython's start to the first menu on the OLED,
with the firmware as source (compiled on the device at import), as .mpy files
and as .mpy in a ROMFS partition (run in place)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter_referee.bench.heap import device_firmware, device_rom, smallest_heap
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import run_driver
from arbiter_referee.paths import FIRMWARE

BOOT_HEAP = 256 * 1024
# Fuel counts from interpreter start (the driver's imports, a collection after
# each, included) to the end of the first main-loop pass, which draws the menu.
BOOT = """
probe = vbench.Probe(drvdata.SEED, '', '/flash/', False)
probe.dev.tick()
booted = vbench.fuel()
gc.collect()
print('B %d %d' % (booted, gc.mem_alloc()))
"""


def boot_figures(firmware: Path, seed: int = 1) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        factory_flash(Path(folder))
        # preload False: at boot the Pico has not imported the game engine yet
        result = run_driver("vbench", BOOT, {"/flash": (Path(folder), True)}, BOOT_HEAP,
                            firmware, {"SEED": seed}, preload=False, metered=True)
    if result.exit_code != 0:
        raise RuntimeError(f"boot failed:\n{result.stderr}")
    line = next(line for line in result.stdout.splitlines() if line.startswith("B "))
    fuel, live = (int(v) for v in line.split()[1:])
    heap = smallest_heap(seed, "", preload=False, firmware=firmware)
    return {"fuel": fuel, "heap_live": live, "smallest_heap": heap["heap"]}


def boot() -> dict:
    return {"py": boot_figures(FIRMWARE), "mpy": boot_figures(device_firmware()),
            "romfs": boot_figures(device_rom())}
