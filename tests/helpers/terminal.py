"""``arbiter sim`` in a pseudo-terminal, read as a terminal reads it."""

import os
import select
import struct
import subprocess
import sys
import time


def _hear_ctrl_c():
    # A shell without job control starts background jobs with Ctrl-C ignored, and
    # Python keeps an ignored SIGINT ignored: the sim must hear it as a terminal's.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_sim(flash, cols=80, rows=24):
    """``arbiter sim`` in a pseudo-terminal of ``cols`` x ``rows``: (process, its terminal)."""
    import fcntl
    import pty
    import termios

    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "arbiter_referee", "sim", "--seed", "5", "--flash", str(flash)],
        stdin=child, stdout=child, stderr=child, close_fds=True,
        env=dict(os.environ, TERM="xterm-256color"), preexec_fn=_hear_ctrl_c)
    os.close(child)
    return proc, main


def drain(fd, until, timeout=300.0):
    """Read the terminal's output until ``until(output)`` holds; the output. Asked where
    the cursor is (blessed asks as it starts), answer as a terminal does."""
    buffer = b""
    asked = 0
    end = time.monotonic() + timeout
    while not until(buffer):
        assert time.monotonic() < end, buffer[-2000:].decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                buffer += os.read(fd, 65536)
            except OSError:  # the program ended and closed the terminal
                break
            while buffer.count(b"\x1b[6n") > asked:
                asked += 1
                os.write(fd, b"\x1b[1;1R")
    return buffer


class Key(str):
    """What blessed's inkey gives: the text typed, and a name for a special key."""

    def __new__(cls, text, name=None):
        key = super().__new__(cls, text)
        key.name = name
        return key


class SlowMachineTerminal:
    """A terminal whose keys are typed ahead, on a PC so busy that every pass of the
    sim's loop takes five seconds of real time."""

    width, height = 80, 24
    clear = clear_eol = normal = ""

    def __init__(self, keys):
        self.keys = list(keys)
        self.clock = 0.0

    def monotonic(self):
        self.clock += 5.0
        return self.clock

    def inkey(self, timeout=None):
        return self.keys.pop(0) if self.keys else Key("q")

    def move_yx(self, row, column):
        return ""

    def color_rgb(self, r, g, b):
        return ""

    def cbreak(self):
        import contextlib

        return contextlib.nullcontext()

    hidden_cursor = fullscreen = cbreak
