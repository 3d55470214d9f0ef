"""``arbiter run``: play a ruleset headless and print the state."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from arbiter_referee.emulator import RUNTIMES

HELP = "play a ruleset headless and print the state"


def arguments(parser) -> None:
    parser.add_argument("ruleset", help="a bundled ruleset name or a JSON file")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=1,
                        help="the device's part of the dice (its commitment is shown)")
    parser.add_argument("--entropy", metavar="TEXT",
                        help="the players' part of the dice, added after the commitment: "
                             "any text, e.g. a number each player calls out (\"17 4 99\"); "
                             "the dice then come from SHA-256 of the seed and it")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--do", action="append", default=[], metavar="ACTION")
    parser.add_argument("--teams", metavar="FILE",
                        help="the players' own teams (a JSON list) added to the ruleset's")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--runtime", choices=RUNTIMES, default="cpython")


def run(args) -> int:
    from arbiter_referee.headless import play
    from arbiter_referee.rulesets import with_teams

    options = {}
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq:
            print(f"arbiter run: --option needs NAME=VALUE, got {item!r}", file=sys.stderr)
            return 2
        options[name] = {"true": True, "false": False}.get(value.lower(), value)
    try:
        with tempfile.TemporaryDirectory() as folder:
            ruleset = args.ruleset
            if args.teams:
                ruleset = str(with_teams(ruleset, args.teams, Path(folder)))
            outcome = play(ruleset, args.players, args.seed, options, args.do, args.runtime,
                           args.entropy)
    except (FileNotFoundError, ValueError) as exc:
        print(f"arbiter run: {exc}", file=sys.stderr)
        return 2
    if outcome.refused:
        number, reason = outcome.refused
        where = f"action {number} ({args.do[number - 1]!r})" if number else "setup"
        print(f"arbiter run: {where} refused: {reason}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(outcome.state, sort_keys=True))
    else:
        print(format_text(outcome.state))
    return 0


def format_text(state: dict) -> str:
    lines = [f"{state['ruleset']}  round {state['round']}  phase {state['phase']}"
             + (f"  active {state['active']}" if state["active"] else "")]
    for player, values in state["players"].items():
        lines.append(f"  {player}: " + ", ".join(f"{k}={v}" for k, v in values.items()))
    if state["result"]:
        lines.append(f"  result: {state['result']}"
                     + (f", {state['winner']} wins" if state["winner"] else ""))
    lines.append("  screen:")
    lines += [f"    |{line}" for line in state["screen"]]
    return "\n".join(lines)
