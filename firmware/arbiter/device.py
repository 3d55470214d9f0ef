"""The device: boot, one pass of the main loop, and the top-level crash handler.

``board`` is the real one (``board.py``) or the emulator's virtual board:
anything with ``i2c``, ``neopixel``, ``button_readers`` (and maybe
``button_edges``, hw.buttons.Edges filled by pin interrupts), ``flash``, ``wiring``,
``errors``, ``ticks_ms()``, ``sleep_ms(ms)``, ``entropy_seed()``,
``print_exception(exc)``, ``feed()`` (the watchdog's, every pass) and
``usb_open(allowed)`` (whether a PC's Ctrl-C stops the firmware). All state
lives on the ``Device`` object, so a caller may drive ``tick()`` from anywhere
(the emulator does, from the top level, where MicroPython's GC can see
everything).
"""

import gc

from arbiter.app import POLL_MS, App
from arbiter.game.jobs import roomy
from arbiter.game.rng import Rng
from arbiter.hw.buttons import Buttons
from arbiter.hw.ring import Leds
from arbiter.hw.ssd1306 import SSD1306
from arbiter.hw.ticks import diff
from arbiter.log import Log
from arbiter.screens.crash import describe, show_crash

CRASH_SHOW_MS = 10000  # an error stays up this long, or until a button is pressed
CRASH_BURST = 3  # this many crashes within CRASH_WINDOW_MS: wait for a press instead
CRASH_WINDOW_MS = 60000
COLLECT_AFTER = 96 * 1024  # bytes allocated, where the heap is roomy (run)
current = None  # the running Device (see run)


class Device:
    def __init__(self, board, log=None):
        self.board = board
        self.log = log or Log()
        wiring = board.wiring
        self.display = SSD1306(board.i2c, wiring["oled_addr"], wiring["oled_contrast"])
        self.leds = Leds(board.neopixel, wiring["led_cap"])
        self.buttons = Buttons(board.button_readers, getattr(board, "button_edges", None))
        self.rng = Rng(board.entropy_seed())  # never shown: it would tell the dice
        self.log("boot")  # on the serial console: the device (re)started
        for error in board.errors:
            self.log(error)
        self.crashes = []
        self.crashed_at = 0
        self.shut = False  # after a crash: the port stays shut (a game is on flash)
        self.app = None
        self.unreported = None  # a crash whose report did not fit the heap (see tick)
        self.worked = True  # the last pass did something: run() collects its garbage
        self._start(board.ticks_ms(), board.errors)

    def _start(self, now, notices=()):
        try:
            # after a burst of crashes a saved game may be the cause: leave it be
            self.crashes = [t for t in self.crashes if diff(now, t) < CRASH_WINDOW_MS]
            self.app = App(self.display, self.leds, self.buttons, self.board.flash, self.rng,
                           self.log, now, notices, resume=len(self.crashes) < CRASH_BURST,
                           entropy=self.board.entropy_seed, usb=self.board.usb_open)
        except Exception as exc:  # a broken settings file must not stop the boot
            self.crash(exc, now)

    def tick(self):
        """One pass of the main loop; returns how long to sleep, in ms."""
        self.board.feed()
        self.worked = True  # (the app's own say, below, once it has one)
        now = self.board.ticks_ms()
        if self.unreported is not None:  # the game's heap collected since: it fits now
            exc, self.unreported = self.unreported, None
            self.crash(exc, now)
            return POLL_MS
        if self.app is None:
            return self._crash_tick(now)
        try:
            pause = self.app.step(now)
            self.worked = self.app.worked
            return pause
        except Exception as exc:  # the device must never die or crash-loop
            try:
                self.crash(exc, now)
            except MemoryError:  # the heap was full: reported after a collection
                self.app = None
                self.unreported = exc
                return 0
            return POLL_MS

    def crash(self, exc, now):
        self.app = None
        # a failing firmware stays reachable from a PC, but a game's seed and secrets are
        # the table's: with one on flash the port opens only by B on the error screen
        self.shut = True
        try:
            from arbiter.store import game_on_flash  # (a crash's code, not every pass's)

            self.shut = game_on_flash(self.board.flash)
            if not self.shut:
                self.board.usb_open(True)
        except Exception:  # out of heap: on a Pico, Ctrl-C is allowed before it allocates
            pass
        self.board.print_exception(exc)
        self.log("crash: " + describe(exc))
        self.crashes = [t for t in self.crashes if diff(now, t) < CRASH_WINDOW_MS] + [now]
        self.crashed_at = now
        show_crash(self.display, self.leds, exc, now, self.shut)
        self.buttons.consume_held()

    def _crash_tick(self, now):
        """The error stays up until a press, or a while unless crashes come in a burst."""
        buttons = self.buttons
        buttons.poll(now)
        self.leds.tick(now)
        ev = buttons.next_event()
        if ev >= 0 and self.shut:
            from arbiter.screens.usb import after_crash  # (a crash's code only)

            if after_crash(self, ev):
                return POLL_MS
        pressed = ev >= 0
        timed_out = len(self.crashes) < CRASH_BURST and \
            diff(now, self.crashed_at) >= CRASH_SHOW_MS
        if pressed or timed_out:
            buttons.consume_held()
            self.display.invalidate()
            self._start(now)
        return POLL_MS


def run(board):
    """The Pico's main loop. On a small heap (a Pico W's), once the passes a press
    set going are done (a pass that waits again: a pause), their garbage is
    collected, so the heap holds what is alive plus one press's garbage, not a pile
    of old presses'. A collection costs about 19 ms at 125 MHz with a game loaded,
    more than most presses' own work: where the heap has room (arbiter.roomy, a
    Pico's), the collector runs by itself once COLLECT_AFTER bytes were allocated,
    every few presses. An idle pass allocates nothing (a test holds it) and is not
    collected; nor is the heap asked whether it allocated: on a Pico gc.mem_alloc()
    walks the whole allocation table, 9 ms a pass. The device is a module global:
    the REPL reaches it after Ctrl-C, and so does a collector that cannot see the C
    stack (the emulator's, which never collects by itself: gc.disable, so it is
    collected after each press whatever its heap)."""
    global current
    current = Device(board)
    gc.collect()  # the boot allocated: collected as after a press
    each_press = not roomy() or not gc.isenabled()  # (the emulator's: gc.disable)
    if not each_press:
        gc.threshold(COLLECT_AFTER)
    garbage = False
    while True:
        pause = current.tick()
        garbage = garbage or current.worked
        if garbage and pause and each_press:
            gc.collect()
            garbage = False
        board.sleep_ms(pause)
