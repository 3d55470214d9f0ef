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


class Settings:
    def __init__(self, flash):
        self.flash = flash
        self.values = dict(DEFAULTS)
        self.error = None
        errors = []
        text = flash.boot_text(FILE, MAX_BYTES, errors)
        if text is None:
            self.error = errors[0] if errors else None
            return
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, RuntimeError, MemoryError):  # RuntimeError: nested too deep
            self.error = flash.set_aside(FILE, "unreadable, defaults used")
            return
        for key, choices in _CHOICES.items():
            if data.get(key) in choices:
                self.values[key] = data[key]

    def __getitem__(self, key):
        return self.values[key]

    def cycle(self, key, step):
        """Move ``key`` to the next (step=1) or previous (step=-1) choice."""
        choices = _CHOICES[key]
        i = choices.index(self.values[key]) if self.values[key] in choices else 0
        self.values[key] = choices[(i + step) % len(choices)]

    def save(self):
        # Fixed key order: MicroPython dicts do not keep insertion order.
        v = self.values
        self.flash.write(FILE, '{"sleep_s": %d, "brightness": %d, "contrast": %d}'
                         % (v["sleep_s"], v["brightness"], v["contrast"]))
