"""A ruleset's ``grid`` on the OLED: a list game value (Tactics Joker's battlefield),
or each player's pieces (a Juggernaut's matrix, see piece_grid.py).

``GridPage`` is the list: the whole grid fits at 2 characters a square; A zooms in
to a window of whole names (up to 3 characters); the arrows move the cursor, whose
square and full name are in the title; B goes back. A subclass changes what a
square says (``cell``), the title (``head``), the geometry and what A does.
"""

from arbiter import ui
from arbiter.hw.buttons import DOWN, LEFT, RIGHT, UP, A, B


def short(text):
    """Two characters for the zoomed-out grid: ``10S`` is ``TS``."""
    return text.replace("10", "T")[:2]


class GridPage:
    rows_shown = 7  # text lines under the title
    pad = 0  # pixels the cursor's bar starts left of its square

    def __init__(self, items, columns, label):
        self.label = label
        self.columns = max(1, columns)
        self.cursor = 0
        self.zoomed = False
        self.head_lines = 1
        self.show(items)

    def show(self, items):
        self.items = [str(item) for item in items]
        self.rows = (len(self.items) + self.columns - 1) // self.columns

    def _cell(self, row, col):
        i = row * self.columns + col
        return self.items[i] if 0 <= i < len(self.items) else ""

    def head(self, row, col):
        return "%s %d,%d %s" % (self.label[:6], row + 1, col + 1, self._cell(row, col))

    def cell(self, row, col):
        text = self._cell(row, col)
        return text[:3] if self.zoomed else short(text)

    def geometry(self):
        """(x of the first square, pixels a square, squares shown a row)."""
        return (0, 32, 4) if self.zoomed else (0, 18, 7)

    def draw(self, app, fb):
        row, col = divmod(self.cursor, self.columns)
        head = ui.wrap(self.head(row, col))[:2]  # a long name takes a second line
        self.head_lines = len(head)
        fb.fill_rect(0, 0, 128, 8 * len(head), 1)
        for i in range(len(head)):
            ui.text(fb, head[i], 0, 8 * i, 0)
        x0, width, shown = self.geometry()
        high = self.rows_shown + 1 - len(head)
        left = max(0, min(col - shown + 1, self.columns - shown)) if col >= shown else 0
        top = max(0, min(row - high + 1, self.rows - high)) if row >= high else 0
        for r in range(top, min(self.rows, top + high)):
            y = (r - top + len(head)) * 8
            if x0:  # the number of the row's first square
                ui.text(fb, "%2d" % (r * self.columns + 1), 0, y)
            for c in range(left, min(self.columns, left + shown)):
                x = x0 + (c - left) * width
                on = (r, c) == (row, col)
                if on:
                    fb.fill_rect(x - self.pad, y, width - 1, 8, 1)
                ui.text(fb, self.cell(r, c), x, y, 0 if on else 1)
        self.foot(fb)

    def foot(self, fb):
        pass

    def key(self, app, button, kind, now):
        row, col = divmod(self.cursor, self.columns)
        rows = max(1, self.rows)  # an empty grid still takes B
        if button == UP:
            row = (row - 1) % rows
        elif button == DOWN:
            row = (row + 1) % rows
        elif button == LEFT:
            col = (col - 1) % self.columns
        elif button == RIGHT:
            col = (col + 1) % self.columns
        elif button == A:
            self.press_a()
            row, col = divmod(min(self.cursor, max(0, len(self.items) - 1)), self.columns)
        elif button == B:
            app.pop()
        self.cursor = min(row * self.columns + col, max(0, len(self.items) - 1))
        app.redraw()

    def press_a(self):
        self.zoomed = not self.zoomed
