"""``arbiter demo``: a scripted session (boot, menus, dice) on the emulated device."""

from __future__ import annotations

import sys

from host_tools.emulator.frames import Frame, to_text
from host_tools.emulator.session import run_session

# Boot, roll 1d6, pick 3d10 and roll, hold Up to 10 dice of d20 and roll,
# then Settings (LED brightness down, saved) and the Log.
DEMO_SCRIPT = (
    "wait=800 a a wait=1200 right right up up a wait=1200 "
    "up:hold=1500 right right a wait=1500 left down:hold=700 a wait=1200 b "
    "down a down left left a wait=500 down a wait=800 down down b"
)


def run(seed: int, runtime: str, dump: str | None, quiet: bool = False) -> int:
    result = run_session(seed, DEMO_SCRIPT, runtime)
    colour = sys.stdout.isatty()
    if not quiet:
        for line in result.frames:
            frame = Frame.parse(line)
            print(f"t={frame.t} ms  display {'on' if frame.on else 'off'}")
            print(to_text(frame, colour))
        for line in result.serial:
            print("serial:", line)
    if dump:
        with open(dump, "w") as f:
            f.write("\n".join(result.frames) + "\n")
    counters = result.counters
    summary = (f"demo: {runtime}, seed {seed}: {len(result.frames)} frames in "
               f"{counters['ms']} emulated ms; I2C {counters['i2c_bytes']} bytes in "
               f"{counters['i2c_writes']} writes; flash {counters['flash_bytes']} bytes")
    if result.fuel:
        summary += f"; {result.fuel:,} fuel"
    print(summary)
    return 0
