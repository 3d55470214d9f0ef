"""The device in a web page: the virtual board driven by the page.

Runs in the browser's MicroPython beside the unchanged firmware (and in CPython,
for tests). ``Live`` is the device a visitor plays: the page moves its clock and
presses its buttons, and gets every changed frame as an ``F`` line (the format
``vsession.print_frame`` prints) to draw. ``Play`` plays a button script exactly
as ``arbiter demo`` does, printing what ``vsession`` prints.
"""

import os

import vscript
import vsession
from arbiter.device import Device
from arbiter.hw.flash import Flash
from arbiter.store import checked
from vboard import VirtualBoard, VirtualFlash

# A click shorter than this is held this long: vscript's press, so a quick tap
# still outlasts the firmware's 20 ms debounce.
MIN_PRESS_MS = 80
# A page that falls further behind than this (a hidden tab) skips the rest in one
# sleep instead of running every pass of it.
CATCH_UP_MS = 1000


def check(script):
    """Raise ValueError for a bad word now, not halfway through playing it."""
    for _ in vscript.edges(script):
        pass


def factory_flash(root, bundled):
    """A new device's flash: the firmware's list of files (beside ``bundled``), the
    bundled rulesets, each with the NAME.ok record of its
    passed check, as ``compiled.factory_flash`` leaves them (``arbiter web`` compiled
    them): without the records the first game start runs the deep check,
    a pass later than the emulator's."""
    folder = root + "rulesets"
    try:
        os.stat(folder)
        return
    except OSError:
        pass
    path = ""
    for part in folder.split("/"):
        path += part + "/"
        try:
            os.mkdir(path)
        except OSError:
            pass  # already there
    for name in sorted(os.listdir(bundled)):
        if name.endswith(".json"):
            with open(bundled + "/" + name, "rb") as src, \
                    open(folder + "/" + name, "wb") as dst:
                dst.write(src.read())
    # the deployed firmware's list of files, as the emulator's flash has it: its digest
    # is on the New game screen
    with open(bundled[:bundled.rindex("/") + 1] + "firmware.sha256", "rb") as src, \
            open(root + "firmware.sha256", "wb") as dst:
        dst.write(src.read())
    flash = Flash(root)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            stem = name[:-5]
            checked.remember(flash, stem, checked.record(flash, stem))


class WebFlash(VirtualFlash):
    """Counts every change, so the page saves the flash only after one."""

    changes = 0

    def wrote(self, count):
        super().wrote(count)
        self.changes += 1

    def remove(self, name):
        super().remove(name)
        self.changes += 1


class Live:
    """The visitor's device: ``script`` is played first, then the page's presses."""

    def __init__(self, seed, script, root, show):
        check(script)
        self.show = show
        board = VirtualBoard(int(seed), script, root, on_frame=self._frame)
        board.flash = WebFlash(root)
        board.end_ms = None  # runs until the page is closed
        self.board = board
        self.clock = 0  # the page's time: the device runs every pass due before it
        self.down_at = [None] * 6
        self.release_at = [None] * 6
        self.device = Device(board)
        self.pause = self.device.tick()
        board.check_frame()

    def _frame(self, board):
        parts = []
        vsession.print_frame(board, parts.append)
        self.show("".join(parts).rstrip())

    def run(self, ms):
        """The page's clock moved ``ms``: every pass due runs, pause by pause as in the
        emulator, so a press lasts as long on the device as on the page however late
        the page's timer came. Returns the ms until the next pass is due."""
        self.clock += ms
        behind = self.clock - self.board.elapsed
        if behind > CATCH_UP_MS:  # a hidden tab's hours pass in one sleep
            self._pass(behind - CATCH_UP_MS)
        self._catch_up()
        return self.board.elapsed + self.pause - self.clock

    def advance(self, ms):
        """The page's clock stopped (tests): ``ms`` pass, pass by pass. A press made next
        is seen by the same pass that sees a script's press at this time."""
        self.clock += ms
        self._catch_up()
        return self.clock

    def _catch_up(self):
        while self.board.elapsed + self.pause < self.clock:
            self._pass(self.pause)

    def _pass(self, ms):
        """Sleep ``ms``, then one main-loop pass: ``vsession.step`` when ``ms`` is its pause."""
        board = self.board
        board.sleep_ms(ms)
        for button in range(6):
            at = self.release_at[button]
            if at is not None and board.elapsed >= at:
                self.release_at[button] = None
                board.press(button, 1, at)
        self.pause = self.device.tick()
        board.check_frame()  # show it now, not after the pause (the same line either way)

    def now(self):
        return max(self.board.elapsed, self.clock)

    def press(self, button):
        self.board.press(button, 0, self.now())
        self.down_at[button] = self.now()
        self.release_at[button] = None

    def release(self, button):
        down = self.down_at[button]
        if down is None:
            return
        self.down_at[button] = None
        if self.now() >= down + MIN_PRESS_MS:
            self.board.press(button, 1, self.now())
        else:
            self.release_at[button] = down + MIN_PRESS_MS

    def changes(self):
        return self.board.flash.changes


class Play:
    """A button script played as ``run_session(seed, script)`` plays it."""

    def __init__(self, seed, script, root):
        check(script)
        self.board, self.device = vsession.start(int(seed), script, root)

    def run(self, passes):
        """Up to ``passes`` main-loop passes; False once the script is done."""
        for _ in range(passes):
            if not vsession.step(self.board, self.device):
                vsession.finish(self.board)
                return False
        return True
