"""``package.json`` for MicroPython's package installer, mip: with it

    mpremote mip install --target / github:OWNER/REPO
    mpremote mip install --target / ./package.json   (from a checkout)

puts the firmware (as source) and the bundled games on a device. It lists every
file of ``firmware/``, and the games compiled as a push sends them (compiled.py),
kept in ``mip/rulesets/`` for mip to fetch: ``python -m arbiter_referee.mip``
writes them again, and the device's list of the firmware files
(``mip/firmware.sha256``), after the firmware or a game changes (tests/test_mip.py fails
while they are stale).
"""

from __future__ import annotations

import json
import sys

from arbiter_referee import __version__
from arbiter_referee.build import MANIFEST, manifest_text
from arbiter_referee.compiled import compiled, compiled_copy
from arbiter_referee.paths import FIRMWARE, RULESETS

PACKAGE_JSON = FIRMWARE.parent / "package.json"  # beside firmware/ in a checkout
COMPILED = FIRMWARE.parent / "mip" / "rulesets"  # the games as a device keeps them
# Not for the device: MicroPython's build manifest, should the firmware get one.
_NOT_INSTALLED = {"manifest.py"}


def manifest() -> dict:
    """mip's format: ``urls`` of [path on the device, path beside package.json]."""
    urls = []
    for path in sorted(FIRMWARE.rglob("*.py")):
        on_device = path.relative_to(FIRMWARE).as_posix()
        if on_device not in _NOT_INSTALLED and "__pycache__" not in path.parts:
            urls.append([on_device, f"{FIRMWARE.name}/{on_device}"])
    urls.append([MANIFEST, f"mip/{MANIFEST}"])
    for path in sorted(RULESETS.glob("*.json")):
        urls.append([f"rulesets/{path.name}", f"mip/rulesets/{path.name}"])
    return {"urls": urls, "version": __version__}


def firmware_manifest() -> str:
    """The device's list of the firmware files mip installs (build.manifest_text)."""
    return manifest_text({on_device: (FIRMWARE / on_device).read_bytes()
                          for on_device, _ in manifest()["urls"]
                          if on_device.endswith(".py")})


def compiled_rulesets() -> dict[str, bytes]:
    """File name -> the bundled game compiled, as ``mip/rulesets/`` holds it."""
    return {path.name: compiled(path.read_bytes()) for path in sorted(RULESETS.glob("*.json"))}


def text(data: dict | None = None) -> str:
    """``manifest()`` as written: one file a line, so a change reads as one line."""
    data = data or manifest()
    rows = ",\n".join(f"    {json.dumps(row)}" for row in data["urls"])
    return f'{{\n  "urls": [\n{rows}\n  ],\n  "version": {json.dumps(data["version"])}\n}}\n'


def main() -> int:
    PACKAGE_JSON.write_text(text())
    COMPILED.mkdir(parents=True, exist_ok=True)
    (COMPILED.parent / MANIFEST).write_text(firmware_manifest())
    for stale in COMPILED.glob("*.json"):
        stale.unlink()
    for path in sorted(RULESETS.glob("*.json")):
        compiled_copy(path, COMPILED)
    print(f"wrote {PACKAGE_JSON} ({len(manifest()['urls'])} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
