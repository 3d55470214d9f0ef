"""The emulated device behind a serial port (``arbiter emulate``), for the tests that
talk to it as to a Pico: through mpremote and the ``arbiter`` device commands."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ARBITER = [sys.executable, "-m", "arbiter_referee"]
MPREMOTE = [sys.executable, "-m", "mpremote"]


def run(command, timeout, cwd=None):
    """Run a command in its own process group; on a timeout the whole group goes
    (an arbiter command's mpremote too, which would keep the port locked)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True, cwd=cwd)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"{command[2:]} did not finish in {timeout} s") from None
    return subprocess.CompletedProcess(command, process.returncode, out, err)


class Emulator:
    """``arbiter emulate`` with ``options``; ``timeout``: seconds one command may take;
    ``env``: variables set for the emulator besides the tests' own."""

    def __init__(self, root: Path, *options: str, timeout: float = 240,
                 env: dict[str, str] | None = None):
        self.timeout = timeout
        self.flash = root / "flash"
        self.flash.mkdir(exist_ok=True)  # (a test may fill it first)
        self.screen = root / "screen.txt"
        self.buttons = root / "buttons"
        port_file = root / "port"
        self.process = subprocess.Popen(
            [*ARBITER, "emulate", "--port-file", str(port_file), "--flash", str(self.flash),
             "--screen", str(self.screen), "--buttons", str(self.buttons), "--seed", "3",
             *options],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})})
        deadline = time.monotonic() + 300  # a hang guard: a loaded machine is slow, not stuck
        while not port_file.exists():
            assert self.process.poll() is None, self.process.stdout.read().decode()
            if time.monotonic() >= deadline:
                self.stop()  # not left running past the test
                raise AssertionError("the emulator did not start")
            time.sleep(0.05)
        self.port = port_file.read_text().strip()

    def arbiter(self, *args, check=True):
        done = run([*ARBITER, *args, "--port", self.port], timeout=self.timeout)
        done.stdout, done.stderr = done.stdout.decode(), done.stderr.decode()
        if check:
            assert done.returncode == 0, done.stderr
        return done

    def mpremote(self, *args, text=False):
        done = run([*MPREMOTE, "connect", self.port, *args], timeout=self.timeout)
        assert done.returncode == 0, done.stderr.decode()
        return done.stdout.decode() if text else done.stdout

    def screen_lines(self, timeout=None):
        # (timeouts here are hang guards, a command's: the chip on a loaded PC is slow)
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            if self.screen.exists() and self.screen.read_text().strip():
                return self.screen.read_text().splitlines()
            time.sleep(0.1)
        return []

    def press(self, script):
        """Press the device's buttons (a button script, as arbiter sim --keys takes)."""
        with self.buttons.open("a") as f:
            f.write(script + "\n")

    def wait_screen(self, text, timeout=None):
        """The OLED's lines once one of them holds ``text``; AssertionError if never."""
        deadline = time.monotonic() + (timeout or self.timeout)
        lines = []
        while time.monotonic() < deadline:
            if self.screen.exists():
                lines = self.screen.read_text().splitlines()
                if any(text in line for line in lines):
                    return lines
            time.sleep(0.05)
        raise AssertionError(f"{text!r} never on the screen: {lines}")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()


def chip_emulator(root: Path, *options: str) -> Emulator:
    """``arbiter emulate --runtime chip``: a Pico's own MicroPython behind the port (a
    skip where the chip runtime cannot run, a failure where it is required)."""
    import pytest

    from helpers.chip import firmware

    if not hasattr(os, "openpty"):
        pytest.skip("needs pseudo-terminals")
    pico = firmware()
    # a deploy on a loaded PC, at a third of a Pico's speed, takes minutes
    return Emulator(root, "--runtime", "chip", "--firmware", str(pico.uf2), *options,
                    timeout=900)


def logged_emulator(root: Path, env: dict[str, str] | None = None) -> Emulator:
    """``arbiter emulate`` keeping everything its serial line says (``boots`` counts
    the firmware's starts in it); skipped where there are no pseudo-terminals."""
    import pytest

    if not hasattr(os, "openpty"):
        pytest.skip("needs pseudo-terminals")
    emulator = Emulator(root, "--log", str(root / "serial.log"), env=env)
    emulator.serial_log = root / "serial.log"
    return emulator


def boots(device: Emulator) -> int:
    """How many times the firmware has booted: each boot says so on the serial line."""
    import re

    return len(re.findall(rb"arbiter: boot\r?\n", device.serial_log.read_bytes()))
