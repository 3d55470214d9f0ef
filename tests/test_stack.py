"""A guard that needs no chip: the firmware's Python calls never go deeper than a
Pico's C stack holds, with the probe's frames to spare (helpers/stack.py says how the
budget is calibrated on the chip; tests/test_chip.py holds it there, in bytes).

At fcc2073 the walks recursed once a level: a ruleset's load went 31 frames deep
(``ruleset.shared``), Jugger TTG's messages 57 (expressions), Kaiju's combat 39
(effects), and a Pico crashed in every bundled game."""

from __future__ import annotations

import contextlib
import io

import pytest
from helpers.chip import first_presses
from helpers.malformed import CHANGES, deep_text, malformed
from helpers.stack import FRAMES, Deepest

from arbiter_referee.bench import scenarios
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import use_firmware_path


def _session(seed, script, flash_dir):
    """The script on the emulated device (CPython), as vsession runs it."""
    use_firmware_path()
    import vsession

    with contextlib.redirect_stdout(io.StringIO()) as out:
        vsession.main(seed, script, str(flash_dir) + "/")
    return out.getvalue()


@pytest.mark.parametrize("name", scenarios.NAMES)
def test_each_recorded_game_and_a_resume_of_it_stay_within_a_picos_stack(name, tmp_path):
    game = scenarios.load(name)
    whole, half = tmp_path / "whole", tmp_path / "half"
    factory_flash(whole)
    factory_flash(half)
    presses = sum(1 for word in game.keys.split() if word[:1] in "udlrab")
    with Deepest() as deepest:
        _session(game.device_seed, game.keys, whole)
        _session(game.device_seed, first_presses(game.keys, presses // 2), half)
        printed = _session(2, "wait=3000 b", half)  # a reset mid-game: the game resumed
    assert "resumed %s" % name in printed
    assert deepest.most <= FRAMES, "\n".join(deepest.where)


def test_the_malformed_rulesets_are_refused_within_a_picos_stack(tmp_path):
    # each malformed ruleset chosen from the Play menu, as test_checker's device test
    (tmp_path / "rulesets").mkdir()
    cases = sorted(CHANGES)
    script = ""
    for i, case in enumerate(cases):
        (tmp_path / "rulesets" / ("c%03d.json" % i)).write_text(malformed(case))
        script += "a wait=300 " + "down " * i + "a wait=1500 a wait=300 b wait=300 "
    with Deepest() as deepest:
        printed = _session(1, script, tmp_path)
    assert printed.count("refused:") == len(cases)
    assert deepest.most <= FRAMES, "\n".join(deepest.where)


def test_rulesets_nested_to_the_bound_load_and_play_within_a_picos_stack(tmp_path):
    from arbiter.game import ruleset

    depth = (ruleset.MAX_DEPTH - 5) // 2  # the deepest expression the checker takes
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "deep.json").write_text(deep_text(depth))
    with Deepest() as deepest:
        printed = _session(1, "a wait=300 a wait=1500 a wait=300 a a wait=300 a wait=300",
                           tmp_path)
    assert "refused" not in printed
    assert deepest.most <= FRAMES, "\n".join(deepest.where)
