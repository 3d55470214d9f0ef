"""The chip runtime in tests: MicroPython's own UF2 for the Pico in rp2040js.

The tests find the firmware at ``../shared/rp2/`` beside the checkout, or where
$ARBITER_PICO_FIRMWARE says. Without it (or without Node.js and npm) the chip's
tests skip; with ARBITER_REQUIRE_CHIP set (.ci/run) they fail instead.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from arbiter_referee.chip.runtime import FIRMWARE_ENV, PicoFirmware, pico_firmware

REQUIRE = "ARBITER_REQUIRE_CHIP"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rp2" / \
    "micropython-RPI_PICO-v1.28.0.uf2"


def firmware() -> PicoFirmware:
    """The Pico's MicroPython, or a skip (a failure where the chip is required)."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    named = os.environ.get(FIRMWARE_ENV) or (str(SHARED) if SHARED.is_file() else None)
    try:
        if missing:
            raise ValueError(f"{' and '.join(missing)} not found")
        return pico_firmware(named)
    except ValueError as exc:
        if os.environ.get(REQUIRE):
            pytest.fail(f"the chip runtime cannot run here: {exc}")
        pytest.skip(f"the chip runtime cannot run here: {exc}")


def first_presses(script: str, count: int) -> str:
    """A button script's words up to its ``count``-th press (its timing words kept)."""
    from vscript import NAMES

    words, presses = [], 0
    for word in script.split():
        if word.partition(":")[0] in NAMES:
            if presses == count:
                break
            presses += 1
        words.append(word)
    return " ".join(words)
