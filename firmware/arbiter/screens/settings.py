"""Settings: display sleep, LED brightness, contrast; applied at once, saved on leaving."""

from arbiter import ui
from arbiter.game.jobs import let_go
from arbiter.hw.buttons import DOWN, LEFT, RIGHT, UP, A, B
from arbiter.store.settings import CONTRAST_CHOICES, cycle, save

_ROWS = ("sleep_s", "brightness", "contrast")


def _label(key, value):
    if key == "sleep_s":
        return "Sleep  " + ("never" if value == 0 else "%d s" % value)
    if key == "brightness":
        return "LEDs   %d%%" % value
    return "Contrast %d/%d" % (CONTRAST_CHOICES.index(value) + 1, len(CONTRAST_CHOICES))


class SettingsScreen:
    def __init__(self):
        self.cursor = 0
        self.changed = False

    def draw(self, app, fb):
        ui.title(fb, "Settings")
        for i, key in enumerate(_ROWS):
            ui.line(fb, 1 + i * 2, " " + _label(key, app.settings[key]), i == self.cursor)
        ui.hint(fb, "<> change A:save")

    def key(self, app, button, kind, now):
        if button == UP:
            self.cursor = (self.cursor - 1) % len(_ROWS)
        elif button == DOWN:
            self.cursor = (self.cursor + 1) % len(_ROWS)
        elif button in (LEFT, RIGHT):
            cycle(app.settings, _ROWS[self.cursor], 1 if button == RIGHT else -1)
            app.apply_settings()
            self.changed = True
        elif button in (A, B):
            if self.changed:
                save(app.flash, app.settings)
                app.log("settings saved")
            app.pop()
            let_go("store", "settings")  # with this screen's code (app._let_go)
        app.redraw()
