"""The code that comes and goes. A module named here is loaded for a job and let go
when the job is done (``done``), or with the last open screen of its own
(``screen_closed``), so a Pico's heap holds only what the moment needs. It is
imported only inside functions (tests/test_layers.py holds it), so letting it go
frees its code. Nothing else in the firmware forgets a module.

The names are short words in strings, not tuples of module names: a string constant
over 10 characters is an object of its own in a Pico's heap."""

# job: the modules (under ``arbiter.``) it loads, let go by done(job)
JOBS = {
    "wiring": "hw.wiring",  # the pins: read once, at boot
    "settings": "store.settings",  # read at boot, and by their screen
    "ruleset": "game.ruleset",  # a ruleset read and checked
    "checked": "store.checked",  # whether its bytes passed the checks before
    "checks": "game.shapes game.words",  # the deep checks of a new ruleset
    "saved": "store.saved",  # a saved game found and read back
    "replay": "game.replay",  # a saved game replayed (a resume)
    "start": "game.start",  # a game's start (and an undo back to it)
    "teams": "game.teams",  # teams dealt at the start or by a ``team`` effect
    "order": "game.order",  # the turn order worked out, a win or loss resolved
    "decks": "game.decks",  # an action's cards
    "undo": "game.undo",  # an undo or a redo
    "by_hand": "game.by_hand",  # a correction or a free roll
    "picks": "game.picks",  # a secret pick
    "picked": "screens.secret_pick",  # the secret picks' screen, once all are made
    "board": "screens.grids",  # a board's screen opened
    "menu": "screens.game_menu",  # the game menu, while a form of it is open
}
# The screens' modules (under ``arbiter.screens.``) let go with the last open screen
# of their own (app.App)
SCREENS = (" setup game_menu forms confirm grids grid piece_grid board_page army_board"
           " pages usb fast pieces dice settings tool_forms ")

# What a game opens again and again (its forms, the fast path, the game menu, the
# cards, the boards, a round's start): kept once loaded where the heap has room for
# it, as a Pico's has (240 KB), since loading a module again cost a Pico 3 ms to 60 ms,
# most of it looking up its names; let go in a smaller one (a Pico W's 192 KB), where
# each game plays in 144 KB. (A preview's and a combat's code stay loaded everywhere:
# let go, loading them again mid-action took a Pico W 4 to 8 KB more at the peak.)
KEPT = (" screens.forms screens.fast screens.game_menu game.decks game.order screens.grid"
        " screens.army_board screens.piece_grid screens.board_page screens.grids ")
ROOM_TO_KEEP = 224 * 1024  # bytes of heap
keep = None  # whether the heap is that big (worked out at the first ask)


def roomy():
    """Whether the heap has room to keep what a game opens again (ROOM_TO_KEEP):
    always under CPython."""
    import sys

    global keep
    if keep is None:  # (both walk the heap: once)
        if sys.implementation.name != "micropython":
            keep = True
        else:
            import gc

            keep = gc.mem_free() + gc.mem_alloc() >= ROOM_TO_KEEP
    return keep


def done(job):
    """The modules ``job`` loaded leave the heap (but KEPT ones on a roomy heap)."""
    for name in JOBS[job].split():
        _let_go(name)


def screen_module(module):
    """Whether ``module`` (a screen's, its full name) is let go once no screen of its
    own is open."""
    return module.startswith("arbiter.screens.") and (" " + module[16:] + " ") in SCREENS


def screen_closed(module):
    """The last open screen of ``module`` (screen_module) closed: it goes."""
    _let_go(module[8:])


def _let_go(name):
    if not (roomy() and (" " + name + " ") in KEPT):
        forget("arbiter." + name)


def forget(module):
    """Drops ``module`` (its full name), only under MicroPython: CPython has room, and
    there a module's classes must stay the ones others imported. (The emulator's
    harness forgets its own modules with it.)"""
    import sys

    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(module, None)
    package, _, leaf = module.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
