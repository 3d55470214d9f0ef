"""The ``arbiter`` subcommands, one module each.

Every module has ``HELP`` (one line for ``arbiter --help``), ``arguments(parser)``
and ``run(args) -> exit status``. Modules import what they work with inside
``run``, so ``arbiter push`` does not load the emulator.
"""

import sys

NAMES = ("demo", "sim", "run", "rulesets", "validate", "audit", "layout", "emulate",
         "bench", "push", "ls", "rm", "pull-log", "deploy", "web")


def module(name: str):
    from importlib import import_module

    return import_module("arbiter_referee.commands." + name.replace("-", "_"))


def port(parser) -> None:
    """The device commands' ``--port``."""
    parser.add_argument("--port", required=True,
                        help="the device's serial port (e.g. /dev/ttyACM0, COM3, or the path "
                        "arbiter emulate prints)")


def failed(command: str, exc) -> int:
    """A device command's failure: one line, status 1."""
    print(f"arbiter {command}: {exc}", file=sys.stderr)
    return 1
