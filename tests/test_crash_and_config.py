"""Bad input never kills the device: errors go on the OLED and it comes back to the menu."""

import pytest

from arbiter.device import CRASH_SHOW_MS
from arbiter.hw import wiring
from arbiter.screens import dice


@pytest.mark.parametrize("config, message", [
    ("{not json", "not valid JSON"),
    ('{"led_count": 0}', "led_count must be 1..64"),
    ('{"led_pin": 40}', "unknown pin 40"),
    ('{"buttons": {"a": 25}}', "unknown pin 25"),
    ('{"sda": 6, "scl": 7}', "not an SDA/SCL pair"),
    ('{"led_pin": 14}', "pins shared by"),
    ('[1, 2]', "must be an object"),
    ('{"colour": 1}', "unknown key colour"),
])
def test_bad_config_is_reported_and_defaults_used(make_rig, config, message):
    rig = make_rig(config=config)
    shown = " ".join(rig.lines)
    assert rig.lines[0] == "Check setup"
    assert message.split()[0] in shown
    assert any(message in line for line in rig.device.log.lines)
    assert rig.board.wiring["led_count"] == wiring.WIRING["led_count"]
    assert len(rig.board.neopixel) == 12
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"  # and the device works
    rig.keys("down", "a", "a")
    assert any(line.startswith("roll 1d6") for line in rig.device.log.lines)


def test_good_config_overrides_take_effect(make_rig):
    rig = make_rig(config='{"led_count": 16, "buttons": {"a": 20}, "i2c_id": 1, '
                          '"sda": 6, "scl": 7}')
    assert rig.lines[0] == "ARBITER"
    assert len(rig.board.neopixel) == 16
    assert rig.board.wiring["buttons"]["a"] == 20
    assert (rig.board.wiring["i2c_id"], rig.board.wiring["sda"]) == (1, 6)


def test_unreadable_settings_file_falls_back(make_rig):
    rig = make_rig(settings="\x00\x01garbage")
    assert rig.lines[0] == "Check setup"
    rig.keys("a", "down", "down", "a")
    assert rig.lines[1] == "Sleep  120 s"


def test_exception_in_a_screen_is_shown_then_device_returns_to_menu(rig, monkeypatch):
    def broken(self, app, fb):
        raise ZeroDivisionError("injected")

    monkeypatch.setattr(dice.DiceRoller, "draw", broken)
    rig.keys("down", "a")
    assert rig.lines[0] == "Error"
    assert "ZeroDivisionError: injected" in " ".join(rig.lines[1:4])
    assert rig.lines[7] == "A: restart"
    assert all(led[0] > 0 and led[1] == 0 for led in rig.frame.leds if led != (0, 0, 0))
    assert any(line.startswith("crash: ZeroDivisionError") for line in rig.device.log.lines)
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"
    monkeypatch.undo()
    rig.keys("down", "a")
    assert rig.lines[0] == "Dice"


def test_a_crash_whose_report_runs_out_of_heap_is_reported_a_pass_later(rig, monkeypatch):
    """A full heap fails the crash report too (a Pico's heap, full mid-pass): the
    device must not die to the REPL but show the error once the heap is collected."""
    from arbiter.screens import crash

    real = crash.describe
    fails = [1]

    def describe_once_out_of_heap(exc):
        if fails:
            fails.pop()
            raise MemoryError("memory allocation failed, allocating 48 bytes")
        return real(exc)

    monkeypatch.setattr("arbiter.device.describe", describe_once_out_of_heap)
    monkeypatch.setattr(dice.DiceRoller, "draw", lambda *a: 1 / 0)
    rig.keys("down", "a")
    assert rig.lines[0] == "Error"
    assert "ZeroDivisionError" in " ".join(rig.lines[1:4])
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"


def test_crash_screen_restarts_by_itself_after_a_while(rig, monkeypatch):
    monkeypatch.setattr(dice.DiceRoller, "key", lambda *a: 1 / 0)
    rig.keys("down", "a", "a")
    assert rig.lines[0] == "Error"
    rig.run(CRASH_SHOW_MS + 100)
    assert rig.lines[0] == "ARBITER"


def test_repeated_crashes_wait_for_a_press_instead_of_looping(rig, monkeypatch):
    monkeypatch.setattr(dice.DiceRoller, "draw", lambda *a: 1 / 0)
    for _ in range(3):
        rig.keys("down", "a")  # into the broken screen
        assert rig.lines[0] == "Error"
        if rig.device.app is None and len(rig.device.crashes) < 3:
            rig.keys("a")  # restart
    rig.run(5 * CRASH_SHOW_MS)
    assert rig.lines[0] == "Error"  # held, not looping
    log_size = len(rig.device.log.lines)
    rig.run(CRASH_SHOW_MS)
    assert len(rig.device.log.lines) == log_size
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"


def test_a_failing_settings_write_is_a_shown_error_not_a_dead_device(rig, monkeypatch):
    def full(name, text):
        raise OSError(28)  # ENOSPC

    rig.keys("down", "down", "a", "left")
    monkeypatch.setattr(rig.board.flash, "write", full)
    rig.keys("a")
    assert rig.lines[0] == "Error"
    assert "OSError" in " ".join(rig.lines)
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"
