"""The board definition: every pin, bus setting and LED count, as data.

``WIRING`` is the default Arbiter build (see hardware/README.md). An optional
``config.json`` on the device overrides any key; ``load`` checks it and falls
back to the defaults, key by key, with a message for each bad value.
"""

import json

WIRING = {
    "i2c_id": 0,  # I2C0: SDA on GP4, SCL on GP5
    "sda": 4,
    "scl": 5,
    "i2c_freq": 400000,
    "oled_addr": 0x3C,
    "oled_contrast": 0xCF,
    "buttons": {"up": 10, "down": 11, "left": 12, "right": 13, "a": 14, "b": 15},
    "led_pin": 16,
    "led_count": 12,
    "led_cap": 25,  # brightness cap in percent: keeps the ring within USB power
}

FILE = "config.json"
MAX_BYTES = 2048  # every key takes under 300 bytes: a bigger file is not a config
_WHOLE = ("not valid JSON", "must be an object")  # the file as a whole is bad
BUTTON_NAMES = ("up", "down", "left", "right", "a", "b")
# GP0..GP22 and GP26..GP28 reach the Pico's header; 23-25 and 29 are on-board.
HEADER_PINS = tuple(range(23)) + (26, 27, 28)
# RP2040 pin-to-I2C mapping: SDA = 4k + 2*bus, SCL = SDA + 1.
_I2C_SDA = {0: (0, 4, 8, 12, 16, 20), 1: (2, 6, 10, 14, 18, 26)}
_RANGES = {
    "i2c_freq": (10000, 1000000),
    "oled_addr": (0x3C, 0x3D),
    "oled_contrast": (0, 255),
    "led_count": (1, 64),
    "led_cap": (1, 100),
}


def _copy(wiring):
    out = dict(wiring)
    out["buttons"] = dict(wiring["buttons"])
    return out


def _pin_ok(value):
    return isinstance(value, int) and not isinstance(value, bool) and value in HEADER_PINS


def from_flash(flash):
    """(wiring, errors) from config.json on ``flash``; a file that cannot be read
    at all (too big, not UTF-8, not a JSON object) is set aside (Flash.set_aside)."""
    errors = []
    wiring, more = load(flash.boot_text(FILE, MAX_BYTES, errors))
    for reason in _WHOLE:
        if more and more[0] == _whole(reason):
            return wiring, errors + [flash.set_aside(FILE, reason)]
    return wiring, errors + more


def _whole(reason):
    return "config.json: %s; defaults used" % reason


def load(text):
    """Parse config.json text; return (wiring, errors). Never raises."""
    wiring = _copy(WIRING)
    errors = []
    if text is None:
        return wiring, errors
    try:
        data = json.loads(text)
    except (ValueError, RuntimeError, MemoryError):  # RuntimeError: nested too deep
        return wiring, [_whole(_WHOLE[0])]
    if not isinstance(data, dict):
        return wiring, [_whole(_WHOLE[1])]
    for key, value in data.items():
        if key not in WIRING:
            errors.append("config.json: unknown key " + key)
        elif key == "buttons":
            _load_buttons(wiring, value, errors)
        elif key in ("sda", "scl", "led_pin"):
            if _pin_ok(value):
                wiring[key] = value
            else:
                errors.append("config.json: " + key + ": unknown pin " + repr(value))
        elif key == "i2c_id":
            if value in (0, 1) and not isinstance(value, bool):
                wiring[key] = value
            else:
                errors.append("config.json: i2c_id must be 0 or 1")
        else:
            low, high = _RANGES[key]
            if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
                wiring[key] = value
            else:
                errors.append("config.json: %s must be %d..%d" % (key, low, high))
    _check_bus(wiring, errors)
    _check_clashes(wiring, errors)
    return wiring, errors


def _load_buttons(wiring, value, errors):
    if not isinstance(value, dict):
        errors.append("config.json: buttons must be an object")
        return
    for name, pin in value.items():
        if name not in BUTTON_NAMES:
            errors.append("config.json: unknown button " + str(name))
        elif _pin_ok(pin):
            wiring["buttons"][name] = pin
        else:
            errors.append("config.json: button " + name + ": unknown pin " + repr(pin))


def _check_bus(wiring, errors):
    sda, scl = wiring["sda"], wiring["scl"]
    if sda not in _I2C_SDA[wiring["i2c_id"]] or scl != sda + 1:
        errors.append("config.json: GP%d/GP%d is not an SDA/SCL pair of I2C%d; default bus used"
                      % (sda, scl, wiring["i2c_id"]))
        for key in ("i2c_id", "sda", "scl"):
            wiring[key] = WIRING[key]


def _check_clashes(wiring, errors):
    used = {}
    for name in ("sda", "scl", "led_pin"):
        used.setdefault(wiring[name], []).append(name)
    for name in BUTTON_NAMES:
        used.setdefault(wiring["buttons"][name], []).append(name)
    if any(len(names) > 1 for names in used.values()):
        clash = [",".join(names) for names in used.values() if len(names) > 1]
        errors.append("config.json: pins shared by " + "; ".join(clash) + "; defaults used")
        defaults = _copy(WIRING)
        for key in ("sda", "scl", "led_pin", "i2c_id", "buttons"):
            wiring[key] = defaults[key]
