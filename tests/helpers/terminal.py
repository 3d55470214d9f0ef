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
