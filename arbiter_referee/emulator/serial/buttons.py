"""The emulated Arbiter's buttons, pressed from the PC (``arbiter emulate --buttons FILE``).

Each line appended to the file is a button script, as ``arbiter sim --keys``
takes: ``up down left right a b``, ``NAME:long`` (held 900 ms) and
``wait=MS``. The firmware runs on MicroPython's real clock, so a press is
held for real time and, on a loaded PC, also for a few passes of the main loop
(the pins are handed over when it sleeps): a slow pass never misses a press
nor makes a short one long.
"""

from __future__ import annotations

import collections
import sys
import threading
import time
from pathlib import Path

NAMES = ("up", "down", "left", "right", "a", "b")  # the order of the board's pins
PRESS = 0.12  # s a short press is held (the firmware: 20 ms debounce, long from 600)
LONG = 0.9
GAP = 0.25  # s released between two presses
PASSES = 3  # main-loop passes each level lasts at least
RELEASED = "000000"


def steps(script: str) -> list[tuple[str, float]]:
    """(pin levels, seconds) for each step of ``script``; ValueError on a bad word."""
    out = []
    for word in script.split():
        name, _, arg = word.partition(":")
        if name.startswith("wait="):
            out.append((RELEASED, int(name[5:]) / 1000))
            continue
        if name not in NAMES or arg not in ("", "long"):
            raise ValueError(f"not a button: {word!r} (up down left right a b, NAME:long, "
                             "wait=MS)")
        levels = "".join("1" if n == name else "0" for n in NAMES)
        out += [(levels, LONG if arg else PRESS), (RELEASED, GAP)]
    return out


class Buttons:
    def __init__(self) -> None:
        self._queue: collections.deque[tuple[str, float]] = collections.deque()
        self._lock = threading.Lock()
        self._current = RELEASED
        self._until = 0.0
        self._passes = PASSES

    def play(self, script: str) -> None:
        found = steps(script)
        with self._lock:
            self._queue.extend(found)

    def levels(self) -> str:
        """At a sleep of the firmware's main loop: the new levels, or "" if unchanged."""
        with self._lock:
            self._passes += 1
            if not self._queue or self._passes < PASSES or time.monotonic() < self._until:
                return ""
            levels, hold = self._queue.popleft()
            self._until = time.monotonic() + hold
            self._passes = 0
            changed = levels != self._current
            self._current = levels
        return levels if changed else ""


def follow(path: Path, buttons: Buttons, stop: threading.Event) -> None:
    """Play each line appended to ``path`` (made empty first) until ``stop``."""
    path.write_text("")
    done = 0
    pending = b""
    while not stop.wait(0.05):
        try:
            with path.open("rb") as f:
                f.seek(done)
                data = f.read()
        except OSError:
            continue
        done += len(data)
        pending += data
        *lines, pending = pending.split(b"\n")
        for line in lines:
            try:
                buttons.play(line.decode(errors="replace"))
            except ValueError as exc:
                print(f"arbiter emulate: {path}: {exc}", file=sys.stderr, flush=True)
