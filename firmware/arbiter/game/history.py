"""A game's history: the events applied since the start, undo, redo and replays.

A game is its events applied to the start. Snapshots of the state every few
events let undo (and a refused action's rollback) replay only the events since
the nearest; a bounded history (``keep``, a device's heap) drops the events
undo can no longer reach. The History works on the game it belongs to through
its state, generator and log, ``restart()`` and ``do(event, again=True)``.

Dice never rewind: the generator only moves on. Each event keeps where the
generator stood when it began (``starts``), so a replay gives it its own dice
again while a new action takes the next ones, whatever was undone. Undo keeps
the log: the undone action's rolls stay there, marked undone. Undo stops at a
reveal, and undoing an action that rolled needs the table's agreement.
"""

from arbiter.game.state import shared_copy

SNAP_EVERY = 16  # events between in-memory snapshots
SNAP_KEEP = 4  # snapshots kept: undo further back replays from the start
# keep=N (a device): an undo or a refused action replays at most 4 events from a
# snapshot (a button answers at once, a pass's garbage stays small), undo reaches
# 20 actions back or more, and the snapshots take a few KB (Jugger's five, 5 KB).
BOUNDED_SNAP_EVERY = 5
BOUNDED_SNAP_KEEP = 5


class History:
    def __init__(self, game, keep=None):
        self.game = game
        self.keep = keep  # None keeps every event (host tools); N: see above
        self.every, self.kept = (SNAP_EVERY, SNAP_KEEP) if keep is None else \
            (BOUNDED_SNAP_EVERY, BOUNDED_SNAP_KEEP)
        self.events = []  # applied events, "action|rolls", after the dropped ones
        self.starts = []  # each event's generator position and log length (Rng.mark)
        self.undone = []  # (event, start) for redo
        self.dropped = 0  # events no longer in RAM, before events[0]
        self.snaps = []  # (events applied, state, log length): undo replays from one

    def count(self):
        """Events applied since the start, the dropped ones included."""
        return self.dropped + len(self.events)

    def undo_reach(self):
        """The fewest actions undo reaches back when older events are dropped."""
        return self.every * (self.kept - 1)

    def add(self, event, start):
        """An event applied (from ``start``, see ``starts``): redo's list is gone."""
        self.undone = []
        self.events.append(event)
        self.starts.append(start)
        self._snapshot()

    def frozen(self):
        """The last snapshot's state, whose records the game's shares until it changes
        one (Game.writable), or None."""
        return self.snaps[-1][1] if self.snaps else None

    def _snapshot(self):
        count = self.count()
        if count % self.every == 0:
            game = self.game
            # the game's records shared, each copied when it changes: the snapshots hold
            # what changed between them, not a state each (a Pico's heap held six whole)
            self.snaps.append((count, shared_copy(game.state, self.frozen()), game.logged()))
            del self.snaps[:-self.kept]
            # With every snapshot kept, no undo goes past the oldest (undo_reach() or
            # more): the events before it go (a game resumed from a checkpoint has none
            # before it either).
            drop = self.snaps[0][0] - self.dropped
            if drop > 0 and len(self.snaps) == self.kept and \
                    (self.keep is not None or self.dropped):
                del self.events[:drop]
                del self.starts[:drop]
                self.dropped += drop

    def needs(self):
        """The last action's dice ("3,1;5") when undoing it needs the table's
        agreement (it rolled: everyone saw them), else None. Undoing a finished
        game's last action needs it too (undo.undo)."""
        return self.events[-1].partition("|")[2] or None if self.events else None

    def undo(self, agreed=False):
        """The last event undone; see undo.py (its code loads for an undo)."""
        from arbiter.game import undo

        try:
            return undo.undo(self, agreed)
        finally:
            _let_go()

    def redo(self):
        """The last undone event again; see undo.py."""
        from arbiter.game import undo

        try:
            return undo.redo(self)
        finally:
            _let_go()

    def replay(self, events, check=None, start=0, logged=0, starts=()):
        """Rebuild the game from the start (or on top of its state after ``start``
        events, a journal's checkpoint, ``logged`` log entries in: undo stops there),
        each event drawing the next dice, ``undo`` and ``redo`` among them (a
        journal's lines) done as they were. ``check(i, recorded, rolled)`` sees each
        event's recorded dice beside the ones the generator gives now (audit).
        ``starts``: where the first events' dice began (Rng.mark: a journal rewritten
        after an undo), the generator back where it stood after each. Its code
        (replay.py) loads for a resume and goes when a game starts: a Pico's heap."""
        from arbiter.game.replay import replay

        replay(self, events, check, start, logged, starts)


def _let_go():
    """Undo and redo, a few a game: their code is loaded for each, not held."""
    from arbiter.game.jobs import let_go

    let_go("game", "undo")
