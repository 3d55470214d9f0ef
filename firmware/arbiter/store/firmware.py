"""The device runs only its own firmware: the files ``arbiter deploy`` (or the mip
package) put on flash, as its manifest lists them (``firmware.sha256``: a line per
file, its SHA-256 in hex, a space, its path), and no other code that MicroPython
would run (a ``boot.py``, a module's source beside its bytecode, a module planted
under a name the firmware imports). Checked before a game starts; the manifest's own
digest is shown with the dice commitment, so a photo records which firmware refereed.
"""

import binascii
import hashlib

MANIFEST = "firmware.sha256"
SHOWN = 13  # hex digits of the digest on the New game screen (52 bits)
CODE = (".py", ".mpy")


def check(flash):
    """(None, the firmware's digest) when flash holds the firmware its manifest lists
    and no other code, else (the one-line reason, None). Where the firmware does not
    run from this flash (no main.py on it: the simulator's), nothing to check: the
    digest of the manifest it stands for, if any. Read a line and a block at a time:
    a game's start is near a Pico's heap peak."""
    buf = bytearray(512)
    digest = _sha256(flash, MANIFEST, buf)
    if not flash.exists("main.py"):
        return None, digest
    if digest is None:
        return "The firmware's file list is missing: run arbiter deploy.", None
    listed = set()
    with flash.open(MANIFEST) as f:
        for line in f:
            want, _, path = line.rstrip("\n").partition(" ")
            if _sha256(flash, path, buf) != want:
                return _foreign(path), None
            listed.add(path)
    for path in _walk(flash):
        if path not in listed and path.endswith(CODE):
            return _foreign(path), None
    return None, digest


def _walk(flash):
    """Every file on flash, by path: a list of folders still to see, not a recursion (a
    Pico's few frames)."""
    found, folders = [], [""]
    while folders:
        here = folders.pop()
        for name in flash.names(here):
            path = here + "/" + name if here else name
            if flash.is_folder(path):
                folders.append(path)
            else:
                found.append(path)
    return found


def _foreign(path):
    return path + " is not the firmware's: run arbiter deploy."


def _sha256(flash, path, buf):
    digest = hashlib.sha256()
    try:
        with flash.open(path, "rb") as f:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                digest.update(memoryview(buf)[:n])
    except OSError:
        return None
    return _hex(digest.digest())


def _hex(data):
    return binascii.hexlify(data).decode()
