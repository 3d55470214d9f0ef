"""``arbiter demo``: a scripted session on the emulated device: a game, dice, menus."""

from __future__ import annotations

import sys

from arbiter_referee.emulator import RUNTIMES

HELP = "play a scripted session on the emulated device"


def arguments(parser) -> None:
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runtime", choices=RUNTIMES, default="cpython")
    parser.add_argument("--dump", metavar="FILE", help="write every frame, one per line")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def run(args) -> int:
    from arbiter_referee.emulator.frames import Frame, to_text
    from arbiter_referee.emulator.scripts import DEMO_SCRIPT
    from arbiter_referee.emulator.session import run_session

    seed, runtime, dump, quiet = args.seed, args.runtime, args.dump, args.quiet
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
