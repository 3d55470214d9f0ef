"""A game's history rebuilt from its events: a resume, an audit (History.replay).

On the device only a resume needs it, and a new game lets it go (setup.py)."""

from arbiter.game import actions
from arbiter.game.jobs import let_go
from arbiter.game.state import shared_copy


def replay(history, events, check, start, logged, starts):
    game = history.game
    frontier = game.rng.mark()
    if start:
        game.log, game.log_dropped = [], logged
        history.snaps = [(start, shared_copy(game.state), logged)]
    else:  # the game at its start: the generator back at the seed
        game.restart()
        history.snaps = []
    history.events, history.starts, history.undone, history.dropped = [], [], [], start
    for i, event in enumerate(events):
        if event[:1] == "!":  # a refused action's dice, spent (spent.py)
            from arbiter.game.spent import refuse_again

            game.trim_log()
            spent = refuse_again(game, event)
            if check:
                check(i, actions.unrecord(event[1:])[1], actions.unrecord(spent[1:])[1])
            continue
        if event == "undo" or event == "redo":
            if event == "redo" and history.undone:
                history.redo()
            elif event == "undo" and history.events:
                history.undo(True)
            continue
        game.trim_log()
        forced = bool(starts)
        if forced:  # its dice from where they began, then back
            game.rng.goto(starts.pop(0))
        begun = game.rng.mark(game.logged())
        now = game.do(event, again=True)
        history.add(now, begun)
        if forced:
            game.rng.goto(frontier)
        if check:
            check(i, actions.unrecord(event)[1], actions.unrecord(now)[1])
    let_go("game", "spent")  # (if a refused action's line brought it)
