"""Run a scripted session of the firmware on the virtual board, in either runtime.

Both runtimes execute the same ``vsession.main`` over the same firmware files;
the result is the printed lines split into frames, serial output and counters.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import io
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator import DEVICE_RUNTIMES, RUNTIMES  # noqa: F401  (re-exported)
from arbiter_referee.emulator import wasm as mpwasm
from arbiter_referee.paths import (
    FIRMWARE,
    GUEST_BOARD,
    use_firmware_path,  # noqa: F401  (re-exported)
)


@dataclass
class SessionOutput:
    frames: list[str] = field(default_factory=list)
    serial: list[str] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    fuel: int = 0

    @classmethod
    def parse(cls, text: str, fuel: int = 0) -> SessionOutput:
        result = cls(fuel=fuel)
        for line in text.splitlines():
            if line.startswith("F "):
                result.frames.append(line)
            elif line.startswith("E "):
                result.counters.update((k, int(v)) for k, v in
                                       (item.split("=") for item in line[2:].split()))
            else:
                result.serial.append(line)
        return result


def run_session(seed: int, script: str, runtime: str = "cpython",
                flash_dir: Path | None = None, heap: int = mpwasm.PICO_HEAP,
                firmware: Path | None = None, preload: bool | None = None,
                pico=None, metered: bool = False) -> SessionOutput:
    """Boot the firmware, play ``script``, return what it showed. Under MicroPython
    the firmware runs as a Pico runs it unless told otherwise: ``.mpy`` files, each
    loaded when first needed. ``firmware``: a folder (FIRMWARE: the sources);
    ``preload``: see import_order (by default, for the sources only). The chip runs
    the firmware as ``arbiter deploy`` installs it on ``pico``, the Pico's
    MicroPython (chip.runtime.PicoFirmware). ``metered``: MicroPython's fuel
    counted (see run_driver)."""
    with contextlib.ExitStack() as stack:
        if flash_dir is None:
            flash_dir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        factory_flash(flash_dir)
        if runtime == "cpython":
            return _run_cpython(seed, script, flash_dir)
        if runtime == "micropython":
            if firmware is None:
                from arbiter_referee.build import device_firmware

                firmware = device_firmware()
            if preload is None:
                preload = firmware == FIRMWARE
            return _run_micropython(seed, script, flash_dir, heap, firmware, preload,
                                    metered)
        if runtime == "chip":
            return _run_chip(seed, script, flash_dir, pico)
        raise ValueError(f"unknown runtime {runtime!r}; use one of "
                         f"{', '.join(DEVICE_RUNTIMES)}")


def _run_cpython(seed: int, script: str, flash_dir: Path) -> SessionOutput:
    use_firmware_path()
    import vsession

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        vsession.main(seed, script, str(flash_dir) + "/")
    return SessionOutput.parse(buffer.getvalue())


# MicroPython's WASI build does not scan the stacks for GC roots (see mp_program).
# Automatic collection is therefore off (running out of heap raises MemoryError
# instead of corrupting memory) and the heap is collected between main-loop
# passes, when everything alive hangs off a global.


def _nodes(tree: ast.Module, lazy: bool):
    """The module's nodes; with ``lazy`` False, not function bodies (the imports
    there happen when the function runs)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        if lazy or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def import_order(entry: str = "vsession", lazy: bool = True) -> list[str]:
    """The modules ``entry`` needs, each after the modules it imports.

    Imported one by one with a collection between, so no module is compiled
    while another module's code is referenced only from the C stack. With
    ``lazy`` the modules the firmware imports inside functions (the game
    engine, loaded on the Pico when a game is chosen) are loaded up front too:
    compiling them in the middle of a main-loop pass, where the harness cannot
    collect, would need their whole compile garbage at once. Without it they
    load when the firmware asks, as on the Pico (fine for menus and dice).
    """
    sources = {}
    for folder in (FIRMWARE, GUEST_BOARD):
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts in (("main",), ("board",)):
                continue  # the Pico's own entry point and hardware
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            sources[name] = path
    order: list[str] = []

    def visit(name: str, seen: tuple[str, ...] = ()) -> None:
        if name in order or name in seen or name not in sources:
            return
        for node in _nodes(ast.parse(sources[name].read_text()), lazy):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:  # "from arbiter import ui" imports arbiter.ui
                    visit(f"{node.module}.{alias.name}", seen + (name,))
                visit(node.module, seen + (name,))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    visit(alias.name, seen + (name,))
        if "." in name:
            visit(name.rsplit(".", 1)[0], seen + (name,))
        order.append(name)

    visit(entry)
    return order


def mp_program(entry: str, body: str, lazy: bool = True) -> str:
    """The source of a driver module that imports ``entry`` and runs ``body``.

    The WASI build's GC does not scan the C stack, and MicroPython keeps the
    frame of a function with many locals or a deep value stack on the heap,
    reachable only from C. A collection while such a frame is running frees it.
    So the driver runs ``body`` inside ``main()`` whose frame stays small: every
    name ``body`` assigns is a module global, modules are imported without
    binding locals, data belongs in constants (``DATA`` in ``mp_data``), and the
    run ends with the host's ``exit`` instead of returning to the caller's frame.
    Automatic collection is off: running out of heap is a clean MemoryError.
    """
    assigned = {node.id for node in ast.walk(ast.parse(body))
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    names = sorted(assigned | {entry, "micropython", "drvdata"})
    lines = ["import gc, sys, host", "gc.disable()", "def main():",
             "    global " + ", ".join(names), "    gc.collect()"]
    for name in import_order(entry, lazy):
        lines += [f"    __import__({name!r})", "    gc.collect()"]
    lines += [f"    import {entry}", "    import micropython", "    import drvdata",
              "    gc.collect()"]
    lines += ["    " + line for line in body.splitlines()]
    lines += ["    host.call('exit', '')", "main()"]
    return "\n".join(lines) + "\n"


# Fuel only stops a run that never ends: a whole game in a large heap, collected
# after every allocating pass, takes a few hundred billion.
FUEL = 500_000_000_000


@functools.lru_cache(maxsize=None)
def board_rom() -> bytes:
    """The virtual board's modules as .mpy in a ROMFS image, mapped outside the heap:
    a Pico's board is C in its firmware (machine, neopixel), so the emulated one's
    code must not weigh on the heap the firmware is measured in."""
    from mpremote.romfs import make_romfs

    from arbiter_referee.build import compile_tree

    with tempfile.TemporaryDirectory() as folder:
        compile_tree(Path(folder), GUEST_BOARD)
        with contextlib.redirect_stdout(io.StringIO()):  # it lists every file it adds
            return make_romfs(folder, mpy_cross=False)


def run_driver(entry: str, body: str, mounts: dict, heap: int,
               firmware: Path = FIRMWARE, data: dict | None = None,
               preload: bool = True, blob: bytes = b"",
               metered: bool = False) -> mpwasm.Result:
    """Run ``body`` (see mp_program) in real MicroPython beside the firmware:
    ``firmware`` is a folder (mounted at /fw, the virtual board mapped at /rom) or
    a ROMFS image holding both (mapped at /rom). ``data`` becomes module
    ``drvdata`` (constants built at import, not in main); ``preload`` loads the
    lazily imported modules up front (see import_order); ``blob``: see mpwasm.run;
    ``metered``: the run's fuel counted (a fifth slower), for the bench's figures."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "drv.py").write_text(mp_program(entry, body, preload))
        (Path(folder) / "drvdata.py").write_text(
            "".join(f"{key} = {value!r}\n" for key, value in (data or {}).items()))
        all_mounts = {"/emu": (GUEST_BOARD, False), "/drv": (Path(folder), False)}
        all_mounts.update(mounts)
        code = ("import sys, vfs, uctypes, host\n"
                "where, size = host.call('rom', '').split()\n"
                "vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(where), int(size))), '/rom')\n"
                "del where, size\n")
        if firmware.is_file():  # a ROMFS image: mapped, as on a Pico built with ROMFS
            rom, path = firmware.read_bytes(), ["/rom"]
        else:
            all_mounts["/fw"] = (firmware, False)
            rom, path = board_rom(), ["/fw", "/rom"]
        code += f"sys.path[:0] = {path + ['/emu', '/drv']!r}\nimport drvdata\nimport drv\n"
        return mpwasm.run(code, all_mounts, heap=heap, fuel=FUEL if metered else None,
                          rom=rom, blob=blob)


def _run_micropython(seed: int, script: str, flash_dir: Path, heap: int,
                     firmware: Path, preload: bool, metered: bool) -> SessionOutput:
    # The WASI build cannot collect inside a pass (see mp_program), so the harness
    # collects as the Pico's main loop does (device.run): after each pass of the
    # firmware that allocated, before the board sleeps; the nearest it can come to a
    # Pico, which also collects whenever an allocation fails. A pass must then fit
    # whole: its garbage on top of what is alive. What the virtual board allocates
    # while it sleeps (a frame printed) is not a Pico's: collected before the next
    # pass, out of the figures. heap_high: most in use (garbage included) after a
    # pass; heap_live: most still in use right after a collection. The button
    # script is read in place, outside the heap: a Pico holds no script; nor the
    # panel's RAM, which lies beside it.
    result = run_driver("vsession", (
        "where, size = host.call('blob', '').split()\n"
        "at = __import__('uctypes').bytearray_at\n"
        "script = at(int(where), drvdata.SCRIPT_BYTES)\n"
        "panel = at(int(where) + drvdata.SCRIPT_BYTES, 1024)\n"
        "board, dev = vsession.start(drvdata.SEED, script, '/flash/', panel)\n"
        "where = size = at = panel = None\n"
        "gc.collect()\n"
        "heap_high = heap_live = live = gc.mem_alloc()\n"
        "while True:\n"
        "    pause = dev.tick()\n"
        "    used = gc.mem_alloc()\n"
        "    if used != live:\n"
        "        heap_high = max(heap_high, used)\n"
        "        gc.collect()\n"
        "        live = gc.mem_alloc()\n"
        "        heap_live = max(heap_live, live)\n"
        "    if not vsession.sleep(board, pause):\n"
        "        break\n"
        "    if gc.mem_alloc() != live:\n"
        "        gc.collect()\n"
        "        live = gc.mem_alloc()\n"
        "vsession.finish(board)\n"
        "print('E heap_high=%d heap_live=%d' % (heap_high, heap_live))\n"
    ), {"/flash": (flash_dir, True)}, heap, firmware,
        {"SEED": seed, "SCRIPT_BYTES": len(script.encode())}, preload,
        blob=script.encode() + bytes(1024),  # then the panel's RAM, zeroed as at power-up
        metered=metered)
    if result.exit_code != 0:
        raise RuntimeError(f"MicroPython exited with {result.exit_code}:\n{result.stderr}")
    return SessionOutput.parse(result.stdout, result.fuel)


def _run_chip(seed: int, script: str, flash_dir: Path, pico=None) -> SessionOutput:
    """The script on MicroPython's rp2 port in an emulated RP2040 (arbiter_referee.chip),
    on the chip's "script" clock: each pin changes at the script's instant, with the
    CPU asleep. ``pico``: the Pico's MicroPython (chip.runtime.pico_firmware's default
    if None)."""
    from arbiter_referee.chip.session import Chip
    from vsession import print_frame

    frames: list[str] = []
    with Chip(flash_dir, seed, "script", pico,
              on_frame=lambda board: print_frame(board, frames.append)) as chip:
        chip.play(script)
        stats = chip.stats()
        chip.save_flash()
        serial = chip.serial_lines()
        board = chip.board
    result = SessionOutput.parse("".join(frames) + "\n".join(serial), stats["cycles"])
    result.counters.update(ms=board.elapsed, i2c_bytes=board.i2c_bytes,
                           i2c_writes=board.i2c_writes, flash_bytes=stats["flashBytes"],
                           flash_writes=stats["flashErases"], wakeups=stats["passes"])
    return result
