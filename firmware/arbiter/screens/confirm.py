"""A phase's ``confirm`` action: what the players confirm before a turn passes.

In a phase with ``"confirm": ACTION``, A on the play screen opens that action's
form instead of moving on at once (Tactics Joker: who holds each castle, so the
next player's turn starts, and the win check is made, on what the table shows).
A does the action, then ``next``; B goes back to the play screen, nothing done.
The action's ``defaults`` (forms.py) start the form at the holders the device
last knew.
"""

from arbiter import ui
from arbiter.hw.buttons import LONG, A
from arbiter.screens.forms import ActionForm, action_form


def following(game):
    """Whose turn the next ``next`` begins (the first player's after the last)."""
    order = game.players_in_order()
    return order[(game.state["turn"] + 1) % len(order)] if order else ""


class ConfirmForm(ActionForm):
    stands_on = "arbiter.screens.forms"  # let go with the last screen using it

    def __init__(self, play, name, spec, fields):
        super().__init__(play, name, spec, fields)
        self.then = following(play.game)

    def draw(self, app, fb):
        super().draw(app, fb)
        if len(self.fields) < 5 and not (self.notice or self.said):
            ui.line(fb, 6, "then %s's turn" % self.then)
        fb.fill_rect(0, 56, 128, 8, 0)
        ui.hint(fb, "A:ok B:back")

    def key(self, app, button, kind, now):
        if button != A or kind == LONG:
            super().key(app, button, kind, now)
            return
        play = self.play
        if not play.act(app, self.build(self.values()), now):
            self.notice, play.notice = play.notice, ""
            app.redraw()
            return
        app.pop()  # the form: the play screen shows how the turn began (or why not)
        play.act(app, "next", now)
        app.redraw()


def open_confirm(app, play):
    """A on the play screen in a phase with ``confirm``."""
    app.push(action_form(play, play.game.phase()["confirm"], ConfirmForm))
