"""The device commands: ``arbiter push / ls / rm / pull-log / deploy --port PORT``.

Every transfer goes through mpremote (pinned in pyproject.toml), one mpremote
run per command with its steps chained by ``+``. Connecting interrupts the
firmware, so each command ends with a hard reset: the device boots again
and resumes the game it had.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from arbiter_referee import build
from arbiter_referee.compiled import compiled_copy
from arbiter_referee.rulesets import bundled, named

# Seconds an mpremote run may go without printing a line (a full deploy over USB takes
# a few seconds; the emulated chip on a loaded PC, minutes, a file at a time)
TIMEOUT = 300
# After a reset the port goes away while the device boots, then comes back: a new
# port, so a reset missed between two looks is still seen. Waited for, however long
# a loaded machine takes: a command that returned early would meet the next one
# half-way through the reset.
RESTART_TIMEOUT = 120  # s (a Pico takes about 2; the emulator, loaded, more)
POLL = 0.02
CONNECT_ATTEMPTS = 3  # a device restarting as a command connects is tried again
MKDIR_RULESETS = "import os\ntry:\n os.mkdir('rulesets')\nexcept OSError:\n pass"
# Before every step: the firmware's watchdog (board.py) keeps running while a command
# holds the REPL, and resets the device if a step is not done within its 8 s. mpremote's
# soft reset takes ``board`` out of sys.modules but leaves a Pico's watchdog running:
# then it is fed by starting it again (never started where it is not running).
WATCHDOG_MS = 8000  # board.WATCHDOG_MS
WATCHDOG_CTRL = 0x40058000  # the RP2040's; bit 30: enabled
FEED = ("import sys\nb = sys.modules.get('board')\nif b and hasattr(b, 'feed'):\n b.feed()\n"
        "elif sys.platform == 'rp2':\n import machine\n"
        f" if machine.mem32[{WATCHDOG_CTRL:#x}] & 0x40000000:\n"
        f"  machine.WDT(timeout={WATCHDOG_MS})\n"
        "del b")
# Printed after a command's last step, before its reset: the reset drops the port,
# and mpremote, still closing it on a loaded PC, may fail on a line already gone.
STEPS_DONE = "arbiter: steps done"


NO_FIRMWARE = "the device has no Arbiter firmware: run arbiter deploy first"
# During a game the firmware refuses the Ctrl-C that mpremote sends (screens/usb.py):
# mpremote then gives up after 10 s without a raw REPL.
IN_GAME = ("the device is refereeing a game: choose Connect to PC in its game menu, "
           "then try again")


class DeviceError(Exception):
    """A command the device could not do, with the reason to show."""


def mpremote(port: str, *steps: list[str], reset: bool = True,
             on_line: Callable[[str], None] | None = None) -> str:
    """Run the chained mpremote ``steps`` on ``port``; their output, or DeviceError.
    ``on_line`` is given each line of output as mpremote prints it.

    A device that restarts as the command connects (its watchdog ending a REPL that an
    earlier mpremote left behind, or a plug-in) is waited for and tried again: its port
    was gone or new, so nothing ran. The same port refusing us is another program's."""
    for attempt in range(1, CONNECT_ATTEMPTS + 1):
        if not present(port):
            _wait_for_port(port)
        before = port_identity(port)
        try:
            return _mpremote_once(port, steps, reset, on_line, before)
        except PortLost as lost:
            same_port = before is not None and port_identity(port) == before
            if attempt == CONNECT_ATTEMPTS or same_port:
                raise DeviceError(str(lost)) from None


def _wait_for_port(port: str) -> None:
    print(f"waiting for the device on {port}...", end="", file=sys.stderr, flush=True)
    if not _until(lambda: present(port), RESTART_TIMEOUT):
        print(file=sys.stderr)
        raise DeviceError(f"no device on {port} within {RESTART_TIMEOUT} s: is it plugged in, "
                          f"and is that its port?")
    print(" there", file=sys.stderr)


class PortLost(Exception):
    """mpremote could not open the port or get the device's REPL: nothing ran."""


def _mpremote_once(port: str, steps: tuple[list[str], ...], reset: bool,
                   on_line: Callable[[str], None] | None, before: tuple | None) -> str:
    args = [sys.executable, "-m", "mpremote", "connect", port]
    for step in steps:
        if step[0] == "exec":
            step = ["exec", FEED + "\n" + step[1], *step[2:]]
        else:
            args += ["exec", FEED, "+"]
        args += [*step, "+"]
    if reset:
        args += ["exec", f"print({STEPS_DONE!r})", "+", "reset"]
    else:
        args.pop()
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # its lines as they come, for on_line
    with tempfile.TemporaryFile("w+") as errors:
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=errors,
                                   encoding="utf-8", errors="replace", env=env)
        timed_out, finished = threading.Event(), threading.Event()
        heard = [time.monotonic()]  # when mpremote last printed a line

        def watch() -> None:  # a device silent for TIMEOUT s, not a long deploy, gives up
            while not finished.wait(1):
                if time.monotonic() - heard[0] >= TIMEOUT:
                    timed_out.set()
                    process.kill()
                    return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        lines = []
        steps_done = False
        try:
            for line in process.stdout:
                heard[0] = time.monotonic()
                if line.strip() == STEPS_DONE:
                    steps_done = True
                    continue
                lines.append(line)
                if on_line is not None:
                    on_line(line.rstrip("\n"))
            process.wait()
        finally:
            finished.set()
            if process.poll() is None:
                process.kill()
                process.wait()
        errors.seek(0)
        stderr = errors.read()
    stdout = "".join(lines)
    if process.returncode != 0 and not steps_done:  # after them, only the reset failed
        if timed_out.is_set():
            raise DeviceError(f"the device on {port} said nothing for {TIMEOUT} s: "
                              f"if it is refereeing a game, choose Connect to PC in its "
                              f"game menu, then try again")
        message = (stderr.strip() or stdout.strip()).splitlines()
        if message and "failed to access" in message[-1]:
            raise PortLost(f"cannot open {port}: another program (a serial monitor, an "
                           f"editor's REPL) may have it open; close it and try again")
        restarted = port_identity(port) != before
        if message and "could not enter raw repl" in message[-1]:
            raise (PortLost if restarted else DeviceError)(IN_GAME)
        if message and "no module named 'arbiter'" in message[-1]:
            raise DeviceError(NO_FIRMWARE)
        last = message[-1] if message else f"mpremote failed ({process.returncode})"
        raise (PortLost if restarted and not stdout else DeviceError)(last)
    if reset:
        wait_for_restart(port, before)
    return stdout


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


def port_identity(port: str) -> tuple | None:
    """What tells this port from the one the device opens after a restart (the file's
    inode and change time), or None where ports are not files (Windows)."""
    if os.name == "nt":
        return None
    try:
        found = os.lstat(port)
    except OSError:
        return None
    return found.st_ino, found.st_ctime_ns


def wait_for_restart(port: str, before: tuple | None = None) -> None:
    """Return once the device is back from the reset that ended a command: its port
    goes away while it restarts and a new one comes when it can take commands.
    ``before``: port_identity(port) from before the command."""
    print("waiting for the device to restart...", end="", file=sys.stderr, flush=True)

    def restarted() -> bool:
        return not present(port) or (before is not None and port_identity(port) != before)

    if not (_until(restarted, RESTART_TIMEOUT) and _until(lambda: present(port),
                                                           RESTART_TIMEOUT)):
        print(file=sys.stderr)
        raise DeviceError(f"the device on {port} did not restart within {RESTART_TIMEOUT} s")
    print(" back", file=sys.stderr)


def _answer(output: str) -> str:
    """The device-side line ``OK ...`` or ``REFUSED reason`` (see arbiter/store/install.py)."""
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


def _no_answer(output: str) -> NoReturn:
    if "ImportError" in output or "no module named" in output:
        raise DeviceError(NO_FIRMWARE)
    raise DeviceError("the device gave no answer:\n" + output.strip())


def checked(ruleset: str, host_check: bool = True) -> tuple[str, Path]:
    """A ruleset ready to push: (its name, its file), or DeviceError saying why not."""
    try:
        return named(ruleset, host_check)
    except (FileNotFoundError, ValueError) as exc:
        raise DeviceError(str(exc)) from None


# The device's check a step at a time, collected between at the top level, where a
# collection cannot lose what a C frame holds (the emulator's WASI build): a big
# ruleset's parse and check do not fit a Pico W's heap together with their garbage.
PUSH = ("import gc\nfrom arbiter.store import install\n"
        "for _ in install.pushing(%r, %r):\n    gc.collect()\n")


def compile_into(folder: Path, rulesets: list[tuple[str, Path]]) -> list[tuple[str, Path]]:
    """Each (name, source) as (name, its compiled file in ``folder``): what a device
    keeps (compiled.py). DeviceError when one is over the device's cap."""
    try:
        return [(name, compiled_copy(path, folder, name)) for name, path in rulesets]
    except ValueError as exc:
        raise DeviceError(str(exc)) from None


def _push_steps(rulesets: list[tuple[str, Path]], force: bool) -> list[list[str]]:
    """mpremote steps installing each ruleset: copied to NAME.part, checked and renamed
    by the device, which prints one OK or REFUSED line per ruleset."""
    steps = [["exec", MKDIR_RULESETS]]
    for name, path in rulesets:
        steps += [["fs", "cp", str(path), f":rulesets/{name}.part"],
                  ["exec", PUSH % (name, force)]]
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
    with tempfile.TemporaryDirectory() as tmp:
        out = mpremote(port, *_push_steps(compile_into(Path(tmp), ready), force))
    answers = _answers(out)
    if len(answers) != len(ready):
        _no_answer(out)
    return [(name, reason) for name, (reason, _) in zip(names, answers, strict=True)]


def listing(port: str) -> list[tuple[str, int, bool]]:
    """(name, bytes, in play) of every ruleset on the device."""
    out = mpremote(port, ["exec", "from arbiter.store import install\ninstall.listing()"])
    _answer(out)
    rows = []
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) >= 2 and parts[1].isdigit():
            rows.append((parts[0], int(parts[1]), len(parts) > 2))
    return rows


def remove(port: str, name: str, force: bool = False) -> None:
    out = mpremote(port, ["exec", f"from arbiter.store import install\ninstall.remove({name!r}, "
                                  f"{force})"])
    _answer(out)


def pull_log(port: str) -> tuple[str, str | None]:
    """The game on the device, the journals its compactions replaced first
    (journal_chain), and the text of the ruleset it names."""
    with tempfile.TemporaryDirectory() as tmp:
        journal, past = Path(tmp) / "game.jnl", Path(tmp) / "game.old"
        try:
            mpremote(port, ["fs", "cp", ":game.jnl", str(journal)])
        except DeviceError as exc:
            if _no_file(exc):
                raise DeviceError("no game journal on the device: no game was started") from None
            raise
        try:
            mpremote(port, ["fs", "cp", ":game.old", str(past)])
            before = past.read_text()
        except DeviceError as exc:
            if not _no_file(exc):
                raise
            before = ""  # never compacted, or older firmware
        if before and not before.endswith("\n"):
            before += "\n"  # a copy a power cut stopped: its last line is not read
        text = before + journal.read_text()
        name = json.loads(text.split("\n", 1)[0]).get("ruleset", "")
        ruleset = Path(tmp) / "ruleset.json"
        try:
            mpremote(port, ["fs", "cp", f":rulesets/{name}.json", str(ruleset)])
            return text, ruleset.read_text()
        except DeviceError:
            return text, None


def _no_file(exc: DeviceError) -> bool:
    return "No such file" in str(exc) or "ENOENT" in str(exc)


TESTED = (1, 27)  # the oldest MicroPython the firmware is tested under (the emulator's)

# Run on the device before a deploy: what it runs, and the SHA-256 of each given path
# (None where there is no such file, or no hashlib to tell).
_PROBE = """import sys, json, binascii
try:
 import hashlib
except ImportError:
 hashlib = None
def h(p):
 try:
  f = open(p, 'rb')
 except OSError:
  return None
 if hashlib is None:
  f.close()
  return ''
 d = hashlib.sha256()
 b = bytearray(1024)
 while True:
  n = f.readinto(b)
  if not n:
   break
  d.update(memoryview(b)[:n])
 f.close()
 return binascii.hexlify(d.digest()).decode()
i = sys.implementation
print('PROBE', json.dumps({'name': i.name, 'version': list(i.version[:3]),
 'mpy': getattr(i, '_mpy', None), 'files': {p: h(p) for p in %r}}))
"""


@dataclass
class Device:
    """What a device runs, from ``probe``."""

    name: str
    version: tuple[int, ...]
    mpy: int | None  # sys.implementation._mpy: the .mpy version in its low byte
    files: dict[str, str | None]  # path -> SHA-256 (None: absent; "": unknown)

    @property
    def release(self) -> str:
        name = {"micropython": "MicroPython", "circuitpython": "CircuitPython"}.get(self.name,
                                                                                   self.name)
        return f"{name} {'.'.join(map(str, self.version))}"


def probe(port: str, paths: list[str]) -> Device:
    """Ask the device what it runs and the hashes of ``paths``; it is not restarted."""
    out = mpremote(port, ["exec", _PROBE % (paths,)], reset=False)
    for line in out.splitlines():
        if line.startswith("PROBE "):
            data = json.loads(line[6:])
            return Device(data["name"], tuple(data["version"]), data["mpy"], data["files"])
    raise DeviceError("the device gave no answer:\n" + out.strip())


def mpy_version(mpy_file: Path) -> int:
    """The .mpy format version a compiled file has (its second byte)."""
    return mpy_file.read_bytes()[1]


def can_run(device: Device, version: int) -> str | None:
    """None if ``device`` loads bytecode of .mpy ``version``, else the reason it cannot.
    Bytecode-only files need the same major version; the sub-version matters only
    for native code (docs.micropython.org, "MicroPython .mpy files")."""
    made = f"this Arbiter's mpy-cross {build.MPY_CROSS} makes .mpy version {version}"
    if device.name != "micropython":
        return (f"the device runs {device.release}, not MicroPython; flash MicroPython "
                f"{build.SUPPORTED} on it")
    if device.mpy is None:
        return (f"the device's {device.release} cannot load .mpy files "
                f"(no sys.implementation._mpy); flash MicroPython {build.SUPPORTED}")
    theirs = device.mpy & 0xFF
    if theirs < version:
        return (f"the device's {device.release} loads .mpy version {theirs} and {made}: "
                f"flash MicroPython {build.SUPPORTED}")
    if theirs > version:
        return (f"the device's {device.release} loads .mpy version {theirs} and {made}: "
                "update Arbiter (pip install -U arbiter-referee)")
    return None


@dataclass
class Deployed:
    device: Device
    copied: list[str] = field(default_factory=list)
    fresh: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rulesets: list[tuple[str, str | None]] = field(default_factory=list)  # (name, refusal)
    rulesets_fresh: list[str] = field(default_factory=list)
    digest: str = ""  # what the New game screen shows beside the commitment (FW ...)


def deploy(port: str, staging: Path | None = None, rulesets: bool = True,
           progress: Callable[[str], None] | None = None) -> Deployed:
    """The firmware to the device as .mpy (main.py as source), and the bundled rulesets.

    The device is asked first what it runs (refused with the reason when it cannot
    load this bytecode, as DeviceError) and the hashes of the files it has, so only
    the files that differ are copied, each reported to ``progress`` as it goes.
    Firmware files on the device that this build no longer has are removed (a stale
    ``.py`` would shadow its ``.mpy``). Each bundled ruleset that differs is pushed
    as ``arbiter push`` does: checked by the device; the ruleset of a game in
    progress is kept (a refusal in ``rulesets``)."""
    with tempfile.TemporaryDirectory() as sent:  # the rulesets as sent, until the end
        return _deploy(port, staging, rulesets, progress or (lambda _line: None), Path(sent))


def _deploy(port: str, staging: Path | None, rulesets: bool, say: Callable[[str], None],
            sent: Path) -> Deployed:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(staging or tmp)
        build.compile_tree(out)
        files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
        bundle = [checked(str(path)) for path in bundled().values()] if rulesets else []
        bundle = compile_into(sent, bundle)
        ruleset_files = {name: f"rulesets/{name}.json" for name, _ in bundle}
        device = probe(port, files + list(ruleset_files.values()))
        version = mpy_version(next(out.rglob("*.mpy")))
        reason = can_run(device, version)
        if reason:
            with contextlib.suppress(DeviceError):
                mpremote(port)  # back to what it ran before the probe stopped it
            raise DeviceError(reason)
        if device.version[:2] < TESTED:
            say(f"warning: the device's {device.release} is older than MicroPython "
                f"{'.'.join(map(str, TESTED))}, the oldest the firmware is tested under")
        result = Deployed(device, digest=build.firmware_digest((out / build.MANIFEST).read_text()))
        result.fresh = [f for f in files if device.files.get(f) == _sha256(out / f)]
        result.copied = [f for f in files if f not in result.fresh]
        stale = [(name, path) for name, path in bundle
                 if device.files.get(ruleset_files[name]) != _sha256(path)]
        result.rulesets_fresh = [name for name, path in bundle if (name, path) not in stale]
        say(f"{device.release} on the device loads .mpy version {version}; copying "
            f"{len(result.copied)} of {len(files)} firmware files"
            + (f" and {len(stale)} of {len(bundle)} bundled rulesets" if rulesets else ""))
        folders = sorted({parent.as_posix() for f in result.copied
                          for parent in Path(f).parents} - {"."})
        steps = [["exec", _mkdirs(folders)]] if folders else []
        steps += [["fs", "cp", str(out / f), ":" + f] for f in result.copied]
        steps.append(["exec", _prune(files)])
        total = len(result.copied) + len(stale)
        sent = 0

        def line(text: str) -> None:
            nonlocal sent
            if text.startswith("cp ") and " :" in text:
                sent += 1
                target = text.rsplit(" :", 1)[1].replace(".part", ".json")
                say(f"[{sent:{len(str(total))}}/{total}] {target}")
            elif text.startswith("removed "):
                say(text)

        output = mpremote(port, *steps, on_line=line, reset=not stale)
        result.removed = [text[8:] for text in output.splitlines() if text.startswith("removed ")]
    if stale:
        # a run of its own: a fresh interpreter, and a failure that says what is done
        try:
            output = mpremote(port, *_push_steps(stale, force=False), on_line=line)
        except DeviceError as exc:
            raise DeviceError(f"the firmware is on the device, the bundled rulesets are not: "
                              f"{exc}") from None
        answers = _answers(output)
        if len(answers) != len(stale):
            _no_answer(output)
        result.rulesets = [(name, refusal) for (name, _), (refusal, _) in
                           zip(stale, answers, strict=True)]
    return result


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _mkdirs(folders: list[str]) -> str:
    return ("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
            % folders)


def _prune(files: list[str]) -> str:
    """Device code removing every code file (.py, .mpy) that is not the firmware's
    ``files``: a stale module, a source beside its bytecode, a ``boot.py``."""
    return ("import os\nkeep = set(%r)\n"
            "def walk(d):\n"
            " for e in (os.ilistdir(d) if d else os.ilistdir()):\n"
            "  p = d + '/' + e[0] if d else e[0]\n"
            "  if e[1] == 0x4000:\n"
            "   walk(p)\n"
            "  elif p not in keep and p.endswith(('.py', '.mpy')):\n"
            "   os.remove(p)\n"
            "   print('removed', p)\n"
            "walk('')" % sorted(files))

