"""Run the unchanged firmware on the virtual board and print what it shows.

Output, one line each: ``F t=MS on=0|1 inv=0|1 c=NN leds=HEX ram=HEX`` for
every changed frame (the OLED's display RAM and the LED colours), the
firmware's own serial output as it comes, and a closing ``E`` line of counters.
The same seed and script print the same ``F`` lines in every runtime.
"""

import binascii
import sys

from arbiter import device
from vboard import EmulationDone, VirtualBoard


def print_frame(board, write=None):
    """Print one frame line, a page at a time (no 2 KB string in a small heap)."""
    write = write or sys.stdout.write
    oled = board.oled
    write("F t=%d on=%d inv=%d c=%d leds=" % (
        board.elapsed, 1 if oled.on else 0, 1 if oled.inverted else 0, oled.contrast))
    write(binascii.hexlify(board.neopixel.shown).decode())
    write(" ram=")
    ram = memoryview(oled.ram)
    for page in range(0, len(ram), 128):
        write(binascii.hexlify(ram[page : page + 128]).decode())
    write("\n")


def start(seed, script, flash_root="", panel_ram=None, on_frame=print_frame):
    """Boot the firmware on a virtual board; drive it with ``step``. ``on_frame``:
    called with the board for every changed frame (vframe.FrameLine prints it and
    allocates nothing)."""
    board = VirtualBoard(seed, script, flash_root, on_frame=on_frame, panel_ram=panel_ram)
    return board, device.Device(board)


def step(board, dev):
    """One main-loop pass; False once the script has run out."""
    return sleep(board, dev.tick())


def sleep(board, pause):
    """The board sleeps after a pass (a frame reported); False once the script has
    run out."""
    try:
        board.sleep_ms(pause)
    except EmulationDone:
        return False
    return True


def finish(board):
    print("E ms=%d i2c_bytes=%d i2c_writes=%d flash_bytes=%d flash_writes=%d wakeups=%d" % (
        board.elapsed, board.i2c.bytes_sent, board.i2c.transactions,
        board.flash.bytes_written, board.flash.writes, board.wakeups))


def main(seed, script, flash_root=""):
    """The whole session in one call (CPython; MicroPython drives ``step`` itself)."""
    board, dev = start(seed, script, flash_root)
    while step(board, dev):
        pass
    finish(board)
    return board, dev
