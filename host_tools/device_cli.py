"""What the device commands print and return (the work is in device_tools)."""

from __future__ import annotations

import sys
from pathlib import Path

from host_tools import device_tools
from host_tools.device_tools import DeviceError


def main(args) -> int:
    try:
        return COMMANDS[args.command](args)
    except (DeviceError, FileNotFoundError) as exc:
        print(f"arbiter {args.command}: {exc}", file=sys.stderr)
        return 1


def _push(args) -> int:
    name = device_tools.push(args.port, args.ruleset, args.force)
    print(f"pushed {name} to /rulesets/{name}.json (checked on the device)")
    return 0


def _ls(args) -> int:
    rows = device_tools.listing(args.port)
    for name, size, in_play in rows:
        print(f"{name}\t{size}" + ("\tin play" if in_play else ""))
    if not rows:
        print("no rulesets on the device", file=sys.stderr)
    return 0


def _rm(args) -> int:
    device_tools.remove(args.port, args.name, args.force)
    print(f"removed /rulesets/{args.name}.json")
    return 0


def _pull_log(args) -> int:
    journal, ruleset = device_tools.pull_log(args.port)
    if not journal.endswith("#end\n") and not args.unfinished:
        raise DeviceError("the game on the device is still in progress, and its journal holds "
                          "the dice seed, revealed only when the game ends (End game in the "
                          "game menu); --unfinished pulls it anyway")
    if args.csv:
        if ruleset is None:
            raise DeviceError("the ruleset of this game is no longer on the device: "
                              "pull without --csv and use arbiter audit --ruleset")
        text = device_tools.journal_csv(journal, ruleset)
    else:
        text = journal
    if args.out:
        Path(args.out).write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _deploy(args) -> int:
    copied, fresh = device_tools.deploy(args.port)
    for name in copied:
        print(f"copied {name}")
    print(f"{len(copied)} file(s) copied, {len(fresh)} up to date; the device restarted")
    return 0


COMMANDS = {"push": _push, "ls": _ls, "rm": _rm, "pull-log": _pull_log, "deploy": _deploy}
