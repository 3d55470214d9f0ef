"""How deep the firmware's Python calls go: a Pico's C stack holds a few dozen (the
rp2 port's 8 KiB), so a recursion that CPython shrugs off crashes a Pico. Counted on
CPython, where every call is seen: the frames of firmware/ code on the stack at once."""

from __future__ import annotations

import os
import sys

from arbiter_referee.paths import FIRMWARE

# Calibrated on the chip (tests/test_chip.py measures it with the probe): on the rp2
# port a firmware frame takes about 240 bytes of the C stack, the probe's too, and the
# probe reaches 28 from main.py. With main.py's and device.run's frames beside these
# (the emulated device's own loop stands for them here), the firmware may go this
# deep and leave the probe 8 frames to spare.
FRAMES = 20
SPARE = 8  # the probe's frames left, at the least, at the firmware's deepest


class Deepest:
    """While in its ``with``: the most firmware frames on the stack at once (``most``)
    and where (``where``: each frame's file and function, outermost first)."""

    def __init__(self):
        self.most = 0
        self.where: list[str] = []
        self._depth = 0
        self._root = str(FIRMWARE) + os.sep

    def __enter__(self) -> Deepest:
        self._old = sys.getprofile()
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc) -> None:
        sys.setprofile(self._old)

    def _profile(self, frame, event, arg) -> None:
        if event != "call" and event != "return":
            return
        if not frame.f_code.co_filename.startswith(self._root):
            return
        if event == "return":
            self._depth -= 1
            return
        self._depth += 1
        if self._depth > self.most:
            self.most = self._depth
            self.where = self._stack(frame)

    def _stack(self, frame) -> list[str]:
        names = []
        while frame is not None:
            code = frame.f_code
            if code.co_filename.startswith(self._root):
                names.append(f"{os.path.relpath(code.co_filename, FIRMWARE)}:{code.co_name}")
            frame = frame.f_back
        return names[::-1]
