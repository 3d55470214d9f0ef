"""``arbiter sim``: the emulated device in a terminal, driven from the keyboard.

Arrows are the four direction buttons, Enter or z is A, Backspace or x is B;
capital Z and X hold A or B for a long press; p saves a screenshot; q quits.
A terminal too small for the OLED's pixels in half blocks (80x24) shows its
lines as text; t turns that into a picture in Braille cells and back.
A terminal reports key presses, not releases, so each key is a press of
fixed length; a held arrow's key repeat arrives as a run of presses.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.frames import Frame, leds_text, text_panel, to_png, to_text
from arbiter_referee.emulator.session import use_firmware_path

PRESS_MS = 80
LONG_MS = 900
GAP_MS = 40  # between a release and the next press: twice the firmware's debounce
KEYS_HELP = "arrows: buttons  Enter/z: A  Bksp/x: B  Z/X: long A/B  p: screenshot  q: quit"
# beside the text of a small terminal's OLED: shorter lines, and t for the picture
TEXT_HELP = ["arrows: buttons  Enter/z: A  Bksp/x: B", "Z/X: long A/B  p: screenshot  q: quit",
             "t: the screen as a picture, or text"]
KEYMAP = {  # blessed's key names, or the character typed
    "KEY_UP": (0, PRESS_MS), "KEY_DOWN": (1, PRESS_MS), "KEY_LEFT": (2, PRESS_MS),
    "KEY_RIGHT": (3, PRESS_MS), "KEY_ENTER": (4, PRESS_MS), "z": (4, PRESS_MS),
    "KEY_BACKSPACE": (5, PRESS_MS), "KEY_DELETE": (5, PRESS_MS), "x": (5, PRESS_MS),
    "Z": (4, LONG_MS), "X": (5, LONG_MS),
}


def boot(seed: int, flash_dir: str, script: str = "", pico=None):
    """(board, device): the firmware on a virtual board under CPython, or with ``pico``
    (chip.runtime.PicoFirmware) on the chip, which runs a Pico's clock and plays
    ``script`` first."""
    use_firmware_path()
    if pico is not None:
        from arbiter_referee.chip.session import Chip

        chip = Chip(Path(flash_dir), seed, "pico", pico)
        chip.play(script)
        return chip.board, _OnChip(chip)
    from arbiter.device import Device
    from vboard import VirtualBoard

    board = VirtualBoard(seed, script, flash_dir.rstrip("/") + "/")
    return board, Device(board)


class _OnChip:
    """The device's side of a board on the chip: it runs its own main loop, so a
    tick only says how long the terminal may wait for a key."""

    def __init__(self, chip):
        self.chip = chip

    def tick(self) -> int:
        return 10


HELP = "the emulated device in this terminal"
SCRIPT_WORDS = ("up down left right a b, NAME:long, NAME:hold=MS, wait=MS, press=MS, "
                "gap=MS, chatter=MS")


def arguments(parser) -> None:
    parser.add_argument("--seed", type=int, default=None, help="default: a random seed")
    parser.add_argument("--flash", metavar="DIR", help="folder kept as the device's flash")
    parser.add_argument("--ruleset", action="append", default=[], metavar="FILE",
                        help="your own ruleset (repeatable): checked as arbiter validate "
                             "checks it, then on the device beside the bundled games (in "
                             "place of one of the same name)")
    parser.add_argument("--screenshot", metavar="FILE.png",
                        help="write a picture of the device after --keys, and exit")
    parser.add_argument("--keys", default="",
                        help=f"button script to play first; its words: {SCRIPT_WORDS}")
    parser.add_argument("--runtime", choices=("cpython", "chip"), default="cpython",
                        help="chip: MicroPython's own Pico firmware in an emulated RP2040, "
                        "on a Pico's clock (see --firmware)")
    parser.add_argument("--firmware", metavar="FILE.uf2",
                        help="for --runtime chip: MicroPython's UF2 for the Pico, the "
                        "RP2040's bootrom beside it (default $ARBITER_PICO_FIRMWARE)")
    parser.add_argument("--screenshots", metavar="DIR",
                        help="write DIR/play-NAME.png, each bundled game's play screen "
                             "mid-game (the bench's recorded keys), and exit")


def run(args) -> int:
    use_firmware_path()
    if args.screenshots:
        from arbiter_referee.emulator.shots import write_all

        try:
            for path in write_all(args.screenshots):
                print(f"wrote {path}")
        except OSError as exc:
            print(f"arbiter sim: cannot write to {args.screenshots}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
        return 0
    import vscript

    try:
        for _ in vscript.edges(args.keys):
            pass
    except ValueError as exc:
        print(f"arbiter sim: --keys: {exc}; the words are {SCRIPT_WORDS}", file=sys.stderr)
        return 2
    pico = None
    if args.runtime == "chip":
        from arbiter_referee.chip.runtime import pico_firmware

        try:
            pico = pico_firmware(args.firmware)
        except ValueError as exc:
            print(f"arbiter sim: {exc}", file=sys.stderr)
            return 2
    from arbiter_referee.rulesets import own_rulesets

    try:
        rulesets = own_rulesets(args.ruleset)
    except ValueError as exc:
        print(f"arbiter sim: {exc}", file=sys.stderr)
        return 1
    return simulate(args.seed, args.flash, args.screenshot, args.keys, pico, rulesets)


def simulate(seed: int | None, flash: str | None, screenshot: str | None, keys: str,
             pico=None, rulesets: list[tuple[str, Path]] = ()) -> int:
    seed = random.getrandbits(64) if seed is None else seed
    with tempfile.TemporaryDirectory() as scratch:
        flash_dir = flash or scratch
        os.makedirs(flash_dir, exist_ok=True)
        factory_flash(Path(flash_dir), rulesets)
        if screenshot:
            return _screenshot(seed, flash_dir, keys, screenshot, pico)
        if not sys.stdin.isatty():
            print("arbiter sim needs a terminal; use --screenshot to run without one",
                  file=sys.stderr)
            return 2
        return Terminal(seed, flash_dir, keys, pico=pico).loop()


def _screenshot(seed: int, flash_dir: str, keys: str, path: str, pico=None) -> int:
    try:
        board, device = boot(seed, flash_dir, keys, pico)
    except (ValueError, RuntimeError) as exc:  # no Node.js, a harness that failed
        print(f"arbiter sim: {exc}", file=sys.stderr)
        return 2
    if pico is not None:
        device.chip.save_flash()  # --flash keeps what the chip wrote
        device.chip.close()
    else:
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
    """The device in a terminal through blessed (raw keys and sizes on POSIX and Windows).
    The OLED is drawn in half blocks when the terminal has room, else as its lines of
    text (an 80x24 terminal), or on t in Braille cells; a terminal too small for any
    says so instead of garbling."""

    def __init__(self, seed: int, flash_dir: str, keys: str, term=None, pico=None):
        from blessed import Terminal as Blessed

        self.term = term or Blessed()
        self.boot = (seed, flash_dir, keys, pico)
        self.releases: dict[int, int] = {}
        self.seed = seed
        self.status = f"seed {seed}"
        self.shown: tuple | None = None
        self.picture = False  # t: a small terminal's OLED in Braille, not text

    def size(self) -> tuple[int, int]:
        """The terminal's columns and rows; one that does not tell (0x0, as some
        serial consoles) is taken to fit the smaller drawing."""
        cols, rows = self.term.width, self.term.height
        return (cols, rows) if cols and rows else SIZES["text"]

    def too_small(self) -> str | None:
        """Why the terminal cannot show the device, or None."""
        cols, rows = self.size()
        if layout(cols, rows):
            return None
        need_cols, need_rows = SIZES["text"]
        return (f"the terminal is {cols}x{rows}; arbiter sim needs "
                f"{need_cols}x{need_rows} or more (or use --screenshot)")

    def loop(self) -> int:
        term = self.term
        reason = self.too_small()
        if reason:
            print(f"arbiter sim: {reason}", file=sys.stderr)
            return 2
        self.board, self.device = boot(*self.boot)
        self.board.end_ms = None  # play the scripted keys, then run until q
        chip = getattr(self.device, "chip", None)
        with contextlib.ExitStack() as stack, term.cbreak(), term.hidden_cursor(), \
                term.fullscreen():
            if chip is not None:  # its flash kept, its process ended, however the loop ends
                stack.callback(chip.close)
                stack.callback(chip.save_flash)
            try:
                last = time.monotonic()
                while True:
                    wait_ms = self.device.tick()
                    self.draw()
                    key = term.inkey(timeout=wait_ms / 1000)
                    if str(key) == "q":
                        return 0
                    self.key(key.name or str(key) or None)
                    now = time.monotonic()
                    elapsed = max(wait_ms, int((now - last) * 1000))
                    last = now
                    self.advance(elapsed)
            except KeyboardInterrupt:  # Ctrl-C quits, as q does
                return 0

    def key(self, key: str | None) -> None:
        if key == "t":
            self.picture = not self.picture
            self.shown = None
        elif key == "p":
            path = f"arbiter-{self.board.elapsed}.png"
            to_png(Frame.from_board(self.board), path)
            self.status = f"saved {path}"
            self.shown = None
        elif key in KEYMAP:
            button, hold = KEYMAP[key]
            self.board.press(button, 0)
            self.releases[button] = self.board.elapsed + hold
            # the whole press in emulated time: a busy PC's late loop must not stretch
            # it into a long press or a repeat, nor release it before the device looks
            self.settle()

    def settle(self) -> None:
        """Play on until every button held is released and a gap has passed."""
        until = max(self.releases.values()) + GAP_MS
        while self.board.elapsed < until:
            wait_ms = self.device.tick()
            self.advance(max(1, min(wait_ms, until - self.board.elapsed)))

    def advance(self, ms: int) -> None:
        self.board.sleep_ms(ms)
        for button, at in list(self.releases.items()):
            if self.board.elapsed >= at:
                self.board.press(button, 1)
                del self.releases[button]

    def draw(self) -> None:
        term = self.term
        frame = Frame.from_board(self.board)
        size = self.size()
        if (frame, size, self.status) == self.shown:
            return
        resized = self.shown is None or self.shown[1] != size
        self.shown = (frame, size, self.status)
        cells = layout(*size, picture=self.picture)
        if cells is None:  # made smaller while running: wait to be made larger again
            lines = [f"arbiter sim: {self.too_small()}"]
        else:
            lines = screen(frame, cells, self.status, paint=self.paint,
                           invert=getattr(self.term, "reverse", None))
        out = [term.clear] if resized else []
        for row, line in enumerate(lines):
            out.append(term.move_yx(row, 0) + line + term.clear_eol)
        sys.stdout.write("".join(out))
        sys.stdout.flush()

    def paint(self, rgb: tuple[int, int, int], text: str) -> str:
        return self.term.color_rgb(*rgb) + text + self.term.normal


def screen(frame: Frame, cells: str, status: str, paint=None, invert=None) -> list[str]:
    """What the terminal shows: the device (``cells``: its pixels in half blocks or
    Braille, or ``text``, its lines), the keys, the status line."""
    if cells == "text":
        lines = text_panel(frame, invert)
        lines.append(" LEDs " + leds_text(frame, paint is not None, paint))
        return [*lines, *(" " + line for line in TEXT_HELP), " " + status]
    lines = to_text(frame, colour=paint is not None, cells=cells, paint=paint).splitlines()
    help_lines = [" " + KEYS_HELP] if cells == "blocks" else [" " + line for line in TEXT_HELP]
    return [*lines, *help_lines, " " + status]


def _size(cells: str) -> tuple[int, int]:
    lines = screen(Frame(0, False, False, 0, [(0, 0, 0)] * 12, bytes(1024)), cells,
                   "seed 18446744073709551615", paint=lambda rgb, text: text)
    return max(len(line) for line in lines), len(lines)


# columns and rows each drawing needs
SIZES = {cells: _size(cells) for cells in ("blocks", "braille", "text")}


def layout(cols: int, rows: int, picture: bool = False) -> str | None:
    """The drawing for a terminal of ``cols`` x ``rows``: the pixels in half blocks
    when they fit, else the lines as text (or, with ``picture``, the pixels in
    Braille cells when they fit); None when nothing fits."""
    order = ("blocks", "braille", "text") if picture else ("blocks", "text")
    for cells in order:
        if cols >= SIZES[cells][0] and rows >= SIZES[cells][1]:
            return cells
    return None
