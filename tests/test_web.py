"""The device in a browser: ``arbiter web`` builds a static page that runs the unchanged
firmware on MicroPython's WebAssembly port, carrying every firmware module wherever it
lies; the page's side of the virtual board plays as the emulated device does."""

from __future__ import annotations

import sys
import tarfile
from pathlib import Path

import pytest

from arbiter_referee.cli import main as arbiter
from arbiter_referee.commands import web
from arbiter_referee.emulator.scripts import DEMO_SCRIPT
from arbiter_referee.emulator.session import run_session, use_firmware_path
from arbiter_referee.paths import FIRMWARE, PACKAGE, RULESETS

use_firmware_path()
import vscript  # noqa: E402  (the virtual board's, on the path just set)

# --- the page's side of the board, in CPython: no browser needed ---


@pytest.fixture
def webdevice():
    folder = str(PACKAGE / "web")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import webdevice

    return webdevice


def before(end: int, frames: list[str]) -> list[str]:
    """The frames shown before ``end`` ms (the emulator also runs the pass at ``end``)."""
    return [line for line in frames if int(line.split()[1][2:]) < end]


def live_frames(webdevice, flash: Path, seed: int, script: str, presses=(), end=None):
    """A Live device with its clock stopped, as a test page drives it: ``presses`` are
    (at_ms, button) clicks of no length; it runs to ``end`` (default: the script's)."""
    webdevice.factory_flash(str(flash) + "/", str(RULESETS))
    frames: list[str] = []
    live = webdevice.Live(str(seed), script, str(flash) + "/", frames.append)
    for at, button in presses:
        live.advance(at - live.clock)
        live.press(button)
        live.release(button)
    live.advance((end or vscript.parse(script)[1]) - live.clock)
    return live, frames


def test_the_page_device_plays_a_script_as_the_emulated_device_does(webdevice, tmp_path):
    live, frames = live_frames(webdevice, tmp_path, 7, DEMO_SCRIPT)
    assert frames == before(vscript.parse(DEMO_SCRIPT)[1],
                            run_session(7, DEMO_SCRIPT, "cpython").frames)
    assert live.changes() > 0  # the game was saved: the page stores the flash after such a pass


def test_a_click_of_no_length_is_a_press_as_a_script_makes_it(webdevice, tmp_path):
    # down at 1,500 ms and a at 1,830 ms, as "down a" places them; each held 80 ms
    end = vscript.parse("down a")[1]
    _, frames = live_frames(webdevice, tmp_path, 3, "", [(1500, 1), (1830, 4)], end)
    _, scripted = live_frames(webdevice, tmp_path / "b", 3, "down a")
    assert frames == before(end, run_session(3, "down a", "cpython").frames)
    assert len(frames) > len(run_session(3, "", "cpython").frames)
    assert scripted == frames


def test_the_page_carries_every_firmware_module_wherever_it_lies(tmp_path):
    files = {rel for _, rel in web.device_files()}
    for path in FIRMWARE.rglob("*.py"):
        rel = path.relative_to(FIRMWARE).as_posix()
        assert (f"fw/{rel}" in files) == (rel not in ("main.py", "board.py"))
    assert {f"rulesets/{p.name}" for p in RULESETS.glob("*.json")} <= files
    assert {"board/vboard.py", "board/vsession.py", "web/webdevice.py"} <= files
    # modules moved into subpackages come along, as they are
    moved = tmp_path / "firmware"
    for rel in ("main.py", "board.py", "arbiter/__init__.py", "arbiter/hw/ssd1306.py",
                "arbiter/screens/menu.py", "arbiter/store/journal.py"):
        (moved / rel).parent.mkdir(parents=True, exist_ok=True)
        (moved / rel).write_text("")
    fw = {rel for _, rel in web.device_files(moved) if rel.startswith("fw/")}
    assert fw == {"fw/arbiter/__init__.py", "fw/arbiter/hw/ssd1306.py",
                  "fw/arbiter/screens/menu.py", "fw/arbiter/store/journal.py"}


def test_a_tarball_other_than_the_pinned_one_is_refused_in_one_line(tmp_path, capsys):
    fake = tmp_path / "fake.tgz"
    with tarfile.open(fake, "w:gz") as tar:
        tar.add(__file__, "package/micropython.mjs")
    assert arbiter(["web", "--out", str(tmp_path / "site"), "--micropython", str(fake)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("arbiter web: ") and err.count("\n") == 1 and "sha512" in err
    assert arbiter(["web", "--out", str(tmp_path / "site"), "--micropython",
                    str(tmp_path / "none.tgz")]) == 1
    assert capsys.readouterr().err.count("\n") == 1
