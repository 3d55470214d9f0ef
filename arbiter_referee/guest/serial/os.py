"""``os`` for the emulated Arbiter: the WASI build's module, plus what a Pico's has.

``ilistdir`` yields (name, type, inode, size) as littlefs on a Pico does (the
WASI build gives no size, so ``mpremote fs ls`` would show 0); ``statvfs``
reports a Pico-sized filesystem (the WASI build has none); ``uname`` and
``sync`` exist. Imported first by the driver, so every ``import os`` gets it.
"""

import sys

_path = sys.path
sys.path = []  # an empty path finds only the built-in module
try:
    from os import *  # noqa: F403
    from os import ilistdir as _ilistdir
    from os import stat as _stat
finally:
    sys.path = _path

_BLOCK = 4096
_BLOCKS = 212  # MicroPython's littlefs on a 2 MB Pico: 848 KB


def _join(folder, name):
    if folder in ("", "."):
        return name
    return folder + name if folder.endswith("/") else folder + "/" + name


def ilistdir(folder=""):
    for entry in _ilistdir(folder) if folder else _ilistdir():
        size = 0
        if entry[1] == 0x8000:
            try:
                size = _stat(_join(folder, entry[0]))[6]
            except OSError:
                pass
        yield (entry[0], entry[1], entry[2], size)


def _used(folder):
    blocks = 1
    for entry in ilistdir(folder):
        if entry[1] == 0x4000:
            blocks += _used(_join(folder, entry[0]))
        else:
            blocks += (entry[3] + _BLOCK - 1) // _BLOCK
    return blocks


def statvfs(_path):
    free = max(0, _BLOCKS - _used("/"))
    return (_BLOCK, _BLOCK, _BLOCKS, free, free, 0, 0, 0, 0, 255)


def uname():
    return ("rp2", "rp2", "1.27.0", sys.version.split("; ")[-1],
            "Arbiter emulator (MicroPython WASI) as Raspberry Pi Pico with RP2040")


def sync():
    pass
