"""board.py, the one module that touches ``machine``: it builds the hardware from the
wiring table and config.json. Checked on CPython with recording stand-ins for
``machine`` and ``neopixel`` (the WASI MicroPython has no ``machine.Pin``)."""

import importlib
import sys
import types

import pytest

from arbiter_referee.paths import FIRMWARE


class Pin:
    IN, OUT, PULL_UP = "in", "out", "pull_up"
    IRQ_FALLING, IRQ_RISING = 4, 8
    made = []

    def __init__(self, number, mode=None, pull=None):
        self.number, self.mode, self.pull = number, mode, pull
        self.level, self.handler = 1, None
        Pin.made.append(self)

    def value(self):
        return self.level

    def irq(self, handler, trigger, hard=False):
        self.handler, self.trigger, self.hard = handler, trigger, hard

    def change(self, level):  # as the RP2040 calls a hard interrupt on an edge
        self.level = level
        self.handler(self)


class I2C:
    def __init__(self, bus, sda, scl, freq):
        self.bus, self.sda, self.scl, self.freq = bus, sda.number, scl.number, freq


class WDT:
    started = []

    def __init__(self, timeout):
        self.timeout, self.fed = timeout, 0
        WDT.started.append(self)

    def feed(self):
        self.fed += 1


class NeoPixel:
    def __init__(self, pin, count):
        self.pin, self.count = pin.number, count


@pytest.fixture
def load_board(tmp_path, monkeypatch):
    machine = types.SimpleNamespace(Pin=Pin, I2C=I2C, WDT=WDT)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=NeoPixel))
    monkeypatch.setattr("time.ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr("time.sleep_ms", lambda ms: None, raising=False)
    monkeypatch.chdir(tmp_path)  # the Pico's flash root is the working directory
    monkeypatch.syspath_prepend(str(FIRMWARE))

    def load(config=None):
        if config is not None:
            (tmp_path / "config.json").write_text(config)
        Pin.made.clear()
        sys.modules.pop("board", None)
        return importlib.import_module("board")

    yield load
    sys.modules.pop("board", None)


def test_default_wiring(load_board):
    board = load_board()
    assert (board.i2c.bus, board.i2c.sda, board.i2c.scl, board.i2c.freq) == (0, 4, 5, 400000)
    assert (board.neopixel.pin, board.neopixel.count) == (16, 12)
    buttons = [p for p in Pin.made if p.mode == Pin.IN]
    assert [p.number for p in buttons] == [10, 11, 12, 13, 14, 15]
    assert all(p.pull == Pin.PULL_UP for p in buttons)
    assert [reader() for reader in board.button_readers] == [1] * 6  # released
    assert board.errors == []
    assert 0 <= board.entropy_seed() < 2**64


def test_each_button_change_is_caught_by_a_hard_interrupt_with_its_time(load_board):
    # a press made while a pass works (a ruleset's load) is still counted, in order
    board = load_board()
    buttons = [p for p in Pin.made if p.mode == Pin.IN]
    assert all(p.hard and p.trigger == Pin.IRQ_FALLING | Pin.IRQ_RISING for p in buttons)
    edges = board.button_edges
    buttons[4].change(0)  # A down
    buttons[1].change(0)  # Down down
    buttons[4].change(1)
    caught = [(edges.button[k], edges.level[k]) for k in range(edges.written)]
    assert caught == [(4, 0), (1, 0), (4, 1)]
    assert all(isinstance(edges.at[k], int) for k in range(3))


def test_config_json_on_flash_overrides(load_board):
    board = load_board('{"led_count": 24, "led_pin": 22, "buttons": {"b": 9}}')
    assert (board.neopixel.pin, board.neopixel.count) == (22, 24)
    assert [p.number for p in Pin.made if p.mode == Pin.IN][-1] == 9


def test_bad_config_json_falls_back_with_errors(load_board):
    board = load_board('{"led_count": 0')
    assert board.neopixel.count == 12
    assert board.errors == ["config.json: not valid JSON; set aside as config.json.bad"]
    assert (board.flash.size("config.json"), board.flash.exists("config.json.bad")) == (None, True)


def test_the_watchdog_is_armed_at_boot_and_fed_through_board_feed(load_board):
    WDT.started.clear()
    board = load_board()
    (wdt,) = WDT.started
    assert 0 < wdt.timeout <= 8300  # the RP2040's longest
    board.feed()
    assert wdt.fed == 1  # Device.tick calls it every pass (test_watchdog.py)


def test_only_board_imports_machine():
    # and boot.py, which MicroPython runs at every soft reset, when board.py is gone: it
    # keeps B the table's while a PC holds the REPL (issue 45)
    offenders = [path.name for path in FIRMWARE.rglob("*.py")
                 if path.name not in ("board.py", "boot.py") and "machine" in path.read_text()
                 and any(line.strip().startswith(("import machine", "from machine"))
                         for line in path.read_text().splitlines())]
    assert offenders == []
