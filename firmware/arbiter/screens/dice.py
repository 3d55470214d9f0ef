"""The dice roller: 1-10 dice of d4, d6, d8, d10, d12 or d20; each die and the total."""

from arbiter import ui
from arbiter.game.rng import DICE
from arbiter.hw.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.hw.ring import PLAYER_COLOURS
from arbiter.ui.font import GLYPHS

MAX_DICE = 10


def big(fb, s, x, y, scale=2):
    """Digits at ``scale`` times the font's size (the total)."""
    for ch in s:
        i = (ord(ch) - 32) * 5
        for col in range(5):
            bits = GLYPHS[i + col]
            for row in range(8):
                if bits >> row & 1:
                    fb.fill_rect(x + col * scale, y + row * scale, scale, scale, 1)
        x += ui.CELL * scale


class DiceRoller:
    title = "Dice"

    def __init__(self):
        self.die = 1  # index into DICE: d6
        self.count = 1
        self.results = []
        self.rolls = 0

    def draw(self, app, fb):
        ui.title(fb, "Dice")
        ui.centred(fb, 1, "< %d x d%d >" % (self.count, DICE[self.die]))
        results = self.results
        for row in range(2):
            chunk = results[row * 5 : row * 5 + 5]
            if chunk:
                ui.centred(fb, 2 + row, " ".join("%2d" % r for r in chunk))
        if results:
            total = str(sum(results))
            ui.text(fb, "Total", 8, 40)
            big(fb, total, 128 - 8 - 2 * ui.width(total), 36)
        else:
            ui.centred(fb, 5, "A: roll")
        ui.hint(fb, "<>die ^v# A:roll")

    def key(self, app, button, kind, now):
        if button == LEFT:
            self.die = (self.die - 1) % len(DICE)
            self.results = []
        elif button == RIGHT:
            self.die = (self.die + 1) % len(DICE)
            self.results = []
        elif button == UP:
            self.count = min(MAX_DICE, self.count + 1)
            self.results = []
        elif button == DOWN:
            self.count = max(1, self.count - 1)
            self.results = []
        elif button == A and kind != LONG:
            self.roll(app, now)
        elif button == B:
            app.leds.clear()  # the total was this screen's: the ring goes dark with it
            app.pop()
        app.redraw()

    def roll(self, app, now):
        faces = DICE[self.die]
        self.results = [app.rng.roll(faces) for _ in range(self.count)]
        self.rolls += 1
        total = sum(self.results)
        app.log("roll %dd%d: %s = %d" % (self.count, faces, " ".join(
            str(r) for r in self.results), total))
        # The ring ends lit in proportion to the total, out of the highest possible.
        lit = max(1, (total * app.leds.count + self.count * faces - 1) // (self.count * faces))
        app.leds.spin(PLAYER_COLOURS[0], now, lit)
