"""The code that comes and goes. A module named here is loaded for a job and let go
when the job is done (``let_go``), or with the last open screen of its own
(``screen_closed``), so a Pico's heap holds only what the moment needs. It is
imported only inside functions (tests/test_layers.py holds it), so letting it go
frees its code. Nothing else in the firmware forgets a module.

A module is named by its package and its name there, short words: a string constant
over 10 characters is an object of its own in a Pico's heap (one more in each module
using it), and letting a module go builds no string (a job may end where the heap is
at its fullest)."""

# Every module that comes and goes, by the job it is loaded for, as let_go names it
# (its package, its name there); tests/test_layers.py holds that nothing else is.
LET_GO = (
    " hw.wiring"  # the pins: read once, at boot
    " store.settings"  # read at boot, and by their screen
    " game.ruleset store.checked"  # a ruleset read, and whether its bytes passed before
    " game.shapes game.words"  # the deep checks of a new ruleset
    " store.saved game.replay"  # a saved game found, read back and replayed
    " store.firmware"  # the firmware's files checked before a game starts
    " store.past"  # a journal a compaction replaces, kept in game.old
    " game.start game.teams"  # a game's start (and an undo back to it), its teams
    " game.order"  # the turn order worked out, a win or loss resolved
    " game.decks"  # an action's cards
    " game.undo"  # an undo or a redo
    " game.spent"  # a refused action's dice spent, or met again in a replay
    " game.by_hand"  # a correction or a free roll
    " game.picks screens.secret_pick"  # a secret pick, the picks' screen
    " screens.grids"  # a board's screen opened
    " screens.game_menu"  # the game menu, while a form of it is open
    " screens.log"  # the Log page's words, while it is written
    " screens.table"  # the Table page's, while it is written
    " "
)
# The screens' modules let go with the last open screen of their own (app.App)
SCREENS = ("setup", "seal", "game_menu", "forms", "confirm", "grids", "grid", "piece_grid",
           "board_page", "army_board", "pages", "usb", "fast", "pieces", "dice", "settings",
           "tool_forms")

# What a game opens again and again (its forms, the fast path, the game menu, the
# cards, the boards, a round's start): kept once loaded where the heap has room for
# it, as a Pico's has (240 KB), since loading a module again cost a Pico 3 ms to 60 ms,
# most of it looking up its names; let go in a smaller one (a Pico W's 192 KB), where
# each game plays in 144 KB. (A preview's and a combat's code stay loaded everywhere:
# let go, loading them again mid-action took a Pico W 4 to 8 KB more at the peak.)
# By name: no two of them have the same.
KEPT = ("forms", "fast", "game_menu", "decks", "order", "grid", "army_board", "piece_grid",
        "board_page", "grids")
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


def let_go(package, name):
    """Module ``name`` of ``package`` (of LET_GO) leaves the heap, its job done (but a
    KEPT one on a roomy heap)."""
    if not (name in KEPT and roomy()):
        forget(package, name)


def screen_closed(module):
    """The last open screen of ``module`` (its full name) closed: it goes if it is one
    of SCREENS."""
    for name in SCREENS:
        if len(module) == 16 + len(name) and module.endswith(name) and \
                module.startswith("arbiter.screens."):
            let_go("screens", name)


def forget(package, name):
    """Drops module ``name`` of ``package`` (of arbiter), only under MicroPython:
    CPython has room, and there a module's classes must stay the ones others imported.
    (The emulator's harness forgets its own modules with it.)"""
    import sys

    if sys.implementation.name != "micropython":
        return
    parent = getattr(sys.modules["arbiter"], package, None)
    module = getattr(parent, name, None)  # (a module imported is its package's too)
    if module is not None:
        sys.modules.pop(module.__name__, None)
        delattr(parent, name)
