"""Where Arbiter's files are: the firmware and the bundled rulesets lie beside this
package in a checkout, and inside it once installed from a wheel."""

import hashlib
import sys
from pathlib import Path

from arbiter_referee import __version__

PACKAGE = Path(__file__).resolve().parent
_ROOT = PACKAGE if (PACKAGE / "firmware").is_dir() else PACKAGE.parent
FIRMWARE = _ROOT / "firmware"  # exactly what goes on a Pico
RULESETS = _ROOT / "rulesets"  # the bundled games
SCHEMA = PACKAGE / "ruleset.schema.json"
GUEST_BOARD = PACKAGE / "guest" / "board"  # the virtual board (CPython and MicroPython)
GUEST_SERIAL = PACKAGE / "guest" / "serial"  # inside MicroPython behind arbiter emulate
SHIMS = PACKAGE / "cpython_shims"  # what CPython lacks of MicroPython's modules


def use_firmware_path() -> None:
    """Make the firmware, the virtual board and the CPython shims importable here."""
    for path in (GUEST_BOARD, FIRMWARE, SHIMS):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))


def passed_record(data: bytes) -> str:
    """What the device keeps in ``rulesets/NAME.ok`` once its check has passed these
    bytes (firmware arbiter/store/checked.py)."""
    return hashlib.sha256(__version__.encode() + data).hexdigest()
