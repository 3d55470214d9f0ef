"""``arbiter push``: install a ruleset on the device, checked there, atomically."""

from arbiter_referee.commands import failed, port

HELP = "install a ruleset on the device (checked there, atomic)"


def arguments(parser) -> None:
    port(parser)
    parser.add_argument("ruleset", help="a bundled ruleset name or a JSON file")
    parser.add_argument("--force", action="store_true",
                        help="replace it even while a game of it is in progress")


def run(args) -> int:
    from arbiter_referee import transfer

    try:
        name = transfer.push(args.port, args.ruleset, args.force)
    except (transfer.DeviceError, FileNotFoundError) as exc:
        return failed("push", exc)
    print(f"pushed {name} to /rulesets/{name}.json (checked on the device)")
    return 0
