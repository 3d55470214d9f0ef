"""The SSD1306 driver as the emulated panel sees it: bytes on the bus, sleep and wake."""

import pytest

from arbiter import ui
from arbiter.hw.ssd1306 import SSD1306
from vboard import VirtualI2C
from vssd1306 import VirtualSSD1306


@pytest.fixture
def panel():
    oled = VirtualSSD1306()
    bus = VirtualI2C({0x3C: oled})
    display = SSD1306(bus, 0x3C)
    return display, bus, oled


def sent(bus, action):
    before = bus.bytes_sent
    action()
    return bus.bytes_sent - before


def test_panel_ram_matches_the_framebuffer_after_show(panel):
    display, bus, oled = panel
    display.fill(0)
    display.text("Hello table", 0, 8, 1)
    display.rect(10, 30, 50, 20, 1)
    display.show()
    assert bytes(oled.ram) == bytes(display.buffer)
    assert oled.on


def test_one_text_line_sends_one_page(panel):
    display, bus, oled = panel
    display.text("first", 0, 0, 1)
    display.show()
    display.fill_rect(0, 24, 128, 8, 0)
    ui.line(display, 3, "P2 took 3")
    cost = sent(bus, display.show)
    width = 8 * len("P2 took 3")  # the columns the new text covers, and no more
    assert 7 + 1 < cost <= 7 + 1 + width  # address window + data control byte + columns
    assert bytes(oled.ram) == bytes(display.buffer)


def test_a_small_change_sends_only_its_columns(panel):
    display, bus, oled = panel
    display.text("Menu", 0, 0, 1)
    display.text("> Dice", 0, 8, 1)
    display.text("  Play", 0, 16, 1)
    display.show()
    display.fill_rect(0, 8, 8, 16, 0)  # the cursor moves down a line
    display.text(">", 0, 16, 1)
    cost = sent(bus, display.show)
    assert cost <= 2 * (7 + 1 + 8)  # pages 1 and 2, at most columns 0..7 of each
    assert bytes(oled.ram) == bytes(display.buffer)
    display.pixel(100, 40, 1)
    display.pixel(20, 41, 1)
    assert sent(bus, display.show) == 7 + 1 + 81  # columns 20..100 of page 5
    assert bytes(oled.ram) == bytes(display.buffer)


def test_text_straddling_two_pages_sends_two(panel):
    display, bus, oled = panel
    display.show()
    display.text("moved", 0, 12, 1)  # rows 12..19 touch pages 1 and 2
    cost = sent(bus, display.show)
    assert 7 + 1 < cost <= 2 * (7 + 1 + 40)  # two pages, the columns of the text
    assert bytes(oled.ram) == bytes(display.buffer)


def test_full_redraw_sends_all_eight_pages(panel):
    display, bus, oled = panel
    display.show()
    display.fill(1)
    assert sent(bus, display.show) == 7 + 1 + 1024
    display.invalidate()
    assert sent(bus, display.show) == 7 + 1 + 1024  # forced: panel state unknown


def test_nothing_changed_sends_nothing(panel):
    display, bus, oled = panel
    display.show()
    assert sent(bus, display.show) == 0


def test_separate_pages_are_separate_runs(panel):
    display, bus, oled = panel
    display.show()
    display.pixel(0, 0, 1)
    display.pixel(0, 63, 1)
    assert display.show() == 2
    assert bytes(oled.ram) == bytes(display.buffer)


def test_contrast_and_power_reach_the_panel(panel):
    display, bus, oled = panel
    display.contrast(0x10)
    assert oled.contrast == 0x10
    display.power(False)
    assert not oled.on
    display.power(True)
    assert oled.on


def test_a_key_press_redraws_only_what_changed(rig):
    rig.keys("down", "a")  # into the dice roller
    before = rig.board.i2c.bytes_sent
    rig.keys("up")  # "< 2 x d6 >": one line, plus nothing else
    assert 7 + 1 < rig.board.i2c.bytes_sent - before <= 7 + 1 + 128


def test_display_sleeps_after_timeout_and_wakes_without_acting(rig):
    rig.keys("down", "a")  # dice roller
    rig.run(119_000)
    assert rig.board.oled.on
    rig.run(2_000)
    assert not rig.board.oled.on  # 120 s after the last press
    assert all(led == (0, 0, 0) for led in rig.frame.leds)
    rolls = len(rig.device.log.lines)
    rig.keys("a")  # wakes the display only
    assert rig.board.oled.on
    assert len(rig.device.log.lines) == rolls
    assert rig.lines[0] == "Dice"
    rig.keys("a")  # now it rolls
    assert len(rig.device.log.lines) == rolls + 1


def test_long_press_wakes_without_acting(rig):
    rig.run(121_000)
    assert not rig.board.oled.on
    rig.press("b", hold=1200)
    assert rig.board.oled.on and rig.lines[0] == "ARBITER"
    rig.keys("down")
    assert rig.lines[0] == "ARBITER"  # the next press acts normally


@pytest.mark.parametrize("button", ["up", "down", "left", "right", "a", "b"])
def test_any_tap_wakes_the_display_and_does_nothing_else(rig, button):
    rig.keys("down", "a", "up")  # the dice roller, at 2 x d6
    rig.run(121_000)
    assert not rig.board.oled.on
    before = rig.lines
    rig.press(button, hold=25)  # a quick tap, barely longer than the debounce
    assert rig.board.oled.on
    assert rig.lines == before and rig.lines[1].strip() == "< 2 x d6 >"
    rig.keys("up")  # the next press acts
    assert rig.lines[1].strip() == "< 3 x d6 >"


def test_ten_presses_a_second_are_all_counted(rig):
    rig.keys("down", "a")  # the dice roller, at 1 x d6
    for _ in range(9):
        rig.press("up", hold=50, gap=50)
    assert rig.lines[1].strip() == "< 10 x d6 >"
    rolls = len(rig.device.log.lines)
    for _ in range(10):
        rig.press("a", hold=50, gap=50)
    assert len(rig.device.log.lines) == rolls + 10


def test_the_dice_total_leaves_the_ring_with_the_dice_screen(rig):
    rig.keys("down", "a", "a")  # roll 1 x d6: the ring spins, then shows the total
    rig.run(3_000)
    assert any(led != (0, 0, 0) for led in rig.frame.leds)
    rig.keys("b")
    assert rig.lines[0] == "ARBITER"
    assert rig.led_colours() == [{(0, 0, 0)}] * len(rig.frame.leds)


def test_sleep_never_setting_keeps_display_on(make_rig):
    rig = make_rig(settings='{"sleep_s": 0, "brightness": 100, "contrast": 207}')
    rig.run(3_600_000)
    assert rig.board.oled.on


# Issue 21: the emulator's screen reader "must read the new font exactly": every
# printable character, at any x, normal or on a highlight bar, drawn as the firmware
# draws it (glyph columns copied into the page), reads back as it was written.
@pytest.mark.parametrize("shift", range(6))
def test_every_character_drawn_reads_back_exactly_at_any_x(panel, shift):
    from arbiter_referee.emulator.screen_text import read_lines

    display = panel[0]
    printable = "".join(chr(c) for c in range(33, 127))
    for start in range(0, len(printable), 20):
        chunk = printable[start:start + 20]
        display.fill(0)
        ui.text(display, chunk, shift, 8)
        ui.line(display, 3, chunk, inverted=True)
        ui.text(display, chunk[:4] + " " + chunk[4:8], shift, 40)  # a space reads as one
        lines = read_lines(display.buffer)
        assert lines[1] == chunk and lines[3] == chunk
        assert lines[5] == chunk[:4] + " " + chunk[4:8]


def test_text_off_the_page_grid_draws_the_same_glyphs_pixel_by_pixel(panel):
    display = panel[0]
    display.fill(0)
    ui.text(display, "Kraken +5 Glory", 3, 8)
    on_page = [[display.pixel(x, y) for x in range(128)] for y in range(8, 16)]
    display.fill(0)
    ui.text(display, "Kraken +5 Glory", 3, 13)  # not on a page: 5 rows lower
    assert [[display.pixel(x, y) for x in range(128)] for y in range(13, 21)] == on_page
