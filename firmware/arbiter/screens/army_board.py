"""The board with its armies (Tactics Joker's ``grid.armies``): moves are made on it.

A square shows its card (``7H``) or, holding an army, the owner's number and
the units (``14``: P1's 4 units), two characters as a card's, so that every
square stands apart from the next; a recruit used up shows its rank alone
(``Q-``). The title line names the cursor's square (``2,3 10S mountain P1x4``),
then what the last action said. The cursor opens on the army of the player in turn
most likely to move: the one just moved while it can go on, else the one with units
to send nearest a castle the player does not hold (the game is won on castles), the
bigger first.
A picks it up: its units that can still move, one left to hold a castle; the
cursor jumps to its first legal destination, nearest a castle the player does
not hold first, the title saying what the move will do; the arrows jump between
its legal destinations (and back to the army, where A takes one unit fewer, round
to all); A moves it there (``go``); onto a joker, a form asks for its card and the
move ends on the play screen. While a beaten army waits, A sends it there
(``push``), the cursor opening on the first square it may take; while a pushed
army's joker waits, A asks its owner for the card. Before the first turn, A on a
free corner chooses it as the castle of the player whose choice it is. B
drops what is picked, else goes back. A long A peeks at a face-down card (fog of
war) for the players whose armies may look at it, else zooms. Not built
on board_page.py: one module less in the heap of a game in play.
"""

from arbiter.game.expr import evaluate
from arbiter.game.natives.tactics_board import CORNERS, dist, lookers, name, near, square
from arbiter.hw.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.screens.grid import GridPage

LETTER = {"S": "M", "C": "F"}  # mountains, forests; face cards and red suits are plains
NAMES = {"C": "castle", "R": "recruit", "-": "plain", "F": "forest", "M": "mountain",
         "J": "joker", "U": "used recruit"}
STEP = {UP: (-1, 0), DOWN: (1, 0), LEFT: (0, -1), RIGHT: (0, 1)}


def fresh(army):
    """How many of an army's units can still move this turn (under 2 spaces)."""
    return sum(1 for u in army[2:] if u < "2")


def letter(card):
    if card == "JK":
        return "J"
    if card[0] == "K":
        return "C"
    return "R" if card[0] in "JQ" else LETTER.get(card[-1], "-")


class ArmyBoard(GridPage):
    stands_on = "arbiter.screens.grid"  # let go with the last screen using it

    def __init__(self, game, spec, play):
        self.game, self.spec, self.play = game, spec, play
        self.picked = -1  # the square of the army picked up, and how many of its units
        self.units = 0
        self.ways = []  # the picked army's destinations, the likeliest first
        self.notice = ""
        self.armies = game.get(spec["armies"])
        super().__init__(game.get(spec["value"]), 7, spec.get("label", "Board"))
        self.likely(-1)

    def show(self, items):
        super().show(items)
        shown = evaluate(self.game, self.spec["shown"]) if "shown" in self.spec else None
        self.shown = shown if isinstance(shown, list) else None

    def hidden(self, i):
        return self.shown is not None and i not in self.shown

    def used(self, i):
        """A recruit collected: a plain now (its card turned over on the table)."""
        return "%d,%d" % (i // 7 + 1, i % 7 + 1) in self.game.state["game"]["flipped"]

    def mark(self, i):
        """The letter of the card at ``i``'s terrain: a used recruit is ``U``."""
        card = self.items[i] if i < len(self.items) else ""
        return "" if not card else "U" if letter(card) == "R" and self.used(i) else letter(card)

    def army(self, i):
        armies = self.armies
        return armies[i] if 0 <= i < len(armies) else ""

    def likely(self, moved):
        """The cursor on the army the player in turn most likely moves next: ``moved``
        while it can go on, else the one with units to send nearest a castle the
        player does not hold, the bigger first; on a beaten army's first way back, or
        the next castle to choose, while one is due."""
        p, best, most = self.game.active_player(), -1, 0
        if self.army(moved)[:2] == p and fresh(self.army(moved)):
            best = moved
        for i in range(49) if best < 0 else ():
            n = self.sent(i) if self.army(i)[:2] == p else -1
            if n >= 0:
                rank = (0 if n else 1000) + self.goal(i, p) * 10 + 9 - n  # an int: no garbage
                if best < 0 or rank < most:
                    best, most = i, rank
        if best >= 0:
            self.cursor = best
        g = self.game.state["game"]
        if g.get("ways"):  # a beaten army to push: on the first square it may take
            self.cursor = square(g["ways"][0])
        elif self.chooser():  # the next castle to choose
            self.cursor = next(i for i in CORNERS if name(i) not in g["chosen"])

    def goal(self, i, p):
        """Squares from ``i`` to the nearest castle ``p`` does not hold (0: none)."""
        d = -1
        for c in CORNERS:
            if self.army(c)[:2] != p and (d < 0 or dist(i, c) < d):
                d = dist(i, c)
        return max(d, 0)

    def dests(self):
        """Where the picked units may go: next to it, no own army past 6; nearest a
        castle the player does not hold first (the game is won on castles). Worked
        out when picked or its units change, not per press."""
        a, p, n = self.picked, self.army(self.picked)[:2], self.units
        out = []
        for i in range(49):
            here = self.army(i)
            if near(a, i) and not (here[:2] == p and len(here) - 2 + n > 6):
                out.append(self.goal(i, p) * 64 + i)
        out.sort()
        for k in range(len(out)):
            out[k] %= 64
        self.ways = out

    def jump(self, button):
        """An arrow while an army is picked: to the nearest of its destinations (or
        itself) that way."""
        dr, dc = STEP[button]
        r, c = self.cursor // 7, self.cursor % 7
        best, key = -1, 0
        for k in range(len(self.ways) + 1):
            i = self.ways[k] if k < len(self.ways) else self.picked
            along = (i // 7 - r) * dr + (i % 7 - c) * dc
            if along > 0:
                k = along * 16 + abs(i // 7 - r) + abs(i % 7 - c)
                if best < 0 or k < key:
                    best, key = i, k
        if best >= 0:
            self.cursor = best

    def sent(self, i):
        """The units A picks up: those that can move, one left to hold a castle (held
        by occupying it)."""
        here = self.army(i)
        n = fresh(here)
        return n - 1 if i in CORNERS and n == len(here) - 2 and n > 1 else n

    def pick(self, i):
        self.picked, self.units = i, self.sent(i) or len(self.army(i)) - 2
        self.dests()
        if self.ways:
            self.cursor = self.ways[0]

    def draw(self, app, fb):
        self.armies = self.game.get(self.spec["armies"])  # once a frame, not a square
        super().draw(app, fb)

    def cell(self, row, col):
        i = row * self.columns + col
        here = self.army(i)
        if here and not self.zoomed:  # an army: 2 characters, as a card, with a gap
            return here[1] + str(len(here) - 2)  # between (its card on the top line)
        if self.hidden(i):
            return "??"
        if self.mark(i) == "U":  # its card turned over: the rank alone
            return self.items[i][:-1].replace("10", "T") + "-"
        return super().cell(row, col)

    def head(self, row, col):
        # two lines from a pick to the next move's: the board below stays where it is
        if self.notice:
            return self.notice if len(self.notice) > 21 else self.notice + "\nA:pick B:back"
        i = row * self.columns + col
        here, card = self.army(i), self.items[i] if i < len(self.items) else ""
        if self.picked >= 0:  # the move's preview: what A does
            text = "%d,%dx%d to %d,%d" % (self.picked // 7 + 1, self.picked % 7 + 1,
                                          self.units, row + 1, col + 1)
            if i == self.picked:
                return text + "\nA:one fewer B:drop"
            if here and here[:2] != self.army(self.picked)[:2]:
                text += " vs %sx%d" % (here[:2], len(here) - 2)
            else:
                text += " " + ("??" if self.hidden(i) else NAMES[self.mark(i)])
            return text + "\narrows:where A:go"
        text = "%d,%d " % (row + 1, col + 1) + (
            "??" if self.hidden(i) else "%s %s" % (card, NAMES[self.mark(i)]) if card else "")
        return text + " %sx%d" % (here[:2], len(here) - 2) if here else text

    def chooser(self):
        """The player whose castle choice it is, or None (all are chosen)."""
        chosen = self.game.state["game"]["chosen"]
        if len(chosen) >= 4 or self.game.active_player() is not None:
            return None
        return evaluate(self.game, {"val": "choosers"})[len(chosen)]

    def act(self, app, text, now):
        if self.play.act(app, text, now):
            self.notice = self.game.state.get("message", "")
            self.show(self.game.get(self.spec["value"]))
            self.armies = self.game.get(self.spec["armies"])
            self.picked = -1
            self.likely(self.cursor)
            return True
        self.notice = self.play.notice
        self.play.notice = ""
        return False

    def act_later(self, app, text, now):
        """The joker's move, once its form is closed: in a pass of its own, the forms'
        code let go (with it, the move was Tactics' heap peak)."""
        app.later = lambda app, now: self.act(app, text, now)

    def choose_card(self, app):
        """A pushed army on a joker: its owner chooses the card, in a form."""
        from arbiter.screens.forms import Form

        g = self.game.state["game"]
        owner = self.army(int(g["joker"][0]) * 7 + int(g["joker"][2]) - 8)[:2]
        form = Form(self.play, "%s: joker's card?" % owner, [["card", list(g["leftover"]), 0]],
                    lambda values: "joker %s %s" % (owner, values[0]))
        form.then = self.act_later
        app.push(form)

    def key(self, app, button, kind, now):
        self.notice = ""
        p = self.game.active_player()
        at = "%d,%d" % (self.cursor // 7 + 1, self.cursor % 7 + 1)
        if button == A and kind == LONG and not self.hidden(self.cursor):
            self.zoomed = not self.zoomed
        elif button == A and kind == LONG:  # a peek: for its lookers' eyes, not recorded
            who = lookers(self.game, self.cursor)
            if not who:
                self.notice = "no army is near enough to look at " + at
            else:
                from arbiter.ui.menu import Confirm, TextPage

                card = self.items[self.cursor]
                text = "%s %s" % (card, NAMES[letter(card)])
                app.push(Confirm("Peek " + at, ["Only %s may look:" % "/".join(who),
                                                 "others look away"],
                                 lambda app, now: app.push(TextPage(at, [text]))))
        elif button == A and self.game.state["game"].get("joker"):
            self.choose_card(app)
        elif button == A and self.game.state["game"].get("push"):
            self.act(app, "push %s %s" % (p, at), now)
        elif button == A and self.picked == self.cursor:
            n = len(self.army(self.cursor)) - 2
            self.units = self.units - 1 if self.units > 1 else n
            self.dests()  # fewer units may fit where more did not
        elif button == A and self.picked < 0 and p is None:  # castles and armies to set
            who = self.chooser()
            if who and self.cursor in CORNERS:
                self.act(app, "castle %s %s" % (who, at), now)
            else:
                self.notice = ("choose a castle: a free corner" if who else
                               "place the armies: Right on the play screen")
        elif button == A and self.picked < 0:
            if self.army(self.cursor)[:2] == p:
                self.pick(self.cursor)
            else:
                self.notice = "pick an army of %s" % p if p else \
                    "armies move in turns, not in " + self.game.phase().get("label", "")
        elif button == A:
            text = "go %s %d,%d %s units=%d" % (p, self.picked // 7 + 1, self.picked % 7 + 1,
                                                at, self.units)
            if self.items[self.cursor] == "JK":  # its card first, then back on the board
                from arbiter.screens.forms import Form

                left = list(self.game.state["game"]["leftover"])
                form = Form(self.play, "Joker: which card?", [["card", left, 0]],
                            lambda values: text + " card=" + str(values[0]))
                form.then = self.act_later
                app.push(form)
            else:
                self.act(app, text, now)
        elif button == B and self.picked >= 0:
            self.cursor, self.picked = self.picked, -1
        elif self.picked >= 0 and button in STEP:
            self.jump(button)
        else:
            super().key(app, button, kind, now)
            return
        app.redraw()
