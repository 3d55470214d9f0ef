"""The emulated Arbiter's USB serial: a pseudo-terminal.

Programs open the slave side (``/dev/pts/N``) as they would ``/dev/ttyACM0``;
the emulator reads and writes the master side. The emulator keeps a slave
descriptor open itself, so a program closing the port is not a hang-up and
the next one can connect.

Ctrl-C while something runs is taken out of the input and reported to
``intercept`` at once (as a Pico's USB stack does), everything else queues
for the REPL. Output nobody reads is dropped after a while rather than
stopping the device, as a Pico with no host attached drops it.
"""

from __future__ import annotations

import collections
import os
import select
import threading
import tty
from collections.abc import Callable

WRITE_PATIENCE = 2.0  # seconds a write waits for a reader before output is dropped


class PtyPort:
    def __init__(self, log: Callable[[bytes], None] | None = None):
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.name = os.ttyname(self._slave)
        os.set_blocking(self.master, False)
        self.intercept: Callable[[], None] | None = None
        self.log = log
        self._input: collections.deque[int] = collections.deque()
        self._ready = threading.Condition()
        self._write_lock = threading.Lock()
        self._closed = False
        self._reader = threading.Thread(target=self._read_loop, name="serial-in", daemon=True)
        self._reader.start()

    def _read_loop(self) -> None:
        while not self._closed:
            try:
                readable, _, _ = select.select([self.master], [], [], 0.2)
                if not readable:
                    continue
                data = os.read(self.master, 4096)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                if self._closed:
                    return
                continue
            intercept = self.intercept
            if intercept is not None and 3 in data:
                data = data.replace(b"\x03", b"")
                intercept()
            with self._ready:
                self._input.extend(data)
                self._ready.notify_all()

    def getc(self, timeout: float | None = None) -> int | None:
        """The next input byte, or None after ``timeout`` seconds or when closed."""
        with self._ready:
            if not self._input and not self._closed:
                self._ready.wait(timeout)
            if self._input:
                return self._input.popleft()
            return None

    def write(self, data: bytes) -> None:
        if not data:
            return
        if self.log is not None:
            self.log(data)
        with self._write_lock:
            view = memoryview(data)
            waited = 0.0
            while view and not self._closed:
                try:
                    sent = os.write(self.master, view)
                    view = view[sent:]
                    waited = 0.0
                    continue
                except BlockingIOError:
                    pass
                except OSError:
                    return
                if waited >= WRITE_PATIENCE:
                    return  # nobody is reading: drop the rest
                select.select([], [self.master], [], 0.1)
                waited += 0.1

    def close(self) -> None:
        self._closed = True
        with self._ready:
            self._ready.notify_all()
        self._reader.join(1)
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
