"""``arbiter sim``: the emulated device in a terminal, driven from the keyboard.

Arrows are the four direction buttons, Enter or z is A, Backspace or x is B;
capital Z and X hold A or B for a long press; p saves a screenshot; q quits.
A terminal reports key presses, not releases, so each key is a press of
fixed length; a held arrow's key repeat arrives as a run of presses.
"""

from __future__ import annotations

import os
import random
import select
import sys
import tempfile
import time
from pathlib import Path

from arbiter_referee.emulator.frames import Frame, to_png, to_text
from arbiter_referee.emulator.session import use_firmware_path
from arbiter_referee.paths import factory_flash

PRESS_MS = 80
LONG_MS = 900
KEYS_HELP = "arrows: buttons  Enter/z: A  Bksp/x: B  Z/X: long A/B  p: screenshot  q: quit"
KEYMAP = {
    "\x1b[A": (0, PRESS_MS), "\x1b[B": (1, PRESS_MS), "\x1b[D": (2, PRESS_MS),
    "\x1b[C": (3, PRESS_MS), "\r": (4, PRESS_MS), "\n": (4, PRESS_MS), "z": (4, PRESS_MS),
    "\x7f": (5, PRESS_MS), "\x08": (5, PRESS_MS), "x": (5, PRESS_MS),
    "Z": (4, LONG_MS), "X": (5, LONG_MS),
}


def boot(seed: int, flash_dir: str, script: str = ""):
    use_firmware_path()
    from arbiter.device import Device
    from vboard import VirtualBoard

    board = VirtualBoard(seed, script, flash_dir.rstrip("/") + "/")
    return board, Device(board)


HELP = "the emulated device in this terminal"
SCRIPT_WORDS = ("up down left right a b, NAME:long, NAME:hold=MS, wait=MS, press=MS, "
                "gap=MS, chatter=MS")


def arguments(parser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed")
    parser.add_argument("--flash", metavar="DIR", help="folder kept as the device's flash")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="write a picture of the device after --keys, and exit")
    parser.add_argument("--keys", default="",
                        help=f"button script to play first; its words: {SCRIPT_WORDS}")


def run(args) -> int:
    use_firmware_path()
    import vscript

    try:
        for _ in vscript.edges(args.keys):
            pass
    except ValueError as exc:
        print(f"arbiter sim: --keys: {exc}; the words are {SCRIPT_WORDS}", file=sys.stderr)
        return 2
    return simulate(args.seed, args.flash, args.screenshot, args.keys)


def simulate(seed: int | None, flash: str | None, screenshot: str | None, keys: str) -> int:
    seed = random.getrandbits(64) if seed is None else seed
    with tempfile.TemporaryDirectory() as scratch:
        flash_dir = flash or scratch
        os.makedirs(flash_dir, exist_ok=True)
        factory_flash(Path(flash_dir))
        if screenshot:
            return _screenshot(seed, flash_dir, keys, screenshot)
        if not sys.stdin.isatty():
            print("arbiter sim needs a terminal; use --screenshot to run without one",
                  file=sys.stderr)
            return 2
        return Terminal(seed, flash_dir, keys).loop()


def _screenshot(seed: int, flash_dir: str, keys: str, path: str) -> int:
    board, device = boot(seed, flash_dir, keys)
    from vboard import EmulationDone

    try:
        while True:
            board.sleep_ms(device.tick())
    except EmulationDone:
        pass
    try:
        to_png(Frame.from_board(board), path)
    except (OSError, ValueError) as exc:
        print(f"arbiter sim: cannot write {path}: {getattr(exc, 'strerror', None) or exc}",
              file=sys.stderr)
        return 1
    print(f"wrote {path}")
    return 0


class Terminal:
    def __init__(self, seed: int, flash_dir: str, keys: str):
        self.board, self.device = boot(seed, flash_dir, keys)
        self.board.end_ms = None  # play the scripted keys, then run until q
        self.releases: dict[int, int] = {}
        self.seed = seed
        self.status = f"seed {seed}"
        self.shown: Frame | None = None

    def loop(self) -> int:
        import termios
        import tty

        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
        sys.stdout.write("\x1b[?25l\x1b[2J")
        try:
            last = time.monotonic()
            while True:
                wait_ms = self.device.tick()
                self.draw()
                key = _read_key(fd, wait_ms / 1000)
                if key == "q":
                    return 0
                self.key(key)
                now = time.monotonic()
                elapsed = max(wait_ms, int((now - last) * 1000))
                last = now
                self.advance(elapsed)
        except KeyboardInterrupt:  # Ctrl-C quits, as q does
            return 0
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
            sys.stdout.write("\x1b[?25h\n")

    def key(self, key: str | None) -> None:
        if key == "p":
            path = f"arbiter-{self.board.elapsed}.png"
            to_png(Frame.from_board(self.board), path)
            self.status = f"saved {path}"
            self.shown = None
        elif key in KEYMAP:
            button, hold = KEYMAP[key]
            self.board.press(button, 0)
            self.releases[button] = self.board.elapsed + hold

    def advance(self, ms: int) -> None:
        self.board.sleep_ms(ms)
        for button, at in list(self.releases.items()):
            if self.board.elapsed >= at:
                self.board.press(button, 1)
                del self.releases[button]

    def draw(self) -> None:
        frame = Frame.from_board(self.board)
        if frame == self.shown:
            return
        self.shown = frame
        sys.stdout.write("\x1b[H" + to_text(frame, colour=True) + "\n " + KEYS_HELP + "\n "
                         + self.status + "\x1b[K\n")
        sys.stdout.flush()


def _read_key(fd: int, timeout: float) -> str | None:
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    data = os.read(fd, 8).decode(errors="ignore")
    return data if data.startswith("\x1b[") else data[:1]
