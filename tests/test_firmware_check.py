"""The device runs only its own firmware (issue 45, item 2): "before a game starts the
device checks the files it will run against [the manifest] (and that there is no
`boot.py` and no source shadowing bytecode), refuses to start with a one-line reason
and the fix, and shows the firmware's digest with the dice commitment, so a photo
records which firmware refereed"."""

import shutil

import pytest
from helpers.device import open_setup, seal

from arbiter_referee.build import MANIFEST, device_firmware, firmware_digest
from arbiter_referee.emulator.rig import Rig


@pytest.fixture
def deployed(tmp_path):
    """A device's flash as ``arbiter deploy`` leaves it: the firmware, its manifest."""
    shutil.copytree(device_firmware(), tmp_path, dirs_exist_ok=True)
    return tmp_path


def said(lines):
    """The page's words, its wrapping undone (a long path breaks anywhere)."""
    return "".join(line.strip() for line in lines[1:]).replace(" ", "")


def new_game(rig):
    open_setup(rig, "kaiju")
    rig.keys("a")
    return rig.lines


def test_a_deployed_firmware_starts_and_its_digest_is_beside_the_commitment(deployed):
    rig = Rig(deployed)
    lines = new_game(rig)
    assert lines[0] == "New game"
    digest = firmware_digest((deployed / MANIFEST).read_text())
    assert lines[6].strip() == "FW " + digest and lines[7].strip() == "P1: 4 arrows"
    seal(rig)
    assert rig.lines[0] != "Can't start"


@pytest.mark.parametrize("planted, named", [
    ("arbiter/game/engine.py", "arbiter/game/engine.py"),  # source over its bytecode
    ("boot.py", "boot.py"),  # runs before main.py, and survived a deploy
    ("json.py", "json.py"),  # a module under a name the firmware imports
])
def test_code_beside_the_firmware_stops_the_game_from_starting(deployed, planted, named):
    (deployed / planted).write_text("print('listening')\n")
    rig = Rig(deployed)
    lines = new_game(rig)
    assert lines[0] == "Can't start"
    assert said(lines).startswith(
        f"{named} is not the firmware's: run arbiter deploy.".replace(" ", ""))
    assert not (deployed / "game.jnl").exists()


def test_an_edited_firmware_file_stops_the_game_from_starting(deployed):
    engine = deployed / "arbiter" / "game" / "engine.mpy"
    engine.write_bytes(engine.read_bytes()[:-1] + b"\0")
    lines = new_game(Rig(deployed))
    assert lines[0] == "Can't start"
    assert said(lines).startswith("arbiter/game/engine.mpyisnotthefirmware's")


def test_a_missing_manifest_stops_the_game_from_starting(deployed):
    rig = Rig(deployed)
    (deployed / MANIFEST).unlink()
    lines = new_game(rig)
    assert lines[0] == "Can't start"
    assert "The firmware's file list is missing: run arbiter deploy." in " ".join(
        line.strip() for line in lines)
