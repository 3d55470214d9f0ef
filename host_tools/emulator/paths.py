"""Where the firmware and the virtual board live in this checkout."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
VDEVICE = REPO / "host_tools" / "vdevice"
SHIMS = REPO / "host_tools" / "shims"
