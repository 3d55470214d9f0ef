"""The game menu (B on the play screen): actions, dice, corrections, log, end."""

from arbiter.game.expr import EMPTY
from arbiter.screens.forms import action_form, correct_form, roll_form
from arbiter.screens.view import describe
from arbiter.ui.menu import Confirm, Menu, TextPage


class GameMenu(Menu):
    """B on the play screen: everything besides the next phase."""

    def __init__(self, play):
        game = play.game
        self.play = play
        items = [("Undo", lambda app, now: app.pop() or play.undo(app, now)),
                 ("Redo", lambda app, now: self._do(app, "redo", now))]
        if game.state["round"]:
            phase = game.phase()["name"]
            for name, spec in sorted(game.rules.get("actions", EMPTY).items()):
                if phase in spec.get("phases", (phase,)) and not spec.get("private"):
                    items.append((spec.get("label", name),
                                  lambda app, now, n=name: app.push(action_form(play, n))))
            items.append(("Roll dice", lambda app, now: app.push(roll_form(play))))
            items.append(("Correct", lambda app, now: app.push(correct_form(play))))
        grid = game.rules.get("grid")
        if grid and game.state["round"]:
            items.append((grid.get("label", "Board"), lambda app, now: open_grid(app, game)))
        for page in game.rules.get("pages", ()):  # the ruleset's own (the hands)
            items.append((page["label"], lambda app, now, p=page: open_page(app, game, p)))
        if game.state["game"]:
            items.append(("Table", lambda app, now: app.push(TextPage(
                "Table", table_lines(game)))))
        items.append(("Log", lambda app, now: app.push(TextPage(
            "Log", [describe(e, game) for e in game.log[-20:]]))))
        items.append(("Main menu", lambda app, now: leave(app)))
        items.append(("End game", lambda app, now: app.push(Confirm(
            "End game?", ["The dice seed", "and journal head", "are shown, the", "game closed."],
            lambda app, now: end_game(app, play)))))
        items.append(("Connect to PC", lambda app, now: connect_to_pc(app, play)))
        super().__init__("Game", items)

    def _do(self, app, text, now):
        app.pop()
        self.play.act(app, text, now)


def table_lines(game):
    """The game-wide values (hands, a queue, the board) as text."""
    out = []
    grid = game.rules.get("grid", EMPTY).get("value")
    for name in sorted(game.state["game"]):
        if "game." + name == grid:  # on its own page, where squares may be face down
            continue
        value = game.state["game"][name]
        if isinstance(value, list):
            value = " ".join(str(v) for v in value) or "-"
        out.append("%s: %s" % (name, value))
    return out


def open_page(app, game, page):
    from arbiter.screens.pages import open_page

    open_page(app, game, page)


def open_grid(app, game):
    from arbiter.screens.grids import open_grid

    open_grid(app, game)


def connect_to_pc(app, play):
    from arbiter.screens.usb import ask

    ask(app, play)


def leave(app):
    """To the main menu; the game stays on flash, resumed from Play."""
    app.leds.clear()
    app.home()
    app.redraw()


def end_game(app, play):
    """Close the journal (it stays for pull-log) and reveal the seed."""
    from arbiter.game.rng import commitment

    game = play.game
    play.journal.close()
    head = play.journal.head.hex()  # the journal's hash chain: note it to audit the file
    app.usb(True)  # no game, no secret: the port is open again
    app.log("game over; seed=%016x head=%s" % (game.seed, head))
    app.leds.clear()
    app.home()
    app.push(TextPage("Game over", ["Seed revealed:", "%016x" % game.seed,
                                    "commitment was", commitment(game.seed),
                                    "journal head:", head]))
