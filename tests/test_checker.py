"""One checker: ``arbiter validate`` runs the firmware's check, so a ruleset passes
both or neither. Every class of malformed ruleset is refused by both, with the same
one-line reason naming where; none prints a traceback."""

import json

import pytest
from helpers.malformed import BASE, CHANGES, TEXTS_BAD, deep_text, malformed

from arbiter.game import ruleset
from arbiter.game.engine import Game
from arbiter_referee.cli import main as arbiter
from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.rulesets import check_text, schema_errors


def test_the_base_of_the_cases_passes_both_checks_and_the_schema():
    text = json.dumps(BASE)
    assert check_text(text) is None
    assert loaded(text)["name"] == BASE["name"]
    assert schema_errors(BASE) == []


@pytest.mark.parametrize("case", sorted(CHANGES))
def test_a_malformed_ruleset_is_refused_alike_by_validate_and_the_device(case):
    text = malformed(case)
    host = check_text(text)
    assert host is not None, "validate accepted it"
    with pytest.raises(ruleset.RulesetError) as device:
        loaded(text)
    assert host == str(device.value)  # the same check, the same words
    assert "\n" not in host and len(host) < 200
    assert CHANGES[case][1] in host


@pytest.mark.parametrize("case", sorted(CHANGES))
def test_what_the_schema_refuses_the_checker_refuses(case):
    # the schema is for editors; it must not pass what the device refuses... and the
    # checker must refuse whatever it refuses (here: every case is refused anyway)
    data = json.loads(malformed(case))
    if schema_errors(data):
        assert check_text(malformed(case)) is not None


@pytest.mark.parametrize("case", sorted(TEXTS_BAD))
def test_validate_refuses_what_is_not_a_ruleset_in_one_line(case, tmp_path, capsys):
    data, word = TEXTS_BAD[case]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    assert arbiter(["validate", str(path)]) == 1
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    assert len(out.err.strip().splitlines()) == 1 and word in out.err


DEPTHS = (0, 1, 2, 3, 4, 6, 8, 10, 12, 13, 14, 15, 16, 20, 30, 60, 100, 1000, 3000)


@pytest.mark.parametrize("depth", DEPTHS)
def test_nesting_is_refused_past_the_bound_and_runs_below_it(depth):
    text = deep_text(depth)
    reason = check_text(text)
    # the action sits 5 levels down and each operator is an object and a list
    if 5 + 2 * depth > ruleset.MAX_DEPTH:
        assert "nested over" in reason
        with pytest.raises(ruleset.RulesetError, match="nested over"):
            loaded(text)
    else:
        assert reason is None
        game = Game(loaded(text), 2, seed=1)
        game.apply("pick P1 attack")
        game.apply("pick P2 defend")
        game.apply("deep P1")
        assert game.state["players"]["P1"]["hp"] == 1


def test_count_of_classes(capsys):
    with capsys.disabled():
        print("\nmalformed ruleset classes: %d, whole-text classes: %d, nesting depths: %d"
              % (len(CHANGES), len(TEXTS_BAD), len(DEPTHS)))


CHUNK = 10


@pytest.mark.parametrize("first", range(0, len(CHANGES), CHUNK))
def test_under_micropython_the_device_menu_refuses_each_with_the_same_reason(first, tmp_path):
    # a real MicroPython in a Pico's heap: each ruleset chosen from the Play menu is
    # refused with validate's reason, and the device is back at its menu after each
    from arbiter_referee.emulator.session import run_session

    cases = sorted(CHANGES)[first:first + CHUNK]
    (tmp_path / "rulesets").mkdir()
    script = ""
    for i, case in enumerate(cases):
        (tmp_path / "rulesets" / ("c%02d.json" % i)).write_bytes(compiled(malformed(case)))
        script += "a wait=300 " + "down " * i + "a wait=1500 a wait=300 b wait=300 "
    # preload=False: modules load when used, as on a Pico (the harness's preload
    # leaves too little heap for 300 pieces parsed)
    out = run_session(1, script + "down a a wait=500", "micropython", flash_dir=tmp_path,
                      preload=False)
    text = "\n".join(out.serial)
    assert "crash" not in text and "Traceback" not in text, text
    for i, case in enumerate(cases):
        assert "arbiter: ruleset c%02d refused: %s" % (i, check_text(malformed(case))) \
            in out.serial, case
    assert out.serial[-1].startswith("arbiter: roll 1d6")  # and back at the menu


@pytest.fixture(scope="module")
def emulated(tmp_path_factory):
    import os

    from helpers.emulator import Emulator

    if not hasattr(os, "openpty"):
        pytest.skip("needs pseudo-terminals")
    emulator = Emulator(tmp_path_factory.mktemp("emulated"))
    emulator.arbiter("deploy")
    yield emulator
    emulator.stop()


PUSHED = [case for case in sorted(CHANGES) if "name" not in case]  # the name is the file's


@pytest.mark.slow
@pytest.mark.parametrize("first", range(0, len(PUSHED), 40))
def test_pushed_past_the_host_check_the_device_refuses_each_with_validates_reason(
        emulated, first, tmp_path):
    from arbiter_referee import transfer

    files = []
    for i, case in enumerate(PUSHED[first:first + 40]):
        data = json.loads(malformed(case))
        data["name"] = "m%03d" % (first + i)
        path = tmp_path / ("m%03d.json" % (first + i))
        path.write_text(json.dumps(data))
        files.append((case, path))
    answers = transfer.push_many(emulated.port, [str(path) for _, path in files],
                                 host_check=False)
    for (case, path), (_, reason) in zip(files, answers, strict=True):
        assert reason == check_text(path.read_text()).removeprefix("ruleset: "), case
    assert not list((emulated.flash / "rulesets").glob("m*.json"))  # none installed
    assert not list((emulated.flash / "rulesets").glob("*.part"))


def test_the_checker_knows_the_engines_every_effect_and_operator_by_name():
    # the checker reads names alone (game/words.py): a name the engine runs but the
    # checker refused, or one it took and the engine cannot run, would fail here
    from arbiter.game.effects import EFFECTS
    from arbiter.game.expr import OPERATORS
    from arbiter.game.words import EFFECT_NAMES, OPERATOR_NAMES

    assert sorted(EFFECT_NAMES) == sorted(EFFECTS)
    assert sorted(OPERATOR_NAMES) == sorted(OPERATORS)
