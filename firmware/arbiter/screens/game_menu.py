"""The game menu (B on the play screen): actions, dice, corrections, log, end."""

from arbiter.game.actions import common_rank
from arbiter.game.effects import action
from arbiter.game.expr import EMPTY, evaluate
from arbiter.game.jobs import let_go, roomy
from arbiter.hw.buttons import LONG, A
from arbiter.ui.menu import Confirm, Menu, TextPage


def offered(play):
    """The phase's own actions as the menu lists them, (label, name), and the fast
    path's choice among them (fast.fast_action): each action read once from flash (a
    compiled ruleset keeps it there), both kept by the play screen: the menu's for
    each phase where the heap is roomy, else for this one (worked out in an idle pass
    as the phase first begins: PlayScreen.draw)."""
    game = play.game
    phase = game.phase()["name"]
    items = play.offered.get(phase)
    if items is None:
        items, best, least, label = [], None, 99, ""
        # the actions the phase's ``fast`` names (an expression's too) and the best
        # ranked: their words for the key line (PlayScreen.key_words), from the same reads
        named = repr(game.phase().get("fast", ""))
        words = play.words
        for name in sorted(game.rules.get("actions", EMPTY)):
            spec = action(game, name)
            if phase in spec.get("phases", (phase,)) and not spec.get("private"):
                items.append((spec.get("label", name), name))
            rank = common_rank(spec, phase)  # and the fast path's, from the same reads
            if rank is not None and rank < least:
                best, least, label = name, rank, spec.get("label", name)
            if "'%s'" % name in named:
                words[name] = short(spec.get("label", name))
        if best is not None:
            words[best] = short(label)
        play.downs[phase] = down_word(game)
        if not roomy():
            play.offered.clear()
        play.offered[phase] = items  # (whole: a read that failed keeps nothing)
        play.fast.setdefault(phase, best)
    return items


def in_order(game, items):
    """The phase's actions, (label, name), those its ``menu`` lists first and in its
    order (an expression's by the situation: Kaiju's cards in a combat, its Attack,
    Challenge, Roar, Rampage, Pass outside one), then the rest by name."""
    first = game.phase().get("menu")
    if first.__class__ is dict:
        try:
            first = evaluate(game, first)
        except Exception:  # a ruleset mistake: by name
            first = None
    if not isinstance(first, list):
        return items
    last = len(first)
    return sorted(items, key=lambda item: (
        first.index(item[1]) if item[1] in first else last, item[1]))


def short(label):
    """An action's label in a word or two for the key line: "Attack (2 focus)" attack,
    "Next card, then Goon" next card, "Choose a castle" choose."""
    label = label.lower()
    for stop in "(,:/":
        at = label.find(stop)
        if at > 0:
            label = label[:at]
    label = label.strip()
    return label if len(label) <= 9 else label.split()[0]


def down_word(game):
    """What Down opens on the play screen, in a word (PlayScreen._down)."""
    rules = game.rules
    if "grid" in rules:
        return rules["grid"].get("label", "Board").lower()
    if game.state["round"]:
        here = game.phase()["name"]
        for page in rules.get("pages", ()):
            if here in page.get("phases", ()):
                return page["label"].lower()
    return "pieces" if game.piece_keys() else "players"


def open_log(app, game):
    """The Log page: the game's last 20 entries in words (their code loads for it)."""
    from arbiter.screens.log import log_lines

    lines = log_lines(game)
    let_go("screens", "log")
    app.push(TextPage("Log", lines))


def open_table(app, game):
    """The Table page: the game's values in the ruleset's words (their code loads for
    it)."""
    from arbiter.screens.table import table_lines

    lines = table_lines(game)
    let_go("screens", "table")
    app.push(TextPage("Table", lines))


class GameMenu(Menu):
    """B on the play screen: everything besides the next phase; the phase's actions
    first (in_order), then Undo, Redo, dice, Correct and the rest. It opens at the
    item last used while that is offered, else at the top; at the top where the
    phase lists its due actions (``menu``)."""

    def __init__(self, play):
        game = play.game
        self.play = play
        items = []
        if game.state["round"]:  # the phase's own actions first: the ones wanted now
            for label, name in in_order(game, offered(play)):
                items.append((label, lambda app, now, n=name: open_form(app, play, n)))
        items.append(("Undo", lambda app, now: app.pop() or play.undo(app, now)))
        items.append(("Redo", lambda app, now: self._do(app, "redo", now)))
        if game.state["round"]:
            items.append(("Roll dice", lambda app, now: open_form(app, play, None, 1)))
            items.append(("Correct", lambda app, now: open_form(app, play, None, 2)))
        self._tools(play, game, items)
        super().__init__("Game", items)
        # it opens at the item last used, unless the phase lists what is due (``menu``):
        # then at the first of those
        last = None if "menu" in game.phase() else getattr(play, "menu_label", None)
        for i in range(len(items) if last else 0):
            if items[i][0] == last:
                self.cursor = i
                break

    def _tools(self, play, game, items):
        """The menu's items after dice and Correct (a function apart: each function's
        code is a block of a Pico's heap, and two smaller ones find room sooner)."""
        grid = game.rules.get("grid")
        if grid and game.state["round"]:
            items.append((grid.get("label", "Board"), lambda app, now: open_grid(app, game)))
        for page in game.rules.get("pages", ()):  # the ruleset's own (the hands)
            items.append((page["label"], lambda app, now, p=page: open_page(app, game, p)))
        if game.rules.get("table", game.state["game"]):
            items.append(("Table", lambda app, now: open_table(app, game)))
        items.append(("Log", lambda app, now: open_log(app, game)))
        items.append(("Main menu", lambda app, now: leave(app)))
        items.append(("End game", lambda app, now: app.push(Confirm(
            "End game?", ["The dice seed", "and journal head", "are shown, the", "game closed."],
            lambda app, now: end_game(app, play)))))
        items.append(("Connect to PC", lambda app, now: connect_to_pc(app, play)))

    def key(self, app, button, kind, now):
        if button == A and kind != LONG:
            self.play.menu_label = self.items[self.cursor][0]
        super().key(app, button, kind, now)

    def _do(self, app, text, now):
        app.pop()
        self.play.act(app, text, now)


def open_form(app, play, name, tool=0):
    """The form of the action ``name``, else (``tool`` 1) Roll dice's or (2) Correct's,
    in the game menu's place (PlayScreen.open_form): the menu and its code are let
    go while the form is open, and come back where they were when it closes."""
    menu = app.screen
    at = (menu.cursor, menu.top)
    app.pop()
    play.open_form(app, name, tool, at)


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
    app.log("game over; seed %016x, journal head %s" % (game.seed, head))
    app.leds.clear()
    app.home()
    app.push(TextPage("Game over", ["Seed revealed:", "%016x" % game.seed,
                                    "commitment was", commitment(game.seed),
                                    "journal head:", head]))
