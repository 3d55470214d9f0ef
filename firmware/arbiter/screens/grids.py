"""The screen for a ruleset's ``grid``, by what it holds (see grid.py)."""

from arbiter.game import Illegal
from arbiter.game.jobs import let_go
from arbiter.screens.grid import GridPage


def open_grid(app, game):
    """The ruleset's grid from the game menu (or Down on the play screen). This code
    is let go once the grid's screen is open, where the heap is small (jobs.KEPT)."""
    try:
        _open(app, game)
    finally:
        let_go("screens", "grids")


def _open(app, game):
    grid = game.rules["grid"]
    if "cell" in grid:  # each player's pieces
        from arbiter.screens.piece_grid import PieceGrid  # each kind loaded when wanted

        app.push(PieceGrid(game, grid))
        return
    if "armies" in grid:  # armies on the board, moved from it (Tactics Joker)
        from arbiter.screens.army_board import ArmyBoard

        play = next((s for s in app.stack if getattr(s, "game", None) is game and
                     hasattr(s, "act")), None)
        if play is not None:
            app.push(ArmyBoard(game, grid, play))
            return
    if "shown" in grid or "name" in grid:  # face-down squares, a name per square
        from arbiter.screens.board_page import BoardPage

        app.push(BoardPage(game, grid))
        return
    try:
        items = game.get(grid["value"])
    except Illegal:
        items = []
    app.push(GridPage(items if isinstance(items, list) else [], grid.get("columns", 7),
                      grid.get("label", "Board")))
