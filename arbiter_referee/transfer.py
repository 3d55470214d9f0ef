"""The device commands: ``arbiter push / ls / rm / pull-log / deploy --port PORT``.

Every transfer goes through mpremote (pinned in pyproject.toml), one mpremote
run per command with its steps chained by ``+``. Connecting interrupts the
firmware, so each command ends with a hard reset: the device boots again
and resumes the game it had.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from arbiter_referee import build
from arbiter_referee.rulesets import check_file, ruleset_path

TIMEOUT = 300  # seconds for one mpremote run (a full deploy over USB takes a few)
# After a reset the port goes away while the device boots, then comes back.
GONE_TIMEOUT = 10  # s until it goes (mpremote's reset waits 100 ms, then resets)
BACK_TIMEOUT = 120  # s until it is back (a Pico takes about 2; the emulator, loaded, more)
POLL = 0.02
MKDIR_RULESETS = "import os\ntry:\n os.mkdir('rulesets')\nexcept OSError:\n pass"


NO_FIRMWARE = "the device has no Arbiter firmware: run arbiter deploy first"


class DeviceError(Exception):
    """A command the device could not do, with the reason to show."""


def mpremote(port: str, *steps: list[str], reset: bool = True) -> str:
    """Run the chained mpremote ``steps`` on ``port``; their output, or DeviceError."""
    args = [sys.executable, "-m", "mpremote", "connect", port]
    for step in steps:
        args += [*step, "+"]
    if reset:
        args.append("reset")
    else:
        args.pop()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise DeviceError(f"the device on {port} did not answer within {TIMEOUT} s") from None
    if done.returncode != 0:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()
        if message and "no module named 'arbiter'" in message[-1]:
            raise DeviceError(NO_FIRMWARE)
        raise DeviceError(message[-1] if message else f"mpremote failed ({done.returncode})")
    if reset:
        wait_for_restart(port)
    return done.stdout


def present(port: str) -> bool:
    """Whether the serial port is there (a Pico's is not while it restarts)."""
    if os.name == "nt":
        from serial.tools import list_ports

        return any(p.device.upper() == port.upper() for p in list_ports.comports())
    return os.path.exists(port)


def _until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL)
    return True


def wait_for_restart(port: str) -> None:
    """Return once the device is back from the reset that ended a command: its port
    goes away while it restarts and comes back when it can take commands."""
    print("waiting for the device to restart...", end="", file=sys.stderr, flush=True)
    if _until(lambda: not present(port), GONE_TIMEOUT) and \
            not _until(lambda: present(port), BACK_TIMEOUT):
        print(file=sys.stderr)
        raise DeviceError(f"the device on {port} did not come back within {BACK_TIMEOUT} s "
                          "of its restart")
    print(" back", file=sys.stderr)


def _answer(output: str) -> str:
    """The device-side line ``OK ...`` or ``REFUSED reason`` (see firmware/arbiter/install.py)."""
    answers = _answers(output)
    if not answers:
        _no_answer(output)
    reason, text = answers[-1]
    if reason:
        raise DeviceError("the device refused: " + reason)
    return text


def _answers(output: str) -> list[tuple[str | None, str]]:
    """Every ``OK ...`` / ``REFUSED reason`` line in order: (reason or None, the rest)."""
    found: list[tuple[str | None, str]] = []
    for line in output.splitlines():
        if line.startswith("REFUSED"):
            reason = line[8:]
            found.append((reason[9:] if reason.startswith("ruleset: ") else reason, ""))
        elif line.startswith("OK"):
            found.append((None, line[3:]))
    return found


def _no_answer(output: str):
    if "ImportError" in output or "no module named" in output:
        raise DeviceError(NO_FIRMWARE)
    raise DeviceError("the device gave no answer:\n" + output.strip())


def checked(ruleset: str, host_check: bool = True) -> tuple[str, Path]:
    """A ruleset ready to push: (its name, its file), or DeviceError saying why not."""
    path = ruleset_path(ruleset)
    if host_check:
        reason = check_file(path)
        if reason:
            raise DeviceError(f"{path}: {reason}")
    try:
        name = json.loads(path.read_text())["name"]
    except (ValueError, KeyError, TypeError, OSError):
        raise DeviceError(f"{path}: the ruleset has no name") from None
    if not isinstance(name, str) or not name.replace("_", "").replace("-", "").isalnum():
        raise DeviceError(f"{path}: name {name!r} cannot be a file name on the device")
    return name, path


def _push_steps(rulesets: list[tuple[str, Path]], force: bool) -> list[list[str]]:
    """mpremote steps installing each ruleset: copied to NAME.part, checked and renamed
    by the device, which prints one OK or REFUSED line per ruleset."""
    steps = [["exec", MKDIR_RULESETS]]
    for name, path in rulesets:
        steps += [["fs", "cp", str(path), f":rulesets/{name}.part"],
                  ["exec", f"from arbiter import install\ninstall.push({name!r}, {force})"]]
    return steps


def push(port: str, ruleset: str, force: bool = False, host_check: bool = True) -> str:
    """Install a ruleset as /rulesets/NAME.json, NAME from its ``name`` field."""
    name, reason = push_many(port, [ruleset], force, host_check)[0]
    if reason:
        raise DeviceError("the device refused: " + reason)
    return name


def push_many(port: str, rulesets: list[str], force: bool = False,
              host_check: bool = True) -> list[tuple[str, str | None]]:
    """Install several rulesets in one mpremote run: (name, None or the device's reason
    for refusing it) for each. All are checked on the host first, and a problem
    there (or two with one name) sends none of them."""
    ready = [checked(ruleset, host_check) for ruleset in rulesets]
    names = [name for name, _ in ready]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise DeviceError(f"two rulesets are named {', '.join(twice)}: push one of them")
    out = mpremote(port, *_push_steps(ready, force))
    answers = _answers(out)
    if len(answers) != len(ready):
        _no_answer(out)
    return [(name, reason) for name, (reason, _) in zip(names, answers, strict=True)]


def listing(port: str) -> list[tuple[str, int, bool]]:
    """(name, bytes, in play) of every ruleset on the device."""
    out = mpremote(port, ["exec", "from arbiter import install\ninstall.listing()"])
    _answer(out)
    rows = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[1].isdigit():
            rows.append((parts[0], int(parts[1]), len(parts) > 2))
    return rows


def remove(port: str, name: str, force: bool = False) -> None:
    out = mpremote(port, ["exec", f"from arbiter import install\ninstall.remove({name!r}, "
                                  f"{force})"])
    _answer(out)


def pull_log(port: str) -> tuple[str, str | None]:
    """The game journal on the device and the text of the ruleset it names."""
    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "game.jnl"
        try:
            mpremote(port, ["fs", "cp", ":game.jnl", str(journal)])
        except DeviceError as exc:
            if "No such file" in str(exc) or "ENOENT" in str(exc):
                raise DeviceError("no game journal on the device: no game was started") from None
            raise
        text = journal.read_text()
        name = json.loads(text.split("\n", 1)[0]).get("ruleset", "")
        ruleset = Path(tmp) / "ruleset.json"
        try:
            mpremote(port, ["fs", "cp", f":rulesets/{name}.json", str(ruleset)])
            return text, ruleset.read_text()
        except DeviceError:
            return text, None


def deploy(port: str, staging: Path | None = None) -> tuple[list[str], list[str]]:
    """Firmware to the device as .mpy (main.py as source): (copied, up to date).

    mpremote's ``cp`` compares a sha256 of each file on the device with the
    local one and skips identical files, so a second deploy copies nothing.
    Firmware files on the device that this build no longer has are removed
    (a stale ``.py`` would shadow its ``.mpy``)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(staging or tmp)
        build.compile_tree(out)
        files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        folders = sorted({str(Path(f).parent) for f in files} - {"."})
        steps = [["exec", _mkdirs(folders)]]
        steps += [["fs", "cp", str(out / f), ":" + f] for f in files]
        steps.append(["exec", _prune(files)])
        output = mpremote(port, *steps)
    lines = output.splitlines()
    fresh = [line.split(": ", 1)[1] for line in lines if line.startswith("Up to date: ")]
    sent = [line.rsplit(" :", 1)[1] for line in lines if line.startswith("cp ") and " :" in line]
    copied = [name for name in sent if name not in fresh]
    return copied, fresh


def _mkdirs(folders: list[str]) -> str:
    return ("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
            % folders)


def _prune(files: list[str]) -> str:
    """Device code removing firmware files under arbiter/ that are not in ``files``."""
    keep = sorted(f for f in files if f.startswith("arbiter/"))
    return ("import os\nkeep = set(%r)\n"
            "def walk(d):\n"
            " for e in os.ilistdir(d):\n"
            "  p = d + '/' + e[0]\n"
            "  if e[1] == 0x4000:\n"
            "   walk(p)\n"
            "  elif p not in keep:\n"
            "   os.remove(p)\n"
            "   print('removed', p)\n"
            "walk('arbiter')" % keep)

