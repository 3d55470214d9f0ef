"""A list grid whose squares can be face down, and say what they are (Tactics Joker).

The ruleset's ``grid.shown`` is an expression giving the places (from 0) of the
squares that are face up, or null for all: the others show ``??`` (fog of war:
not yet turned up). Its
``name`` ($t bound to the square's item) is shown beside the cursor's square on
the title line: ``2,3 10S mountain``. A long A on a face-down square is a peek
for one player (the rules let a player look at cards near their armies): a
"others look away" question first, then the card; nothing is recorded.
"""

from arbiter.game import Illegal
from arbiter.game.expr import evaluate
from arbiter.hw.buttons import LONG, A
from arbiter.screens.grid import GridPage
from arbiter.ui.menu import Confirm, TextPage


class BoardPage(GridPage):
    stands_on = "arbiter.screens.grid"  # let go with the last screen using it

    def __init__(self, game, spec):
        self.game = game
        self.spec = spec
        try:
            items = game.get(spec["value"])
            shown = evaluate(game, spec["shown"]) if "shown" in spec else None
        except Illegal:
            items, shown = [], None
        self.shown = shown if isinstance(shown, list) else None
        super().__init__(items if isinstance(items, list) else [], spec.get("columns", 7),
                         spec.get("label", "Board"))

    def hidden(self, i):
        return self.shown is not None and i not in self.shown

    def cell(self, row, col):
        if self.hidden(row * self.columns + col):
            return "??"
        return super().cell(row, col)

    def head(self, row, col):
        where = "%d,%d " % (row + 1, col + 1)
        if self.hidden(row * self.columns + col):
            return where + "??"
        return where + self.name(self._cell(row, col))

    def name(self, item):
        if "name" not in self.spec or not item:
            return item
        try:
            return "%s %s" % (item, self.game.bound_eval("t", item, self.spec["name"]))
        except Exception:  # a ruleset mistake shows the card alone
            return item

    def key(self, app, button, kind, now):
        if button == A and kind == LONG and self.hidden(self.cursor):
            row, col = divmod(self.cursor, self.columns)
            square = "%d,%d" % (row + 1, col + 1)
            text = self.name(self.items[self.cursor])
            app.push(Confirm("Peek " + square, ["Only the player", "who may look:",
                                                "others look away"],
                             lambda app, now: app.push(TextPage(square, [text]))))
            app.redraw()
            return
        super().key(app, button, kind, now)
