"""The chip runtime: the firmware on MicroPython's own rp2 port for the Pico, in an
emulated RP2040 (rp2040js under Node.js), as a Pico in the players' hands runs it."""
