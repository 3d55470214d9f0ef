"""config.json overrides of the board definition, checked key by key."""

from arbiter.hw import wiring


def test_no_config_gives_the_default_board():
    loaded, errors = wiring.load(None)
    assert loaded == wiring.WIRING and errors == []
    assert loaded is not wiring.WIRING and loaded["buttons"] is not wiring.WIRING["buttons"]


def test_valid_overrides_apply():
    loaded, errors = wiring.load('{"led_count": 24, "led_cap": 10, "oled_addr": 61}')
    assert errors == []
    assert (loaded["led_count"], loaded["led_cap"], loaded["oled_addr"]) == (24, 10, 61)


def test_one_bad_value_keeps_the_good_ones():
    loaded, errors = wiring.load('{"led_count": 0, "led_cap": 10}')
    assert loaded["led_count"] == 12 and loaded["led_cap"] == 10
    assert errors == ["config.json: led_count must be 1..64"]


def test_on_board_pins_are_not_header_pins():
    for pin in (23, 24, 25, 29):
        _, errors = wiring.load('{"led_pin": %d}' % pin)
        assert errors == ["config.json: led_pin: unknown pin %d" % pin]


def test_booleans_are_not_numbers():
    _, errors = wiring.load('{"led_count": true}')
    assert errors


def test_a_clash_restores_every_pin():
    loaded, errors = wiring.load('{"led_pin": 4}')  # on the OLED's SDA
    assert loaded["led_pin"] == 16 and loaded["sda"] == 4
    assert "pins shared by" in errors[0]
