"""A game's history: the events applied since the start, undo, redo and replays.

A game is its events applied to the start. Snapshots of the state every few
events let undo (and a refused action's rollback) replay only the events since
the nearest; a bounded history (``keep``, a device's heap) drops the events
undo can no longer reach. The History works on the game it belongs to through
its state, generator and log, ``restart()`` and ``apply_again(event)``.
"""

from arbiter.game import Illegal, actions
from arbiter.game.state import clone

SNAP_EVERY = 16  # events between in-memory snapshots
SNAP_KEEP = 4  # snapshots kept: undo further back replays from the start
# keep=N (a device): an undo or a refused action replays at most 3 events from a
# snapshot (a button answers at once, a pass's garbage stays small), undo reaches
# 20 actions back or more, and the snapshots take a few KB.
BOUNDED_SNAP_EVERY = 4
BOUNDED_SNAP_KEEP = 6


class History:
    def __init__(self, game, keep=None):
        self.game = game
        self.keep = keep  # None keeps every event (host tools); N: see above
        self.every, self.kept = (SNAP_EVERY, SNAP_KEEP) if keep is None else \
            (BOUNDED_SNAP_EVERY, BOUNDED_SNAP_KEEP)
        self.events = []  # applied events, "action|rolls", after the dropped ones
        self.undone = []  # for redo
        self.dropped = 0  # events no longer in RAM, before events[0]
        self.snaps = []  # (events applied, state, rng, log length): undo replays from one

    def count(self):
        """Events applied since the start, the dropped ones included."""
        return self.dropped + len(self.events)

    def undo_reach(self):
        """The fewest actions undo reaches back when older events are dropped."""
        return self.every * (self.kept - 1)

    def oldest(self):
        """(events, state, rng, logged) of the oldest snapshot, or None."""
        return self.snaps[0] if self.snaps else None

    def add(self, event):
        """A new event applied: redo's list is gone."""
        self.events.append(event)
        self.undone = []
        self._snapshot()

    def _snapshot(self):
        count = self.count()
        if count % self.every == 0:
            game = self.game
            self.snaps.append((count, clone(game.state), game.rng.snapshot(), game.logged()))
            del self.snaps[:-self.kept]
            # With every snapshot kept, no undo goes past the oldest (undo_reach() or
            # more): the events before it go (a game resumed from a checkpoint has none
            # before it either).
            drop = self.snaps[0][0] - self.dropped
            if drop > 0 and len(self.snaps) == self.kept and \
                    (self.keep is not None or self.dropped):
                del self.events[:drop]
                self.dropped += drop

    def undo(self):
        if not self.events:
            raise Illegal("no further undo: it reaches the last %d actions" % self.undo_reach()
                          if self.dropped else "nothing to undo")
        self.undone.append(self.events.pop())
        self.rewind(self.count())
        return "undo"

    def redo(self):
        if not self.undone:
            raise Illegal("nothing to redo")
        self.events.append(self.game.apply_again(self.undone.pop()))
        self._snapshot()
        return "redo"

    def rewind(self, count):
        """The game as it was after the first ``count`` events: from the nearest
        snapshot, the events since applied again."""
        self.snaps = [snap for snap in self.snaps if snap[0] <= count]
        game = self.game
        if not self.snaps:  # only when nothing is dropped: a snapshot stays at dropped
            self.replay(self.events[:count])
            return
        done, state, rng, logged = self.snaps[-1]
        game.state = clone(state)
        game.rng.restore(rng)
        game.cut_log(logged)
        for event in self.events[done - self.dropped:count - self.dropped]:
            game.apply_again(event)

    def replay(self, events, check=None):
        """Rebuild the game from the start. ``check(i, recorded, rolled)`` sees each
        event's recorded dice beside the ones the generator gives now (audit)."""
        self.game.restart()
        self.events, self.snaps, self.dropped = [], [], 0
        self._reapply(events, check)

    def replay_from(self, start, events, logged=0, check=None):
        """As ``replay``, on top of the game's state after the first ``start`` events
        (a journal's checkpoint, ``logged`` log entries in): undo stops there."""
        if start == 0:
            self.replay(events, check)
            return
        game = self.game
        self.events, self.dropped = [], start
        game.log, game.log_dropped = [], logged
        self.snaps = [(start, clone(game.state), game.rng.snapshot(), logged)]
        self._reapply(events, check)

    def _reapply(self, events, check):
        game = self.game
        for i, event in enumerate(events):
            game.trim_log()
            now = game.apply_again(event)
            self.events.append(now)
            self._snapshot()
            if check:
                check(i, actions.unrecord(event)[1], actions.unrecord(now)[1])
