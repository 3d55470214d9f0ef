"""Each player's pieces as a grid on the OLED: a Juggernaut's matrix, positions 1..N,
each a card, damaged, neutralized with its tokens, or a card token.

One page a player (A: the next player's), a row's number at its left, 4 squares a
row. The ruleset's ``grid`` says what a square shows (``cell``, up to 3
characters, ``$k`` bound), what the title says of the cursor's piece (``name``)
and the line under the grid (``caption``, ``$p`` bound).
"""

from arbiter import ui
from arbiter.screens.grid import GridPage

_X0 = 20  # a row's number (2 characters), then squares of 3 characters 4 pixels apart:
_PITCH = 28  # apart enough that each square reads as a word


def _numbered(key):
    """Pieces in number order (``P1.2`` before ``P1.10``), then the rest by name."""
    tail = key.split(".", 1)[1]
    return (0, int(tail), "") if tail.isdigit() else (1, 0, tail)


class PieceGrid(GridPage):
    stands_on = "arbiter.screens.grid"  # let go with the last screen using it
    rows_shown = 6  # the last line is the caption
    pad = 2

    def __init__(self, game, spec):
        self.game = game
        self.spec = spec
        self.players = sorted(game.state["players"], key=lambda p: int(p[1:]))
        active = game.active_player()
        self.page = self.players.index(active) if active in self.players else 0
        super().__init__([], min(4, spec.get("columns", 4)), spec.get("label", "Board"))
        self._load()

    def _load(self):
        player = self.players[self.page]
        self.pieces = sorted(self.game.piece_keys(player), key=_numbered)
        self.show([self._text("k", k, self.spec["cell"]) for k in self.pieces])
        self.cursor = min(self.cursor, max(0, len(self.items) - 1))
        # worked out once a page, not at each cursor move: the game does not change
        # under this screen
        self.names = [None] * len(self.pieces)
        # wrapped, never cut: a long one takes the key line's row
        self.caption = (ui.wrap(self._text("p", player, self.spec["caption"]))
                        if "caption" in self.spec else [])

    def _text(self, name, value, form):
        try:
            out = self.game.bound_eval(name, value, form)
        except Exception:  # a ruleset mistake shows as "?", it does not stop the device
            return "?"
        return "".join(str(x) for x in out) if isinstance(out, list) else str(out)

    def head(self, row, col):
        i = row * self.columns + col
        if i >= len(self.pieces):
            return "%s %s" % (self.players[self.page], self.label)
        key = self.pieces[i]
        piece = self.game.state["pieces"][key]
        name = piece.get("name", key)  # a numbered place (Juggernauts' matrix): P1 #2
        who = "%s #%s" % (piece["owner"], name) if name.isdigit() else name
        if "name" not in self.spec:
            return who + " " + self.items[i]
        if self.names[i] is None:
            self.names[i] = self._text("k", key, self.spec["name"])
        return who + " " + self.names[i]

    def cell(self, row, col):
        return self._cell(row, col)[:3]

    def geometry(self):
        return (_X0, _PITCH, self.columns)

    def press_a(self):
        self.page = (self.page + 1) % len(self.players)
        self._load()

    def foot(self, fb):
        lines = list(self.caption)
        room = 8 - self.head_lines - min(self.rows, self.rows_shown + 1 - self.head_lines)
        if len(self.players) > 1 and len(lines) < room:
            lines.insert(0, "A:%s B:back" % self.players[(self.page + 1) % len(self.players)])
        lines = lines[-room:]
        for i, text in enumerate(lines):
            ui.text(fb, text, 0, (8 - len(lines) + i) * 8)
