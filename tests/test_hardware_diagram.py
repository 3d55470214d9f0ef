"""hardware/diagram.json and hardware/README.md must match firmware/arbiter/hw/wiring.py.

Every expectation comes from ``wiring.WIRING``: change a pin there and these tests fail
until the diagram and the README pinout table follow.
"""

import copy
import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))

from arbiter.hw import wiring  # noqa: E402

DIAGRAM = ROOT / "hardware" / "diagram.json"
README = ROOT / "hardware" / "README.md"

# wokwi-pi-pico pin names in physical order: index + 1 is the Pico's pin number.
PICO_PINS = (
    "GP0", "GP1", "GND.1", "GP2", "GP3", "GP4", "GP5", "GND.2", "GP6", "GP7",
    "GP8", "GP9", "GND.3", "GP10", "GP11", "GP12", "GP13", "GND.4", "GP14", "GP15",
    "GP16", "GP17", "GND.5", "GP18", "GP19", "GP20", "GP21", "GND.6", "GP22", "RUN",
    "GP26", "GP27", "GND.7", "GP28", "ADC_VREF", "3V3", "3V3_EN", "GND.8", "VSYS", "VBUS",
)  # fmt: skip
PHYSICAL = {name: number for number, name in enumerate(PICO_PINS, start=1)}
PART_PINS = {
    "wokwi-pi-pico": set(PICO_PINS),
    "board-ssd1306": {"GND", "VCC", "SCL", "SDA"},
    "wokwi-led-ring": {"GND", "VCC", "DIN", "DOUT"},
    "wokwi-pushbutton": {"1.l", "1.r", "2.l", "2.r"},
}
PARTS = {
    "pico": "wokwi-pi-pico",
    "oled": "board-ssd1306",
    "ring": "wokwi-led-ring",
    **{"btn_" + name: "wokwi-pushbutton" for name in wiring.BUTTON_NAMES},
}


def gp(number):
    return "pico:GP%d" % number


def is_gnd(endpoint):
    return endpoint.startswith("pico:GND.")


def expected_signals(wired):
    """wiring key -> GPIO number, for every signal that goes to a Pico pin."""
    out = {"sda": wired["sda"], "scl": wired["scl"], "led_pin": wired["led_pin"]}
    for name in wiring.BUTTON_NAMES:
        out["buttons." + name] = wired["buttons"][name]
    return out


def load_diagram():
    return json.loads(DIAGRAM.read_text(encoding="utf-8"))


def nets(diagram):
    """Union-find over the wires; each net is a frozenset of 'part:pin' endpoints.

    A pushbutton's .l and .r pins of one contact are joined inside the part.
    """
    parent = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        parent[find(a)] = find(b)

    for part in diagram["parts"]:
        if part["type"] == "wokwi-pushbutton":
            for contact in ("1", "2"):
                union("%s:%s.l" % (part["id"], contact), "%s:%s.r" % (part["id"], contact))
    for conn in diagram["connections"]:
        union(conn[0], conn[1])
    groups = {}
    for endpoint in parent:
        groups.setdefault(find(endpoint), set()).add(endpoint)
    return [frozenset(group) for group in groups.values()]


def net_of(all_nets, endpoint):
    for net in all_nets:
        if endpoint in net:
            return net
    return frozenset({endpoint})


def gpios_in(net):
    return {e for e in net if e.startswith("pico:GP")}


def diagram_mismatches(diagram, wired):
    """Every way the diagram disagrees with ``wired``; empty when they match."""
    problems = []
    all_nets = nets(diagram)
    want = expected_signals(wired)
    signal_end = {"sda": "oled:SDA", "scl": "oled:SCL", "led_pin": "ring:DIN"}
    for name in wiring.BUTTON_NAMES:
        button = "btn_" + name
        contacts = [net_of(all_nets, "%s:%s.l" % (button, c)) for c in ("1", "2")]
        to_gpio = [net for net in contacts if gpios_in(net)]
        to_gnd = [net for net in contacts if any(is_gnd(e) for e in net)]
        if len(to_gpio) != 1 or len(to_gnd) != 1 or to_gpio[0] == to_gnd[0]:
            problems.append("%s: needs one contact on a GPIO and the other on GND" % button)
            continue
        got = gpios_in(to_gpio[0])
        if got != {gp(want["buttons." + name])}:
            problems.append(
                "%s: on %s, wiring.py says GP%d" % (button, sorted(got), want["buttons." + name])
            )
    for key in ("sda", "scl", "led_pin"):
        got = gpios_in(net_of(all_nets, signal_end[key]))
        if got != {gp(want[key])}:
            problems.append(
                "%s (%s): on %s, wiring.py says GP%d"
                % (key, signal_end[key], sorted(got), want[key])
            )
    ring = next((p for p in diagram["parts"] if p["id"] == "ring"), {"attrs": {}})
    if ring["attrs"].get("pixels") != str(wired["led_count"]):
        problems.append(
            "ring pixels %r, wiring.py led_count %d"
            % (ring["attrs"].get("pixels"), wired["led_count"])
        )
    oled = next((p for p in diagram["parts"] if p["id"] == "oled"), {"attrs": {}})
    if oled["attrs"].get("i2cAddress", "").lower() != "0x%02x" % wired["oled_addr"]:
        problems.append(
            "oled i2cAddress %r, wiring.py oled_addr 0x%02x"
            % (oled["attrs"].get("i2cAddress"), wired["oled_addr"])
        )
    return problems


def readme_pinout():
    """wiring key -> (GPIO number, physical pin) from the README's pinout table."""
    rows = {}
    in_table = False
    for line in README.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.lstrip().startswith("|"):
            in_table = False
            continue
        if cells[:3] == ["Signal", "Pico GPIO", "Pico pin"]:
            in_table = True
            continue
        if not in_table or set(cells[0]) <= set("-: "):
            continue
        key = re.search(r"`([a-z_.]+)`", cells[0])
        if key is None:
            continue  # power and ground rows
        number = re.fullmatch(r"GP(\d+)", cells[1])
        assert number, "README row %r: GPIO column %r is not GPn" % (cells[0], cells[1])
        assert key.group(1) not in rows, "README lists %s twice" % key.group(1)
        rows[key.group(1)] = (int(number.group(1)), int(cells[2]))
    return rows


def readme_mismatches(rows, wired):
    problems = []
    want = expected_signals(wired)
    if set(rows) != set(want):
        problems.append("README keys %s, wiring.py keys %s" % (sorted(rows), sorted(want)))
    for key, number in want.items():
        if key in rows and rows[key][0] != number:
            problems.append("README %s on GP%d, wiring.py says GP%d" % (key, rows[key][0], number))
    return problems


# --- the diagram ---------------------------------------------------------------------


def test_diagram_header():
    diagram = load_diagram()
    assert diagram["version"] == 1
    assert diagram["author"] == "Arbiter"
    assert diagram["editor"] == "wokwi"


def test_every_part_exists_with_its_type():
    types = {part["id"]: part["type"] for part in load_diagram()["parts"]}
    for part_id, part_type in PARTS.items():
        assert types.get(part_id) == part_type, part_id


def test_buttons_are_labelled_in_distinct_colours():
    buttons = [p for p in load_diagram()["parts"] if p["type"] == "wokwi-pushbutton"]
    assert len(buttons) == len(wiring.BUTTON_NAMES)
    assert all(p["attrs"].get("label") for p in buttons)
    colours = [p["attrs"].get("color") for p in buttons]
    assert None not in colours and len(set(colours)) == len(colours)


def test_every_wire_names_a_real_pin():
    diagram = load_diagram()
    types = {part["id"]: part["type"] for part in diagram["parts"]}
    for conn in diagram["connections"]:
        assert len(conn) == 4 and isinstance(conn[3], list), conn
        for endpoint in conn[:2]:
            part_id, _, pin = endpoint.partition(":")
            assert part_id in types, endpoint
            assert pin in PART_PINS[types[part_id]], endpoint


def test_diagram_matches_wiring():
    assert diagram_mismatches(load_diagram(), wiring.WIRING) == []


def test_each_button_returns_to_ground():
    all_nets = nets(load_diagram())
    for name in wiring.BUTTON_NAMES:
        button = "btn_" + name
        contacts = [net_of(all_nets, "%s:%s.l" % (button, c)) for c in ("1", "2")]
        grounded = [net for net in contacts if any(is_gnd(e) for e in net)]
        assert len(grounded) == 1, button
        assert not gpios_in(grounded[0]), button


def test_power_rails():
    all_nets = nets(load_diagram())
    assert "pico:3V3" in net_of(all_nets, "oled:VCC")
    assert "pico:VBUS" in net_of(all_nets, "ring:VCC")
    for endpoint in ("oled:GND", "ring:GND"):
        assert any(is_gnd(e) for e in net_of(all_nets, endpoint)), endpoint
    # no signal shares a net with a supply or ground
    for key, end in (("sda", "oled:SDA"), ("scl", "oled:SCL"), ("led_pin", "ring:DIN")):
        net = net_of(all_nets, end)
        assert not any(is_gnd(e) or e in ("pico:3V3", "pico:VBUS") for e in net), key


# --- the README --------------------------------------------------------------------


def test_readme_table_matches_wiring():
    assert readme_mismatches(readme_pinout(), wiring.WIRING) == []


def test_readme_physical_pins_match_the_pico():
    for key, (number, physical) in readme_pinout().items():
        assert PHYSICAL["GP%d" % number] == physical, key


# --- the checks themselves notice a change in wiring.py ------------------------------


@pytest.mark.parametrize("key", sorted(expected_signals(wiring.WIRING)))
def test_a_moved_pin_is_caught(key):
    wired = copy.deepcopy(wiring.WIRING)
    used = set(expected_signals(wired).values())
    spare = next(p for p in wiring.HEADER_PINS if p not in used)
    if key.startswith("buttons."):
        wired["buttons"][key.split(".", 1)[1]] = spare
    else:
        wired[key] = spare
    assert diagram_mismatches(load_diagram(), wired)
    assert readme_mismatches(readme_pinout(), wired)


def test_a_changed_count_or_address_is_caught():
    wired = copy.deepcopy(wiring.WIRING)
    wired["led_count"] += 1
    assert diagram_mismatches(load_diagram(), wired)
    wired = copy.deepcopy(wiring.WIRING)
    wired["oled_addr"] = 0x3D
    assert diagram_mismatches(load_diagram(), wired)
