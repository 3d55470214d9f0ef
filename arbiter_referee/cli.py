"""The ``arbiter`` command: one subcommand per module of ``arbiter_referee.commands``."""

from __future__ import annotations

import argparse
import sys

from arbiter_referee import __version__, commands


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="arbiter", description="Arbiter table referee tools")
    top.add_argument("--version", action="version", version=f"arbiter {__version__}")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in commands.NAMES:
        command = commands.module(name)
        command.arguments(sub.add_parser(name, help=command.HELP, description=command.HELP))
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return commands.module(args.command).run(args)
    except KeyboardInterrupt:
        print(f"arbiter {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
