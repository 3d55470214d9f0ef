"""The device's flash as a Pico has it: littlefs, set up as MicroPython's rp2 port
mounts it, on a block device that counts what wears the flash (erases, bytes
programmed) and can lose power at any erase or program.

``Device`` is the block device, ``Filesystem`` gives the firmware's ``Flash``
(``arbiter.hw.flash``, handed in as its ``fs``) what ``os`` and ``open`` give it
on a Pico, so the firmware's own file code runs on littlefs here.
"""

from __future__ import annotations

import contextlib
import io

import littlefs
from littlefs import lfs
from littlefs.context import UserContext
from littlefs.errors import LittleFSError

BLOCK = 4096  # the RP2040's flash sector, rp2.Flash's block
# ports/rp2: VfsLfs2(bdev, progsize=256); extmod/vfs_lfsx.c: readsize 32, lookahead 32,
# block_cycles 100, cache 4 * max(readsize, progsize)
READ, PROG, LOOKAHEAD, CYCLES = 32, 256, 32, 100
PICO_BLOCKS = 1408 * 1024 // BLOCK  # MICROPY_HW_FLASH_STORAGE_BYTES on a Pico
PICO_W_BLOCKS = 848 * 1024 // BLOCK  # and on a Pico W
_WRONLY, _CREAT, _TRUNC, _APPEND = 0x0002, 0x0100, 0x0400, 0x0800  # littlefs's open flags


class PowerCut(Exception):
    """The power went at this erase or program; it did not happen."""


class Device(UserContext):
    """Flash that counts its erases and programmed bytes, per block too, and loses
    power before the ``cut_at``-th erase or program (counted from 1), if set."""

    def __init__(self, blocks: int = PICO_BLOCKS, image: bytes | None = None):
        super().__init__(buffer=bytearray(image) if image is not None else
                         bytearray(b"\xff" * (blocks * BLOCK)))
        self.blocks = len(self.buffer) // BLOCK
        self.erases = 0
        self.programmed = 0
        self.operations = 0  # erases and programs, as power cuts count them
        self.erased = [0] * self.blocks
        self.cut_at: int | None = None

    def _operation(self) -> None:
        self.operations += 1
        if self.cut_at is not None and self.operations >= self.cut_at:
            raise PowerCut(self.operations)

    def prog(self, cfg, block: int, off: int, data: bytes) -> int:
        self._operation()
        self.programmed += len(data)
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block: int) -> int:
        self._operation()
        self.erases += 1
        self.erased[block] += 1
        return super().erase(cfg, block)

    def image(self) -> bytes:
        """What the flash holds now (a power cut leaves it as it was then)."""
        return bytes(self.buffer)


def mount(device: Device, format: bool = False) -> littlefs.LittleFS:
    fs = littlefs.LittleFS(context=device, mount=False, block_size=BLOCK,
                           block_count=device.blocks, read_size=READ, prog_size=PROG,
                           cache_size=4 * max(READ, PROG), lookahead_size=LOOKAHEAD,
                           block_cycles=CYCLES)
    if format:
        fs.format()
    fs.mount()
    return fs


class Filesystem:
    """``os`` and ``open`` as the firmware's Flash uses them, on a mounted littlefs;
    littlefs's errors are OSError, as MicroPython raises them."""

    def __init__(self, fs: littlefs.LittleFS):
        self.fs = fs

    def open(self, path: str, mode: str = "r"):
        with _as_oserror():
            if "a" not in mode and "w" not in mode:
                return self.fs.open(path, mode)
            # MicroPython's "a" creates a missing file (LFS_O_CREAT); littlefs-python's
            # does not. Written through _Handle: a full flash is OSError 28, as on a Pico
            flags = _WRONLY | _CREAT | (_APPEND if "a" in mode else _TRUNC)
            handle = _Handle(self.fs.fs, lfs.file_open(self.fs.fs, path, flags, None))
        buffered = io.BufferedWriter(handle, 4 * max(READ, PROG))
        return buffered if "b" in mode else io.TextIOWrapper(buffered, encoding="utf-8")

    def rename(self, old: str, new: str) -> None:
        with _as_oserror():
            self.fs.rename(old, new)  # replaces ``new`` at once, as on a Pico

    def remove(self, path: str) -> None:
        with _as_oserror():
            self.fs.remove(path)

    def listdir(self, path: str) -> list[str]:
        with _as_oserror():
            return self.fs.listdir(path or "/")

    def stat(self, path: str) -> tuple:
        with _as_oserror():
            found = self.fs.stat(path)
        folder = found.type == lfs.LFSStat.TYPE_DIR
        return (0x4000 if folder else 0x8000, 0, 0, 0, 0, 0, found.size, 0, 0, 0)

    def statvfs(self, path: str) -> tuple:
        """As MicroPython's: block size, fragment size, blocks, free, available, ..."""
        with _as_oserror():
            free = self.fs.block_count - self.fs.used_block_count
        return (BLOCK, BLOCK, self.fs.block_count, free, free, 0, 0, 0, 0, 255)

    def mkdir(self, path: str) -> None:
        with _as_oserror():
            self.fs.mkdir(path)


class _Handle(littlefs.FileHandle):
    """A file being written whose littlefs errors are OSError, as MicroPython's are."""

    def write(self, data):
        with _as_oserror():
            return super().write(data)

    def close(self):
        with _as_oserror():
            super().close()


@contextlib.contextmanager
def _as_oserror():
    try:
        yield
    except LittleFSError as exc:
        raise OSError(-exc.code, str(exc)) from None
