"""``arbiter push``: install rulesets on the device, each checked there, atomically."""

import sys
import tempfile
from pathlib import Path

from arbiter_referee.commands import failed, port

HELP = "install rulesets on the device (each checked there, atomic)"


def arguments(parser) -> None:
    port(parser)
    parser.add_argument("ruleset", nargs="+", help="bundled ruleset names or JSON files")
    parser.add_argument("--teams", metavar="FILE",
                        help="the players' own teams (a JSON list) added to each ruleset's")
    parser.add_argument("--force", action="store_true",
                        help="replace one even while a game of it is in progress")


def run(args) -> int:
    from arbiter_referee import transfer
    from arbiter_referee.rulesets import with_teams

    try:
        with tempfile.TemporaryDirectory() as folder:
            rulesets = args.ruleset
            if args.teams:
                rulesets = [str(with_teams(ruleset, args.teams, Path(folder) / str(i)))
                            for i, ruleset in enumerate(rulesets)]
            results = transfer.push_many(args.port, rulesets, args.force)
    except (transfer.DeviceError, FileNotFoundError, ValueError) as exc:
        return failed("push", exc)
    for name, reason in results:
        if reason:
            print(f"arbiter push: the device refused {name}: {reason}", file=sys.stderr)
        else:
            print(f"pushed {name} to /rulesets/{name}.json (checked on the device)")
    return 1 if any(reason for _, reason in results) else 0
