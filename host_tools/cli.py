"""The ``arbiter`` command."""

from __future__ import annotations

import argparse
import sys

from host_tools.emulator.session import RUNTIMES


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

    args = parser.parse_args(argv)
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
