"""``arbiter audit LOGFILE``: re-derive every roll of a pulled game journal.

The journal's header holds the seed (revealed with the result; its hash was
shown at the start as the commitment). Replaying the events from that seed
must give exactly the dice the journal recorded; any edited roll shows up.
"""

from __future__ import annotations

import io
from pathlib import Path

from host_tools.emulator.session import use_firmware_path
from host_tools.play import ruleset_path

DRAW_LIMIT = 1_000_000  # how far a checkpoint's dice position is looked for (seconds)


def read_journal(text: str):
    """(header, checkpoint, events, undone, cut) of a journal's text, or None when it
    is not one (see arbiter.game.journal.parse)."""
    use_firmware_path()
    from arbiter.game.journal import parse

    try:
        return parse(io.StringIO(text))
    except ValueError:  # a checkpoint line that is not JSON
        return None


def _game(found, ruleset_text: str, check=None):
    """The game a journal records, replayed from its start or its checkpoint."""
    from arbiter.game import rules
    from arbiter.game.journal import rebuild

    return rebuild(rules.parse(ruleset_text), found, check=check)


def replay_journal(text: str, ruleset_text: str):
    """The game a journal records, replayed (for ``pull-log --csv``)."""
    found = read_journal(text)
    if found is None:
        raise ValueError("not a game journal")
    return _game(found, ruleset_text)


def draws_to(seed: int, position: int) -> int | None:
    """How many draws from ``seed`` the generator takes to reach ``position``
    (a checkpoint's), or None when not within DRAW_LIMIT."""
    use_firmware_path()
    from arbiter.rng import Rng

    rng = Rng(seed)
    for draws in range(DRAW_LIMIT + 1):
        if rng.snapshot() == position:
            return draws
        rng.next32()
    return None


def audit(log: Path, ruleset: str | None = None) -> tuple[bool, list[str]]:
    found = read_journal(log.read_text())
    if found is None:
        return False, [f"{log}: not a game journal"]
    from arbiter.game.effects import Illegal
    from arbiter.game.engine import commitment

    header, checkpoint, events, _, _ = found
    start = checkpoint["n"] if checkpoint else 0
    problems: list[str] = []
    rolls = 0

    def check(i, recorded, rolled):
        nonlocal rolls
        rolls += sum(len(group) for group in rolled)
        if recorded != rolled:
            problems.append(f"event {start + i + 1} ({events[i].split('|')[0]}): recorded "
                            f"{_dice(recorded)}, the seed gives {_dice(rolled)}")

    notes, faults = [], []  # faults: what fails the audit besides the rolls
    if checkpoint:  # compacted on the device: the events before it are gone
        draws = draws_to(header["seed"], checkpoint["rng"])
        notes.append(f"the device compacted events 1 to {start} into a checkpoint: "
                     f"verified from event {start + 1}")
        if draws is None:
            faults.append(f"the checkpoint's dice are not within {DRAW_LIMIT:,} draws "
                            f"of the seed")
        else:
            notes.append(f"the checkpoint's dice are draw {draws:,} of the seed")
    try:
        _game(found, ruleset_path(ruleset or header["ruleset"]).read_text(), check)
    except Illegal as exc:
        faults.append(f"the events do not replay: {exc.reason}")
    lines = [f"ruleset {header['ruleset']}, seed {header['seed']} "
             f"(commitment {commitment(header['seed'])}), {start + len(events)} events, "
             f"{rolls} dice"] + notes
    lines += faults
    if problems:
        lines += problems + [f"{len(problems)} event(s) do not match the seed"]
    elif not faults:
        lines.append("all rolls match the seed")
    return not problems and not faults, lines


def _dice(groups: list[list[int]]) -> str:
    return "; ".join(",".join(map(str, g)) for g in groups) or "no dice"


def main(args) -> int:
    ok, lines = audit(Path(args.logfile), args.ruleset)
    print("\n".join(lines))
    return 0 if ok else 1



