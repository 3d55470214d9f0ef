"""Issue 47: "Every refusal, a secret pick's included, is on the screen". Each bundled
game's recorded session is played on the emulated device; at every action the
device refuses (its serial line ``refused ACTION: REASON``) the next frame shows the
reason. A secret pick refused by the rules says why on the picking screen."""

import contextlib
import io
import json

import pytest
from helpers.device import open_setup, seal

from arbiter_referee.bench.scenarios import GAMES
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.rig import Rig
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.emulator.session import use_firmware_path


def squeezed(text):
    return "".join(text.split())  # the screen wraps a line at its spaces


def played(seed, keys, flash):
    """The serial output and, for every changed frame, where in it the frame came
    (the frames drawn between two serial lines: at the first one's end) and the
    screen's lines then."""
    use_firmware_path()
    import vsession

    factory_flash(flash)
    serial, frames = io.StringIO(), []
    with contextlib.redirect_stdout(serial):
        board, dev = vsession.start(seed, keys, str(flash) + "/", on_frame=lambda board:
                                    frames.append((serial.tell(), read_lines(board.oled.ram))))
        while vsession.step(board, dev):
            pass
    return serial.getvalue(), frames


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_refusal_in_a_recorded_session_is_on_the_screen(game, tmp_path):
    serial, frames = played(game.device_seed, game.keys, tmp_path)
    lines = serial.splitlines(keepends=True)
    at = 0
    for i, line in enumerate(lines):
        at += len(line)
        if not line.startswith("arbiter: refused "):
            continue
        reason = line.split(": ", 2)[2].strip()
        if i + 1 < len(lines) and lines[i + 1].strip() == "arbiter: next":
            continue  # a phase's A step refused, its business done: A moved on (play.py)
        until = at + (len(lines[i + 1]) if i + 1 < len(lines) else 0)
        shown = [" ".join(screen) for where, screen in frames if at <= where <= until]
        assert any(squeezed(reason) in squeezed(screen) for screen in shown), (line, shown)


def test_a_secret_pick_the_rules_refuse_says_why_on_the_picking_screen(tmp_path, capsys):
    # issue 47: "a pick that the rules refuse is refused at the pick, with the reason
    # on the screen" (it went straight back to "Pass to P2")
    from helpers.examples import RAJ

    rules = json.loads(RAJ.read_text())
    rules["name"] = "rajsame"
    rules["secrets"][0]["on_reveal"].insert(0, {
        "require": {"!=": [{"get": "$p.bid"}, 1]}, "reason": "no one may bid a 1"})
    path = tmp_path / "rajsame.json"
    path.write_text(json.dumps(rules))
    flash = tmp_path / "flash"
    factory_flash(flash, [("rajsame", path)])
    rig = Rig(flash, seed=5)
    open_setup(rig, "rajsame")
    rig.keys("a")
    seal(rig)
    rig.keys("a", "a", "a", "a")  # P1 and P2 each bid their first card, a 1
    assert rig.lines[3] == "Pass to P2"
    assert "no one may bid a 1" in " ".join(rig.lines)
    assert "refused pick P2: no one may bid a 1" in capsys.readouterr().out
