"""SSD1306 128x64 OLED over I2C that sends only what changed.

The frame lives in a MONO_VLSB ``framebuf`` (8 pages of 128 bytes). ``show``
compares each page with a copy of what the panel already holds. A run of pages
changed from edge to edge is one transaction; a page changed in part is sent
alone, from its first to its last changed column: a menu cursor that moves
costs a few dozen bytes on the bus, one rewritten text line at most 136,
instead of a 1,024-byte frame.
"""

import framebuf
from micropython import const

_SET_CONTRAST = const(0x81)
_DISPLAY_ALL_ON_RESUME = const(0xA4)
_NORM_DISPLAY = const(0xA6)
_DISPLAY_OFF = const(0xAE)
_DISPLAY_ON = const(0xAF)
_MEMORY_MODE = const(0x20)
_COLUMN_ADDR = const(0x21)
_PAGE_ADDR = const(0x22)
_START_LINE = const(0x40)
_SEG_REMAP = const(0xA1)
_MUX_RATIO = const(0xA8)
_COM_SCAN_DEC = const(0xC8)
_DISPLAY_OFFSET = const(0xD3)
_COM_PINS = const(0xDA)
_CLOCK_DIV = const(0xD5)
_PRECHARGE = const(0xD9)
_VCOM_DESELECT = const(0xDB)
_CHARGE_PUMP = const(0x8D)
_PAGE_BYTES = const(128)
_BLANK = bytes(_PAGE_BYTES)  # a dark page, copied over each by fill(0)


class SSD1306(framebuf.FrameBuffer):
    def __init__(self, i2c, addr=0x3C, contrast=0xCF, width=128, height=64):
        if width != 128 or height not in (32, 64):
            raise ValueError("Invalid size")
        self.i2c = i2c
        self.addr = addr
        self.width = width
        self.height = height
        self.pages = height // 8
        self.buffer = bytearray(self.pages * _PAGE_BYTES)
        self._sent = bytearray(self.pages * _PAGE_BYTES)
        view, sent = memoryview(self.buffer), memoryview(self._sent)
        self._page_views = [view[p * 128 : p * 128 + 128] for p in range(self.pages)]
        self._sent_views = [sent[p * 128 : p * 128 + 128] for p in range(self.pages)]
        self._view = view
        self._cmd = bytearray(2)
        self._addr_cmd = bytearray((0x00, _COLUMN_ADDR, 0, 127, _PAGE_ADDR, 0, 0))
        self._data_prefix = b"\x40"
        self._stale = True  # panel contents unknown: the next show sends everything
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self.init_display(contrast)

    def init_display(self, contrast=0xCF):
        for cmd in (
            _DISPLAY_OFF,
            _MEMORY_MODE, 0x00,  # horizontal addressing: a run of pages is one write
            _START_LINE, _SEG_REMAP,
            _MUX_RATIO, self.height - 1,
            _COM_SCAN_DEC,
            _DISPLAY_OFFSET, 0x00,
            _COM_PINS, 0x12 if self.height == 64 else 0x02,
            _CLOCK_DIV, 0x80,
            _PRECHARGE, 0xF1,
            _VCOM_DESELECT, 0x30,
            _SET_CONTRAST, contrast,
            _DISPLAY_ALL_ON_RESUME, _NORM_DISPLAY,
            _CHARGE_PUMP, 0x14,
        ):
            self._write_cmd(cmd)
        self._stale = True
        self.fill(0)
        self.show()
        self.power(True)

    def _write_cmd(self, cmd):
        self._cmd[0] = 0x80  # Co = 1, D/C = 0: one command byte follows
        self._cmd[1] = cmd
        self.i2c.writeto(self.addr, self._cmd)

    def power(self, on):
        self._write_cmd(_DISPLAY_ON if on else _DISPLAY_OFF)

    def contrast(self, value):
        self._write_cmd(_SET_CONTRAST)
        self._write_cmd(value)

    def fill(self, c):
        if c:
            framebuf.FrameBuffer.fill(self, c)
        else:  # a page at a time: framebuf's fill sets each pixel, 6 times the cost
            for view in self._page_views:
                view[:] = _BLANK

    def invalidate(self):
        """Forget what the panel holds, so the next show sends the whole frame."""
        self._stale = True

    def show(self):
        """Send what changed; return how many pages were sent. Pages changed from edge
        to edge lie end to end in the buffer: a run of them is one transaction. A page
        changed in part is sent alone, only its changed columns (a cursor move)."""
        sent, run = 0, -1  # run: the first of the whole pages waiting to go together
        for page in range(self.pages):
            if self._stale:
                low, high = 0, _PAGE_BYTES - 1
            elif self._page_views[page] == self._sent_views[page]:
                low = high = -1
            else:
                low, high = self._columns(page)
            if low == 0 and high == _PAGE_BYTES - 1:
                if run < 0:
                    run = page
                continue
            if run >= 0:
                sent += self._send(0, _PAGE_BYTES - 1, run, page - 1)
                run = -1
            if low >= 0:
                sent += self._send(low, high, page, page)
        if run >= 0:
            sent += self._send(0, _PAGE_BYTES - 1, run, self.pages - 1)
        self._stale = False
        return sent

    def show_part(self, page, low, high):
        """Send columns ``low`` to ``high`` of one page, looking at nothing else (a
        mark made between two frames: ui.busy)."""
        if self._stale:
            self.show()
        else:
            self._send(low, high, page, page)

    def _columns(self, page):
        """The first and last column that differ in a page that changed."""
        new, old = self._page_views[page], self._sent_views[page]
        low, high = 0, _PAGE_BYTES - 1
        while low < high and new[low] == old[low]:
            low += 1
        while high > low and new[high] == old[high]:
            high -= 1
        return low, high

    def _send(self, low, high, first, last):
        cmd = self._addr_cmd
        cmd[2] = low
        cmd[3] = high
        cmd[5] = first
        cmd[6] = last
        self.i2c.writeto(self.addr, cmd)
        if first == last:
            data = self._page_views[first][low:high + 1]
        else:  # whole pages, end to end
            data = self._view[first * _PAGE_BYTES:(last + 1) * _PAGE_BYTES]
        self.i2c.writevto(self.addr, (self._data_prefix, data))
        if first == last:
            self._sent_views[first][low:high + 1] = data
        else:
            for page in range(first, last + 1):
                self._sent_views[page][:] = self._page_views[page]
        return last - first + 1
