"""The board with its armies (Tactics Joker's ``grid.armies``): moves are made on it.

A square shows its card (``7H``) or, holding an army, its terrain's letter, the
owner's number and the units (``M14``: P1's 4 units on a mountain). The title
line names the cursor's square (``2,3 10S mountain P1x4``), then what the last
action said. A on an army of the player whose turn it is picks it up whole; A
again on it takes one unit fewer (round to all); A on another square moves it
there (``go``); onto a joker, a form asks for its card and the move ends on the
play screen. While a beaten army waits,
A sends it there (``push``). B drops what is picked, else goes back. A long A
peeks at a face-down card (fog of war, as board_page.py), else zooms. Not built
on board_page.py: one module less in the heap of a game in play.
"""

from arbiter.game.expr import evaluate
from arbiter.hw.buttons import LONG, A, B
from arbiter.screens.grid import GridPage

LETTER = {"S": "M", "C": "F"}  # mountains, forests; face cards and red suits are plains
NAMES = {"C": "castle", "R": "recruit", "-": "plain", "F": "forest", "M": "mountain",
         "J": "joker"}


def letter(card):
    if card == "JK":
        return "J"
    if card[0] == "K":
        return "C"
    return "R" if card[0] in "JQ" else LETTER.get(card[-1], "-")


class ArmyBoard(GridPage):
    def __init__(self, game, spec, play):
        self.game, self.spec, self.play = game, spec, play
        self.picked = -1  # the square of the army picked up, and how many of its units
        self.units = 0
        self.notice = ""
        self.armies = game.get(spec["armies"])
        super().__init__(game.get(spec["value"]), 7, spec.get("label", "Board"))
        p = game.active_player()  # opens on an army of the player whose turn it is
        for i in range(len(self.items)):
            if self.army(i)[:2] == p:
                self.cursor = i
                break

    def show(self, items):
        super().show(items)
        shown = evaluate(self.game, self.spec["shown"]) if "shown" in self.spec else None
        self.shown = shown if isinstance(shown, list) else None

    def hidden(self, i):
        return self.shown is not None and i not in self.shown

    def army(self, i):
        armies = self.armies
        return armies[i] if 0 <= i < len(armies) else ""

    def draw(self, app, fb):
        self.armies = self.game.get(self.spec["armies"])  # once a frame, not a square
        super().draw(app, fb)

    def cell(self, row, col):
        i = row * self.columns + col
        here = self.army(i)
        if self.hidden(i):
            return "??"
        if not here or self.zoomed:
            return super().cell(row, col)
        return letter(self.items[i]) + here[1] + str(len(here) - 2)

    def head(self, row, col):
        if self.notice:
            return self.notice
        i = row * self.columns + col
        if self.picked >= 0:
            return "%d,%d x%d to %d,%d" % (self.picked // 7 + 1, self.picked % 7 + 1,
                                          self.units, row + 1, col + 1)
        here, card = self.army(i), self.items[i] if i < len(self.items) else ""
        text = "%d,%d " % (row + 1, col + 1) + (
            "??" if self.hidden(i) else "%s %s" % (card, NAMES[letter(card)]) if card else "")
        return text + " %sx%d" % (here[:2], len(here) - 2) if here else text

    def act(self, app, text, now):
        if self.play.act(app, text, now):
            self.notice = self.game.state.get("message", "")
            self.show(self.game.get(self.spec["value"]))
            self.picked = -1
            return True
        self.notice = self.play.notice
        self.play.notice = ""
        return False

    def key(self, app, button, kind, now):
        self.notice = ""
        p = self.game.active_player()
        at = "%d,%d" % (self.cursor // 7 + 1, self.cursor % 7 + 1)
        if button == A and kind == LONG and not self.hidden(self.cursor):
            self.zoomed = not self.zoomed
        elif button == A and kind == LONG:  # a peek: for one player's eyes, not recorded
            from arbiter.ui.menu import Confirm, TextPage

            card = self.items[self.cursor]
            text = "%s %s" % (card, NAMES[letter(card)])
            app.push(Confirm("Peek " + at, ["Only the player", "who may look:",
                                             "others look away"],
                             lambda app, now: app.push(TextPage(at, [text]))))
        elif button == A and self.game.state["game"].get("push"):
            self.act(app, "push %s %s" % (p, at), now)
        elif button == A and self.picked == self.cursor:
            n = len(self.army(self.cursor)) - 2
            self.units = self.units - 1 if self.units > 1 else n
        elif button == A and self.picked < 0:
            here = self.army(self.cursor)
            if here[:2] == p:
                self.picked, self.units = self.cursor, len(here) - 2
            else:
                self.notice = "pick an army of %s" % p
        elif button == A:
            text = "go %s %d,%d %s units=%d" % (p, self.picked // 7 + 1, self.picked % 7 + 1,
                                                at, self.units)
            if self.items[self.cursor] == "JK":  # its card first; done, the play screen
                from arbiter.screens.forms import Form

                left = list(self.game.state["game"]["leftover"])
                app.push(Form(self.play, "Joker: which card?", [["card", left, 0]],
                              lambda values: text + " card=" + str(values[0])))
            else:
                self.act(app, text, now)
        elif button == B and self.picked >= 0:
            self.picked = -1
        else:
            super().key(app, button, kind, now)
            return
        app.redraw()
