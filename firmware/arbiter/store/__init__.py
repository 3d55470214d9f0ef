"""What lives on the flash, and in which format: settings, the game's journal,
rulesets arriving from a PC."""

JOURNAL = "game.jnl"  # the game on flash (store/journal.py), checked here without its code
PAST = "game.old"  # every journal the game's compactions replaced, whole, oldest first
CLOSED = "#end\n"  # the journal's last line once the game was left
USB_OPEN = "usb.open"  # on flash while the table lets a PC connect (screens/usb.py)


def game_on_flash(flash):
    """Whether flash holds a game that was never left (read from its tail only): its
    seed and secrets are the table's."""
    size = flash.size(JOURNAL)
    return size is not None and size >= 2 and not flash.ends_with(JOURNAL, CLOSED.encode())
