"""User settings (display sleep, LED brightness, contrast), kept in settings.json."""

import json

SLEEP_CHOICES = (30, 60, 120, 300, 600, 0)  # seconds; 0 = never
BRIGHTNESS_CHOICES = (0, 25, 50, 75, 100)  # percent of the board's LED cap
CONTRAST_CHOICES = (16, 64, 128, 207, 255)
FILE = "settings.json"
MAX_BYTES = 1024  # what save writes is under 60
DEFAULTS = {"sleep_s": 120, "brightness": 100, "contrast": 207}
_CHOICES = {"sleep_s": SLEEP_CHOICES, "brightness": BRIGHTNESS_CHOICES,
            "contrast": CONTRAST_CHOICES}


def read(flash):
    """The settings on flash: (their values, a dict; the one-line reason they could
    not be read, or None). What cannot be read is set aside and defaults are used.
    Read at boot and let go (app.py): a game holds the values, not this code."""
    values = dict(DEFAULTS)
    errors = []
    text = flash.boot_text(FILE, MAX_BYTES, errors)
    if text is None:
        return values, errors[0] if errors else None
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError
    except (ValueError, RuntimeError, MemoryError):  # RuntimeError: nested too deep
        return values, flash.set_aside(FILE, "unreadable, defaults used")
    for key, choices in _CHOICES.items():
        if data.get(key) in choices:
            values[key] = data[key]
    return values, None


def cycle(values, key, step):
    """Move ``key`` to the next (step=1) or previous (step=-1) choice."""
    choices = _CHOICES[key]
    i = choices.index(values[key]) if values[key] in choices else 0
    values[key] = choices[(i + step) % len(choices)]


def save(flash, values):
    # Fixed key order: MicroPython dicts do not keep insertion order.
    flash.write(FILE, '{"sleep_s": %d, "brightness": %d, "contrast": %d}'
                % (values["sleep_s"], values["brightness"], values["contrast"]))
