"""``arbiter validate FILE|NAME``: check a ruleset as the device will, and say where
it is wrong."""

import sys

HELP = "check a ruleset (a file or a bundled name)"


def arguments(parser) -> None:
    parser.add_argument("ruleset")


def run(args) -> int:
    from arbiter_referee.rulesets import check_file, ruleset_path

    try:
        path = ruleset_path(args.ruleset)
    except FileNotFoundError as exc:
        print(f"arbiter validate: {exc}", file=sys.stderr)
        return 1
    reason = check_file(path)
    if reason:
        print(f"{path}: {reason}", file=sys.stderr)
        return 1
    print(f"{path}: ok")
    return 0
