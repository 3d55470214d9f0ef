"""``arbiter deploy``: the firmware to the device as .mpy and the bundled rulesets,
copying only what changed."""

import sys

from arbiter_referee.commands import failed, port

HELP = "compile the firmware with mpy-cross, copy what changed, install the bundled games"


def arguments(parser) -> None:
    port(parser)
    parser.add_argument("--no-rulesets", action="store_true",
                        help="leave the device's rulesets as they are (by default the bundled "
                        "games are installed or brought up to date)")


def run(args) -> int:
    from arbiter_referee import transfer

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        done = transfer.deploy(args.port, rulesets=not args.no_rulesets, progress=progress)
    except (transfer.DeviceError, ValueError) as exc:
        return failed("deploy", exc)
    status = 0
    for name, reason in done.rulesets:
        if reason and "in progress" in reason:  # the game goes on with the rules it began with
            print(f"arbiter deploy: kept the device's {name}: a game of it is in progress "
                  "(deploy again once it has ended)", file=sys.stderr)
        elif reason:
            print(f"arbiter deploy: the device refused {name}: {reason}", file=sys.stderr)
            status = 1
    installed = sum(1 for _, reason in done.rulesets if not reason)
    games = "" if args.no_rulesets else (f"; {installed} bundled ruleset(s) installed, "
                                         f"{len(done.rulesets_fresh)} up to date")
    print(f"{len(done.copied)} file(s) copied, {len(done.fresh)} up to date{games}; "
          "the device restarted")
    print(f"firmware FW {done.digest}: the New game screen shows it beside the dice "
          "commitment")
    return status
