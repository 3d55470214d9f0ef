"""Drivers: the buttons, the SSD1306, the LED ring, the flash, the wiring, the
clock's arithmetic. They take plain objects and ``now``, and know no game."""
