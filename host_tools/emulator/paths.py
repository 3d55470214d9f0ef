"""Where the firmware and the virtual board live in this checkout."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
VDEVICE = REPO / "host_tools" / "vdevice"
SHIMS = REPO / "host_tools" / "shims"
RULESETS = REPO / "rulesets"


def factory_flash(flash_dir: Path) -> None:
    """A new device's flash: the bundled rulesets in ``rulesets/``, as a deploy leaves them.
    A flash that already has the folder is left as it is."""
    target = Path(flash_dir) / "rulesets"
    if target.exists():
        return
    target.mkdir(parents=True)
    for path in sorted(RULESETS.glob("*.json")):
        (target / path.name).write_bytes(path.read_bytes())
