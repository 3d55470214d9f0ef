"""The watchdog: the main loop feeds it every pass; a hang (in the firmware, or a REPL
a killed command left) is ended by a reset, and the device comes back to its game."""

import pytest
from helpers.device import game_of, start_game
from helpers.emulator import boots, logged_emulator


def test_every_pass_of_the_main_loop_feeds_the_watchdog(rig):
    rig.run(20000)  # far past the watchdog's time: fed all along
    assert rig.watchdog_resets == 0
    assert rig.board.elapsed - rig.board.fed_at < 100


def test_a_hang_in_the_firmware_is_ended_by_the_watchdog_and_the_game_comes_back(
        rig, monkeypatch):
    from arbiter.screens.play import PlayScreen
    from vboard import WATCHDOG_MS

    start_game(rig, "kaiju")
    events = game_of(rig).count()

    def hang(self, app, button, kind, now):  # a loop that never ends, time going by
        while True:
            rig.board.sleep_ms(50)

    monkeypatch.setattr(PlayScreen, "key", hang)
    rig.keys("a")
    assert rig.watchdog_resets == 1
    assert rig.board.elapsed < 1000 + WATCHDOG_MS  # a fresh boot, not the hung one
    monkeypatch.undo()
    rig.run(1500)
    assert rig.lines[0] == "Game restored"  # the game it had, resumed
    rig.keys("a")
    assert game_of(rig).count() == events


@pytest.mark.parametrize("feeds", [True, False])
def test_the_emulated_watchdog_bites_only_when_unfed(tmp_path, feeds):
    from arbiter_referee.emulator.session import use_firmware_path

    use_firmware_path()
    from vboard import WATCHDOG_MS, VirtualBoard, WatchdogReset

    board = VirtualBoard(1, "", str(tmp_path) + "/")
    board.end_ms = None
    for _ in range(2 * WATCHDOG_MS // 100):
        if feeds:
            board.feed()
        try:
            board.sleep_ms(100)
        except WatchdogReset:
            assert not feeds and board.elapsed > WATCHDOG_MS
            return
    assert feeds


# -- on the emulated Pico behind a serial line (``arbiter emulate``) ---------------------

# On one test worker (pyproject: --dist loadgroup): the device's deploy made once.
ON_THE_SERIAL_DEVICE = pytest.mark.xdist_group("watchdog")


@pytest.fixture(scope="module")
def serial_device(tmp_path_factory):
    # the bite after 2 x the firmware's 8 s unfed, not the emulator's 5 x: these tests
    # wait for it (the commands and every pass feed it all the same)
    emulator = logged_emulator(tmp_path_factory.mktemp("watchdog"),
                               env={"ARBITER_WATCHDOG_SLACK": "2"})
    emulator.arbiter("deploy")
    yield emulator
    emulator.stop()


def wait_for(condition, timeout):
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _start(command):
    import subprocess

    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def _kill(process):
    import os
    import signal

    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@ON_THE_SERIAL_DEVICE
def test_a_hang_in_the_emulated_firmware_is_ended_by_the_watchdog(serial_device):
    from helpers.emulator import MPREMOTE

    before = boots(serial_device)
    # the firmware interrupted and a loop that never ends run instead: nothing feeds
    hang = _start([*MPREMOTE, "connect", serial_device.port, "exec", "while True:\n pass"])
    try:
        assert wait_for(lambda: boots(serial_device) > before, 300), "no reset"
    finally:
        _kill(hang)
    assert serial_device.arbiter("ls").returncode == 0  # and it takes commands again


@ON_THE_SERIAL_DEVICE
def test_after_a_killed_push_the_firmware_comes_back_by_itself(serial_device, tmp_path):
    import json

    from helpers.emulator import ARBITER

    from arbiter.game import ruleset
    from arbiter_referee.compiled import compiled
    from arbiter_referee.rulesets import bundled

    data = json.loads(bundled()["tactics"].read_text())
    room = ruleset.MAX_FILE_BYTES - len(compiled(json.dumps(data))) - 1000
    data["notes"] = "x" * room  # near the cap: a slow push
    new = tmp_path / "tactics.json"
    new.write_text(json.dumps(data))
    part = serial_device.flash / "rulesets" / "tactics.part"
    before = boots(serial_device)
    push = _start([*ARBITER, "push", str(new), "--port", serial_device.port])
    assert wait_for(lambda: part.exists() and part.stat().st_size > 0, 300)
    _kill(push)  # mid-transfer: the device is left at its REPL
    # the watchdog resets it: main.py runs again and the firmware is back, unasked
    assert wait_for(lambda: boots(serial_device) > before, 300), "still at the REPL"
