"""The journal: a game on flash, so a reset or a pulled battery costs nothing.

``game.jnl`` holds a header line (ruleset, players, options, seed) and then one
line per event as the engine records it (``next|2;4``), ``undo`` and ``redo``
included, and a refused action that rolled (``!strike P1|6``: its dice are spent,
game/spent.py): a few bytes per event, appended. For a game that keeps only what undo
reaches (``Game(keep=N)``, as on the device) the journal is rewritten every
``CHECKPOINT_EVERY`` events, atomically, as the header, a checkpoint line
(state, dice, log count) where the events in RAM begin and those events, so its
size stays bounded, a resume replays only the events since, and undo after a
reset reaches as far back as without one. An undo back past the checkpoint
rewrites it from the oldest snapshot with the events after. A line cut short by
a power loss has no newline and is ignored: the game resumes at the last whole
event (and the journal is rewritten whole). Leaving a game appends ``#end``:
the journal stays for ``pull-log`` and ``audit``, but the device no longer
offers to resume it. Read back (store/saved.py) line by line, never whole: the
heap holds a line at a time.

Before a compaction replaces the journal, its whole lines go to the end of
``game.old`` (``PAST``): with it the table holds every event of the game, and the
audit replays it from the start, each checkpoint checked against the replay (a
checkpoint only makes a resume quick); store/past.py copies it.

A hash chain runs over the journal's lines (``link``): its head is the SHA-256 of
the head before and the line. A checkpoint carries the head of the journal it
replaces (so it commits to every event before it), and the rewritten journal's
head is worked out afresh from its lines. Leaving the game writes the head
(``#head``) before ``#end`` and the device shows it: anyone may recompute a chain
after editing the file, but not make it match the head the table saw.
"""

import json

from arbiter.game.jobs import let_go
from arbiter.store import CLOSED, JOURNAL, PAST  # noqa: F401 (theirs: saved.py, the host's)

CHECKPOINT = "#ckpt "  # starts the checkpoint line, after the header
CHECKPOINT_EVERY = 80  # a checkpoint of 2-3 KB spread over this many events: under 64 B each
HEAD = "#head "  # the chain's head, written before CLOSED
ZERO = bytes(32)  # the head before the header line
MAX_BYTES = 32768  # compacted, a device's journal stays under 5 KB; more is not one
DEVICE_KEEP = 20  # log entries a game keeps in RAM on the device: its log page shows 20


class Journal:
    def __init__(self, flash):
        self.flash = flash
        self.base = 0  # events before the journal's checkpoint
        self.head = ZERO  # the hash chain's head over the journal's lines

    def start(self, game):
        self.flash.remove("game.ckpt")  # older firmware kept its checkpoint there
        self.flash.remove(PAST)
        header = _header(game)
        self.flash.write(JOURNAL, header + "\n")
        self.base = 0
        self.head = link(ZERO, header)

    def record(self, game, event, compact=True):
        """Append ``event`` (already applied to ``game``); compact now and then. With
        ``compact`` False, True when a compaction is due, for the caller to do later
        (the device: in a pass of its own, not on top of the action's garbage)."""
        if event == "undo" and game.count() < self.base:
            # Undone back past the checkpoint: an appended undo could not be replayed
            # from it, so the journal is rewritten from where RAM's events begin.
            self.compact(game)
            return False
        self.flash.append(JOURNAL, event + "\n")
        self.head = link(self.head, event)
        due = event != "redo" and event != "undo" and event[:1] != "!" and \
            game.keep is not None and \
            game.count() % CHECKPOINT_EVERY == 0
        if due and compact:
            self.compact(game)  # from the oldest snapshot: a resume undoes as far
        return due

    def compact(self, game):
        """Rewrite the journal from ``game`` alone, atomically (a power cut leaves the
        old one, which holds the same game): the header, then a checkpoint where the
        events in RAM begin (at the start when none are dropped) followed by those
        events, the undone ones and as many ``undo`` (so redo still works). The
        checkpoint keeps where the dice stand (they never rewind), for the events
        after it where each one's dice began, and the head of the journal before."""
        # written part by part: a checkpoint and the events joined would be a few KB
        # of garbage, and the pass that compacts is an action's, the heaviest
        parts = [_header(game), "\n"]
        history = game.history
        start, state, logged = history.snaps[0] if history.dropped else (0, None, 0)
        if start != history.dropped:
            return  # cannot happen: a snapshot stays where the events begin
        mark = {"n": start, "state": state, "rng": game.rng.snapshot(), "logged": logged,
                "starts": history.starts + [u[1] for u in reversed(history.undone)],
                "head": self.head.hex()}
        parts += [CHECKPOINT, lambda f: json.dump(mark, f, separators=(",", ":")), "\n"]
        for event in history.events:
            parts += [event, "\n"]
        for undone in reversed(history.undone):
            parts += [undone[0], "\n"]
        parts += ["undo\n"] * len(history.undone)
        from arbiter.store import past

        past.keep(self.flash)
        let_go("store", "past")
        self.flash.write(JOURNAL, parts)
        self.base = start
        self.head = self.read_head()  # of the lines as written (a checkpoint is KBs)

    def read_head(self):
        with self.flash.open(JOURNAL, "rb") as stream:
            return file_head(stream)

    def close(self):
        """The game left: its head (shown to the table) and the end."""
        self.flash.append(JOURNAL, HEAD + self.head.hex() + "\n" + CLOSED)

def _header(game):
    header = {"format": 1, "ruleset": game.rules["name"], "players": game.players,
              "options": game.options, "seed": game.seed}
    if game.mix is not None:
        header["mix"] = game.mix  # the players' part of the dice (rng.dice_seed)
    return json.dumps(header)


def link(head, line):
    """The chain's next head: SHA-256 of the head before and the line (no newline)."""
    import hashlib

    h = hashlib.sha256(head)
    h.update(line.encode() if isinstance(line, str) else line)
    return h.digest()


def file_head(stream):
    """The chain's head over the whole lines of a journal open in binary, read in
    small pieces (a checkpoint line is a few KB); a last line cut short is not in it."""
    import hashlib

    head = ZERO
    h = hashlib.sha256(head)
    while True:
        chunk = stream.read(256)
        if not chunk:
            return head
        at = 0
        while True:
            end = chunk.find(b"\n", at)
            if end < 0:
                h.update(chunk[at:])
                break
            h.update(chunk[at:end])
            head = h.digest()
            h = hashlib.sha256(head)
            at = end + 1
