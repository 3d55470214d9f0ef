"""``arbiter audit LOGFILE``: re-derive every roll of a pulled game journal.

The journal's header holds the seed (revealed with the result; its hash was
shown at the start as the commitment). Replaying the events from that seed
must give exactly the dice the journal recorded; any edited roll shows up.
"""

from __future__ import annotations

from pathlib import Path

from host_tools.emulator.session import use_firmware_path
from host_tools.play import ruleset_path


def read_journal(text: str):
    """(header, events, undone) of a journal's text, or None when it is not one."""
    use_firmware_path()
    from arbiter.game.journal import Journal

    class _Reader:  # the journal reads through a flash-like object
        def read(self, name):
            return text

    return Journal(_Reader()).read()


def replay_journal(text: str, ruleset_text: str):
    """The game a journal records, replayed (for ``pull-log --csv``)."""
    found = read_journal(text)
    if found is None:
        raise ValueError("not a game journal")
    from arbiter.game import rules
    from arbiter.game.engine import Game

    header, events, _ = found
    game = Game(rules.parse(ruleset_text), header["players"], header["options"], header["seed"])
    game.replay(events)
    return game


def audit(log: Path, ruleset: str | None = None) -> tuple[bool, list[str]]:
    found = read_journal(log.read_text())
    if found is None:
        return False, [f"{log}: not a game journal"]
    from arbiter.game import rules
    from arbiter.game.effects import Illegal
    from arbiter.game.engine import Game, commitment

    header, events, _ = found
    data = rules.parse(ruleset_path(ruleset or header["ruleset"]).read_text())
    game = Game(data, header["players"], header["options"], header["seed"])
    problems: list[str] = []
    rolls = 0

    def check(i, recorded, rolled):
        nonlocal rolls
        rolls += sum(len(group) for group in rolled)
        if recorded != rolled:
            problems.append(f"event {i + 1} ({events[i].split('|')[0]}): recorded "
                            f"{_dice(recorded)}, the seed gives {_dice(rolled)}")

    try:
        game.replay(events, check)
    except Illegal as exc:
        problems.append(f"the events do not replay: {exc.reason}")
    lines = [f"ruleset {header['ruleset']}, seed {header['seed']} "
             f"(commitment {commitment(header['seed'])}), {len(events)} events, {rolls} dice"]
    if problems:
        lines += problems + [f"{len(problems)} event(s) do not match the seed"]
    else:
        lines.append("all rolls match the seed")
    return not problems, lines


def _dice(groups: list[list[int]]) -> str:
    return "; ".join(",".join(map(str, g)) for g in groups) or "no dice"


def main(args) -> int:
    ok, lines = audit(Path(args.logfile), args.ruleset)
    print("\n".join(lines))
    return 0 if ok else 1



