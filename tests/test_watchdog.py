"""The watchdog: the main loop feeds it every pass; a hang (in the firmware, or a REPL
a killed command left) is ended by a reset, and the device comes back to its game."""

import pytest
from helpers.device import game_of, start_game


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
