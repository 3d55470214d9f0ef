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


def run(args) -> int:
    from arbiter_referee.bench import report

    return report.main(args)
