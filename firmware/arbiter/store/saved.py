"""A saved game read back from flash: is one there, its header, the game rebuilt.

The read side of the journal (store/journal.py writes it): a boot, the menus and a
resume need it, a game being played does not, so its code is not held beside the
game's.
"""

import json

from arbiter.game import Illegal
from arbiter.store import game_on_flash as unfinished  # noqa: F401 (the menus' name)
from arbiter.store.journal import CHECKPOINT, JOURNAL, MAX_BYTES


def header(flash):
    """The header of the game on flash (its first line only), or None."""
    size = flash.size(JOURNAL)
    if size is not None and size > MAX_BYTES:
        return None  # too big to be a journal: its first line is not even read
    found = _read_with(flash, parse_header)
    return found and found[0]


def read(flash):
    """(header, checkpoint, events, cut) from flash, or None when there is no game;
    see ``parse``. A journal too big to be one (ValueError)."""
    size = flash.size(JOURNAL)
    if size is not None and size > MAX_BYTES:
        raise ValueError("journal over %d bytes" % MAX_BYTES)
    return _read_with(flash, parse)


def _read_with(flash, reader):
    try:
        stream = flash.open(JOURNAL)
    except OSError:
        return None
    with stream:
        return reader(stream)


def parse_header(stream):
    """(header,) or None when the first line is not a whole JSON object (cut short,
    not UTF-8, too big for the heap)."""
    try:
        line = stream.readline()
        header = json.loads(line) if line.endswith("\n") else None
    except (ValueError, RuntimeError, MemoryError):
        return None
    return (header,) if isinstance(header, dict) else None


def parse(stream):
    """(header, checkpoint, lines, cut) of a journal read line by line, or None when
    it has no whole header. ``checkpoint`` is None or {"n", "state", "rng",
    "logged"} (and "starts"); ``lines`` are the events after it with ``undo`` and
    ``redo`` in the order they were done (undone events stay: their dice were
    drawn); ``cut``: the last line was cut short (the next append would join it).
    A bad checkpoint raises ValueError."""
    found = parse_header(stream)
    if found is None:
        return None
    checkpoint, lines, cut = None, [], False
    for line in stream:
        if not line.endswith("\n"):
            cut = True
            break
        line = line[:-1]
        if line.startswith(CHECKPOINT):
            checkpoint = json.loads(line[len(CHECKPOINT):])
            lines = []
        elif line and line[0] != "#":
            lines.append(line)
    return found[0], checkpoint, lines, cut


def resume(journal, rules, found=None, keep=None):
    """The game on flash rebuilt (from its checkpoint, if any), or None. ``found`` is
    what ``read(journal.flash)`` gave, when the caller already read it; ``keep`` as for
    ``Game``. A journal whose last line was cut short is rewritten whole."""
    found = found or read(journal.flash)
    if found is None:
        return None
    header, checkpoint, _, cut = found
    if header.get("ruleset") != rules["name"]:
        raise Illegal("the saved game is %s, not %s" % (header.get("ruleset"), rules["name"]))
    game = _replayed(rules, found, keep)  # (rebuild's, inline: a Pico's stack is short)
    journal.base = checkpoint["n"] if checkpoint else 0
    journal.head = journal.read_head()  # (a line cut short is not in it)
    if cut:
        journal.compact(game)  # its checkpoint carries the head of the whole lines
    return game


def rebuild(rules, found, keep=None, check=None):
    """The game ``found`` (what ``parse`` gave) records: replayed from its start or its
    checkpoint; ``check`` as for ``History.replay`` (audit)."""
    return _replayed(rules, found, keep, check)


def _replayed(rules, found, keep=None, check=None):
    from arbiter.game.engine import Game  # not before: choosing a game needs no engine
    from arbiter.game.replay import replay  # (not History.replay: a call less deep)

    header, checkpoint, lines, _ = found
    game = Game(rules, header["players"], header["options"], header["seed"], keep,
                header.get("mix"))
    start = logged = 0
    if checkpoint:
        if checkpoint["state"] is not None:  # None: the start's
            game.state = checkpoint["state"]  # freshly parsed: the game's own
        game.rng.restore(checkpoint["rng"])
        start, logged = checkpoint["n"], checkpoint["logged"]
    replay(game.history, lines, check, start, logged,
           checkpoint.get("starts", ()) if checkpoint else ())
    return game
