"""Idle: the device left alone on its menu, under real MicroPython.

Over one emulated minute: main-loop wake-ups per second and allocations (every
pass runs under micropython.heap_lock, and gc.mem_alloc is compared across the
minute with no collection: that figure includes the emulator loop around the
firmware, about 32 bytes a pass today, not yet traced). Then on, unlocked
(going to sleep may allocate, and a MemoryError deep in the firmware under
heap_lock has corrupted the WASI build's heap), until the display's sleep
timeout (the firmware's default setting) has passed: when the panel went
off; then 10 s asleep, locked again:
wake-ups per second and allocating passes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import run_driver, use_firmware_path

IDLE = """
probe = vbench.IdleProbe(drvdata.SEED, '/flash/')
board = probe.board
while board.elapsed < 1000:
    probe.idle_pass(False)
gc.collect()
t0 = board.elapsed
w0 = board.wakeups
a0 = gc.mem_alloc()
while board.elapsed < t0 + drvdata.MINUTE_MS:
    probe.idle_pass()
a1 = gc.mem_alloc()
w1 = board.wakeups
t1 = board.elapsed
off_at = -1
while board.elapsed < drvdata.SLEEP_UNTIL_MS:
    probe.idle_pass(False)
    if off_at < 0 and not board.oled.on:
        off_at = board.elapsed
    if gc.mem_free() < 65536:
        gc.collect()
gc.collect()
locked_awake = probe.allocating
w2 = board.wakeups
t2 = board.elapsed
while board.elapsed < t2 + 10000:
    probe.idle_pass()
probe.t = (t0, t1, t2, w0, w1, w2, a0, a1, locked_awake, off_at)
probe.report_idle()
"""


def sleep_timeout_s() -> int:
    use_firmware_path()
    from arbiter.store.settings import DEFAULTS

    return DEFAULTS["sleep_s"]


def idle(minute_ms: int = 60_000, seed: int = 1) -> dict:
    sleep_s = sleep_timeout_s()
    until = max(minute_ms, sleep_s * 1000) + 2000
    with tempfile.TemporaryDirectory() as folder:
        factory_flash(Path(folder))
        result = run_driver("vbench", IDLE, {"/flash": (Path(folder), True)}, 256 * 1024,
                            data={"SEED": seed, "MINUTE_MS": minute_ms,
                                  "SLEEP_UNTIL_MS": until}, preload=False)
    if result.exit_code != 0:
        raise RuntimeError(f"idle run failed:\n{result.stderr}")
    line = next(line for line in result.stdout.splitlines() if line.startswith("I "))
    ms, wakes, alloc, locked, locked_asleep, off_at, asleep_wakes, asleep_ms, on, alive = (
        int(v) for v in line.split()[1:])
    return {"seconds": ms / 1000, "wakeups_per_s": round(wakes * 1000 / ms, 1),
            "alloc_bytes_with_harness": alloc, "allocating_passes": locked,
            "allocating_passes_asleep": locked_asleep,
            "sleep_timeout_s": sleep_s,
            "display_off_at_s": off_at / 1000 if off_at >= 0 else None,
            "asleep_wakeups_per_s": round(asleep_wakes * 1000 / asleep_ms, 1),
            "display_on_at_end": bool(on), "app_alive": bool(alive)}
