"""The type check of ``firmware/``: basedpyright with the Pico's stubs, MicroPython's
stdlib standing in for CPython's (``--typeshedpath``), configured in pyproject.toml.
It finds no error, and no name the firmware takes from a module that MicroPython on a
Pico lacks, at any severity."""

import json
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from helpers import REPO

SETUP = 'the type check needs the test extras: pip install -e ".[test]"'


def typeshed() -> Path:
    """The folder holding MicroPython's ``stdlib/`` stubs (installed with the Pico's)."""
    try:
        stubs = distribution("micropython-stdlib-stubs")
        distribution("micropython-rp2-rpi-pico-stubs")
    except PackageNotFoundError:
        raise AssertionError(SETUP) from None
    return Path(stubs.locate_file("stdlib")).parent


def check(*files: Path) -> dict:
    """basedpyright's findings on firmware/ (or on ``files``), with pyproject's settings."""
    done = subprocess.run(
        [sys.executable, "-m", "basedpyright", "--outputjson", "--typeshedpath",
         str(typeshed()), "--pythonpath", sys.executable, *map(str, files)],
        cwd=REPO, capture_output=True, text=True)
    assert done.stdout.lstrip().startswith("{"), done.stderr or SETUP
    return json.loads(done.stdout)


def test_the_firmware_type_checks_against_micropython_on_a_pico():
    result = check()
    diagnostics = result["generalDiagnostics"]
    where = [f"{Path(d['file']).relative_to(REPO)}:{d['range']['start']['line'] + 1}: "
             f"{d['message'].splitlines()[0]}" for d in diagnostics]
    errors = [w for w, d in zip(where, diagnostics, strict=True) if d["severity"] == "error"]
    assert errors == []
    # what the stubs are for: every module and module attribute exists on a Pico
    missing = [w for w, d in zip(where, diagnostics, strict=True)
               if d.get("rule") in ("reportMissingImports", "reportUndefinedVariable")
               or "attribute of module" in d["message"]]
    assert missing == []
    assert result["summary"]["filesAnalyzed"] == len(list((REPO / "firmware").rglob("*.py")))


def test_the_check_catches_a_name_a_pico_lacks(tmp_path):
    # CPython's time has no ticks_ms and MicroPython's has no perf_counter: the stubs decide
    probe = tmp_path / "probe.py"
    probe.write_text("import time\nimport machine\n\nstart = time.perf_counter()\n"
                     "pin = machine.Pin(25)\nnow = time.ticks_ms()\n")
    messages = [d["message"] for d in check(probe)["generalDiagnostics"]]
    assert messages == ['"perf_counter" is not a known attribute of module "time"']
