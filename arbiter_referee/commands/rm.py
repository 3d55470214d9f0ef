"""``arbiter rm``: remove a ruleset from the device (not the one in play)."""

from arbiter_referee.commands import failed, port

HELP = "remove a ruleset from the device"


def arguments(parser) -> None:
    port(parser)
    parser.add_argument("name")
    parser.add_argument("--force", action="store_true",
                        help="remove it even while a game of it is in progress")


def run(args) -> int:
    from arbiter_referee import transfer

    try:
        transfer.remove(args.port, args.name, args.force)
    except transfer.DeviceError as exc:
        return failed("rm", exc)
    print(f"removed /rulesets/{args.name}.json")
    return 0
