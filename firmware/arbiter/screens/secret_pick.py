"""Secret picks on the play screen: the device passed round, each player sees
only their own choice list, hidden again before the next takes it. Loaded while
picks are due (a game's first moments, a phase's picks in play)."""

from arbiter import ui
from arbiter.game.actions import pending_pick
from arbiter.game.jobs import let_go
from arbiter.hw.buttons import DOWN, LONG, UP, A, B


def draw_choices(play, fb):
    """The secret's choices for the player whose turn it is to pick."""
    from arbiter.game.picks import pick_choices, pick_prompt

    secret, player = pending_pick(play.game)
    first = ui.title(fb, player + ": " + pick_prompt(play.game, secret, player))
    rows = 7 - first
    choices = pick_choices(play.game, secret, player)
    top = max(0, min(play.choosing - rows + 1, len(choices) - rows))
    for row in range(min(rows, len(choices))):
        i = top + row
        ui.line(fb, row + first, " " + str(choices[i]), i == play.choosing)
    ui.hint(fb, "A:pick B:back")


def pick_key(play, app, button, kind, now):
    """Pass the device round: each player sees only their own choice list (A opens
    it; B on the play screen is its game menu, as ever)."""
    secret, player = pending_pick(play.game)
    if play.choosing is None:
        if button == A and kind != LONG:
            play.choosing = 0
        return
    from arbiter.game.picks import pick_choices

    choices = pick_choices(play.game, secret, player)
    count = len(choices)  # (never none: a player with none is passed over)
    if button == UP:
        play.choosing = (play.choosing - 1) % count
    elif button == DOWN:
        play.choosing = (play.choosing + 1) % count
    elif button == B:
        play.choosing = None
    elif button == A and kind != LONG:
        choice = choices[play.choosing]
        play.choosing = None  # hide the list before the next player takes the device
        play.act(app, "pick %s %s" % (player, choice), now)
        if pending_pick(play.game)[0] is None:  # the last pick: picks are done
            let_go("screens", "secret_pick")
