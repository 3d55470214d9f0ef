"""The fast path (Left/Right on the play screen): the phase's common action, set on
the play screen as a life counter's knob is turned. Up/Down pick its piece or player,
Left/Right its amount, A does it (the preview shown first), B goes back; the game menu
is for the rest. Loaded only when used: the play screen's pass loads no more code."""

from arbiter import ui
from arbiter.game.actions import common_rank
from arbiter.game.effects import action
from arbiter.game.expr import EMPTY
from arbiter.hw.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.screens.forms import ActionForm, action_form


def fast_action(game, play=None):
    """The phase's common action: its ``fast`` field ("" for none; an expression when
    the situation says which, as Jugger's act, then attack), else among the actions
    offered in it (by name) the first with a piece, then a player, and an amount; an
    action that names the phase before one allowed in every phase. ``play``: the
    play screen, which keeps each phase's ranked choice (each action is read from
    flash to rank it)."""
    phase = game.phase()
    if "fast" in phase:
        name = phase["fast"]
        if name.__class__ is dict:
            from arbiter.game.expr import evaluate

            name = evaluate(game, name)
        return name if name in game.rules.get("actions", EMPTY) else None
    here = phase["name"]
    if play is None:
        return _ranked(game, here)
    if here not in play.fast:
        play.fast[here] = _ranked(game, here)
    return play.fast[here]


def _ranked(game, here):
    """The common action among those offered in the phase ``here`` (fast_action)."""
    best, rank = None, 99
    for name in sorted(game.rules.get("actions", EMPTY)):
        r = common_rank(action(game, name), here)
        if r is not None and r < rank:
            best, rank = name, r
    return best


class FastForm(ActionForm):
    """The action's form on the play screen itself: the play screen's lines stay, the
    action takes the message's place ("Damage: <Kraken> <3> by P1", then what it would
    say). Up/Down change its subject (the first piece or player field), Left/Right its
    amount (the next field). Opens at the situation's (the active player, the first
    piece the ruleset offers: those in play first) and, for the rest, at what this
    player chose last time (forms.py)."""
    stands_on = "arbiter.screens.forms"  # let go with the last screen using it

    remembers = True

    def __init__(self, play, name, spec, fields):
        self.who = self.amount = -1
        self.before = ""  # the last preview, shown until the next is worked out
        self.knob = knob = spec.get("knob")  # the fields the arrows set, named
        self.above = None  # the play screen's lines, shown above the form
        self.opened = None  # a knob's situation, under which its numbers are kept
        # a knob of more than two (Kaiju's card): Up/Down pick one, Left/Right set it
        names = [f[0] for f in fields]
        self.rows = [names.index(k) for k in knob if k in names] \
            if knob and len(knob) > 2 else None  # in the knob's order
        for i, field in enumerate(fields):
            if self.rows:
                break
            if knob:
                if field[0] == knob[0]:
                    self.who = i
                elif field[0] == knob[-1]:
                    self.amount = i
            elif field[0] == "k" or field[0] == "p" and self.who < 0:
                self.who = i
        for i in range(0 if knob else len(fields)):
            if i != self.who:
                self.amount = i
                break
        super().__init__(play, name, spec, fields)
        if self.amount >= 0:
            field = fields[self.amount]
            if field[1] and field[1][field[2]] == "0" and "1" in field[1]:  # a knob starts at 1:
                field[2] = field[1].index("1")  # 0 does nothing
                self.on_change(self.amount)
        self.cursor = self.amount if self.amount >= 0 else max(0, self.who)
        if self.rows:  # at the ``focus`` field, else the knob's first (a card's damage)
            focus = spec.get("focus")
            if focus is not None:
                try:
                    focus = play.game.evaluate_bound(focus, {"p": self.values()[names.index(
                        "p")]} if "p" in names else {})
                except Exception:  # a ruleset mistake: the knob's first
                    focus = None
            self.cursor = names.index(focus) if focus in knob and focus in names \
                else self.rows[0]

    def kept(self, field):
        """A knob's numbers open at those of the last time in the same situation; its
        words (an effect, a type) at the situation's."""
        return field[1] is self.numbers if self.rows else super().kept(field)

    def situational(self, i):
        """Whether field ``i`` is offered by the situation (its ``choices`` an
        expression: Kaiju's player and card type, not its effect)."""
        return self.fields[i][1] is not self.numbers and \
            self.offered.get(self.fields[i][0]).__class__ is dict

    def memory(self):
        """A knob's situation: its player and type (situational), as they are when
        it opens or the type changes, under which its numbers are kept: Kaiju's attack
        opens at the numbers of this player's last attack card."""
        if not self.rows:
            return super().memory()
        if self.opened is None:
            values = self.values()
            self.opened = " ".join([self.name] + [values[i] for i in range(len(values))
                                                  if self.situational(i)])
        return self.opened

    @property
    def slow_keys(self):
        """Up/Down: another piece or player, the fields worked out again (forms.py)."""
        who = self.fields[self.who] if self.who >= 0 else None
        return (UP, DOWN) if who and who[0] in ("p", "k", "t") else ()

    def on_change(self, row):
        if self.rows and row >= 0 and self.situational(row):
            self.opened = None  # another type: the numbers last entered for it, or none
            self.recall(True)
            super().on_change(row)
            return
        if row < 0 or row != self.who or self.fields[row][0] not in ("p", "k", "t"):
            super().on_change(row)
            return
        # another piece or player: the rest re-open at what it implies (a damage's
        # dealer) or was chosen last, the amount kept; their choices worked out once
        was, by_hand = self.values(), self.set
        self.set &= 1 << row
        super().on_change(row)
        self.set = by_hand
        last = getattr(self.play, "last", None)
        last = last.get(self.memory()) if last else None
        for i, field in enumerate(self.fields):
            value = was[i] if i == self.amount else \
                last[i] if last and i != row and field[0] not in ("p", "k", "t") else None
            if value is not None and value in field[1]:
                field[2] = field[1].index(value)

    def key(self, app, button, kind, now):
        self.notice = ""
        rows = self.rows
        if rows and (button == UP or button == DOWN):
            at = rows.index(self.cursor) + (1 if button == DOWN else -1)
            self.cursor = rows[at % len(rows)]
            app.redraw()
            return
        if rows and (button == LEFT or button == RIGHT):
            pass  # the field at the cursor (Form.key)
        elif button == UP or button == DOWN:
            if self.who < 0:
                return
            self.cursor = self.who
            button = LEFT if button == UP else RIGHT
        elif button == LEFT or button == RIGHT:
            if self.amount < 0:
                return
            self.cursor = self.amount
        elif button == A and kind != LONG:
            # done in a pass of its own once this code is let go, as a menu form's
            # (PlayScreen.act_later); refused, it opens again as it was, saying why
            values = self.values()
            self.play.act_later(app, (self.build(values), self.name, 3, values, self.cursor,
                                      self.top, None, self.memory()))
            return
        elif button == B:
            app.pop()
            app.redraw()
            return
        else:
            return
        super().key(app, button, kind, now)

    def draw(self, app, fb):
        game = self.play.game
        values = self.values()
        words = [self.title + ":"]
        knob = self.knob
        # in the action's order, as its card reads (Up/Down walk the knob's)
        for i, field in enumerate(self.fields):
            # with a knob, the pieces and what the arrows set: the rest is the menu's
            if not field[1] or knob and i != self.amount and i >= self.named and \
                    not (self.rows and i in self.rows):
                continue
            value = self.shown(values[i])
            arrows = i == self.who or i == self.amount or self.rows and i == self.cursor
            if self.rows:  # a knob of more fields (Kaiju's card): each set, named
                named = field[1] is self.numbers or i >= self.named
                if not arrows and named and (value == "0" or value == "-"):
                    continue  # nothing set: a cost of 0, no effect (the cursor's shows)
                if arrows:
                    value = "<" + value + ">"  # what the arrows set
                words.append(self.word(field[0]) + " " + value if named and field[0] != "n"
                             else value)
                continue
            if not arrows and (value == "" or value == "0"):
                continue  # nothing set: no discards, a flag not given
            if arrows:
                value = "<" + value + ">"  # what the arrows set
            # a number or a word is named (Juggernauts' "card <5> level <1>"); a player
            # or a piece names itself; with a knob, only what the arrows set is named
            words.append(value if field[0] in ("p", "k", "t", "n") or knob and not arrows
                         else self.word(field[0]) + " " + value)
        # a stale preview stays until the new one is ready: the lines above do not move
        # twice a press (each line sent to the display again)
        if self.said:
            self.before = self.said
        notice = self.notice or self.said or (self.before if self.stale else "")
        below = ui.wrap(" ".join(words)) + (ui.wrap(notice) if notice else [])
        # in place of the play screen's message: what is above stays as it was (the
        # display sends only the lines that change)
        lines = self.above
        if lines is None:  # nothing changes the game while the form is open: once
            from arbiter.screens.view import play_lines

            lines = self.above = play_lines(game, self.play.notes)[0]
        ui.draw_lines(fb, lines[:max(1, 7 - len(below))])
        for row, text in enumerate(below[-6:]):
            ui.line(fb, 7 - min(6, len(below)) + row, text)
        ui.hint(fb, "^v:which <>:set A:do" if self.rows else
                "^v:who <>:set A:do" if self.who >= 0 else "<>:set A:do B:back")


def open_fast(app, play, button, kind, now):
    """The common action's screen, at the situation's values; the first turn of the
    knob only opens it. Without one, the piece page."""
    game = play.game
    name = fast_action(game, play)
    if name is None:
        from arbiter.screens.pieces import piece_page

        app.push(piece_page(game))
        return
    app.push(action_form(play, name, FastForm))
