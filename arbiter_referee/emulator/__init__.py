"""The emulated device on the PC: the unchanged firmware on a virtual board, run by
CPython or by real MicroPython (the WASI build, through wasmtime)."""

RUNTIMES = ("cpython", "micropython", "chip")
