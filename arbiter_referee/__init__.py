"""Arbiter's tools for the PC: the ``arbiter`` command, the emulated device and the bench.

The firmware (``firmware/``, what goes on the Pico) and the bundled rulesets ship
with this package; ``arbiter_referee.paths`` says where they are.
"""

__version__ = "0.2.0"  # the firmware's arbiter.VERSION is the same (a test holds it)
