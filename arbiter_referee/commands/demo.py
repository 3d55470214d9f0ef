"""``arbiter demo``: a scripted session on the emulated device: a game, dice, menus."""

from __future__ import annotations

import sys

from arbiter_referee.emulator import DEVICE_RUNTIMES

HELP = "play a scripted session on the emulated device"


def arguments(parser) -> None:
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runtime", choices=DEVICE_RUNTIMES, default="cpython",
                        help="what runs the firmware: CPython, MicroPython's WASI build, or "
                        "chip: MicroPython's own Pico firmware in an emulated RP2040")
    parser.add_argument("--firmware", metavar="FILE.uf2",
                        help="for --runtime chip: MicroPython's UF2 for the Pico, the "
                        "RP2040's bootrom beside it (default $ARBITER_PICO_FIRMWARE)")
    parser.add_argument("--dump", metavar="FILE", help="write every frame, one per line")
    parser.add_argument("--pixels", action="store_true",
                        help="print every frame's pixels (130 columns) instead of the "
                        "words on each new screen (80 columns)")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")


def run(args) -> int:
    from arbiter_referee.emulator.frames import Frame, to_text
    from arbiter_referee.emulator.scripts import DEMO_SCRIPT
    from arbiter_referee.emulator.session import run_session

    seed, runtime, dump, quiet = args.seed, args.runtime, args.dump, args.quiet
    pico = None
    try:
        if runtime == "chip":
            from arbiter_referee.chip.runtime import pico_firmware

            pico = pico_firmware(args.firmware)
        result = run_session(seed, DEMO_SCRIPT, runtime, pico=pico, metered=True)
    except (ValueError, RuntimeError) as exc:  # no firmware, no Node.js: said in a line
        print(f"arbiter demo: {exc}", file=sys.stderr)
        return 2
    colour = sys.stdout.isatty()
    if not quiet:
        frames = [Frame.parse(line) for line in result.frames]
        if args.pixels:
            for frame in frames:
                print(f"t={frame.t} ms  display {'on' if frame.on else 'off'}")
                print(to_text(frame, colour))
        else:
            print("Each new screen's words (drawings left out: --pixels shows them), "
                  "its time,\nand the LED ring under it.\n")
            print(words_strip(frames, colour))
        for line in result.serial:
            print("serial:", line)
    if dump:
        with open(dump, "w") as f:
            f.write("\n".join(result.frames) + "\n")
    counters = result.counters
    summary = (f"demo: {runtime}, seed {seed}: {len(result.frames)} frames in "
               f"{counters['ms']} emulated ms\n  I2C {counters['i2c_bytes']} bytes in "
               f"{counters['i2c_writes']} writes; flash {counters['flash_bytes']} bytes")
    if runtime == "chip":
        summary += f"\n  {result.fuel:,} RP2040 cycles ({result.fuel / 125e6:.2f} s at 125 MHz)"
    elif result.fuel:
        summary += f"\n  {result.fuel:,} fuel"
    print(summary)
    return 0


ACROSS = 3  # panels side by side: 3 x 23 columns and the gaps fit an 80-column terminal


def words_strip(frames, colour: bool) -> str:
    """Each new screen's words, a panel with its time and the LED ring under it (as
    the screen left it), ``ACROSS`` to a row: the session as a comic strip."""
    from arbiter_referee.emulator.frames import leds_text, strip, text_panel

    panels, last = [], None
    for frame in frames:
        panel = text_panel(frame)
        leds = leds_text(frame, True, None if colour else _dot)
        if panel != last:  # a new screen
            panels.append([("%.1f s" % (frame.t / 1000)).ljust(23)] + panel + [leds])
        panels[-1][-1] = leds  # the ring as that screen leaves it
        last = panel
    rows = [strip(panels[i:i + ACROSS]) for i in range(0, len(panels), ACROSS)]
    return "\n\n".join(rows)


def _dot(rgb, text):
    return text
