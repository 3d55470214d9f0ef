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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """--dist loadgroup: a test marked xdist_group gets its group after an @ in its id,
    as pytest-xdist's own hook means to. That hook sets ``item._nodeid``, which pytest
    9.2 no longer reads (the id is ``item._id``): the groups were silently ignored, and
    the chip's firmware deployed on each worker that met one of its tests."""
    if not getattr(config.option, "loadgroup", False):  # (set on xdist's workers)
        return
    for item in items:
        names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                 for mark in item.iter_markers("xdist_group")}
        if names and "@" not in item.nodeid:
            item._id = type(item._id).parse(f"{item.nodeid}@{'_'.join(sorted(names))}")
    # xdist hands out groups first (the most tests first), then single tests in this
    # order: the longest first, so that no worker is left alone with one at the end
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: a worker a core, and one more: the USB gate's and the watchdog's
    tests spend most of their time waiting on a device (mpremote's 10 s refusals, a
    bite), and the spare worker runs others meanwhile."""
    return (os.cpu_count() or 1) + 1
