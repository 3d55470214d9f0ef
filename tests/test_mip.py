"""``package.json``: mip installs the firmware and the bundled games from it, and it
lists exactly the files of ``firmware/`` and ``rulesets/``."""

import json
import os
import subprocess

import pytest
from helpers import REPO
from helpers.emulator import MPREMOTE, Emulator, run

from arbiter_referee import mip
from arbiter_referee.compiled import compiled
from arbiter_referee.paths import FIRMWARE, RULESETS
from arbiter_referee.rulesets import bundled

STALE = "package.json or mip/rulesets is stale: run python -m arbiter_referee.mip, commit"


def test_package_json_is_in_step_with_the_firmware():
    assert (REPO / "package.json").read_text() == mip.text(), STALE


def test_mips_rulesets_are_the_bundled_games_compiled_as_a_push_sends_them():
    on_disk = {path.name: path.read_bytes() for path in mip.COMPILED.glob("*.json")}
    assert on_disk == mip.compiled_rulesets(), STALE


def test_mips_firmware_list_is_the_sources_it_installs():
    # the device refuses to start a game on files its list does not name
    assert (mip.COMPILED.parent / "firmware.sha256").read_text() == mip.firmware_manifest(), \
        STALE


def test_package_json_lists_every_firmware_and_ruleset_file_once():
    data = json.loads((REPO / "package.json").read_text())
    sources = [source for _, source in data["urls"]]
    wanted = [p for p in FIRMWARE.rglob("*.py") if "__pycache__" not in p.parts] + \
        [mip.COMPILED / p.name for p in RULESETS.glob("*.json")] + \
        [mip.COMPILED.parent / "firmware.sha256"]
    assert sorted(sources) == sorted(p.relative_to(REPO).as_posix() for p in wanted), STALE
    assert len({target for target, _ in data["urls"]}) == len(sources)
    assert ["main.py", "firmware/main.py"] in data["urls"]


def test_every_file_package_json_names_is_in_git():
    # a fresh clone has them: mip from GitHub fetches exactly these paths
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    files = set(tracked.stdout.splitlines())
    data = json.loads((REPO / "package.json").read_text())
    assert "package.json" in files
    assert [source for _, source in data["urls"] if source not in files] == []


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_mip_install_from_the_checkout_makes_a_working_device(tmp_path):
    emulator = Emulator(tmp_path)  # a blank device: no firmware, no rulesets
    try:
        done = run([*MPREMOTE, "connect", emulator.port, "mip", "install", "--target", "/",
                    "./package.json"], timeout=240, cwd=REPO)
        assert done.returncode == 0, done.stderr.decode()
        assert done.stdout.decode().rstrip().endswith("Done")
        assert (emulator.flash / "main.py").read_bytes() == (FIRMWARE / "main.py").read_bytes()
        for name, path in bundled().items():  # as a push sends them: compiled
            assert (emulator.flash / "rulesets" / f"{name}.json").read_bytes() == \
                compiled(path.read_bytes())
        listed = emulator.arbiter("ls").stdout  # restarts it: main.py boots the firmware
        assert sorted(line.split("\t")[0] for line in listed.splitlines()) == sorted(bundled())
        assert [line.strip() for line in emulator.screen_lines(timeout=120)[:2]] == \
            ["ARBITER", "Play a game"]
        # deploy over it: bytecode in place of every source module but main.py
        emulator.screen.unlink()
        done = emulator.arbiter("deploy")
        assert "removed board.py" in done.stderr and "0 bundled ruleset(s) installed" in \
            done.stdout
        assert sorted(p.name for p in emulator.flash.rglob("*.py")) == ["boot.py", "main.py"]
        assert [line.strip() for line in emulator.screen_lines(timeout=120)[:2]] == \
            ["ARBITER", "Play a game"]
    finally:
        emulator.stop()
