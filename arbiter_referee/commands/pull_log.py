"""``arbiter pull-log``: copy the game journal off the device, for ``arbiter audit``."""

import sys
from pathlib import Path

from arbiter_referee.commands import failed, port

HELP = "copy the game journal off the device (for arbiter audit)"


def arguments(parser) -> None:
    port(parser)
    parser.add_argument("--csv", action="store_true", help="one row per logged event and roll")
    parser.add_argument("--out", metavar="FILE", help="write here instead of standard output")
    parser.add_argument("--unfinished", action="store_true",
                        help="pull a game still in progress (its log holds the dice seed)")


def run(args) -> int:
    from arbiter_referee import transfer
    from arbiter_referee.journals import journal_csv

    try:
        journal, ruleset = transfer.pull_log(args.port)
        if not journal.endswith("#end\n") and not args.unfinished:
            raise transfer.DeviceError(
                "the game on the device is still in progress, and its journal holds the "
                "dice seed, revealed only when the game ends (End game in the game menu); "
                "--unfinished pulls it anyway")
        if args.csv and ruleset is None:
            raise transfer.DeviceError("the ruleset of this game is no longer on the device: "
                                       "pull without --csv and use arbiter audit --ruleset")
    except transfer.DeviceError as exc:
        return failed("pull-log", exc)
    text = journal_csv(journal, ruleset) if args.csv else journal
    if args.out:
        try:
            Path(args.out).write_text(text)
        except OSError as exc:
            return failed("pull-log", f"cannot write {args.out}: {exc.strerror}")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
