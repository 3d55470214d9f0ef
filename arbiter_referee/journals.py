"""Game journals pulled off a device: read, replayed, and as a table.

The journal format is the firmware's (arbiter.store.journal); these replay it
with the firmware's own engine, so what the device did is what is checked.
"""

from __future__ import annotations

import csv
import io

from arbiter_referee.emulator.session import use_firmware_path

DRAW_LIMIT = 1_000_000  # how far from the seed a checkpoint's dice position may be


def read_journal(text: str):
    """(header, checkpoint, events, cut) of a journal's text, or None when it is not
    one (see arbiter.store.saved.parse)."""
    use_firmware_path()
    from arbiter.store.saved import parse

    try:
        return parse(io.StringIO(text))
    except (ValueError, RecursionError):  # a checkpoint line that is not JSON, or too deep
        return None


def replay(found, ruleset_text: str, check=None):
    """The game a journal records, replayed from its start or its checkpoint."""
    from arbiter.store.saved import rebuild
    from arbiter_referee.compiled import loaded

    return rebuild(loaded(ruleset_text), found, check=check)


def replay_journal(text: str, ruleset_text: str):
    """The game a journal records, replayed (for ``pull-log --csv``): from its start
    when the journals its compactions replaced come first (journal_chain)."""
    from arbiter_referee import journal_chain
    from arbiter_referee.compiled import loaded

    texts = journal_chain.split(text)
    found = [read_journal(t) for t in texts]
    if found[-1] is None:
        raise ValueError("not a game journal")
    on, _ = journal_chain.chain(
        texts, lambda i: found[i] and found[i][1] and found[i][1].get("head"))
    chained = [found[i] for i in on]
    if len(chained) == 1 or None in chained:
        return replay(found[-1], ruleset_text)
    rules = loaded(ruleset_text)
    events, _ = journal_chain.whole(rules, found[-1][0], chained[0], chained[1:])
    from arbiter.store.saved import rebuild

    return rebuild(rules, (found[-1][0], chained[0][1], events, found[-1][3]))


def draws_to(seed: int, position: int, mix: str | None = None) -> int | None:
    """How many draws from the dice of ``seed`` and ``mix`` (rng.dice_seed) the
    generator takes to reach ``position`` (a checkpoint's), or None when not within
    DRAW_LIMIT."""
    use_firmware_path()
    from arbiter.game.rng import _MULT, Rng, dice_seed

    rng = Rng(dice_seed(seed, mix))
    draws = _distance(rng.snapshot(), position, _MULT, rng._inc)
    return draws if draws is not None and draws <= DRAW_LIMIT else None


def _distance(state: int, target: int, mult: int, plus: int) -> int | None:
    """How many steps of ``state = state * mult + plus`` (mod 2**64), PCG32's, lead from
    ``state`` to ``target``, or None if none do: a bit at a time from the lowest, the
    step squared for each (O'Neill's pcg_extras::distance), so 64 rounds at most where
    stepping would take up to 2**64."""
    mask = 2 ** 64 - 1
    distance, bit = 0, 1
    while state != target and bit <= mask:
        if (state ^ target) & bit:
            state = (state * mult + plus) & mask
            distance |= bit
        bit <<= 1
        plus = (mult + 1) * plus & mask
        mult = mult * mult & mask
    return distance if state == target else None


def journal_heads(text: str) -> tuple[str, str | None]:
    """(the hash chain's head over the journal's whole lines, the head the device
    wrote on its ``#head`` line or None): see arbiter.store.journal. The ``#head``
    and ``#end`` lines are not in the chain; every other line is, after them too."""
    use_firmware_path()
    from arbiter.store.journal import HEAD, ZERO, link

    head, stored = ZERO, None
    for line in text.split("\n")[:-1]:  # a last line cut short is not in it
        if line.startswith(HEAD):
            stored = line[len(HEAD):].strip()
        elif line != "#end":
            head = link(head, line)
    return head.hex(), stored


def journal_csv(journal: str, ruleset_text: str) -> str:
    """One CSV row per log entry of the replayed game: what happened, and every roll."""
    game = replay_journal(journal, ruleset_text)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["entry", "event", "round", "phase", "player", "die", "rolls", "reason",
                     "text"])
    for i, entry in enumerate(game.log, game.log_dropped + 1):  # compacted: from its checkpoint
        writer.writerow([i, entry.get("event", ""), entry.get("round", ""),
                         entry.get("name", ""), entry.get("player", ""), entry.get("die", ""),
                         " ".join(map(str, entry.get("rolls", []))), entry.get("reason", ""),
                         entry.get("text", "")])
    return out.getvalue()
