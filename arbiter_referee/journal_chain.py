"""A whole game as ``arbiter pull-log`` gives it: the journals its compactions
replaced (the device's ``game.old``, arbiter.store.journal), then its journal.

Each compaction wrote a checkpoint carrying the head of the journal it replaced, so
from the journal whose head the table saw the chain leads back, journal by journal,
to the game's start. ``chain`` finds it (a copy a power cut left unfinished is not
on it); ``whole`` replays the game from its start and checks each checkpoint (its
state, its dice, the events it restates) against that replay: a checkpoint is
never taken on trust.
"""

from __future__ import annotations

import io
import json


def split(text: str) -> list[str]:
    """The texts of the journals in a pulled log, oldest first: each begins at a
    header line (a JSON object; no event line starts with ``{``)."""
    parts: list[str] = [] if text else [""]
    for line in text.splitlines(keepends=True):
        if line.startswith("{") or not parts:
            parts.append(line)
        else:
            parts[-1] += line
    return parts


def chain(texts: list[str], head_of) -> tuple[list[int], int]:
    """(the indices of the journals on the chain that ends at the last one, oldest
    first; how many are off it). ``head_of(i)``: the head journal ``i``'s checkpoint
    carries, or None when it has none."""
    from arbiter.store.journal import file_head  # (use_firmware_path: the caller's)

    on = [len(texts) - 1]
    heads = [file_head(io.BytesIO(t.encode())).hex() for t in texts]
    while True:
        wanted = head_of(on[0])
        if wanted is None:
            break
        earlier = next((j for j in range(on[0] - 1, -1, -1) if heads[j] == wanted), None)
        if earlier is None:
            break
        on.insert(0, earlier)
    return on, len(texts) - len(on)


def whole(rules, header: dict, first: tuple, later: list[tuple]) -> tuple[list[str], list[str]]:
    """(every event line of the game, from its start or ``first``'s checkpoint; the
    faults). ``first`` and each of ``later``: a journal on the chain as
    arbiter.store.saved.parse reads it, (header, checkpoint, lines, cut)."""
    _, start_mark, events, _ = first
    events = list(events)
    faults: list[str] = []
    for k, (_, mark, lines, _cut) in enumerate(later, 2):
        game = _replayed(rules, header, start_mark, events)
        if game is None:
            faults.append(f"journal {k} of the log: the events before it do not replay")
            return events, faults
        history = game.history
        at = mark["n"] - history.dropped
        undone = list(reversed(history.undone))
        restated = history.events[at:] + [u[0] for u in undone] + ["undo"] * len(undone)
        starts = [list(s) for s in history.starts[at:]] + [list(u[1]) for u in undone]
        wrong = []
        if not 0 <= at <= len(history.events):
            wrong.append("where it begins")
        else:
            past = _replayed(rules, header, start_mark, history.events[:at],
                             [list(s) for s in history.starts[:at]])
            if past is None or _plain(past.state) != mark["state"] and \
                    not (at + history.dropped == 0 and mark["state"] is None):
                wrong.append("the game's state")
            if past is None or past.logged() != mark["logged"]:
                wrong.append("the log's length")
        if mark["rng"] != game.rng.snapshot():
            wrong.append("where the dice stand")
        if mark.get("starts", []) != starts:
            wrong.append("where each event's dice began")
        if lines[:len(restated)] != restated:
            wrong.append("the events it restates")
        if wrong:
            faults.append(f"journal {k} of the log: its checkpoint is not the game replayed "
                          f"from the start ({', '.join(wrong)}): edited")
        events += lines[len(restated):]
    return events, faults


def _replayed(rules, header, mark, lines, starts=None):
    """The game ``lines`` record after ``mark`` (None: from the start), kept whole;
    ``starts``: where each event's dice began. None when it does not replay."""
    from arbiter.store.saved import rebuild

    if starts is not None:
        mark = dict(mark or {"n": 0, "state": None, "rng": 0, "logged": 0}, starts=starts)
    try:
        return rebuild(rules, (header, mark, lines, False))
    except Exception:  # a forged journal: the caller says so
        return None


def _plain(state):
    """A state as its JSON reads back (tuples as lists)."""
    return json.loads(json.dumps(state))
