"""``arbiter bench``: performance figures measured on the emulated device under real
MicroPython, beside the naive way, with their budgets (see docs/bench.md)."""

HELP = ("performance figures measured on the emulated device, beside the naive way, with "
        "their budgets")


def arguments(parser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--skip-heap", action="store_true",
                        help="no heap bisection (the slowest part)")
    parser.add_argument("--skip-scale", action="store_true", help="no 10,000-event game")


def run(args) -> int:
    from arbiter_referee.bench import report

    return report.main(args)
