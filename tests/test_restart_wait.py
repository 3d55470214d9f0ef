"""A device command returns only once the device is back from its reset, however slow
the machine: on a clock that moves only when the waiting looks again, a device that
takes 30 s to drop off and come back is waited for, and one that never restarts is an
error, not a silent return."""

import pytest

from arbiter_referee import transfer


class SlowDevice:
    """A port that is replaced by a new one ``restart_at`` seconds into the wait (never
    absent in between, as when the gap falls between two looks), on a fake clock."""

    def __init__(self, monkeypatch, restart_at):
        self.now = 0.0
        self.restart_at = restart_at
        monkeypatch.setattr(transfer.time, "monotonic", lambda: self.now)
        monkeypatch.setattr(transfer.time, "sleep", self.sleep)
        monkeypatch.setattr(transfer, "present", lambda port: True)
        monkeypatch.setattr(transfer, "port_identity", self.identity)

    def sleep(self, seconds):
        self.now += seconds

    def identity(self, port):
        return (1, 0) if self.restart_at is None or self.now < self.restart_at else (2, 5)


def test_a_device_slow_to_restart_is_waited_for(monkeypatch, capsys):
    device = SlowDevice(monkeypatch, restart_at=30)
    transfer.wait_for_restart("/dev/ttyACM0", before=(1, 0))
    assert device.now >= 30
    assert capsys.readouterr().err.endswith(" back\n")


def test_a_device_that_never_restarts_is_an_error_in_one_line(monkeypatch):
    device = SlowDevice(monkeypatch, restart_at=None)
    with pytest.raises(transfer.DeviceError, match="did not restart within 120 s"):
        transfer.wait_for_restart("/dev/ttyACM0", before=(1, 0))
    assert device.now >= transfer.RESTART_TIMEOUT
