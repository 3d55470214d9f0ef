"""Undo and redo: the last event taken back (the state rewound from a snapshot, its
rolls kept in the log) and done again with its own dice. Loaded for each
(History.undo, redo): a refused action needs no rewind (Game.do), so a game holds
none of this between undos."""

from arbiter.game import Illegal
from arbiter.game.state import shared_copy


def undo(history, agreed=False):
    """The last event taken back: the state as before it, its dice kept in the log
    (marked undone); one that rolled, or turned up a square of the grid (its
    ``shown``: a card everyone saw), needs the table's agreement (``agreed``)."""
    if not history.events:
        raise Illegal("no further undo: it reaches the last %d actions" % history.undo_reach()
                      if history.dropped else "nothing to undo")
    game = history.game
    if not agreed and (history.needs() or game.state["result"]):
        raise Illegal("undo needs everyone's agreement (undo agreed): " + (
            "its rolls " + history.needs() + " stay in the log" if history.needs() else
            "the game is over"))
    revealed, shown = len(game.state["revealed"]), _shown(game)
    event, start = history.events.pop(), history.starts.pop()
    history.undone.append((event, start))
    rewind(history, history.count())
    hidden = not agreed and shown is not None and _hides(shown, _shown(game))
    if len(game.state["revealed"]) < revealed or hidden:  # rare: back as it was, then no
        game.cut_log(start[4])
        redo(history)
        raise Illegal("undo needs everyone's agreement (undo agreed): a card turned up "
                      "would be hidden again" if hidden else
                      "no undo past a reveal: a revealed secret stays revealed")
    text, bar, _ = event.partition("|")
    if not bar:  # nothing drawn: it goes from the log as well
        game.cut_log(start[4])
        return "undo"
    for entry in game.log_since(start[4]):  # what it rolled stays, marked
        if "rolls" in entry or "items" in entry:
            entry["undone"] = True
    game.log.append({"event": "undo", "action": text})
    return "undo"


def _shown(game):
    """The grid's squares face up (its ``shown``), or None: all are."""
    grid = game.rules.get("grid")
    if not grid or "shown" not in grid:
        return None
    from arbiter.game.expr import evaluate

    shown = evaluate(game, grid["shown"])
    return shown if isinstance(shown, list) else None


def _hides(shown, now):
    """Would ``now`` hide a square ``shown`` showed? (A card everyone has seen.)"""
    return now is not None and any(i not in now for i in shown)


def redo(history):
    """The last undone event again, exactly: its own dice, not new ones."""
    if not history.undone:
        raise Illegal("nothing to redo")
    game = history.game
    event, start = history.undone.pop()
    if "|" in event:  # its rolls are logged again: the same ones
        game.log.append({"event": "redo", "action": event.split("|")[0]})
    frontier = game.rng.mark()
    game.rng.goto(start)
    start = game.rng.mark(game.logged())
    again = game.do(event, again=True)
    game.rng.goto(frontier)
    undone = history.undone
    history.add(again, start)
    history.undone = undone
    return "redo"


def rewind(history, count):
    """The game as it was after the first ``count`` events: from the nearest
    snapshot, the events since applied again, each with its own dice. The
    generator and the log stay as they are (undo cuts the log itself)."""
    game = history.game
    # each action's effects parsed once for the whole replay, not once per event:
    # an undo's rewind runs in one pass, its garbage uncollected until it ends
    game.kept_parses = {}
    frontier, log, dropped = game.rng.mark(), game.log, game.log_dropped
    try:
        history.snaps = [snap for snap in history.snaps if snap[0] <= count]
        if history.snaps:
            done, state, _ = history.snaps[-1]
            game.state = shared_copy(state)
        else:  # only when nothing is dropped: a snapshot stays at dropped
            done = 0
            game.restart()
        game.log = []
        for i in range(done - history.dropped, count - history.dropped):
            game.rng.goto(history.starts[i])
            game.do(history.events[i], again=True, recorded=False)
        del history.events[count - history.dropped:]
        del history.starts[count - history.dropped:]
    finally:
        game.log, game.log_dropped = log, dropped
        game.rng.goto(frontier)
        game.kept_parses = None
        game.parsed = {}
