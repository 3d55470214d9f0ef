"""``arbiter sim``: the device in a terminal (driven through a pseudo-terminal) and
its screenshots."""

import os
import pty
import select
import subprocess
import sys
import time

from PIL import Image

from arbiter_referee.cli import main as arbiter
from arbiter_referee.emulator.frames import Frame, to_text


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


def read_until(fd, needle, timeout=20.0):
    buffer = b""
    end = time.monotonic() + timeout
    while needle not in buffer and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                buffer += os.read(fd, 65536)
            except OSError:
                break
    return buffer


def test_interactive_sim_answers_keys_in_a_terminal(tmp_path):
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "arbiter_referee", "sim", "--seed", "5", "--flash",
         str(tmp_path)], stdin=child, stdout=child, stderr=child, close_fds=True,
        cwd=os.path.dirname(os.path.dirname(__file__)))
    os.close(child)
    try:
        assert b"Enter/z: A" in read_until(main, b"Enter/z: A")
        # Down to Settings, A to open, Right (sleep 120 -> 300 s), A to save.
        for key in (b"\x1b[B", b"\x1b[B", b"z", b"\x1b[C", b"z"):
            os.write(main, key)
            read_until(main, b"never arrives", timeout=0.5)  # keep the pty drained
        os.write(main, b"q")
        read_until(main, b"\x1b[?25h", timeout=10)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    assert '"sleep_s": 300' in (tmp_path / "settings.json").read_text()


def test_sim_without_a_terminal_says_so(capsys):
    result = subprocess.run([sys.executable, "-m", "arbiter_referee", "sim"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert result.returncode == 2
    assert "needs a terminal" in result.stderr
