"""``arbiter emulate``: the emulated device as a serial port, for mpremote and the
device commands (see ``arbiter_referee.emulator.serial``); with ``--runtime chip``,
a Pico's own MicroPython in an emulated RP2040 (``arbiter_referee.chip.usb``)."""

HELP = "the emulated device as a serial port (for mpremote and the device commands)"


def arguments(parser) -> None:
    parser.add_argument("--runtime", choices=("micropython", "chip"), default="micropython",
                        help="micropython: MicroPython's WASI build with the virtual board; "
                        "chip: MicroPython's own Pico firmware in an emulated RP2040, its "
                        "REPL over the chip's USB (see --firmware)")
    parser.add_argument("--firmware", metavar="FILE.uf2",
                        help="for --runtime chip: MicroPython's UF2 for the Pico, the "
                        "RP2040's bootrom beside it (default $ARBITER_PICO_FIRMWARE)")
    parser.add_argument("--port-file", metavar="FILE",
                        help="write the serial port's path here once it is ready")
    parser.add_argument("--flash", metavar="DIR",
                        help="folder that is the device's flash (default: a new empty one)")
    parser.add_argument("--seed", type=int, default=None,
                        help="dice seed at every boot (default: random, as on a Pico)")
    parser.add_argument("--heap", type=int, default=None, metavar="BYTES",
                        help="MicroPython's heap (default 245888, a Pico's; a Pico W has "
                        "196608; not with --runtime chip: its heap is the firmware's)")
    parser.add_argument("--screen", metavar="FILE", help="keep the text on the OLED in this file")
    parser.add_argument("--log", metavar="FILE",
                        help="append everything the device sends on the serial line")
    parser.add_argument("--buttons", metavar="FILE",
                        help="press the device's buttons: each line appended to FILE is a "
                        "button script, as arbiter sim --keys takes (echo 'b up a' >> FILE)")


def run(args) -> int:
    import os
    import sys

    if not hasattr(os, "openpty"):  # the port is a pseudo-terminal; Windows has none
        print("arbiter emulate: needs pseudo-terminals, which Windows does not have: run it "
              "under WSL (arbiter sim plays the device here)", file=sys.stderr)
        return 2
    from arbiter_referee.emulator import serial
    from arbiter_referee.emulator.serial.vm import DEFAULT_HEAP

    heap = DEFAULT_HEAP if args.heap is None else args.heap
    pico = None
    if args.runtime == "chip":
        from arbiter_referee.chip.runtime import pico_firmware

        if args.heap is not None:
            print("arbiter emulate: --heap is not for --runtime chip: a Pico's heap is what "
                  "its MicroPython firmware makes it", file=sys.stderr)
            return 2
        try:
            pico = pico_firmware(args.firmware)
        except ValueError as exc:
            print(f"arbiter emulate: {exc}", file=sys.stderr)
            return 2
    return serial.run(args.port_file, args.flash, args.seed, heap, args.screen, args.log,
                      args.buttons, pico)
