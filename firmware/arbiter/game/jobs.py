"""The code that comes and goes. A module named here is loaded for a job and let go
(``let_go``) when the job is done, so a Pico's heap holds only what the moment needs;
it is imported only inside functions (tests/test_layers.py holds it), so letting it
go frees its code. Nothing else in the firmware forgets a module."""

# Each module that comes and goes, by the job it is loaded for.
LET_GO = (
    "arbiter.hw.wiring",  # the pins: read once, at boot
    "arbiter.store.settings",  # the settings: read at boot, and by their screen
    "arbiter.game.ruleset", "arbiter.store.checked",  # a ruleset read and checked
    "arbiter.game.shapes", "arbiter.game.words",  # the deep checks of a new ruleset
    "arbiter.store.saved", "arbiter.game.replay",  # a saved game read back, replayed
    "arbiter.game.start",  # a game's start (and an undo back to it)
    "arbiter.game.teams",  # teams dealt at the start or by a ``team`` effect
    "arbiter.game.order",  # the turn order worked out, a win or loss resolved
    "arbiter.game.decks",  # an action's cards
    "arbiter.game.undo",  # an undo or a redo
    "arbiter.game.by_hand",  # a correction or a free roll
    "arbiter.game.picks",  # a secret pick
    "arbiter.screens.secret_pick",  # the secret picks, once all are made
) + tuple("arbiter.screens." + leaf for leaf in (
    # screens: let go with the last open screen of theirs (app.App._let_go)
    "setup", "game_menu", "forms", "confirm", "grids", "grid", "piece_grid", "board_page",
    "army_board", "pages", "usb", "fast", "pieces", "dice", "settings", "tool_forms"))
SCREENS = LET_GO[-16:]

# What a game opens again and again (its forms, the fast path, the game menu, the
# cards, the boards, a round's start): kept once loaded where the heap has room for
# it, as a Pico's has (240 KB), since loading a module again cost a Pico 3 ms to 60 ms,
# most of it looking up its names; let go in a smaller one (a Pico W's 192 KB), where
# each game plays in 144 KB. (A preview's and a combat's code stay loaded everywhere:
# let go, loading them again mid-action took a Pico W 4 to 8 KB more at the peak.)
KEPT = ("arbiter.screens.forms", "arbiter.screens.fast", "arbiter.screens.game_menu",
        "arbiter.game.decks", "arbiter.game.order", "arbiter.screens.grid",
        "arbiter.screens.army_board", "arbiter.screens.piece_grid",
        "arbiter.screens.board_page", "arbiter.screens.grids")
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


def let_go(*names):
    """Forgets the modules ``names`` (each one of LET_GO) so their code leaves a
    Pico's heap until imported again, but for KEPT ones on a roomy heap."""
    for name in names:
        if name not in LET_GO:
            raise ValueError("not a module to let go: " + name)
        if not (name in KEPT and roomy()):
            forget(name)


def forget(name):
    """Drops the module ``name``, only under MicroPython: CPython has room, and
    there a module's classes must stay the ones others imported. (The emulator's
    harness forgets its own modules with it.)"""
    import sys

    if sys.implementation.name != "micropython":
        return
    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
