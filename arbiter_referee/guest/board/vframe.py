"""A frame's line as ``vsession.print_frame`` prints it, built in a buffer allocated
once, so printing a frame allocates nothing: where a heap is measured (the
calibration's, arbiter_referee/bench/calibrate.py), the heap is the firmware's
alone. Imports nothing of the firmware: it is made before the firmware loads."""

HEX = b"0123456789abcdef"


class FrameLine:
    """Called with the board for each changed frame (its ``on_frame``);
    ``write(buffer, length)`` prints the line's first ``length`` bytes."""

    def __init__(self, write, most_leds=64):
        self.write = write
        self.buf = bytearray(64 + 2 * (3 * most_leds + 1024))  # 1024: the panel's RAM

    def __call__(self, board):
        oled = board.oled
        at = self._text(0, b"F t=")
        at = self._number(at, board.elapsed)
        at = self._text(at, b" on=")
        at = self._number(at, 1 if oled.on else 0)
        at = self._text(at, b" inv=")
        at = self._number(at, 1 if oled.inverted else 0)
        at = self._text(at, b" c=")
        at = self._number(at, oled.contrast)
        at = self._text(at, b" leds=")
        at = self._hex(at, board.neopixel.shown)
        at = self._text(at, b" ram=")
        at = self._hex(at, oled.ram)
        at = self._text(at, b"\n")
        self.write(self.buf, at)

    def _text(self, at, text):
        buf = self.buf
        i = 0
        while i < len(text):
            buf[at + i] = text[i]
            i += 1
        return at + i

    def _number(self, at, n):
        end = at + 1
        rest = n // 10
        while rest:
            end += 1
            rest //= 10
        i = end
        while i > at:
            i -= 1
            self.buf[i] = 48 + n % 10
            n //= 10
        return end

    def _hex(self, at, data):
        buf = self.buf
        i = 0
        while i < len(data):
            byte = data[i]
            buf[at] = HEX[byte >> 4]
            buf[at + 1] = HEX[byte & 15]
            at += 2
            i += 1
        return at
