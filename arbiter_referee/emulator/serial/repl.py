"""The emulated Arbiter's serial console: MicroPython's REPLs, as a Pico runs them.

The byte-level behaviour follows MicroPython's ``pyexec.c`` and the rp2
port's main loop, because ``mpremote`` depends on it:

- Power-on and hard reset (``machine.reset()``): a fresh MicroPython runs
  ``boot.py`` and ``main.py`` from the flash, then the friendly REPL.
- Friendly REPL (``>>> ``): Ctrl-A enters the raw REPL, Ctrl-B prints the
  banner, Ctrl-C abandons the line, Ctrl-D is a soft reset, which runs
  ``main.py`` again (this is how a Pico boots new firmware without a power
  cycle).
- Raw REPL (``raw REPL; CTRL-B to exit`` then ``>``): bytes up to Ctrl-D are
  a program; the device answers ``OK``, the output, ``\\x04``, any
  traceback, ``\\x04`` and ``>``. Ctrl-D alone is a soft reset (which does not
  run ``main.py``); Ctrl-B leaves for the friendly REPL.
- Raw-paste mode (``\\x05A\\x01`` in the raw REPL): ``R\\x01`` and a 2-byte
  window size; the host may send that many bytes, and one window more for
  every ``\\x01`` the device sends; ``\\x04`` ends the program, answered by
  ``\\x04`` before it runs.

Unlike a Pico, output in the raw REPL is sent as it is (no ``\\r`` added
before ``\\n``, like MicroPython's unix port), so ``mpremote fs cat`` gives a
file back byte for byte; the friendly REPL and ``main.py`` get ``\\r\\n``.
"""

from __future__ import annotations

import os
import struct
import threading
import time
from collections.abc import Callable
from pathlib import Path

from arbiter_referee.emulator.serial import mainpy
from arbiter_referee.emulator.serial.buttons import Buttons
from arbiter_referee.emulator.serial.port import PtyPort
from arbiter_referee.emulator.serial.vm import DEFAULT_HEAP, GuestVM, Outcome, cooked

RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
PASTE_WINDOW = 256
SOFT_REBOOT = b"MPY: soft reboot\r\n"


# The guest runs slower than a Pico on a loaded PC, and a pass that takes a Pico
# 1 s may take the emulator several: its watchdog waits this many times as long
# before it bites, so only a real hang (or a REPL left behind) trips it. The tests of
# the bite itself set ARBITER_WATCHDOG_SLACK lower: they wait for it (tests/test_watchdog.py).
HOST_SLACK = float(os.environ.get("ARBITER_WATCHDOG_SLACK") or 5)


class _Reset(Exception):
    """Leave the REPL: ``kind`` is ``soft`` or ``hard``; ``main`` runs main.py next."""

    def __init__(self, kind: str, main: bool):
        super().__init__(kind)
        self.kind = kind
        self.main = main


class _Closed(Exception):
    pass


class SerialDevice:
    def __init__(self, port: PtyPort, flash: Path, heap: int = DEFAULT_HEAP,
                 seed: int | None = None, on_frame: Callable[[str], None] | None = None):
        self.port = port
        self.flash = Path(flash)
        self.heap = heap
        self.seed = seed
        self.on_frame = on_frame
        self.vm: GuestVM | None = None
        self.raw = False
        self.boots = 0
        self._on_ready: Callable[[], None] | None = None
        self._closing = threading.Event()
        # The watchdog, as hardware: it runs through soft resets, a hard one stops it.
        self.watchdog_ms: int | None = None
        self.fed_at = 0.0
        self.bitten = False
        self.watchdog_resets = 0
        self.buttons = Buttons()

    # -- the main loop: boot, REPL, reset ----------------------------------------------

    def run(self, ready: Callable[[], None] | None = None) -> None:
        """Power on and serve the serial line until ``close()``; ``ready`` is called
        once the port first appears."""
        self._on_ready = ready
        run_main = True
        threading.Thread(target=self._watch, name="watchdog", daemon=True).start()
        try:
            while not self._closing.is_set():
                self.vm = GuestVM(self.flash, self.port.write, self.heap, self.seed,
                                  self.on_frame, on_sleep=self._up,
                                  on_watchdog=self._watchdog, on_usb=self._usb,
                                  buttons=self.buttons.levels)
                self.vm.start()
                self.boots += 1
                try:
                    self._boot(run_main)
                    self._up()
                    while True:
                        if self.raw:
                            self._raw_repl()
                        else:
                            self._friendly_repl()
                except _Reset as reset:
                    run_main = reset.main
                    if reset.kind == "hard":
                        self.watchdog_ms, self.bitten = None, False
                        self.port.unplug()  # as a Pico drops off USB while it restarts
                        self.raw = False
                        run_main = True
                    else:
                        self.port.write(SOFT_REBOOT)
                finally:
                    self.vm.stop()
        except _Closed:
            pass
        finally:
            if self.vm is not None:
                self.vm.stop()

    def _watchdog(self, timeout: int | None) -> None:
        """The guest armed (``timeout`` ms) or fed its watchdog."""
        if timeout is not None:
            self.watchdog_ms = timeout
        self.fed_at = time.monotonic()

    def _usb(self, allowed: bool) -> None:
        """The firmware opened or closed its port to a PC (board.usb_open)."""
        assert self.vm is not None
        self.port.intercept = self.vm.interrupt if allowed else None
        if allowed:
            self.port.drop_input()  # as board.py reads away a PC's knocks

    def _watch(self) -> None:
        """Bites when the watchdog goes unfed: a hung main loop, or a REPL a killed
        command left behind, ends in a hard reset and main.py runs again."""
        while not self._closing.wait(0.05):
            limit = self.watchdog_ms
            if limit is None or self.bitten or \
                    time.monotonic() - self.fed_at < limit * HOST_SLACK / 1000:
                continue
            self.bitten = True
            self.watchdog_resets += 1
            print(f"Arbiter emulator: the watchdog reset the device (unfed "
                  f"{time.monotonic() - self.fed_at:.1f} s)", flush=True)
            if self.vm is not None:
                self.vm.watchdog_reset()

    def _up(self) -> None:
        """The device can take commands (main.py is in its loop, or the REPL is up):
        its port appears, as a Pico's does once it has booted."""
        if self.port.plugged:
            return
        self.port.plug()
        if self._on_ready is not None:
            ready, self._on_ready = self._on_ready, None
            ready()

    def close(self) -> None:
        self._closing.set()
        if self.vm is not None:
            self.vm.interrupt()
        self.port.close()

    def _boot(self, run_main: bool) -> None:
        if (self.flash / "boot.py").is_file():
            self._after(self._job("f", "boot.py", raw=False), main=False)
        main = self.flash / "main.py"
        if run_main and not self.raw and main.is_file():
            wrapped = mainpy.wrap(main.read_text(errors="replace"))
            job = ("m", wrapped) if wrapped is not None else ("f", "main.py")
            self._after(self._job(*job, raw=False), main=True)

    # -- running work in MicroPython ---------------------------------------------------

    def _job(self, kind: str, text: str, raw: bool) -> Outcome:
        assert self.vm is not None
        # Each piece of work a PC sends feeds the watchdog: this serial line, on a
        # loaded machine, can be far slower than a Pico's USB (which the commands'
        # own feeding, transfer.FEED, covers). A command left hanging still bites.
        self.fed_at = time.monotonic()
        # A Pico's kbd_intr(-1) lasts while its program runs: new work starts open.
        self.port.intercept = self.vm.interrupt
        try:
            return self.vm.run(kind, text, raw)
        finally:
            self.port.intercept = None

    def _after(self, outcome: Outcome, main: bool = False, raw: bool = False) -> None:
        """Report how work ended; leave the REPL when it reset the device."""
        status = outcome.status
        if status == "reset-hard":
            raise _Reset("hard", True)
        if raw:
            self.port.write(b"\x04" + outcome.err + b"\x04")
        else:
            self.port.write(cooked(outcome.err))
        if status in ("killed", "died") and main:
            # main.py took the instance down, or would not stop: running it again
            # would do the same, so the device comes back to its REPL instead
            self.port.write(b"emulator: main.py stopped MicroPython; it runs again at "
                            b"the next reset\r\n")
            raise _Reset("soft", False)
        if status in ("exit", "reset-soft", "killed", "died"):
            # SystemExit and machine.soft_reset() are a soft reset on a Pico (main.py
            # runs again only from the friendly REPL); a lost instance must restart too.
            raise _Reset("soft", main or not self.raw)

    def _getc(self) -> int:
        while True:
            c = self.port.getc(0.5)
            if c is not None:
                return c
            if self._closing.is_set():
                raise _Closed()
            if self.bitten:  # at the REPL, unfed: the watchdog resets the device
                raise _Reset("hard", True)

    # -- the friendly REPL -------------------------------------------------------------

    def banner(self) -> bytes:
        assert self.vm is not None
        version = self.vm.version.split("; ", 1)[-1] or "MicroPython"
        return (f"{version}; Arbiter emulator (MicroPython WASI) with RP2040\r\n"
                'Type "help()" for more information.\r\n').encode()

    def _friendly_repl(self) -> None:
        self.port.write(self.banner())
        try:
            self._friendly_lines()
        except _EnterRaw:
            return

    def _friendly_lines(self) -> None:
        while True:
            line = self._readline(b">>> ")
            if line is None:
                continue
            text = line
            while _continues(text):
                more = self._readline(b"... ")
                if more is None:
                    text = None
                    break
                if not more.strip():
                    break
                text += "\n" + more
            if text is None or not text.strip():
                continue
            self._after(self._job("s", text + "\n", raw=False))

    def _readline(self, prompt: bytes) -> str | None:
        """One edited line; None when abandoned with Ctrl-C. Ctrl-A, Ctrl-B and
        Ctrl-D on an empty line leave (raw REPL, banner, soft reset)."""
        self.port.write(prompt)
        line = bytearray()
        while True:
            c = self._getc()
            if c == 0x0D:
                self.port.write(b"\r\n")
                return line.decode("utf-8", "replace")
            if c == 0x03:
                self.port.write(b"\r\n")
                return None
            if c == 0x01 and not line:
                self.port.write(b"\r\n")
                self.raw = True
                raise _EnterRaw()
            if c == 0x02 and not line:
                self.port.write(b"\r\n" + self.banner())
                return None
            if c == 0x04 and not line:
                self.port.write(b"\r\n")
                raise _Reset("soft", True)
            if c in (0x08, 0x7F):
                if line:
                    del line[-1]
                    self.port.write(b"\b \b")
                continue
            if c == 0x1B:  # an escape sequence (arrow keys): ignored
                c = self._getc()
                if c == ord("["):
                    while not 0x40 <= self._getc() <= 0x7E:
                        pass
                continue
            if c >= 0x20 or c == 0x09:
                line.append(c)
                self.port.write(bytes([c]))

    # -- the raw REPL ------------------------------------------------------------------

    def _raw_repl(self) -> None:
        self.port.write(RAW_BANNER)
        line = bytearray()
        self.port.write(b">")
        while True:
            c = self._getc()
            if c == 0x01:
                if line == b"\x05A":
                    self._raw_paste()
                    line.clear()
                    self.port.write(b">")
                    continue
                if len(line) == 2 and line[0] == 0x05:
                    self.port.write(b"R\x00")  # an unknown raw-paste command
                line.clear()
                self.port.write(RAW_BANNER + b">")
            elif c == 0x02:
                self.port.write(b"\r\n")
                self.raw = False
                return
            elif c == 0x03:
                line.clear()
            elif c == 0x04:
                self.port.write(b"OK")
                if not line:
                    raise _Reset("soft", False)
                self._after(self._job("x", line.decode("utf-8", "replace"), raw=True),
                            raw=True)
                line.clear()
                self.port.write(b">")
            else:
                line.append(c)

    def _raw_paste(self) -> None:
        self.port.write(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
        data = bytearray()
        remain = PASTE_WINDOW
        while True:
            c = self._getc()
            if c == 0x04:
                self.port.write(b"\x04")
                break
            if c == 0x03:
                self.port.write(b"\x04\x04KeyboardInterrupt: \r\n\x04")
                return
            data.append(c)
            remain -= 1
            if remain == 0:
                self.port.write(b"\x01")
                remain = PASTE_WINDOW
        self._after(self._job("x", data.decode("utf-8", "replace"), raw=True), raw=True)


class _EnterRaw(Exception):
    pass


def _continues(text: str) -> bool:
    """Whether the friendly REPL should ask for another line (a compound statement)."""
    last = text.rstrip().splitlines()[-1] if text.strip() else ""
    return last.endswith((":", "\\")) or "\n" in text
