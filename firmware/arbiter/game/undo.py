"""Undo and redo: the last event taken back (the state rewound, its rolls kept in
the log) and done again with its own dice. Loaded for each (History.undo, redo)."""

from arbiter.game import Illegal


def undo(history, agreed=False):
    """The last event taken back: the state as before it, its dice kept in the log
    (marked undone); one that rolled needs the table's agreement (``agreed``)."""
    if not history.events:
        raise Illegal("no further undo: it reaches the last %d actions" % history.undo_reach()
                      if history.dropped else "nothing to undo")
    game = history.game
    if not agreed and (history.needs() or game.state["result"]):
        raise Illegal("undo needs everyone's agreement (undo agreed): " + (
            "its rolls " + history.needs() + " stay in the log" if history.needs() else
            "the game is over"))
    revealed = len(game.state["revealed"])
    event, start = history.events.pop(), history.starts.pop()
    history.undone.append((event, start))
    history.rewind(history.count())
    if len(game.state["revealed"]) < revealed:  # rare: back as it was, then no
        game.cut_log(start[4])
        redo(history)
        raise Illegal("no undo past a reveal: a revealed secret stays revealed")
    text, bar, _ = event.partition("|")
    if not bar:  # nothing drawn: it goes from the log as well
        game.cut_log(start[4])
        return "undo"
    for entry in game.log_since(start[4]):  # what it rolled stays, marked
        if "rolls" in entry or "items" in entry:
            entry["undone"] = True
    game.log.append({"event": "undo", "action": text})
    return "undo"


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
