"""The one random generator: PCG32 (O'Neill 2014), seeded, replayable.

Dice use rejection sampling: a 32-bit draw at or above the largest multiple
of ``n`` is thrown away, so every face has exactly the same chance (no
modulo bias). The same seed gives the same rolls on the Pico, under
MicroPython on a PC, and in CPython, which is what makes a game auditable.
"""

_MULT = 6364136223846793005
_MASK64 = 0xFFFFFFFFFFFFFFFF
_MASK32 = 0xFFFFFFFF
_SPAN = 0x100000000
DICE = (4, 6, 8, 10, 12, 20)


class Rng:
    def __init__(self, seed, stream=54):
        self.seed = seed & _MASK64
        self._inc = ((stream << 1) | 1) & _MASK64
        self._state = 0
        self.next32()
        self._state = (self._state + self.seed) & _MASK64
        self.next32()

    def next32(self):
        old = self._state
        self._state = (old * _MULT + self._inc) & _MASK64
        shifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((shifted >> rot) | (shifted << ((32 - rot) & 31))) & _MASK32

    def below(self, n):
        """Uniform integer in 0..n-1, by rejection sampling."""
        if not 0 < n <= _SPAN:
            raise ValueError("Invalid range")
        limit = _SPAN - _SPAN % n
        while True:
            draw = self.next32()
            if draw < limit:
                return draw % n

    def roll(self, faces):
        return self.below(faces) + 1

    def snapshot(self):
        return self._state

    def restore(self, snapshot):
        self._state = snapshot
