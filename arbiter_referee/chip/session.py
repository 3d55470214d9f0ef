"""The firmware on a Pico's own MicroPython in an emulated RP2040, driven from here.

``Chip`` runs the harness (harness.mjs, under Node.js) on a flash made as ``arbiter
deploy`` leaves one, and keeps what the board around the chip shows: the OLED
(the virtual panel decoding the chip's I2C bytes), the LED ring (decoded from its
bitstream) and the serial console. Its ``board`` reads as the virtual board's does
(``oled``, ``neopixel.shown``, ``elapsed``, ``press``), so frames, screenshots and
screen text work on it unchanged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from arbiter_referee.chip.runtime import (
    FILESYSTEM_OFFSET,
    HEAP_LEAST,
    PicoFirmware,
    filesystem_image,
    pico_firmware,
    read_filesystem,
    rp2040js,
)
from arbiter_referee.paths import PACKAGE, use_firmware_path

HARNESS = PACKAGE / "chip" / "harness.mjs"
CLOCKS = ("script", "pico")
BUTTONS = ("up", "down", "left", "right", "a", "b")  # vscript's order
CPU_HZ = 125_000_000  # a Pico's: rp2040js counts cycles at it
WORK_MS = 3  # a pass with more CPU than this did work (an idle one: under 1 ms)
# where a Pico's CPU goes, with meter=True: collecting the heap, finding room in it
# (a Python call's frame included), and looking a new string up among the interned
METERED = ("gc_collect", "gc_alloc", "qstr_find_strn")


class ChipError(RuntimeError):
    """The harness failed (not the firmware: its errors are on the serial console)."""


class ChipLeds:
    def __init__(self, count: int):
        self.n = count
        self.shown = bytearray(3 * count)  # RGB, as the virtual board keeps them

    def wire(self, grb: bytes) -> None:
        """A frame as it went down the wire: green, red, blue for each LED."""
        shown = self.shown
        for i in range(min(self.n, len(grb) // 3)):
            shown[3 * i], shown[3 * i + 1], shown[3 * i + 2] = grb[3 * i + 1], grb[3 * i], \
                grb[3 * i + 2]


class ChipBoard:
    """The board around the chip, as the tools read a board."""

    def __init__(self, chip: Chip, wiring: dict, on_frame: Callable | None):
        from vssd1306 import VirtualSSD1306

        self.chip = chip
        self.oled = VirtualSSD1306()
        self.neopixel = ChipLeds(wiring["led_count"])
        self.elapsed = 0  # ms on the chip's timer (since its last reset)
        self.on_frame = on_frame
        self.i2c_bytes = 0
        self.i2c_writes = 0
        # each write that changed the panel's RAM: (us on the chip's timer, CPU cycles)
        self.panel_changes: list[tuple[int, int]] = []
        self._last = None

    def receive(self, when: tuple[int, int], data: bytes) -> None:
        oled = self.oled
        before, oled.changed = oled.changed, False
        oled.receive(data)
        if oled.changed:
            self.panel_changes.append(when)
        oled.changed = oled.changed or before
        self.i2c_bytes += len(data)  # (control bytes in, as the virtual board's)
        self.i2c_writes += 1

    def check_frame(self) -> None:
        """Report a frame when the panel or the LEDs changed since the last one."""
        oled = self.oled
        state = (oled.on, oled.inverted, oled.contrast, bytes(self.neopixel.shown))
        if state == self._last and not oled.changed:
            return
        self._last = state
        oled.changed = False
        if self.on_frame:
            self.on_frame(self)

    def press(self, button: int, level: int) -> None:
        self.chip.set_pin(button, level)

    def sleep_ms(self, ms: int) -> None:
        self.chip.run(ms)


class Chip:
    """A Pico running the firmware from ``flash_dir`` (the device's files; the
    firmware is added as ``arbiter deploy`` installs it). ``seed``: the device's
    entropy, as the virtual board's (exact when the firmware's ELF is at hand);
    ``clock``: "script" (the timer stands still while the CPU works, as the
    emulated device's clock does: a recorded script replays at its instants) or
    "pico" (it runs with the CPU at 125 MHz, as on a Pico). ``with_firmware``
    False: the flash holds only ``flash_dir`` (a Pico as ``arbiter emulate`` has
    it). ``on_serial``: given what the chip prints as it comes (then not kept);
    ``on_usb``: called when its USB serial enumerates (a PC sees the port);
    ``on_reset``: given the reason when the chip resets itself; ``meter``: the stats
    count the cycles spent in METERED's functions (the emulator runs a little slower).
    ``heap``: the GC heap's bytes (gc.mem_free() + gc.mem_alloc(), to 64 bytes),
    smaller than the port's, as a board with less RAM has (it needs the firmware's
    ELF)."""

    def __init__(self, flash_dir: Path, seed: int = 1, clock: str = "script",
                 firmware: PicoFirmware | None = None,
                 on_frame: Callable | None = None, with_firmware: bool = True,
                 on_serial: Callable[[bytes], None] | None = None,
                 on_usb: Callable[[], None] | None = None,
                 on_reset: Callable[[str], None] | None = None, meter: bool = False,
                 heap: int | None = None) -> None:
        if clock not in CLOCKS:
            raise ValueError(f"unknown clock {clock!r}; use one of {', '.join(CLOCKS)}")
        use_firmware_path()
        from arbiter.hw import wiring

        firmware = firmware or pico_firmware()
        if heap is not None:
            most = firmware.heap_bytes()
            if most is None:
                raise ValueError("a smaller heap needs the firmware's ELF beside its UF2")
            if not HEAP_LEAST <= heap <= most:
                raise ValueError(f"heap {heap}: give {HEAP_LEAST} to {most} bytes "
                                 f"(the port's heap)")
        self.flash_dir = Path(flash_dir)
        config = self.flash_dir / "config.json"
        self.wiring = wiring.load(config.read_text() if config.is_file() else None)[0]
        self.board = ChipBoard(self, self.wiring, on_frame)
        self.serial = bytearray()  # what the chip printed, all of it
        self.resets: list[str] = []
        # each pass: (us when it ended, its cycles, the cycles since the start then)
        self.passes: list[tuple[int, int, int]] = []
        self.edges_made: list[tuple[int, int, int, int]] = []  # play's: (us, cycles,
        self.cycles = 0                                        # button, level)
        self.idle = False
        self.with_firmware = with_firmware
        self.on_serial = on_serial
        self.on_usb = on_usb
        self.on_reset = on_reset
        self.off = False  # the power went (lose_power_*): the CPU stands still till power_cycle
        self._scratch = Path(tempfile.mkdtemp(prefix="arbiter-chip-"))
        image = self._scratch / "flash.img"
        image.write_bytes(filesystem_image(self.flash_dir, with_firmware))
        settings = {
            "rp2040js": str(rp2040js()), "bootrom": str(firmware.bootrom),
            "firmware": str(firmware.uf2), "filesystem": str(image),
            "filesystem_offset": FILESYSTEM_OFFSET, "symbols": firmware.symbols(),
            "clock": clock, "seed": str(seed), "meter": list(METERED) if meter else None,
            "heap": heap,
            "pins": {"buttons": [self.wiring["buttons"][name] for name in
                                 ("up", "down", "left", "right", "a", "b")],
                     "led": self.wiring["led_pin"], "i2c": self.wiring["i2c_id"],
                     "oled": self.wiring["oled_addr"]},
        }
        (self._scratch / "chip.json").write_text(json.dumps(settings))
        node = shutil.which("node")
        if node is None:
            raise ValueError("node not found: the chip runtime runs rp2040js under Node.js")
        self._process = subprocess.Popen(
            [node, str(HARNESS), str(self._scratch / "chip.json")], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, bufsize=1)
        self.now_us = 0

    # ---- driving ----

    def _command(self, line: str) -> str:
        process = self._process
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise ChipError(f"the chip harness stopped: {exc}") from None
        board = self.board
        for event in process.stdout:
            kind, _, rest = event.rstrip("\n").partition(" ")
            if kind == "i":
                micros, cycles, data = rest.split()
                board.receive((int(micros), int(cycles)), bytes.fromhex(data))
            elif kind == "l":
                board.neopixel.wire(bytes.fromhex(rest))
            elif kind == "o":
                if self.on_serial is not None:
                    self.on_serial(bytes.fromhex(rest))
                else:
                    self.serial += bytes.fromhex(rest)
            elif kind == "u":
                if self.on_usb is not None:
                    self.on_usb()
            elif kind == "p":
                micros, cycles, total, drew = rest.split()
                board.elapsed = int(micros) // 1000
                self.passes.append((int(micros), int(cycles), int(total)))
                if drew == "1":
                    board.check_frame()
            elif kind == "w":
                self.resets.append(rest)
                if self.on_reset is not None:
                    self.on_reset(rest)
            elif kind == "s":
                self.last_stats = json.loads(rest)
            elif kind == "r":
                said = rest.split()
                self.now_us = int(said[0])
                self.cycles = int(said[1])
                self.idle = "idle" in said
                self.off = "off" in said
                return rest
            elif kind == "x":
                raise ChipError(f"the chip harness failed: {rest}")
        raise ChipError("the chip harness stopped without a word")

    def run_to(self, ms: int) -> int:
        """Run until the chip's timer reads ``ms`` with the CPU asleep (never in the
        middle of a pass); returns the ms it reads then."""
        self._command(f"run {ms * 1000}")
        self.board.elapsed = self.now_us // 1000
        return self.board.elapsed

    def live(self, until_us: int, busy_us: int) -> int | None:
        """Run until the timer reads ``until_us`` with the CPU asleep, or ``busy_us``
        in the middle of a pass; returns when the chip wakes next by itself (its
        timer's us), None if only the PC or a pin can wake it."""
        said = self._command(f"live {until_us} {busy_us}").split()
        wake = int(said[said.index("wake") + 1])
        return None if wake < 0 else wake

    def send_serial(self, data: bytes) -> None:
        """Bytes from the PC down the USB serial port."""
        self._command(f"serial {data.hex()}")

    def run(self, ms: int) -> int:
        return self.run_to(self.now_us // 1000 + ms)

    def play(self, script: str, stop: Callable[[], bool] | None = None) -> bool:
        """A button script (vscript's words): each pin change made with the CPU asleep,
        at the script's instant on the "script" clock; on a Pico's clock, once the
        chip is asleep and as long after the last change as the script says (a
        player waits for the screen before the next press). ``stop()``, asked before
        each change, ends the play early when true; returns whether it played all."""
        import vscript

        late = 0  # ms the chip was still busy past the script's instants
        for at, button, level in vscript.edges(script):
            reached = self.run_to(at + late)
            if button < 0 or self.off:  # the script's end, or the power's
                return button < 0
            if stop is not None and stop():
                return False
            late = max(late, reached - at)
            self.set_pin(button, level)
            self.edges_made.append((self.now_us, self.cycles, button, level))
        raise AssertionError("vscript.edges always ends with the script's end")

    def schedule(self, script: str) -> int:
        """Every pin change of ``script`` at its own instant on the chip's timer, the
        CPU busy or not (a player who does not wait for the screen); the runs make
        them. Returns the script's end, in ms."""
        import vscript

        for at, button, level in vscript.edges(script):
            if button < 0:
                return at
            self.set_pin_at(at * 1000, button, level)
        raise AssertionError("vscript.edges always ends with the script's end")

    def settle(self, quiet_ms: int = 300, most_ms: int = 60000) -> int:
        """Run until the chip has worked no pass longer than an idle one (a few ms) for
        ``quiet_ms``: what the presses so far asked for is done and drawn. Returns the
        timer's ms then."""
        work = WORK_MS * CPU_HZ // 1000
        start = self.now_us // 1000
        while self.now_us // 1000 - start < most_ms:
            since = self.now_us
            self.run(quiet_ms)
            if not any(cycles > work for at, cycles, _total in self.passes if at > since):
                break
        return self.now_us // 1000

    def set_pin(self, button: int, level: int) -> None:
        """A button's pin: 0 pressed, 1 released (``button``: vscript's order)."""
        self._command(f"pin {self.wiring['buttons'][BUTTONS[button]]} {level}")

    def set_pin_at(self, micros: int, button: int, level: int) -> None:
        """A button's pin changed when the chip's timer reads ``micros``, whether the
        CPU works or sleeps then (made by the next runs)."""
        self._command(f"at {micros} {self.wiring['buttons'][BUTTONS[button]]} {level}")

    def lose_power_at_write(self, count: int, part: float = 0.5) -> None:
        """The power goes during the ``count``-th flash program or erase from now (1:
        the next), ``part`` of its bytes done (0 to 1): the runs stop there, ``off``
        set, until power_cycle."""
        if count < 1 or not 0 <= part <= 1:
            raise ValueError(f"lose_power_at_write({count}, {part}): count from 1, part 0 to 1")
        self._command(f"lose op {count} {part}")

    def lose_power_after(self, cycles: int) -> None:
        """The power goes once the CPU has run ``cycles`` more (a pass cut anywhere,
        when the CPU works then)."""
        self._command(f"lose cycles {cycles}")

    def power_cycle(self, seed: int | None = None) -> None:
        """The power goes and comes back: a new chip on the same flash (``seed``: the
        new boot's entropy; by default the same)."""
        self._command(f"cut {seed if seed is not None else 1}")
        self.board.elapsed = 0

    def stats(self) -> dict:
        """cycles, passes, deepestStack (bytes of the C stack), leastFree (heap bytes
        free at a pass's end; Infinity without the ELF), heapBytes (the GC heap),
        heapPeak (the most in use, read as each collection starts and at each pass's
        end), heapLive (the most in use as a collection ends), collections, flash
        erases and bytes, flashOps (programs and erases begun), resets: all since the
        harness started; with meter=True, meters: {function: {calls, cycles}}."""
        self._command("stats")
        return self.last_stats

    def deepest_stack(self) -> int:
        """The most bytes of the C stack any pass used since the last call."""
        return int(self._command("stack").split()[2])  # (after the timer and cycles)

    def serial_lines(self) -> list[str]:
        return self.serial.decode(errors="replace").replace("\r\n", "\n").split("\n")

    def save_flash(self, flash_dir: Path | None = None) -> None:
        """Write back into ``flash_dir`` (default: the one it started from) the
        device's files as the chip's flash now holds them."""
        image = self._scratch / "now.img"
        self._command(f"flash {image}")
        read_filesystem(image.read_bytes(), Path(flash_dir or self.flash_dir),
                        self.with_firmware)

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=10)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
        shutil.rmtree(self._scratch, ignore_errors=True)

    def __enter__(self) -> Chip:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
