"""The bench's probe: the firmware on the virtual board, measured per key press.

Portable like the rest of vdevice: ``arbiter bench`` runs it inside real
MicroPython (where ``fuel()`` reads wasmtime's fuel through the host call) and
in CPython (fuel reads 0). The caller drives ``step`` from the top level, so
MicroPython's GC can be run between passes (see host_tools/emulator/session.py).

A key press is one press edge of the script; its segment runs from that edge
to the next press. Per segment: bytes and I2C transactions on the bus, how
many times the firmware called ``show()`` and how many bus bytes those calls
sent, and the fuel of the passes from the press until a frame is flushed and
no redraw is pending (the key's pass, the drawing's, and any that follow at
once, such as a ruleset's load a step a pass).

The fuel is the firmware's work only: the bytes it writes to the bus are held
and decoded into the virtual panel after the metered pass (see HeldPanel).
"""

import micropython

from arbiter import device
from vboard import EmulationDone, VirtualBoard
from vscript import edges

try:
    import host
except ImportError:  # CPython: no fuel to read
    host = None

DEBOUNCE_MS = 30  # press edges closer than this are chatter of one press


def fuel():
    return int(host.call("fuel", "")) if host else 0


def fuel_overhead():
    """What one ``fuel()`` reading costs, to take off each measured pass."""
    a = fuel()
    b = fuel()
    return b - a


def press_times(script):
    """When each press lands, as the script is read (a game's worth of presses kept
    at once would weigh on the emulated heap)."""
    last = {}
    for at, button, level in edges(script):
        if level == 0 and at - last.get(button, -DEBOUNCE_MS) >= DEBOUNCE_MS:
            last[button] = at
            yield at


class HeldPanel:
    """Stands for the virtual SSD1306 on the bus during a metered pass: keeps each
    transaction's bytes and hands them to the panel when a frame is looked at. On a
    Pico the controller decodes them in hardware; the emulator decodes them in
    Python, which would otherwise count as the firmware's fuel. The I2C write
    itself (the copy, the bus counters) stays metered."""

    def __init__(self, panel):
        self.panel = panel
        self.held = []

    def receive_parts(self, parts):  # a copy kept: the driver reuses its buffers
        data = bytearray()
        for part in parts:
            data.extend(part)
        self.held.append(data)

    def deliver(self):
        held, receive = self.held, self.panel.receive
        for data in held:
            receive(data)
        self.held = []


class Probe:
    def __init__(self, seed, script, flash_root, hold_panel=True):
        # No on_frame: printing every frame would dwarf the firmware's own work.
        # hold_panel False: the boot and idle figures, measured as they always were.
        self.board = board = VirtualBoard(seed, script, flash_root)
        if hold_panel:
            self._hold_panel(board)
        self._presses = press_times(script)
        self._next_press = next(self._presses, None)
        self.overhead = fuel_overhead()
        self.shows = 0
        self.show_bytes = 0
        self.show_transactions = 0
        # a row per segment (the first: boot, before the first press), printed as the
        # next begins: bus bytes, transactions, show calls, bytes and transactions of
        # those, the press's fuel
        self.row = [0, 0, 0, 0, 0, -1]
        self._work, self._flushed, self._done = 0, False, True  # boot: not a press
        self.dev = device.Device(board)
        self._count_shows(self.dev.display)

    def _hold_panel(self, board):
        # The board reads the panel only in check_frame (from sleep_ms, after the
        # metered tick): the held bytes are decoded just before it, so frames match.
        i2c, addr = board.i2c, board.wiring["oled_addr"]
        panel = i2c.devices[addr] = HeldPanel(board.oled)
        check = board.check_frame

        def check_frame():
            panel.deliver()
            check()

        board.check_frame = check_frame

    def _count_shows(self, display):
        # Wrap show() to count calls: an unchanged frame sends nothing on our bus
        # but a full-frame driver would still send all of it.
        show, i2c, probe = display.show, self.board.i2c, self

        def counted():
            before, transactions = i2c.bytes_sent, i2c.transactions
            sent = show()
            probe.shows += 1
            probe.show_bytes += i2c.bytes_sent - before
            probe.show_transactions += i2c.transactions - transactions
            return sent

        display.show = counted

    def step(self):
        """One main-loop pass, measured; False once the script has run out."""
        board, i2c = self.board, self.board.i2c
        bytes0, trans0, shows0, show_bytes0, show_trans0 = (
            i2c.bytes_sent, i2c.transactions, self.shows, self.show_bytes,
            self.show_transactions)
        fuel0 = fuel()
        wait = self.dev.tick()
        spent = fuel() - fuel0 - self.overhead
        row = self.row
        row[0] += i2c.bytes_sent - bytes0
        row[1] += i2c.transactions - trans0
        row[2] += self.shows - shows0
        row[3] += self.show_bytes - show_bytes0
        row[4] += self.show_transactions - show_trans0
        # The press's work: the key's pass, the drawing's (a pass of its own) and any
        # that follow at once (a ruleset loads a step a pass), until a frame is
        # flushed and no redraw is pending.
        if not self._done:
            self._work += spent
            self._flushed = self._flushed or self.show_bytes > show_bytes0
            app = self.dev.app
            if self._flushed and not (app is not None and app.dirty):
                row[5], self._done = self._work, True
        try:
            board.sleep_ms(wait)
        except EmulationDone:
            return False
        while self._next_press is not None and self._next_press <= board.elapsed:
            self.report()
            self.row = [0, 0, 0, 0, 0, -1]
            self._next_press = next(self._presses, None)
            self._work, self._flushed, self._done = 0, False, False
        return True

    def report(self):
        print("K %d %d %d %d %d %d" % tuple(self.row))


class IdleProbe(Probe):
    """No input: each pass runs with the heap locked, so any allocation shows."""

    def __init__(self, seed, flash_root):
        Probe.__init__(self, seed, "", flash_root, False)
        self.board.end_ms = None  # idle for as long as the caller steps
        self.allocating = 0

    def idle_pass(self, locked=True):
        if not locked:  # the first passes draw the menu: they allocate
            self.board.sleep_ms(self.dev.tick())
            return
        micropython.heap_lock()
        try:
            wait = self.dev.tick()
        except MemoryError:  # the firmware's crash handler allocated and failed
            wait = 10
            self.allocating += 1
        micropython.heap_unlock()
        self.board.sleep_ms(wait)

    def report_idle(self):
        # Printed from here, not from the driver: a long expression would deepen
        # the driver's frame, which the WASI GC may then free (session.mp_program).
        t0, t1, t2, w0, w1, w2, a0, a1, locked_awake, off_at = self.t
        board = self.board
        print("I %d %d %d %d %d %d %d %d %d %d" % (
            t1 - t0, w1 - w0, a1 - a0, locked_awake, self.allocating - locked_awake,
            off_at, board.wakeups - w2, board.elapsed - t2, 1 if board.oled.on else 0,
            0 if self.dev.app is None else 1))
