"""The emulated device on the PC: the unchanged firmware on a virtual board, run by
CPython or by real MicroPython (the WASI build, through wasmtime); or on the chip."""

RUNTIMES = ("cpython", "micropython")  # what runs the firmware, or the engine headless
# the emulated device's, and the chip's: MicroPython's own rp2 port in an emulated
# RP2040, the firmware as on a Pico (arbiter_referee/chip)
DEVICE_RUNTIMES = RUNTIMES + ("chip",)
