"""``arbiter ls``: the rulesets on the device, their sizes, and the one in play."""

import sys

from arbiter_referee.commands import failed, port

HELP = "the rulesets on the device"


def arguments(parser) -> None:
    port(parser)


def run(args) -> int:
    from arbiter_referee import transfer

    try:
        rows = transfer.listing(args.port)
    except transfer.DeviceError as exc:
        return failed("ls", exc)
    for name, size, in_play in rows:
        print(f"{name}\t{size}" + ("\tin play" if in_play else ""))
    if not rows:
        print("no rulesets on the device", file=sys.stderr)
    return 0
