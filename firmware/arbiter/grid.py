"""A ruleset's ``grid``: a list game value (Tactics Joker's battlefield) as a grid
on the OLED. The whole grid fits at 2 characters a square; A zooms in to a
window of whole names (up to 3 characters); the arrows move the cursor, whose
square and full name are in the title; B goes back."""

from arbiter.buttons import DOWN, LEFT, RIGHT, UP, A, B


def short(text):
    """Two characters for the zoomed-out grid: ``10S`` is ``TS``."""
    return text.replace("10", "T")[:2]


class GridPage:
    def __init__(self, items, columns, label):
        self.items = [str(item) for item in items]
        self.columns = max(1, columns)
        self.rows = (len(self.items) + self.columns - 1) // self.columns
        self.label = label
        self.cursor = 0
        self.zoomed = False

    def _cell(self, row, col):
        i = row * self.columns + col
        return self.items[i] if 0 <= i < len(self.items) else ""

    def draw(self, app, fb):
        row, col = divmod(self.cursor, self.columns)
        head = "%s %d,%d %s" % (self.label[:6], row + 1, col + 1, self._cell(row, col))
        fb.fill_rect(0, 0, 128, 8, 1)
        fb.text(head[:16], 0, 0, 0)
        width, shown = (32, 4) if self.zoomed else (18, 7)
        left = max(0, min(col - shown + 1, self.columns - shown)) if col >= shown else 0
        top = max(0, min(row - 6, self.rows - 7)) if row >= 7 else 0
        for r in range(top, min(self.rows, top + 7)):
            for c in range(left, min(self.columns, left + shown)):
                text = self._cell(r, c)
                text = text[:3] if self.zoomed else short(text)
                x, y = (c - left) * width, (r - top + 1) * 8
                on = (r, c) == (row, col)
                if on:
                    fb.fill_rect(x, y, width - 1, 8, 1)
                fb.text(text, x, y, 0 if on else 1)

    def key(self, app, button, kind, now):
        row, col = divmod(self.cursor, self.columns)
        if button == UP:
            row = (row - 1) % self.rows
        elif button == DOWN:
            row = (row + 1) % self.rows
        elif button == LEFT:
            col = (col - 1) % self.columns
        elif button == RIGHT:
            col = (col + 1) % self.columns
        elif button == A:
            self.zoomed = not self.zoomed
        elif button == B:
            app.pop()
        self.cursor = min(row * self.columns + col, max(0, len(self.items) - 1))
        app.redraw()
