"""The error screen the device shows when the app itself fails."""

from arbiter import ui
from arbiter.hw.ring import ERROR_RED


def describe(exc):
    text = str(exc)
    return type(exc).__name__ + (": " + text if text else "")


def show_crash(display, leds, exc, now, shut=False):
    """``shut``: a game is on flash, so the port opens only by B (device.py)."""
    try:
        display.power(True)
        display.fill(0)
        ui.title(display, "Error")
        for row, text in enumerate(ui.wrap(describe(exc))[:5]):
            ui.line(display, row + 1, text)
        ui.hint(display, "A:restart B:to PC" if shut else "A: restart")
        display.show()
    except Exception:
        pass  # the display itself failed: the LEDs and serial still tell
    leds.set_enabled(True)
    leds.brightness = 100
    leds.set_base(ERROR_RED)
    leds.flash(ERROR_RED, now, 3)



def after_crash(device, ev):
    """B on the error screen with a game on flash (``device.shut``): the table lets a
    PC connect (screens/usb.py); True if it was B."""
    from arbiter.hw.buttons import B, button_of

    if button_of(ev) != B:
        return False
    from arbiter.screens.usb import after_crash as connect

    device.shut = False
    device.crashes = []  # the error stays up until A: a PC may take its time
    connect(device.board, device.display, device.log)
    return True
