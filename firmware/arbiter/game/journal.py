"""The journal: a game on flash, so a reset or a pulled battery costs nothing.

``game.jnl`` holds a header line (ruleset, players, options, seed) and then
one line per event as the engine records it (``next|2;4``), ``undo`` and
``redo`` included: a few bytes per event, appended. Every ``CHECKPOINT_EVERY``
events ``game.ckpt`` gets the whole state, written atomically, so resuming a
long game replays only the events since. A line cut short by a power loss
has no newline and is ignored: the game resumes at the last whole event.
Leaving a game appends ``#end``: the journal stays for ``pull-log`` and
``audit``, but the device no longer offers to resume it.
"""

import json

from arbiter.game.effects import Illegal
from arbiter.game.state import clone

JOURNAL = "game.jnl"
CHECKPOINT = "game.ckpt"
CHECKPOINT_EVERY = 64
CLOSED = "#end\n"


class Journal:
    def __init__(self, flash):
        self.flash = flash

    def start(self, game):
        header = {"format": 1, "ruleset": game.rules["name"], "players": game.players,
                  "options": game.options, "seed": game.seed}
        self.flash.remove(CHECKPOINT)
        self.flash.write(JOURNAL, json.dumps(header) + "\n")

    def record(self, game, event):
        """Append ``event`` (already applied to ``game``); checkpoint now and then."""
        self.flash.append(JOURNAL, event + "\n")
        count = len(game.events)
        if event not in ("undo", "redo") and count % CHECKPOINT_EVERY == 0:
            data = {"n": count, "last": game.events[-1], "state": game.state,
                    "rng": game.rng.snapshot(), "log": game.log[-8:]}
            self.flash.write(CHECKPOINT, json.dumps(data))

    def close(self):
        self.flash.append(JOURNAL, CLOSED)
        self.flash.remove(CHECKPOINT)

    def unfinished(self):
        """True when flash holds a game that was never left (read from its tail only)."""
        try:
            with open(self.flash.path(JOURNAL), "rb") as f:
                size = f.seek(0, 2)
                if size < 2:
                    return False
                f.seek(max(0, size - len(CLOSED)))
                return f.read() != CLOSED.encode()
        except OSError:
            return False

    def read(self):
        """(header, events, undone) from flash, or None when there is no game."""
        text = self.flash.read(JOURNAL)
        if not text:
            return None
        lines = text.split("\n")
        lines.pop()  # after the last newline: empty, or a line cut short
        if not lines:
            return None
        try:
            header = json.loads(lines[0])
        except ValueError:
            return None
        events, undone = [], []
        for line in lines[1:]:
            if line == "undo":
                if events:
                    undone.append(events.pop())
            elif line == "redo":
                if undone:
                    events.append(undone.pop())
            elif line and line[0] != "#":
                events.append(line)
                undone = []
        return header, events, undone


def resume(journal, rules, found=None):
    """The game on flash rebuilt (from the checkpoint when it fits), or None.
    ``found`` is what ``journal.read()`` gave, when the caller already read it."""
    found = found or journal.read()
    if found is None:
        return None
    header, events, undone = found
    if header.get("ruleset") != rules["name"]:
        raise Illegal("the saved game is %s, not %s" % (header.get("ruleset"), rules["name"]))
    from arbiter.game.engine import Game  # not before: choosing a game needs no engine

    game = Game(rules, header["players"], header["options"], header["seed"])
    start = _from_checkpoint(journal, game, events)
    game.replay_from(start, events)
    game.undone = undone
    return game


def _from_checkpoint(journal, game, events):
    text = journal.flash.read(CHECKPOINT)
    if not text:
        return 0
    try:
        data = json.loads(text)
    except ValueError:
        return 0
    n = data.get("n", 0)
    if not 0 < n <= len(events) or events[n - 1] != data.get("last"):
        return 0  # undone past it, or not this game: replay from the start
    game.state = clone(data["state"])
    game.rng.restore(data["rng"])
    game.log = data["log"]
    game.events = list(events[:n])
    return n
