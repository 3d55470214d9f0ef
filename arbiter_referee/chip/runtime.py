"""What the chip runtime runs: MicroPython's own UF2 for the Pico, the RP2040's
bootrom, rp2040js (npm, pinned) and a flash as ``arbiter deploy`` leaves it."""

from __future__ import annotations

import functools
import os
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arbiter_referee.npm import Package, cache_dir

RP2040JS = Package("rp2040js", "1.4.1",
                   "Yzr5xG7ZwbtA50IYAU1k/oSoSyDAhPtT5qC/Q2eFApoLuAYE8DQbPIMPs/0kh4Ietd4P0OpKk3CIkfNqjcr56g==")
FIRMWARE_ENV = "ARBITER_PICO_FIRMWARE"  # the UF2 a user runs, when --firmware is not given
BOOTROM = "rp2040-bootrom-B1.bin"  # looked for beside the UF2 (rp2040js ships none)
BOOTROM_BYTES = 16384
# rp2's littlefs: 352 blocks of 4 KiB at 0xA0000 (MICROPY_HW_FLASH_STORAGE_BYTES on a Pico)
FILESYSTEM_OFFSET = 0xA0000
# Where the harness looks, when the ELF is there: os.urandom's source of bytes, where
# time.sleep_ms enters (a pass's end), the C stack, the GC's heap, where the heap is
# set up (to make it smaller) and where a collection starts (to read it there); and
# the functions whose cycles it can count (session.METERED).
SYMBOLS = ("mp_hal_get_random", "mp_hal_delay_ms", "__StackBottom", "__StackTop",
           "__GcHeapStart", "__GcHeapEnd", "gc_init", "gc_collect", "gc_alloc",
           "qstr_find_strn")
# py/gc.c with the finaliser table (rp2): T bytes give (T - 1) * 8 // 524 bytes of
# allocation table, each for a 64-byte part of the pool (gc.mem_free() + mem_alloc())
GC_TABLE_BITS, GC_POOL_PER_TABLE_BYTE = 8 + 4 + 512, 64
HEAP_LEAST = 16 * 1024  # a smaller heap asked for is a slip, not a board


@dataclass(frozen=True)
class PicoFirmware:
    """A MicroPython build for the Pico: its UF2, the bootrom beside it, and its ELF
    if it came with one (the official download does not)."""

    uf2: Path
    bootrom: Path
    elf: Path | None

    def symbols(self) -> dict[str, int]:
        """The addresses the harness uses (SYMBOLS); none without the ELF: the device
        then draws its seeds from the emulated ring oscillator, and the heap is not
        measured."""
        if self.elf is None:
            return {}
        return _symbols(self.elf)

    def heap_bytes(self) -> int | None:
        """The port's GC heap (gc.mem_free() + gc.mem_alloc()), from the ELF; None
        without it."""
        symbols = self.symbols()
        if "__GcHeapStart" not in symbols:
            return None
        total = symbols["__GcHeapEnd"] - symbols["__GcHeapStart"]
        return (total - 1) * 8 // GC_TABLE_BITS * GC_POOL_PER_TABLE_BYTE


@functools.lru_cache(maxsize=None)
def _symbols(elf: Path) -> dict[str, int]:
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    found = {}
    with elf.open("rb") as file:
        for section in ELFFile(file).iter_sections():
            if isinstance(section, SymbolTableSection):
                for name in SYMBOLS:
                    symbol = section.get_symbol_by_name(name)
                    if symbol:
                        found[name] = symbol[0]["st_value"]
    return found


def pico_firmware(uf2: str | Path | None = None) -> PicoFirmware:
    """The firmware named, else $ARBITER_PICO_FIRMWARE. ValueError, in one line,
    when there is none or a file is missing."""
    named = uf2 or os.environ.get(FIRMWARE_ENV)
    if not named:
        raise ValueError(f"the chip runtime needs MicroPython's UF2 for the Pico: give "
                         f"--firmware FILE.uf2 or set {FIRMWARE_ENV}")
    path = Path(named)
    if not path.is_file():
        raise ValueError(f"{path}: no such firmware file")
    bootrom = path.parent / BOOTROM
    if not bootrom.is_file() or bootrom.stat().st_size != BOOTROM_BYTES:
        raise ValueError(f"{bootrom}: the RP2040's bootrom ({BOOTROM_BYTES} bytes) must lie "
                         f"beside the UF2 (rp2040js needs it and does not ship it)")
    elf = path.with_suffix(".elf")
    return PicoFirmware(path, bootrom, elf if elf.is_file() else None)


def rp2040js() -> Path:
    """rp2040js's package folder, unpacked once into the cache from its pinned tarball."""
    folder = cache_dir() / f"rp2040js-{RP2040JS.version}"
    if (folder / "package.json").is_file():
        return folder
    tarball = RP2040JS.fetch()
    RP2040JS.check(tarball)
    # A scratch folder of its own: test workers may unpack it at the same moment.
    scratch = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
    try:
        with tarfile.open(tarball) as tar:
            tar.extractall(scratch, filter="data")
        try:
            (scratch / "package").replace(folder)  # whole or not at all
        except OSError:  # there already: another's, whole, or a broken one to replace
            if not (folder / "package.json").is_file():
                shutil.rmtree(folder, ignore_errors=True)
                (scratch / "package").replace(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return folder


def firmware_files() -> dict[str, bytes]:
    """What ``arbiter deploy`` puts on a Pico besides the rulesets: the firmware as
    .mpy files, main.py as source (build.compile_tree), by path."""
    from arbiter_referee.build import device_firmware

    root = device_firmware()
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


def filesystem_image(flash_dir: Path, with_firmware: bool = True) -> bytes:
    """The Pico's littlefs as the rp2 port mounts it, holding the deployed firmware
    (unless not ``with_firmware``) and everything in ``flash_dir`` (the device's
    files: rulesets, settings, a game)."""
    from arbiter_referee.bench import littlefs

    files = firmware_files() if with_firmware else {}
    for path in sorted(flash_dir.rglob("*")):
        if path.is_file():
            files[path.relative_to(flash_dir).as_posix()] = path.read_bytes()
    device = littlefs.Device(littlefs.PICO_BLOCKS)
    fs = littlefs.mount(device, format=True)
    made = set()
    for name, data in sorted(files.items()):
        for parent in reversed(Path(name).parents[:-1]):
            if parent.as_posix() not in made:
                fs.mkdir(parent.as_posix())
                made.add(parent.as_posix())
        with fs.open(name, "wb") as file:
            file.write(data)
    fs.unmount()
    return device.image()


def read_filesystem(image: bytes, flash_dir: Path, with_firmware: bool = True) -> None:
    """Make ``flash_dir`` hold the device's files as ``image`` has them (the firmware's
    own left out, unless not ``with_firmware``): what the chip wrote, for the next
    run or a look."""
    from arbiter_referee.bench import littlefs

    firmware = set(firmware_files()) if with_firmware else set()
    fs = littlefs.mount(littlefs.Device(image=image))
    kept = set()
    for top, _dirs, names in fs.walk("/"):
        for name in names:
            rel = f"{top.rstrip('/')}/{name}".lstrip("/")
            if rel in firmware:
                continue
            kept.add(rel)
            target = flash_dir / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with fs.open(rel, "rb") as file:
                data = file.read()
            if not target.is_file() or target.read_bytes() != data:
                # whole or not at all: another program may be copying the folder
                part = target.with_name(target.name + ".part")
                part.write_bytes(data)
                os.replace(part, target)
    for path in sorted(flash_dir.rglob("*"), reverse=True):
        rel = path.relative_to(flash_dir).as_posix()
        if path.is_file() and rel not in kept:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
