"""Arbiter installs as a real Python tool: a wheel built from the checkout, installed
(not editable) into a fresh virtual environment, runs every kind of command from
anywhere, with no checkout in sight."""

import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from helpers import REPO

from arbiter_referee.commands.web import fetch_micropython

# one worker builds and installs the wheel for both tests (a build a worker was 40 s)
pytestmark = [pytest.mark.skipif(not hasattr(os, "openpty"), reason="emulate needs a pty"),
              pytest.mark.xdist_group("wheel")]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the wheel, the arbiter command of a fresh venv with only the wheel installed)."""
    root = tmp_path_factory.mktemp("wheel")
    # Built from a copy: a build writes into its source tree (build/, *.egg-info), and
    # test workers in parallel may build at once.
    source = root / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", "node_modules", ".hypothesis"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                           str(root / "dist"), str(source)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    wheel = next((root / "dist").glob("arbiter_referee-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    done = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    return wheel, venv / "bin" / "arbiter"


def arbiter(command, *args, cwd, timeout=600):
    return subprocess.run([str(command), *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": ""})


def test_the_wheel_carries_the_firmware_the_rulesets_and_the_guest_code(installed):
    wheel, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    wanted = {f"arbiter_referee/firmware/{p.relative_to(REPO / 'firmware').as_posix()}"
              for p in (REPO / "firmware").rglob("*.py")}
    wanted |= {f"arbiter_referee/rulesets/{p.name}" for p in (REPO / "rulesets").glob("*.json")}
    package = REPO / "arbiter_referee"
    wanted |= {f"arbiter_referee/{p.relative_to(package).as_posix()}"
               for p in package.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert wanted - names == set()
    assert any(name.endswith("licenses/LICENSE") for name in names)


def test_every_kind_of_command_works_from_the_installed_wheel(installed, tmp_path):
    _, command = installed
    here = tmp_path  # not the checkout: nothing may come from it

    def ok(*args, timeout=600):
        done = arbiter(command, *args, cwd=here, timeout=timeout)
        assert done.returncode == 0, f"arbiter {' '.join(args)}: {done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr
        return done.stdout

    assert ok("--version").startswith("arbiter ")
    version = subprocess.run([str(command.parent / "python"), "-m", "arbiter_referee",
                              "--version"], capture_output=True, text=True, cwd=here)
    assert version.stdout == ok("--version")
    listed = ok("rulesets").splitlines()
    assert [line.split("\t")[0] for line in listed] == \
        ["impactics", "jugger", "juggernauts", "kaiju", "tactics"]
    assert Path(listed[0].split("\t")[1]).is_file()
    assert ok("validate", "kaiju").endswith(": ok\n")
    assert "P1:" in ok("run", "kaiju", "--players", "3", "--do", "next")
    for runtime in ("cpython", "micropython"):
        assert f"demo: {runtime}, seed 7" in ok("demo", "--runtime", runtime, "--quiet")
    ok("sim", "--seed", "3", "--keys", "down a a", "--screenshot", str(here / "dice.png"))
    assert (here / "dice.png").read_bytes()[:4] == b"\x89PNG"
    ok("layout", "--seed", "4", "--png", str(here / "board.png"))
    assert (here / "board.png").read_bytes()[:4] == b"\x89PNG"
    try:
        tarball = fetch_micropython()
    except (OSError, ValueError):
        tarball = None  # no npm: tests/test_web.py says so
    if tarball:
        assert "5 games" in ok("web", "--out", str(here / "site"), "--micropython", str(tarball))
        assert (here / "site" / "device" / "fw" / "arbiter" / "device.py").is_file()

    port_file, flash = here / "port", here / "flash"
    emulator = subprocess.Popen([str(command), "emulate", "--port-file", str(port_file),
                                 "--flash", str(flash)], cwd=here, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not port_file.exists():
            assert emulator.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        port = port_file.read_text().strip()
        refused = arbiter(command, "push", "kaiju", "--port", port, cwd=here)
        assert refused.returncode == 1 and refused.stderr == \
            "arbiter push: the device has no Arbiter firmware: run arbiter deploy first\n"
        assert "file(s) copied" in ok("deploy", "--port", port)
        ok("push", "kaiju", "--port", port)
        listed = ok("ls", "--port", port).splitlines()  # deploy installed the bundled games
        assert [line.split("\t")[0] for line in listed] == \
            ["impactics", "jugger", "juggernauts", "kaiju", "tactics"]
    finally:
        emulator.terminate()
        emulator.wait(30)
