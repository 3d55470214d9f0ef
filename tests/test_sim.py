"""``arbiter sim``: the device in a terminal (driven through a pseudo-terminal) and
its screenshots."""

import os
import re
import subprocess
import sys

import pytest
from helpers.terminal import Key, SlowMachineTerminal, drain, start_sim
from PIL import Image

from arbiter_referee.cli import main as arbiter
from arbiter_referee.commands import sim
from arbiter_referee.emulator.frames import WIDTH, Frame, oled_rows, to_text

needs_pty = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")


# Issue 21: "Screenshots of each game's play screen and piece page are in docs/ and the
# README; they are produced by a command, so they stay true."
def test_the_play_screen_pictures_in_docs_are_what_the_command_draws(tmp_path, capsys):
    from helpers import REPO

    from arbiter_referee.bench.scenarios import NAMES

    assert arbiter(["sim", "--screenshots", str(tmp_path)]) == 0
    readme = (REPO / "README.md").read_text()
    playing = (REPO / "docs" / "playing.md").read_text()
    for name in NAMES:
        # issue 48: "A screenshot per game of the 5-player (or most-player) play screen
        # and of the winner's screen in docs/, drawn by a command, checked by a test."
        for kind in ("play", "pieces", "seats", "win"):
            made, kept = (Image.open(d / f"{kind}-{name}.png") for d in (tmp_path,
                                                                          REPO / "docs"))
            assert made.tobytes() == kept.tobytes(), (
                f"docs/{kind}-{name}.png is stale: run arbiter sim --screenshots docs")
            if kind in ("play", "pieces"):
                assert f"docs/{kind}-{name}.png" in readme
            else:
                assert f"({kind}-{name}.png)" in playing
    assert "wrote" in capsys.readouterr().out


def test_screenshot_shows_the_oled_and_leds(tmp_path, capsys):
    shot = tmp_path / "dice.png"
    assert arbiter(["sim", "--seed", "3", "--keys", "down a a wait=1500",
                    "--screenshot", str(shot)]) == 0
    image = Image.open(shot).convert("RGB")
    assert image.size == (576, 376)
    colours = set(image.get_flattened_data())
    assert any(r == 0 and g == 0 and b == 0 for r, g, b in colours)  # panel background
    lit_pixels = sum(1 for r, g, b in image.get_flattened_data() if b > 200 and r > 150)
    assert lit_pixels > 500  # OLED text drawn
    assert (255, 0, 0) in colours  # P1's colour on the ring after a roll


def test_text_rendering_uses_half_blocks():
    ram = bytearray(1024)
    ram[0] = 0b11  # pixels (0,0) and (0,1)
    ram[1] = 0b10  # pixel (1,1)
    frame = Frame(0, True, False, 207, [(0, 0, 0)] * 12, bytes(ram))
    lines = to_text(frame).splitlines()
    assert lines[1][1:3] == "\u2588\u2584"
    assert len(lines) == 1 + 32 + 1 + 1


# CSI and DCS sequences (blessed's queries), and a few short ones
ESCAPE = re.compile(r"\x1b(\[[0-9;?>=]*[ -/]*[@-~]|P[^\x1b]*\x1b\\|\([B0]|[=>78])")


def drawn_rows(output: bytes) -> dict[int, str]:
    """What the terminal shows on each row: the text written after each cursor move."""
    rows = {}
    parts = re.split(r"\x1b\[(\d+);(\d+)H", output.decode(errors="replace"))
    for row, column, text in zip(parts[1::3], parts[2::3], parts[3::3], strict=True):
        assert column == "1"
        rows[int(row)] = re.split(r"[\r\n]", ESCAPE.sub("", text))[0]
    return rows


@needs_pty
def test_interactive_sim_draws_the_device_in_80x24_and_answers_keys(tmp_path):
    proc, main = start_sim(tmp_path, 80, 24)
    settings = tmp_path / "settings.json"
    try:
        first = drain(main, lambda out: b"Enter/z: A" in out)
        # Down to Settings, A to open, Right (sleep 120 -> 300 s), A to save: typed ahead
        os.write(main, b"\x1b[B\x1b[Bz\x1b[Cz")
        drain(main, lambda out: settings.exists() and '"sleep_s": 300' in settings.read_text())
        os.write(main, b"q")
        drain(main, lambda out: proc.poll() is not None)
        assert proc.wait(timeout=300) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    rows = drawn_rows(first)
    assert max(rows) <= 24 and max(len(text) for text in rows.values()) <= 80
    # "In an 80x24 terminal the simulator draws the OLED in Braille, each letter a 3x2
    # patch of dots, readable only with effort" (issue 48): its lines, as text
    assert rows[1] == "\u250c" + "\u2500" * 21 + "\u2510"
    assert rows[2].startswith(">") and "ARBITER" in rows[2]  # the title bar, inverted
    assert rows[3] == ">" + "Play a game".ljust(21) + "\u2502"  # the menu's cursor
    assert rows[4] == "\u2502" + "Roll dice".ljust(21) + "\u2502"
    assert rows[10] == "\u2514" + "\u2500" * 21 + "\u2518"
    assert rows[11].startswith(" LEDs ") and "Enter/z: A" in rows[12]
    assert "t: the screen as a picture" in rows[14] and "seed 5" in rows[15]


@needs_pty
def test_sim_in_a_terminal_too_small_says_so_in_one_line(tmp_path):
    proc, main = start_sim(tmp_path, 30, 12)
    try:
        out = drain(main, lambda out: proc.poll() is not None)
    finally:
        os.close(main)
    assert proc.wait(timeout=300) == 2
    lines = ESCAPE.sub("", out.decode()).strip().splitlines()
    cols, rows = sim.SIZES["text"]
    assert lines == [f"arbiter sim: the terminal is 30x12; arbiter sim needs {cols}x{rows} "
                     "or more (or use --screenshot)"]


def test_80x24_shows_the_text_or_on_t_the_braille_picture_and_the_blocks_need_more():
    for cells in ("braille", "text"):
        assert sim.SIZES[cells][0] <= 80 and sim.SIZES[cells][1] <= 24 - 1
    assert sim.layout(80, 24) == "text" and sim.layout(130, 37) == "blocks"
    assert sim.layout(80, 24, picture=True) == "braille"
    assert sim.layout(50, 20, picture=True) == "text"  # too small for the picture
    assert sim.layout(38, 24) is None and sim.layout(80, 14) is None


def test_braille_cells_hold_2x4_pixels():
    ram = bytearray(1024)
    ram[0] = 0b1001  # pixels (0,0) and (0,3)
    ram[1] = 0b0110  # pixels (1,1) and (1,2)
    ram[WIDTH + 2] = 0b1  # pixel (2, 8): the second row of cells
    frame = Frame(0, True, False, 207, [(0, 0, 0)] * 12, bytes(ram))
    rows = oled_rows(frame, "braille")
    assert len(rows) == 16 and {len(row) for row in rows} == {64}
    assert rows[0][0] == chr(0x2800 + 0x01 + 0x40 + 0x10 + 0x20)
    assert rows[2][1] == chr(0x2800 + 0x01) and rows[0][1] == " "


def test_sim_without_a_terminal_says_so(capsys):
    result = subprocess.run([sys.executable, "-m", "arbiter_referee", "sim"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert result.returncode == 2
    assert "needs a terminal" in result.stderr


def test_emulate_without_pseudo_terminals_says_so_in_one_line(monkeypatch, capsys):
    monkeypatch.delattr(os, "openpty", raising=False)  # as on Windows
    assert arbiter(["emulate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("arbiter emulate: needs pseudo-terminals")


def test_a_busy_pc_does_not_turn_a_typed_key_into_a_long_press(tmp_path, monkeypatch, capsys):
    # Down, Down to Settings, A to open it, Right (sleep 120 -> 300 s), A to save: each key
    # one short press however late the loop comes round (a late release had made Down a
    # held, repeating Down)
    term = SlowMachineTerminal([Key("", "KEY_DOWN"), Key("", "KEY_DOWN"), Key("z"),
                                 Key("", "KEY_RIGHT"), Key("z")])
    monkeypatch.setattr(sim.time, "monotonic", term.monotonic)
    assert sim.Terminal(5, str(tmp_path), "", term=term).loop() == 0
    assert '"sleep_s": 300' in (tmp_path / "settings.json").read_text()


# Issue 47: "`arbiter sim --ruleset FILE` ... (beside the bundled games) ...; validate's
# errors on that file shown before the device starts."
def test_sim_plays_a_designers_own_ruleset_beside_the_bundled_games(tmp_path, capsys):
    from helpers.device import BUNDLED
    from helpers.examples import PIG, PIG_KEYS

    flash, shot = tmp_path / "flash", tmp_path / "pig.png"
    assert arbiter(["sim", "--seed", "4", "--ruleset", str(PIG), "--keys", PIG_KEYS,
                    "--flash", str(flash), "--screenshot", str(shot)]) == 0
    serial = capsys.readouterr().out
    assert "arbiter: game pig: 2 players" in serial
    assert "P1 d6: 4" in serial and "P1 d6: 1" in serial  # rolled, then a 1 ends the turn
    assert Image.open(shot).size == (576, 376)
    kept = {path.stem for path in (flash / "rulesets").glob("*.json")}
    assert kept == {*BUNDLED, "pig"}
    assert (flash / "rulesets" / "pig.ok").exists()  # as a push leaves it: checked


def test_sim_refuses_a_bad_ruleset_in_one_line_before_the_device_starts(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "name": "bad", "counters": {"x": {"start": 0, "min": 5}}}')
    flash = tmp_path / "flash"
    assert arbiter(["sim", "--ruleset", str(bad), "--flash", str(flash),
                    "--screenshot", str(tmp_path / "x.png")]) == 1
    out = capsys.readouterr()
    assert out.err.startswith(f"arbiter sim: {bad}: ") and out.err.count("\n") == 1
    assert "arbiter: boot" not in out.out and not flash.exists()
    assert arbiter(["sim", "--ruleset", str(tmp_path / "none.json"),
                    "--screenshot", str(tmp_path / "x.png")]) == 1
    assert capsys.readouterr().err == f"arbiter sim: no ruleset file {tmp_path}/none.json\n"
