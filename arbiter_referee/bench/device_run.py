"""Play a button script on the emulated device with the bench's probe
(host_tools/vdevice/vbench.py) and return the figures of each key press."""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from arbiter_referee.bench.bus import KeyPress
from arbiter_referee.build import device_firmware
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import run_driver, use_firmware_path

# The probe's own bookkeeping needs heap beside the firmware's, and a game is
# already tight in a Pico's 192 KB (see heap.py for the firmware's real need):
# key presses are measured in a larger heap. It is collected as the Pico's main
# loop collects it (device.run: after every pass that allocated), outside the
# metered tick: then each allocation searches the holes a collected heap has,
# as on the device. Letting garbage pile up until half the heap is used made
# allocations take fresh space at the heap's end, cheaper than on a Pico (a
# Juggernauts press's median about half), and moved the figures by a tenth
# whenever the probe's own garbage changed.
PROBE_HEAP = 512 * 1024

# The probe's loop, at the driver's top level where MicroPython's GC sees
# everything alive (see session.mp_program).
PROBE_LOOP = """
probe = vbench.Probe(drvdata.SEED, drvdata.SCRIPT, '/flash/')
gc.collect()
live = gc.mem_alloc()
while probe.step():
    if gc.mem_alloc() != live:
        gc.collect()
        live = gc.mem_alloc()
probe.report()
"""


def key_presses(seed: int, script: str, runtime: str = "cpython",
                heap: int = PROBE_HEAP, firmware: Path | None = None,
                preload: bool = False) -> list[KeyPress]:
    """One KeyPress per press in ``script`` (fuel is 0 under CPython). Under
    MicroPython the firmware runs as a Pico runs it unless told otherwise: .mpy
    files, each imported when first needed, so a module the firmware let go is
    loaded again (not compiled from source) when it comes back."""
    with tempfile.TemporaryDirectory() as folder:
        flash = Path(folder)
        factory_flash(flash)
        if runtime == "cpython":
            rows = _cpython_rows(seed, script, flash)
        else:
            if firmware is None:
                firmware = device_firmware()
            result = run_driver("vbench", PROBE_LOOP, {"/flash": (flash, True)}, heap,
                                firmware, {"SEED": seed, "SCRIPT": script}, preload,
                                metered=True)
            if result.exit_code != 0:
                raise RuntimeError(f"MicroPython exited with {result.exit_code}:\n"
                                   f"{result.stderr}")
            rows = _rows(result.stdout)
    return [KeyPress(*row) for row in rows[1:]]  # rows[0] is the boot, before any press


def _cpython_rows(seed: int, script: str, flash: Path) -> list[list[int]]:
    use_firmware_path()
    import vbench

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        probe = vbench.Probe(seed, script, str(flash) + "/")
        while probe.step():
            pass
        probe.report()
    return _rows(out.getvalue())


def _rows(printed: str) -> list[list[int]]:
    """The probe's rows (``K`` lines) as numbers."""
    return [[int(n) for n in line.split()[1:]] for line in printed.splitlines()
            if line.startswith("K ")]
