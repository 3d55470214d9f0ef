"""``arbiter emulate``: the emulated Arbiter as a serial device.

A pseudo-terminal stands in for the Pico's USB serial (``port``); behind it
MicroPython's friendly and raw REPLs, raw-paste mode included (``device``),
drive one real MicroPython instance kept alive between commands (``vm``),
whose ``/`` is a host folder: the device's flash. Its buttons are pressed by
lines appended to a file (``buttons``). ``mpremote`` and the
``arbiter`` device commands talk to it as to a Pico. When the flash holds
``main.py`` it runs at power-on, after ``machine.reset()`` and after a soft
reset from the friendly REPL, with the virtual board as ``board``.

With ``firmware`` (a Pico's MicroPython) the chip runtime stands behind the
same port instead: MicroPython's own REPL over TinyUSB (``chip.usb``).
"""

from __future__ import annotations

import contextlib
import signal
import sys
import tempfile
import threading
from pathlib import Path

from arbiter_referee.emulator.serial.vm import DEFAULT_HEAP, MAX_HEAP, MIN_HEAP


class _Screen:
    """Keeps the latest OLED frame as text; writes it to a file when asked."""

    def __init__(self, path: Path | None):
        self.path = path
        self.lines: list[str] = []
        self.leds = ""

    def __call__(self, payload: str) -> None:
        on, _inverted, _contrast, leds, ram = payload.split(" ")
        self.show(on == "1", bytes.fromhex(ram), leds)

    def show(self, on: bool, ram: bytes, leds: str = "") -> None:
        from arbiter_referee.emulator.screen_text import read_lines

        self.lines = read_lines(ram) if on else []
        self.leds = leds
        if self.path is not None:
            tmp = self.path.with_name(self.path.name + ".tmp")
            tmp.write_text("\n".join(self.lines) + "\n")
            tmp.replace(self.path)


def run(port_file: str | None = None, flash: str | None = None, seed: int | None = None,
        heap: int = DEFAULT_HEAP, screen: str | None = None, log: str | None = None,
        buttons: str | None = None, firmware=None) -> int:
    from arbiter_referee.emulator.serial.port import PtyPort
    from arbiter_referee.emulator.serial.repl import SerialDevice

    if firmware is None and not MIN_HEAP <= heap <= MAX_HEAP:
        print(f"arbiter emulate: the firmware cannot run in a heap of {heap} bytes: give "
              f"{MIN_HEAP} to {MAX_HEAP} (a Pico has 245888, a Pico W 196608)", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        if flash is None:
            flash = stack.enter_context(tempfile.TemporaryDirectory(prefix="arbiter-flash-"))
        flash_dir = Path(flash)
        flash_dir.mkdir(parents=True, exist_ok=True)
        log_file = open(log, "ab", buffering=0) if log else None  # noqa: SIM115
        if log_file is not None:
            stack.callback(log_file.close)
        port = PtyPort(log_file.write if log_file is not None else None)
        screen_file = _Screen(Path(screen) if screen else None)
        if firmware is not None:
            import random

            from arbiter_referee.chip.usb import ChipDevice

            seed = random.getrandbits(64) if seed is None else seed  # new each run, a Pico's
            try:
                device = ChipDevice(port, flash_dir, seed, firmware, screen_file)
            except (ValueError, RuntimeError) as exc:  # no Node.js, a harness that failed
                port.close()
                print(f"arbiter emulate: {exc}", file=sys.stderr)
                return 2
        else:
            device = SerialDevice(port, flash_dir, heap, seed, screen_file)
        if buttons:
            from arbiter_referee.emulator.serial.buttons import follow

            stopped = threading.Event()
            stack.callback(stopped.set)
            threading.Thread(target=follow, args=(Path(buttons), device.buttons, stopped),
                             name="buttons", daemon=True).start()

        def ready() -> None:
            print(f"Arbiter emulator: serial port {port.name}, flash {flash_dir}", flush=True)
            if port_file:
                tmp = Path(port_file + ".tmp")
                tmp.write_text(port.name + "\n")
                tmp.replace(port_file)

        def stop(*_args) -> None:
            threading.Thread(target=device.close, daemon=True).start()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        worker = threading.Thread(target=device.run, args=(ready,), name="device", daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.2)
        if port_file:
            with contextlib.suppress(OSError):
                Path(port_file).unlink()
        print("Arbiter emulator: stopped", file=sys.stderr)
    return 1 if getattr(device, "failed", False) else 0
