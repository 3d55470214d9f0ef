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
