"""Generic screens: a list menu and a scrollable page of text.

A screen has ``draw(app, fb)``, which paints the whole frame from state (the
display driver sends only what changed), and ``key(app, button, kind, now)``.
"""

from arbiter import ui
from arbiter.hw.buttons import DOWN, LONG, UP, A, B

_ROWS = 6  # lines 1..6; line 0 is the title, line 7 the key hint


class Menu:
    """A titled list; ``items`` are (label, callback(app, now)) pairs."""

    def __init__(self, title, items, back=True):
        self.title = title
        self.items = items
        self.cursor = self.top = 0
        self.back = back

    def draw(self, app, fb):
        first = ui.title(fb, self.title)
        self.top = ui.listing(fb, self.top, self.cursor, [item[0] for item in self.items],
                              first, 7 - first, 1)[0]
        ui.hint(fb, "A:ok B:back" if self.back else "A:ok")

    def key(self, app, button, kind, now):
        if button == UP:
            self.cursor = (self.cursor - 1) % len(self.items)
        elif button == DOWN:
            self.cursor = (self.cursor + 1) % len(self.items)
        elif button == A and kind != LONG:
            self.items[self.cursor][1](app, now)
        elif button == B and self.back:
            app.pop()
        app.redraw()


class TextPage:
    """Lines of text, scrolled with Up/Down, left with A or B."""

    def __init__(self, title, lines, on_close=None):
        self.title = title
        self.lines = []
        for text in lines:
            self.lines.extend(ui.wrap(text))
        self.top = 0
        self.rows = _ROWS  # lines under the title
        self.on_close = on_close

    def draw(self, app, fb):
        first = ui.title(fb, self.title)
        self.rows = 7 - first
        for row in range(self.rows):
            if self.top + row < len(self.lines):
                ui.line(fb, row + first, self.lines[self.top + row])
        more = len(self.lines) > self.rows
        ui.hint(fb, "^v A:ok" if more else "A:ok")

    def key(self, app, button, kind, now):
        if button == UP:
            self.top = max(0, self.top - 1)
        elif button == DOWN:
            self.top = max(0, min(self.top + 1, len(self.lines) - self.rows))
        elif button in (A, B):
            app.pop()
            if self.on_close:
                self.on_close(app, now)
        app.redraw()


class Confirm(TextPage):
    """A question: A does ``on_yes(app, now)``, B goes back."""

    def __init__(self, title, lines, on_yes):
        super().__init__(title, lines)
        self.on_yes = on_yes

    def draw(self, app, fb):
        super().draw(app, fb)
        fb.fill_rect(0, 56, 128, 8, 0)
        ui.centred(fb, 7, "A:yes B:no")

    def key(self, app, button, kind, now):
        if button == A and kind != LONG:
            app.pop()
            self.on_yes(app, now)
            app.redraw()
        elif button == B:
            app.pop()
            app.redraw()
        else:
            super().key(app, button, kind, now)
