"""``arbiter deploy``: the firmware to the device as .mpy, copying only what changed."""

from arbiter_referee.commands import failed, port

HELP = "compile the firmware with mpy-cross and copy what changed"


def arguments(parser) -> None:
    port(parser)


def run(args) -> int:
    from arbiter_referee import transfer

    try:
        copied, fresh = transfer.deploy(args.port)
    except (transfer.DeviceError, ValueError) as exc:
        return failed("deploy", exc)
    for name in copied:
        print(f"copied {name}")
    print(f"{len(copied)} file(s) copied, {len(fresh)} up to date; the device restarted")
    return 0
