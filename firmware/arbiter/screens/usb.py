"""Connect to PC: the table lets a computer on the USB port take the device.

During a game the firmware refuses the Ctrl-C that mpremote (and every PC tool)
sends first, so no PC reads the journal, with its dice seed and the picks not yet
revealed, behind the players' backs. Chosen in the game menu, on screen for all to
see (and asked again while a pick is still secret), the port opens until B goes
back to the game. A PC's commands reset the device: ``usb.open`` on flash brings
the device back to this screen, the port still open, until B.
"""

from arbiter import ui
from arbiter.hw.buttons import B, button_of
from arbiter.store import USB_OPEN, game_on_flash
from arbiter.ui.menu import Confirm


def secret_pickers(game):
    """The players whose pick is made but not yet revealed, in turn order."""
    state = game.state
    out = []
    for secret in game.rules.get("secrets", ()):
        if secret["name"] in state["revealed"] and "phase" not in secret:
            continue  # (a phase's picks are dropped at their reveal)
        picks = state["picks"].get(secret["name"])
        if picks:
            out.extend(p for p in state["order"] if p in picks)
    return out


def ask(app, play):
    """From the game menu (``play``), or the main menu (None: a saved game is read as
    a whole): everyone is asked, then asked again over a secret."""
    if play is None and not game_on_flash(app.flash):
        connect(app, None)  # no game: nothing of the table's to give away
        return
    app.push(Confirm("Connect to PC?", ["A PC can then", "read the game:", "its dice seed",
                                         "and picks.", "All agree?"],
                     lambda app, now: _secrets(app, play)))


def _secrets(app, play):
    who = secret_pickers(play.game) if play is not None else ()
    if not who:
        connect(app, play)
        return
    whose = ", ".join(who) + ("'s pick is" if len(who) == 1 else "'s picks are")
    app.push(Confirm("Still secret", [whose, "still secret:", "connect anyway?"],
                     lambda app, now: connect(app, play)))


def connect(app, play):
    if play is not None:
        app.pop()  # the game menu: B on the next screen is back to the game
    app.flash.write(USB_OPEN, "")
    _open(app, play)


def _open(app, play):
    app.push(Connected(play))
    app.usb(True)
    app.log("USB port open to a PC")  # on the serial console too: the PC learns it


def reopen(app):
    """At boot, when the table had let a PC connect (or held B at power-on): the same
    screen over the game resumed, or over the main menu; with no game to keep, the
    port is simply open."""
    for screen in app.stack:
        if getattr(screen, "closes_usb", False):
            _open(app, screen)
            return
    if game_on_flash(app.flash):
        _open(app, None)
        return
    app.flash.remove(USB_OPEN)
    app.usb(True)


class Connected:
    """The port is open while this is on screen; B closes it and goes back."""

    def __init__(self, play):
        self.play = play

    def draw(self, app, fb):
        ui.title(fb, "Connect to PC")
        ui.line(fb, 1, "A PC may connect")
        ui.line(fb, 2, "now: arbiter and")
        ui.line(fb, 3, "mpremote work.")
        if self.play is not None:
            ui.line(fb, 5, "The game waits.")
        ui.hint(fb, "B: back to game" if self.play is not None else "B: back")

    def key(self, app, button, kind, now):
        if button == B:
            app.flash.remove(USB_OPEN)
            shut = game_on_flash(app.flash)
            app.usb(not shut)
            if shut:
                app.log("USB port closed")
            app.pop()
        app.redraw()


def after_crash(device, ev):
    """B on the error screen with a game on flash (device.py): the table lets a PC
    connect, on screen; the app that starts again after a PC's reset shows Connect to
    PC over the game. True if it was B."""
    if button_of(ev) != B:
        return False
    device.shut = False
    device.crashes = []  # the error stays up until A: a PC may take its time
    try:
        device.board.flash.write(USB_OPEN, "")
    except Exception:  # a full flash: open all the same
        pass
    device.board.usb_open(True)
    device.log("USB port open to a PC")
    display = device.display
    try:
        display.fill_rect(0, 48, 128, 16, 0)  # the error stays above
        ui.line(display, 6, "A PC may connect")
        ui.hint(display, "A: restart")
        display.show()
    except Exception:  # the display itself failed: the serial line still tells
        pass
    return True
