"""A ruleset's ``pages``: text the players read, worked out from the game when shown
(Double Impactics: each hand and the queue).

Each line is an expression. A list shows one item a line, indented, equal
neighbours as one (``forward1 x2``); anything else is text, wrapped. A page is
in the game menu by its ``label``; in its ``phases`` Down on the play screen
opens it (else Down opens the piece page), and it opens by itself when one of them begins.
"""

from arbiter.game.expr import evaluate
from arbiter.ui.menu import TextPage


def lines_of(game, page):
    out = []
    for form in page.get("lines", ()):
        try:
            value = evaluate(game, form)
        except Exception:  # a ruleset mistake shows as "?", it does not stop the device
            value = "?"
        if not isinstance(value, list):
            out.append(str(value))
            continue
        i = 0
        while i < len(value):
            run = 1
            while i + run < len(value) and value[i + run] == value[i]:
                run += 1
            out.append(" %s x%d" % (value[i], run) if run > 1 else " %s" % value[i])
            i += run
        if not value:
            out.append(" -")
    return out


def page_screen(game, page):
    return TextPage(page["label"], lines_of(game, page))


def open_page(app, game, page):
    app.push(page_screen(game, page))


def open_for_phase(app, game):
    """The first page of the phase in play, if any (True when opened)."""
    pages = game.rules["pages"]
    if not pages or not game.state["round"]:
        return False
    name = game.phase()["name"]
    for page in pages:
        if name in page.get("phases", ()):
            open_page(app, game, page)
            return True
    return False


def opened(app, play, entries):
    """After an action: open the page of a phase it began, if any. It goes right
    above the play screen, so a form and menu that did the action close onto it."""
    game = play.game
    begun = [e["name"] for e in entries if e["event"] == "phase" and not e.get("skipped")]
    for page in game.rules["pages"]:
        for name in page.get("phases", ()):
            if name in begun and not game.state["result"] and play in app.stack:
                app.insert(play, page_screen(game, page))
                app.redraw()
                return
