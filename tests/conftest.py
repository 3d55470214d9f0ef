"""Shared fixtures: the firmware importable under CPython, and a virtual device."""

from __future__ import annotations

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

