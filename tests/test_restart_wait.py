"""A device command returns only once the device is back from its reset, however slow
the machine: on a clock that moves only when the waiting looks again, a device that
takes 30 s to drop off and come back is waited for, and one that never restarts is an
error, not a silent return."""

import fcntl
import os
import time

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


def test_a_device_restarting_as_a_command_connects_is_waited_for_and_tried_again(
        monkeypatch, capsys):
    # e.g. its watchdog ending the REPL a plain mpremote left behind: the port goes
    # (mpremote: "failed to access") and a new one comes 5 s later; the command runs there
    device = SlowDevice(monkeypatch, restart_at=None)
    device.back = None  # when the new port comes, once the old one went

    def identity(port):
        if device.back is None:
            return (1, 0)
        return (2, 5) if device.now >= device.back else None

    monkeypatch.setattr(transfer, "port_identity", identity)
    monkeypatch.setattr(transfer, "present", lambda port: identity(port) is not None)
    runs = []

    def once(port, steps, reset, on_line, before):
        runs.append((device.now, before))
        if len(runs) == 1:
            device.back = device.now + 5  # it resets as mpremote opens the port
            raise transfer.PortLost("cannot open it")
        return "ok"

    monkeypatch.setattr(transfer, "_mpremote_once", once)
    assert transfer.mpremote("/dev/ttyACM0", ["exec", "pass"]) == "ok"
    assert [before for _, before in runs] == [(1, 0), (2, 5)] and runs[1][0] >= 5
    assert "waiting for the device on /dev/ttyACM0... there" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_a_port_another_program_holds_is_refused_at_once_in_one_line(tmp_path):
    # mpremote takes the port for itself (an exclusive lock): a serial monitor left open
    master, slave = os.openpty()
    try:
        fcntl.flock(slave, fcntl.LOCK_EX | fcntl.LOCK_NB)
        started = time.monotonic()
        with pytest.raises(transfer.DeviceError) as refused:
            transfer.mpremote(os.ttyname(slave), ["exec", "pass"])
        assert str(refused.value) == (
            f"cannot open {os.ttyname(slave)}: another program (a serial monitor, an "
            "editor's REPL) may have it open; close it and try again")
        assert time.monotonic() - started < transfer.RESTART_TIMEOUT
    finally:
        os.close(slave)
        os.close(master)
