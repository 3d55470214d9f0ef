"""Undo, redo and replays: a game is its events applied to the start.

Snapshots of the state every few events let undo (and a refused action's
rollback) replay only the events since the nearest; a bounded game (``keep``,
the device) drops what undo can no longer reach.
"""

from arbiter.game import actions
from arbiter.game.context import Context
from arbiter.game.errors import Illegal
from arbiter.game.state import clone


class History(Context):
    def count(self):
        """Events applied since the start, the dropped ones included."""
        return self.dropped + len(self.events)

    def logged(self):
        """Log entries since the start, the dropped ones included."""
        return self.log_dropped + len(self.log)

    def log_since(self, logged):
        """The log entries after the first ``logged`` (those still in RAM)."""
        return self.log[max(0, logged - self.log_dropped):]

    def undo_reach(self):
        """The fewest actions undo reaches back when older events are dropped."""
        return self._every * (self._kept - 1)

    def oldest(self):
        """(events, state, rng, logged) of the oldest snapshot, or None."""
        return self._snaps[0] if self._snaps else None

    def _snapshot(self):
        count = self.count()
        if count % self._every == 0:
            self._snaps.append((count, clone(self.state), self.rng.snapshot(),
                                self.logged()))
            del self._snaps[:-self._kept]
            # With every snapshot kept, no undo goes past the oldest (undo_reach() or
            # more): the events before it go (a game resumed from a checkpoint has none
            # before it either).
            drop = self._snaps[0][0] - self.dropped
            if drop > 0 and len(self._snaps) == self._kept and \
                    (self.keep is not None or self.dropped):
                del self.events[:drop]
                self.dropped += drop

    def _trim_log(self):
        extra = len(self.log) - self.keep if self.keep is not None else 0
        if extra > 0:
            del self.log[:extra]
            self.log_dropped += extra

    def undo(self):
        if not self.events:
            raise Illegal("no further undo: it reaches the last %d actions" % self.undo_reach()
                          if self.dropped else "nothing to undo")
        self.undone.append(self.events.pop())
        self._rewind(self.count())
        return "undo"

    def _rewind(self, count):
        """The state after the first ``count`` events: from the nearest snapshot."""
        self._snaps = [snap for snap in self._snaps if snap[0] <= count]
        if not self._snaps:  # only when nothing is dropped: a snapshot stays at dropped
            self.replay(self.events[:count])
            return
        done, state, rng, logged = self._snaps[-1]
        self.state = clone(state)
        self.rng.restore(rng)
        kept = logged - self.log_dropped
        if kept < 0:  # the entries up to the snapshot are trimmed: the log goes on from it
            self.log_dropped, kept = logged, 0
        del self.log[kept:]
        for event in self.events[done - self.dropped:count - self.dropped]:
            self._again(event)

    def redo(self):
        if not self.undone:
            raise Illegal("nothing to redo")
        self.events.append(self._again(self.undone.pop()))
        self._snapshot()
        return "redo"

    def replay(self, events, check=None):
        """Rebuild the state from the start. ``check(i, recorded, rolled)`` sees each
        event's recorded dice beside the ones the generator gives now (audit)."""
        self._restart()
        self.events, self._snaps, self.dropped = [], [], 0
        self._reapply(events, check)

    def replay_from(self, start, events, logged=0, check=None):
        """As ``replay``, on top of the state after the first ``start`` events (a
        journal's checkpoint, ``logged`` log entries in): undo stops there."""
        if start == 0:
            self.replay(events, check)
            return
        self.events, self.dropped = [], start
        self.log, self.log_dropped = [], logged
        self._snaps = [(start, clone(self.state), self.rng.snapshot(), logged)]
        self._reapply(events, check)

    def _reapply(self, events, check):
        for i, event in enumerate(events):
            self._trim_log()
            now = self._again(event)
            self.events.append(now)
            self._snapshot()
            if check:
                check(i, actions.unrecord(event)[1], actions.unrecord(now)[1])

    def _again(self, event):
        """A recorded event applied once more (it was accepted before); its new record."""
        text, _ = actions.unrecord(event)
        name, args = actions.parse(text)
        return self._apply_new(name, args, text, again=True)
