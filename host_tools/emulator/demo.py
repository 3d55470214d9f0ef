"""``arbiter demo``: a scripted session on the emulated device: a game, dice, menus."""

from __future__ import annotations

import sys

from host_tools.emulator.frames import Frame, to_text
from host_tools.emulator.session import run_session

# Without a game: roll 3d10, hold Up to 10 dice of d20 and roll, a few fewer d12,
# then Settings (LED brightness down, saved) and the Log. Fits a 64 KB heap.
MENU_SCRIPT = (
    "down a wait=1200 right right up up a wait=1200 "
    "up:hold=1500 right right a wait=1500 left down:hold=700 a wait=1200 b "
    "down a down left left a wait=500 down a wait=800 down down b"
)

# A game of Juggernauts: the ruleset from flash, the dice commitment, both secret
# Commander picks behind "pass the device", the reveal, two phases (the Command
# roll), a die rolled from the game menu and undone with a long B, back to the
# main menu (the game stays saved), then the menus above.
GAME_SCRIPT = (
    "wait=800 a down down a wait=600 a wait=1500 a wait=800 a down down a wait=800 "
    "a down down down down a wait=1500 a wait=600 a wait=1200 a wait=1200 "
    "b down down a right right up a wait=1500 b:long wait=800 "
    "b down down down down down a wait=600 "
)
DEMO_SCRIPT = GAME_SCRIPT + MENU_SCRIPT


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
