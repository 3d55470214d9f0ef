"""The emulated Arbiter's USB serial: a pseudo-terminal behind a path that comes and goes.

A Pico's serial port disappears while it resets and comes back once it has
booted, so a program never talks to a device half-way through its boot. Here
the port is a symbolic link (``.../ttyACM0``) to the slave side of a
pseudo-terminal: ``unplug()`` removes the link and closes the terminal (a
program still connected sees the line drop), ``plug()`` opens a new one and
puts the link back. The emulator keeps a slave descriptor open itself, so a
program closing the port is not a hang-up and the next one can connect.

Ctrl-C while something runs is taken out of the input and reported to
``intercept`` at once (as a Pico's USB stack does), everything else queues
for the REPL; with no ``intercept`` (the firmware refuses the interrupt,
``micropython.kbd_intr(-1)``) Ctrl-C queues as any other byte. Output
nobody reads is dropped after a while rather than stopping the device, as a
Pico with no host attached drops it; output while unplugged is dropped at
once.
"""

from __future__ import annotations

import collections
import os
import select
import tempfile
import threading
import tty
from collections.abc import Callable
from pathlib import Path

WRITE_PATIENCE = 2.0  # seconds a write waits for a reader before output is dropped


class PtyPort:
    def __init__(self, log: Callable[[bytes], None] | None = None):
        self._folder = Path(tempfile.mkdtemp(prefix="arbiter-usb-"))
        self.name = str(self._folder / "ttyACM0")
        self.intercept: Callable[[], None] | None = None
        self.log = log
        self._input: collections.deque[int] = collections.deque()
        self._ready = threading.Condition()  # input arrived, or the line changed
        self._write_lock = threading.Lock()
        self._fds: tuple[int, int] | None = None  # (master, slave) while plugged in
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, name="serial-in", daemon=True)
        self._reader.start()

    @property
    def plugged(self) -> bool:
        return self._fds is not None

    def plug(self) -> None:
        """The device is up: a new terminal appears at ``name``."""
        with self._ready:
            if self._fds is not None or self._closed:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            link = self._folder / "ttyACM0.new"
            link.unlink(missing_ok=True)
            link.symlink_to(os.ttyname(slave))
            link.replace(self.name)
            self._input.clear()
            self._fds = (master, slave)
            self._ready.notify_all()

    def unplug(self) -> None:
        """The device resets: the port disappears and what was sent to it is lost."""
        with self._write_lock, self._ready:
            fds, self._fds = self._fds, None
            self._input.clear()
            self._ready.notify_all()
        try:
            os.unlink(self.name)
        except OSError:
            pass
        for fd in fds or ():
            try:
                os.close(fd)
            except OSError:
                pass

    def _read_loop(self) -> None:
        while True:
            with self._ready:
                while self._fds is None and not self._closed:
                    self._ready.wait()
                if self._closed:
                    return
                master = self._fds[0]
            try:
                readable, _, _ = select.select([master], [], [], 0.2)
                if not readable:
                    continue
                data = os.read(master, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except (OSError, ValueError):
                continue  # unplugged under us: wait for the next terminal
            with self._ready:
                if self._fds is None or self._fds[0] != master:
                    continue  # sent to a terminal that is gone
            intercept = self.intercept
            if intercept is not None and 3 in data:
                data = data.replace(b"\x03", b"")
                intercept()
            with self._ready:
                self._input.extend(data)
                self._ready.notify_all()

    def drop_input(self) -> None:
        """Forget what was sent and not yet read (a Pico's firmware reading it away)."""
        with self._ready:
            self._input.clear()

    def getc(self, timeout: float | None = None) -> int | None:
        """The next input byte, or None after ``timeout`` seconds or when closed."""
        with self._ready:
            if not self._input and not self._closed:
                self._ready.wait(timeout)
            if self._input:
                return self._input.popleft()
            return None

    def take(self, timeout: float = 0.0) -> bytes:
        """All the input queued, waiting up to ``timeout`` seconds for some."""
        with self._ready:
            if not self._input and not self._closed and timeout > 0:
                self._ready.wait(timeout)
            data = bytes(self._input)
            self._input.clear()
            return data

    def write(self, data: bytes) -> None:
        if not data:
            return
        if self.log is not None:
            self.log(data)
        with self._write_lock:
            if self._fds is None:
                return
            master = self._fds[0]
            view = memoryview(data)
            waited = 0.0
            while view and not self._closed:
                try:
                    sent = os.write(master, view)
                    view = view[sent:]
                    waited = 0.0
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    return
                if waited >= WRITE_PATIENCE:
                    return  # nobody is reading: drop the rest
                select.select([], [master], [], 0.1)
                waited += 0.1

    def close(self) -> None:
        self.unplug()
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        self._reader.join(1)
        try:
            self._folder.rmdir()
        except OSError:
            pass
