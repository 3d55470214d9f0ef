"""What the tests share, by subject, imported by name (``from helpers.game import piece``):

- ``helpers.game``: a bundled ruleset's game without the device: pieces by name,
  actions, rolls, refusals, exact undo;
- ``helpers.runtimes``: a rule's test on both runtimes: its games played again in
  MicroPython in a Pico's heap, each refusal met again, each game ending the same;
- ``helpers.device``: a game on the emulated device (a ``Rig``): setup, secret picks,
  the game menu and its forms, the play screen, the LEDs;
- ``helpers.impactics``, ``helpers.jugger``, ``helpers.juggernauts``, ``helpers.kaiju``,
  ``helpers.tactics``: a game of each set up for a test, and the seeds that deal what
  a test needs, by name;
- ``helpers.recorded``: the bench's recorded games pressed on the emulated device,
  each play screen they show;
- ``helpers.terminal``: ``arbiter sim`` in a pseudo-terminal;
- ``helpers.docs``: the docs' shell sessions, run and compared;
- ``helpers.examples``: the example rulesets in examples/ and an independent Raj scorer;
- ``helpers.emulator``: the emulated device behind a serial port (``arbiter emulate``);
- ``helpers.chromium``: a headless Chromium for the page ``arbiter web`` builds.

The fixtures are in ``conftest.py``.
"""

from pathlib import Path

from arbiter_referee.emulator.session import use_firmware_path

REPO = Path(__file__).resolve().parents[2]  # the checkout: docs, firmware, rulesets
use_firmware_path()  # the firmware's modules (``arbiter.game``...) importable here
