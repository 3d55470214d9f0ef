"""The dice sealed: the device's commitment on screen, then the players' part.

Each player in turn chooses ``PART`` arrows. They are the players' part of the dice
(rng.dice_seed): the device committed to its seed before anyone chose them, and
cannot choose or change them, since they are on the screen to be photographed with
the commitment before the first roll (``arbiter audit --mix`` takes them).
"""

from arbiter import ui
from arbiter.hw.buttons import DOWN, LEFT, PRESS, RIGHT, UP, A, B

PART = 4  # arrows each player chooses: 256 ways, 65,536 for two players
ARROWS = {UP: "U", DOWN: "D", LEFT: "L", RIGHT: "R"}


class Seal:
    def __init__(self, setup, seed, shown, begin, firmware=None):
        self.setup, self.seed, self.shown = setup, seed, shown
        self.begin = begin  # (app, setup, seed, the players' part, now): the game starts
        self.firmware = firmware  # the firmware's digest (store/firmware.py), to photograph
        self.parts = [""]

    def done(self):
        return len(self.parts) == self.setup.players and len(self.parts[-1]) == PART

    def draw(self, app, fb):
        done = self.done()
        ui.title(fb, "Photo, then A" if done else "New game")
        ui.line(fb, 1, shown_parts([p for p in self.parts if p]) if self.parts[0] else
                "Dice sealed:")
        for row in range(4):  # the 64 digits
            ui.line(fb, row + 2, self.shown[16 * row:16 * row + 16])
        if self.firmware:
            ui.line(fb, 6, "FW " + self.firmware)
        if done:
            ui.hint(fb, "A:play B:change")
        else:
            ui.hint(fb, "P%d: %d arrows %s" % (len(self.parts), PART, self.parts[-1]))

    def key(self, app, button, kind, now):
        if kind != PRESS:
            return
        parts = self.parts
        if button in ARROWS and not self.done():
            parts[-1] += ARROWS[button]
            if len(parts[-1]) == PART and len(parts) < self.setup.players:
                parts.append("")  # the next player's turn
        elif button == A and self.done():
            self.begin(app, self.setup, self.seed, ".".join(parts), now)
            return
        elif button == B:
            if parts == [""]:
                app.pop()  # back to the game's setup
                return
            if not parts[-1]:
                parts.pop()
            parts[-1] = parts[-1][:-1]
        app.redraw()


def shown_parts(parts):
    """The players' parts on one line, as spaced as it allows."""
    for text in ("Yours: " + " ".join(parts), " ".join(parts)):
        if len(text) <= ui.COLS:
            return text
    return "".join(parts)
