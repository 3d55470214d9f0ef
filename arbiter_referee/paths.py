"""Where Arbiter's files are: the firmware and the bundled rulesets lie beside this
package in a checkout, and inside it once installed from a wheel."""

import hashlib
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


def factory_flash(flash_dir: Path) -> None:
    """A new device's flash: the bundled rulesets in ``rulesets/``, compiled (compiled.py)
    as a deploy leaves them (each checked by the device at its push, which noted so in
    NAME.ok; every bundled ruleset passes the check: tests/test_docs_rulesets.py).
    A flash that already has the folder is left as it is."""
    target = Path(flash_dir) / "rulesets"
    if target.exists():
        return
    target.mkdir(parents=True)
    from arbiter_referee.compiled import compiled

    for path in sorted(RULESETS.glob("*.json")):
        data = compiled(path.read_bytes())
        (target / path.name).write_bytes(data)
        (target / (path.stem + ".ok")).write_text(passed_record(data))


def passed_record(data: bytes) -> str:
    """What the device keeps in ``rulesets/NAME.ok`` once its check has passed these
    bytes (firmware arbiter/store/checked.py)."""
    return hashlib.sha256(__version__.encode() + data).hexdigest()
