"""A guard that needs no chip: the firmware's Python calls never go deeper than a
Pico's C stack holds, with the probe's frames to spare (helpers/stack.py says how the
budget is calibrated on the chip; tests/test_chip.py holds it there, in bytes).

At fcc2073 the walks recursed once a level: a ruleset's load went 31 frames deep
(``ruleset.shared``), Jugger TTG's messages 57 (expressions), Kaiju's combat 39
(effects), and a Pico crashed in every bundled game."""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from helpers.chip import first_presses
from helpers.malformed import CHANGES, deep_text, malformed
from helpers.stack import FRAMES, Deepest

from arbiter_referee.bench import scenarios
from arbiter_referee.compiled import compiled, factory_flash, loaded
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
        (tmp_path / "rulesets" / ("c%03d.json" % i)).write_bytes(compiled(malformed(case)))
        script += "a wait=300 " + "down " * i + "a wait=1500 a wait=300 b wait=300 "
    with Deepest() as deepest:
        printed = _session(1, script, tmp_path)
    assert printed.count("refused:") == len(cases)
    assert deepest.most <= FRAMES, "\n".join(deepest.where)


def test_rulesets_nested_to_the_bound_load_and_play_within_a_picos_stack(tmp_path):
    from arbiter.game import ruleset

    depth = (ruleset.MAX_DEPTH - 5) // 2  # the deepest expression the checker takes
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "deep.json").write_bytes(compiled(deep_text(depth)))
    with Deepest() as deepest:
        printed = _session(1, "a wait=300 a wait=1500 a wait=300 a a wait=300 a wait=300",
                           tmp_path)
    assert "refused" not in printed
    assert deepest.most <= FRAMES, "\n".join(deepest.where)


def _chained(levels):
    """A ruleset whose counters' triggers set each other off ``levels`` deep (``go``),
    and whose phases ``next`` into each other as deep (``next``)."""
    return {"format": 1, "name": "chain", "players": {"min": 2},
            "counters": {"c%d" % i: {"start": 0} for i in range(levels + 1)},
            "triggers": [{"counter": "c%d" % i, "at": 1, "effects": [{"add": "$p.c%d" % (i + 1)}]}
                         for i in range(levels)],
            "phases": [{"name": "p%d" % i, "enter": [{"next": True}] if 0 < i <= levels else []}
                       for i in range(levels + 2)],
            "actions": {"go": {"params": ["p"], "effects": [{"add": "$p.c0"}]}}}


# the device's calls above Game.apply: device.tick, App.step, a screen's key, its act
ABOVE_APPLY = 4


@pytest.mark.parametrize("action", ["go P1", "next"])
def test_triggers_and_next_nest_as_deep_as_the_engine_allows_within_a_picos_stack(action):
    from arbiter.game import Illegal
    from arbiter.game.effects import MAX_DEPTH
    from arbiter.game.engine import Game

    game = Game(loaded(json.dumps(_chained(MAX_DEPTH))), 2, seed=1)
    with Deepest() as deepest:
        game.apply(action)
    assert deepest.most + ABOVE_APPLY <= FRAMES, "\n".join(deepest.where)
    # one level more: refused with the reason, before a Pico's stack runs out
    game = Game(loaded(json.dumps(_chained(MAX_DEPTH + 1))), 2, seed=1)
    with pytest.raises(Illegal, match="set each other off over %d deep" % MAX_DEPTH):
        game.apply(action)
