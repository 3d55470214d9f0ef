"""``arbiter bench``: performance figures measured on the emulated device under real
MicroPython, beside the naive way, with their budgets (see docs/bench.md)."""

import os

HELP = ("performance figures measured on the emulated device, beside the naive way, with "
        "their budgets")


def arguments(parser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--skip-heap", action="store_true",
                        help="no heap bisection (the slowest part)")
    parser.add_argument("--skip-scale", action="store_true", help="no 10,000-event game")
    parser.add_argument("--micropython32", metavar="BIN",
                        default=os.environ.get("ARBITER_MICROPYTHON32") or None,
                        help="a 32-bit MicroPython (python -m arbiter_referee.bench.calibrate "
                        "--build SOURCE makes one; default $ARBITER_MICROPYTHON32): each "
                        "game's heap with a Pico's collector too")
    parser.add_argument("--firmware", metavar="FILE.uf2",
                        default=os.environ.get("ARBITER_PICO_FIRMWARE") or None,
                        help="MicroPython's UF2 for the Pico, the RP2040's bootrom beside it "
                        "(default $ARBITER_PICO_FIRMWARE): each game's whole session on the "
                        "chip runtime, its deepest C stack and least free heap")
    parser.add_argument("--chip-only", action="store_true",
                        help="only the chip's figures (needs --firmware)")
    parser.add_argument("--mutants", metavar="N", type=int, default=None,
                        help="only the checker against N seeded mutants of the bundled "
                        "rulesets (2000: about 90 seconds): those it accepts must start and "
                        "play; fails if one does not")
    parser.add_argument("--power-cuts", action="store_true",
                        help="only power cuts on the chip (needs --firmware): each game cut "
                        "at 10 seeded moments of its recorded session, a new chip on the "
                        "same flash each time; events lost, games not resumed, resume CPU "
                        "(about 30 minutes)")


def run(args) -> int:
    from arbiter_referee.bench import report

    return report.main(args)
