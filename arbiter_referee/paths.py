"""Where Arbiter's files are: the firmware and the bundled rulesets lie beside this
package in a checkout, and inside it once installed from a wheel."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
_ROOT = PACKAGE if (PACKAGE / "firmware").is_dir() else PACKAGE.parent
FIRMWARE = _ROOT / "firmware"  # exactly what goes on a Pico
RULESETS = _ROOT / "rulesets"  # the bundled games
SCHEMA = PACKAGE / "ruleset.schema.json"
GUEST_BOARD = PACKAGE / "guest" / "board"  # the virtual board (CPython and MicroPython)
GUEST_SERIAL = PACKAGE / "guest" / "serial"  # inside MicroPython behind arbiter emulate
SHIMS = PACKAGE / "cpython_shims"  # what CPython lacks of MicroPython's modules


def factory_flash(flash_dir: Path) -> None:
    """A new device's flash: the bundled rulesets in ``rulesets/``, as a deploy leaves them.
    A flash that already has the folder is left as it is."""
    target = Path(flash_dir) / "rulesets"
    if target.exists():
        return
    target.mkdir(parents=True)
    for path in sorted(RULESETS.glob("*.json")):
        (target / path.name).write_bytes(path.read_bytes())
