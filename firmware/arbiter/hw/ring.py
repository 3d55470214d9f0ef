"""NeoPixel ring: player colours, a brightness cap, and time-driven animations.

``np`` is anything with ``np[i] = (r, g, b)``, ``len(np)`` and ``np.write()``
(MicroPython's ``neopixel.NeoPixel``). Animations are computed from ``now_ms``
in ``tick``, so they never block input; the ring is written only on change. A
frame allocates nothing: the colours it shows are scaled when they are set (a
press's pass), so an animation's passes leave no garbage for the main loop to
collect (19 ms a collection on a Pico).
"""

from micropython import const

from arbiter.hw.ticks import diff

_RGB = {}  # "#rrggbb" -> (r, g, b): asked for at every LED update, parsed once


def rgb(text):
    """``"#rrggbb"`` as an (r, g, b) tuple, None when it is not one."""
    colour = _RGB.get(text) if isinstance(text, str) else None
    if colour is None and isinstance(text, str) and len(text) == 7 and text[0] == "#":
        try:
            colour = _RGB[text] = (int(text[1:3], 16), int(text[3:5], 16),
                                   int(text[5:7], 16))
        except ValueError:
            pass
    return colour


# Player colours P1..P8, full scale; the cap and the brightness setting scale them.
PLAYER_COLOURS = (
    (255, 0, 0),
    (0, 64, 255),
    (0, 220, 0),
    (255, 180, 0),
    (180, 0, 255),
    (0, 220, 200),
    (255, 90, 0),
    (255, 255, 255),
)
WHITE = (255, 255, 255)
ERROR_RED = (255, 0, 0)
DARK = (0, 0, 0)

_IDLE = const(0)
_SPIN = const(1)
_FLASH = const(2)
_SPIN_MS = const(700)
_SPIN_STEP_MS = const(40)
_FLASH_MS = const(160)
_BLINK_MS = const(500)


class Leds:
    def __init__(self, np, cap_percent=25):
        self.np = np
        self.count = len(np)
        self.cap = cap_percent
        self.brightness = 100  # percent of the cap, from the settings
        self._base = bytearray(self.count * 3)  # what shows when no animation runs
        self._shown = [DARK] * self.count  # the base, scaled: each LED's (r, g, b)
        self._mode = _IDLE
        self._colour = WHITE  # the animation's, scaled
        self._colours = (WHITE,)
        self._started = 0
        self._flashes = 0
        self._lit = 0
        self._dirty = True
        self.enabled = True
        self._blinks = bytearray(self.count)  # 1: this LED blinks (a warning)
        self._blinking = False
        self._dark = 0  # 1 while blinking LEDs are in their dark half

    def scale(self, level):
        return level * self.cap * self.brightness // 10000

    def set_base(self, colour, lit=None):
        """Light ``lit`` LEDs (all by default) in ``colour``, the rest off."""
        lit = self.count if lit is None else lit
        self._blinking = False
        base = self._base
        for i in range(self.count):
            on = i < lit
            for c in range(3):
                base[i * 3 + c] = colour[c] if on else 0
        self._rescale()

    def set_arcs(self, colours):
        """The ring split into equal arcs, one per colour (every player at once)."""
        base, count = self._base, self.count
        self._blinking = False
        for i in range(count):
            colour = colours[i * len(colours) // count]
            for c in range(3):
                base[i * 3 + c] = colour[c]
        self._rescale()

    def _rescale(self):
        base, scale = self._base, self.scale
        self._shown = [(scale(base[j]), scale(base[j + 1]), scale(base[j + 2]))
                       for j in range(0, len(base), 3)]
        self._dirty = True

    def blink_arcs(self, flags):
        """Arcs (split as ``set_arcs``) whose flag is true blink lit and dark, so a
        warning in red never looks like a player whose own colour is red."""
        count, n = self.count, len(flags)
        self._blinking = False
        for i in range(count):
            on = 1 if flags[i * n // count] else 0
            self._blinks[i] = on
            self._blinking = self._blinking or on == 1
        self._dirty = True

    def clear(self):
        self.set_base((0, 0, 0), 0)
        self._mode = _IDLE

    def spin(self, colour, now, then_lit=None):
        """A dot chasing round the ring, then ``then_lit`` LEDs stay in ``colour``."""
        self._mode, self._started, self._lit = _SPIN, now, -1
        self._colour = self._scaled(colour)
        self.set_base(colour, then_lit)

    def flash(self, colour, now, times=3):
        """Whole-ring flashes (a reveal), then back to the base picture."""
        self.flash_each((colour,), now, times)

    def flash_each(self, colours, now, times=1):
        """Whole-ring flashes in each colour in turn, ``times`` rounds."""
        self._mode, self._started = _FLASH, now
        self._colours = tuple(None if c is None else self._scaled(c) for c in colours)
        self._flashes, self._lit = times * len(colours), -1

    @property
    def animating(self):
        return self._mode != _IDLE

    def set_enabled(self, on):
        """On or off (the display's sleep); on, at the brightness set since."""
        self.enabled = on
        if on:
            self._rescale()
        self._dirty = True

    def tick(self, now):
        """Advance the animation and write the ring if anything changed; True if it
        wrote."""
        # few locals (see Buttons.poll): the animations' work is in _animate
        wrote = self._mode != _IDLE and self._animate(now)
        if self._blinking and self._mode == _IDLE:
            dark = now // _BLINK_MS & 1
            if dark != self._dark:
                self._dark = dark
                self._dirty = True
        if self._dirty and self._mode == _IDLE:
            self._dirty = False
            self._show_base()
            wrote = True
        return wrote

    def _animate(self, now):
        if self._mode == _SPIN:
            elapsed = diff(now, self._started)
            if elapsed < _SPIN_MS:
                return self._show_dot(elapsed // _SPIN_STEP_MS % self.count)
        else:
            step = diff(now, self._started) // _FLASH_MS
            if step < self._flashes * 2:
                colours = self._colours
                lit = colours[step // 2 % len(colours)] if step % 2 == 0 else None
                return self._show_all(lit, step)
        self._mode = _IDLE
        self._dirty = True
        return False

    def _show_base(self):
        np, shown, on = self.np, self._shown, self.enabled
        dark = self._blinks if self._blinking and self._dark else None
        for i in range(self.count):
            np[i] = shown[i] if on and not (dark and dark[i]) else DARK
        np.write()

    def _scaled(self, colour):
        if colour is None or not self.enabled:
            return DARK
        return (self.scale(colour[0]), self.scale(colour[1]), self.scale(colour[2]))

    def _show_dot(self, position):
        """Only LED ``position`` lit in the animation colour."""
        if position == self._lit:
            return False
        self._lit = position
        lit = self._colour if self.enabled else DARK
        for i in range(self.count):
            self.np[i] = lit if i == position else DARK
        self.np.write()
        return True

    def _show_all(self, colour, step):
        """Every LED in ``colour`` (None: dark), once per animation step."""
        if step == self._lit:
            return False
        self._lit = step
        lit = colour if colour is not None and self.enabled else DARK
        for i in range(self.count):
            self.np[i] = lit
        self.np.write()
        return True
