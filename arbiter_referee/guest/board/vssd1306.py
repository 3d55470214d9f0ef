"""A virtual SSD1306: decodes the real I2C command and data bytes into display RAM.

Supports what a driver for a 128x64 panel uses: horizontal, vertical and page
addressing, column and page ranges, display on/off, contrast, invert.
"""

_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
         0xD9: 1, 0xDA: 1, 0xDB: 1}


class VirtualSSD1306:
    def __init__(self, width=128, height=64, ram=None):
        """``ram``: where the panel's RAM lies (under MicroPython the harness puts it
        outside the heap, where a Pico's panel keeps it: in the panel)."""
        self.width = width
        self.pages = height // 8
        self.ram = bytearray(width * self.pages) if ram is None else ram
        self.changed = False  # the RAM since the board last looked (no copy kept to compare)
        self.on = False
        self.contrast = 0x7F
        self.inverted = False
        self.mode = 2  # page addressing after reset
        self.col_start, self.col_end = 0, width - 1
        self.page_start, self.page_end = 0, self.pages - 1
        self.col = 0
        self.page = 0
        self._cmd = []
        self.commands = 0
        self.data_bytes = 0

    def receive(self, data):
        """One I2C write transaction (after the address byte)."""
        self.receive_parts((data,))

    def receive_parts(self, parts):
        """One I2C write transaction as the buffers the driver handed over
        (``writevto``), read in place: no copy in the heap, as on a Pico's bus."""
        state = 0  # 0: a control byte; 1, 2: one data, command byte; 3, 4: all the rest
        for part in parts:
            for byte in part:
                if state == 0:
                    if byte & 0x40:  # D/C = 1: display data; Co = 1: just one byte
                        state = 1 if byte & 0x80 else 3
                    else:
                        state = 2 if byte & 0x80 else 4
                elif state == 1 or state == 3:
                    self._data(byte)
                    if state == 1:
                        state = 0
                else:
                    self._command(byte)
                    if state == 2:
                        state = 0

    def _command(self, byte):
        self.commands += 1
        cmd = self._cmd
        cmd.append(byte)
        if len(cmd) - 1 < _ARGS.get(cmd[0], 0):
            return
        op = cmd[0]
        if op == 0xAE or op == 0xAF:
            self.on = op == 0xAF
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op == 0xA6 or op == 0xA7:
            self.inverted = op == 0xA7
        elif op == 0x20:
            self.mode = cmd[1] & 3
        elif op == 0x21:
            self.col_start, self.col_end = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start, self.page_end = cmd[1] & 7, cmd[2] & 7
            self.page = self.page_start
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        cmd.clear()  # kept for the next command: no list per command

    def _data(self, byte):
        self.data_bytes += 1
        if self.col < self.width and self.page < self.pages:
            at = self.page * self.width + self.col
            if self.ram[at] != byte:
                self.ram[at] = byte
                self.changed = True
        if self.mode == 0:  # horizontal: column first, then page
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        elif self.mode == 1:  # vertical: page first, then column
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1
        elif self.col < self.width - 1:  # page mode: stays on the page
            self.col += 1

    def pixel(self, x, y):
        """What the panel shows at (x, y): 1 lit, 0 dark (after invert and power)."""
        if not self.on:
            return 0
        bit = self.ram[(y >> 3) * self.width + x] >> (y & 7) & 1
        return bit ^ 1 if self.inverted else bit
