"""Arbiter's portable core: runs on MicroPython and CPython alike.

Nothing here imports ``machine`` or reads a clock: time comes in as ``now_ms``
and hardware as plain objects handed over by ``board`` (or the emulator).
"""

VERSION = "0.2.0"


# The code a game opens again and again (its forms, the fast path, the game menu, the
# cards, the boards, a round's start): kept once loaded where the heap has room for
# it, as a Pico's has (240 KB), since loading a module again cost a Pico 3 ms to 60 ms,
# most of it looking up its names; let go in a smaller one (a Pico W's 192 KB), where
# each game plays in 144 KB. (A preview's and a combat's code stay loaded everywhere:
# let go, loading them again mid-action took a Pico W 4 to 8 KB more at the peak.)
REOPENED = ("arbiter.screens.forms", "arbiter.screens.fast", "arbiter.screens.game_menu",
            "arbiter.game.decks", "arbiter.game.order", "arbiter.screens.grid",
            "arbiter.screens.army_board", "arbiter.screens.piece_grid",
            "arbiter.screens.board_page", "arbiter.screens.grids")
ROOM_TO_KEEP = 224 * 1024  # bytes of heap
keep_reopened = None  # whether the heap is that big (worked out at the first ask)


def roomy():
    """Whether the heap has room to keep what a game opens again (ROOM_TO_KEEP):
    always under CPython."""
    import sys

    global keep_reopened
    if keep_reopened is None:  # (both walk the heap: once)
        if sys.implementation.name != "micropython":
            keep_reopened = True
        else:
            import gc

            keep_reopened = gc.mem_free() + gc.mem_alloc() >= ROOM_TO_KEEP
    return keep_reopened


def unload(name):
    """Forgets a module used for one job (a ruleset's checks) so its code leaves a
    Pico's heap until it is imported again. Only under MicroPython: CPython has
    room, and there a module's classes must stay the ones others imported."""
    import sys

    if sys.implementation.name != "micropython" or name in REOPENED and roomy():
        return
    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
