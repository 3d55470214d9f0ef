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
_SMALL = 0x4000  # below this, ``below`` works on 16-bit halves (products stay < 2^30)
DICE = (4, 6, 8, 10, 12, 20)


class Rng:
    def __init__(self, seed, stream=54):
        self.seed = seed & _MASK64
        self._inc = ((stream << 1) | 1) & _MASK64
        self._i = [(self._inc >> (16 * k)) & 0xFFFF for k in range(4)]
        self.restore(0)
        self.next32()
        self.restore((self.snapshot() + self.seed) & _MASK64)
        self.next32()

    def next32(self):
        self._advance()
        return (self._hi << 16) | self._lo

    def _advance(self):
        """One PCG32 step: the 32-bit output in halves (``_hi``, ``_lo``).

        The 64-bit state is four 16-bit limbs and every product is split in bytes,
        so no value leaves MicroPython's small integers (31 bits): a roll makes no
        garbage, where 64-bit integers cost 400 bytes of heap a draw."""
        s0, s1, s2, s3 = self._s
        # the output comes from the old state: xorshift high, random rotation
        y1 = s1 ^ ((s2 >> 2) | ((s3 & 3) << 14))
        y2 = s2 ^ (s3 >> 2)
        lo = (y1 >> 11) | ((y2 & 0x7FF) << 5)
        hi = (y2 >> 11) | ((s3 & 0x7FF) << 5)
        rot = s3 >> 11
        if rot >= 16:
            lo, hi, rot = hi, lo, rot - 16
        if rot:
            mask, up = (1 << rot) - 1, 16 - rot
            lo, hi = (lo >> rot) | ((hi & mask) << up), (hi >> rot) | ((lo & mask) << up)
        # state = state * MULT + inc (mod 2^64), column by column: the multiplier's
        # 16-bit limbs 0x7F2D 0x4C95 0xF42D 0x5851, each as high and low byte
        i = self._i
        low = s0 * 0x2D
        high = s0 * 0x7F
        t = low + ((high & 0xFF) << 8) + i[0]
        n0 = t & 0xFFFF
        low = s0 * 0x95 + s1 * 0x2D
        spill, high = high >> 8, s0 * 0x4C + s1 * 0x7F
        t = low + ((high & 0xFF) << 8) + spill + (t >> 16) + i[1]
        n1 = t & 0xFFFF
        low = s0 * 0x2D + s1 * 0x95 + s2 * 0x2D
        spill, high = high >> 8, s0 * 0xF4 + s1 * 0x4C + s2 * 0x7F
        t = low + ((high & 0xFF) << 8) + spill + (t >> 16) + i[2]
        n2 = t & 0xFFFF
        low = s0 * 0x51 + s1 * 0x2D + s2 * 0x95 + s3 * 0x2D
        spill, high = high >> 8, s0 * 0x58 + s1 * 0xF4 + s2 * 0x4C + s3 * 0x7F
        t = low + ((high & 0xFF) << 8) + spill + (t >> 16) + i[3]
        state = self._s  # in place: a new list would be garbage
        state[0] = n0
        state[1] = n1
        state[2] = n2
        state[3] = t & 0xFFFF
        self._hi, self._lo = hi, lo

    def below(self, n):
        """Uniform integer in 0..n-1, by rejection sampling."""
        if not 0 < n <= _SPAN:
            raise ValueError("Invalid range")
        if n > _SMALL:
            limit = _SPAN - _SPAN % n
            while True:
                draw = self.next32()
                if draw < limit:
                    return draw % n
        # Dice and decks: the same draw and test on the halves, in small integers.
        # The top 2^32 mod n draws are thrown away (the rest is whole multiples of n).
        wrap = 0x10000 % n
        reject = wrap * wrap % n  # 2^32 mod n
        while True:
            self._advance()
            hi, lo = self._hi, self._lo
            if not reject or hi != 0xFFFF or lo < 0x10000 - reject:
                return (hi * wrap + lo) % n

    def roll(self, faces):
        return self.below(faces) + 1

    def snapshot(self):
        """The state as one 64-bit number (journals and checkpoints keep it)."""
        s = self._s
        return s[0] | s[1] << 16 | s[2] << 32 | s[3] << 48

    def restore(self, snapshot):
        self._s = [(snapshot >> (16 * k)) & 0xFFFF for k in range(4)]

    def mark(self, extra=0):
        """The position as a small tuple (no 64-bit integer on a Pico's heap), with
        ``extra`` after it (an event's log length: one object an event)."""
        s = self._s
        return s[0], s[1], s[2], s[3], extra

    def goto(self, mark):
        s = self._s  # in place, as ``_advance`` works
        s[0], s[1], s[2], s[3] = mark[0], mark[1], mark[2], mark[3]


def commitment(seed):
    """The SHA-256 of the seed (256 bits, 64 hex digits), shown at the start and checked
    when the seed is revealed: too long for a device to find two seeds that share one."""
    import hashlib

    return hashlib.sha256(seed.to_bytes(8, "big")).digest().hex()


def dice_seed(seed, mix=None):
    """The seed the dice come from: the first 8 bytes of SHA-256(device seed || the
    players' part), so neither the device (it committed to its seed first) nor the
    players (they cannot see the device's seed) chose them. No players' part (None):
    the seed itself (host tools' games, journals from before)."""
    if mix is None:
        return seed
    import hashlib

    digest = hashlib.sha256(seed.to_bytes(8, "big") + str(mix).encode()).digest()
    return int.from_bytes(digest[:8], "big")
