"""How much of a Pico's C stack a Python call takes, measured on the chip: the rp2
port's stack is 8 KiB, and MicroPython raises RuntimeError within 256 bytes of its
end (MICROPY_STACK_CHECK_MARGIN). The recursion probe of ../shared/rp2/README.md,
``f(n)`` calling ``f(n + 1)`` until RuntimeError, reaches 28 from main.py; what the
firmware uses at its deepest is said as the probe's frames left below it."""

from __future__ import annotations

import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path

STACK_BYTES = 8192  # PICO_STACK_SIZE 0x2000 in ports/rp2/CMakeLists.txt
LIMIT = STACK_BYTES - 256  # where MicroPython's stack check raises RuntimeError

# main.py for the measure: the stack at main.py's level (a call that sleeps, so the
# harness looks), twenty calls deeper, then the probe.
PROBE = """\
import time
def g(n):
    if n:
        return g(n - 1)
    time.sleep_ms(1)
    return 0
def f(n):
    try:
        return f(n + 1)
    except RuntimeError:
        return n
time.sleep_ms(5)
g(0)
time.sleep_ms(5)
g(20)
time.sleep_ms(5)
print("probe", f(0))
"""


@dataclass(frozen=True)
class Stack:
    base: int  # bytes in use at main.py's level (a call there that sleeps)
    per_call: int  # bytes a plain Python call takes
    probe: int  # the probe's frames from main.py

    @property
    def probe_frame(self) -> float:
        """Bytes a frame of the probe takes (a call and a try)."""
        return (LIMIT - self.base) / self.probe

    def probe_left(self, used: int) -> int:
        """The probe's frames that would still fit below a stack ``used`` bytes deep."""
        return (LIMIT - used) * self.probe // (LIMIT - self.base)


@functools.lru_cache(maxsize=None)
def measure(pico) -> Stack:
    """The stack's figures on ``pico`` (chip.runtime.PicoFirmware)."""
    from arbiter_referee.chip.session import Chip

    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "main.py").write_text(PROBE)
        with Chip(Path(folder), 1, "script", pico) as chip:
            chip.run_to(3)
            chip.deepest_stack()  # the boot's
            chip.run_to(8)
            base = chip.deepest_stack()
            chip.run_to(14)
            deeper = chip.deepest_stack()
            chip.run_to(30)
            said = [line for line in chip.serial_lines() if line.startswith("probe ")]
    if not said:
        raise RuntimeError("the probe did not run on the chip")
    return Stack(base, (deeper - base) // 20, int(said[0].split()[1]))
