"""Shared fixtures: the firmware importable under CPython, and a virtual device."""

from __future__ import annotations

import os

import pytest

from arbiter_referee.emulator.rig import Rig


@pytest.fixture
def rig(tmp_path):
    return Rig(tmp_path)


@pytest.fixture
def make_rig(tmp_path):
    def make(**kwargs):
        return Rig(tmp_path, **kwargs)

    return make


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one worker more than the cores, as many tests wait on an emulated
    device's serial port, boot or reset while another could use the core."""
    return (os.cpu_count() or 1) + 1
