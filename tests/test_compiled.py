"""Rulesets compiled on the PC (arbiter_referee/compiled.py): what push, deploy and a
new device's flash send. Still JSON and data only; the device reads each action's
effects as text, checks them an action at a time and refuses the malformed as it
refuses the source."""

import copy
import io
import json

import pytest
from helpers.malformed import BASE, CHANGES, malformed

from arbiter.game import ruleset
from arbiter_referee.compiled import compiled
from arbiter_referee.rulesets import bundled, check_text

# the malformed cases whose mistake lies in an action's effects: compiled, the
# device meets them in its step per action, after the rest of the ruleset
IN_EFFECTS = [case for case in sorted(CHANGES) if "actions." in (check_text(malformed(case)) or "")
              and ".effects" in (check_text(malformed(case)) or "")]


def _device_reads(data):
    """As the device reads its file (ruleset.read: the cap is checked on the size)."""
    ruleset.check_size(len(data))
    return ruleset.read(io.StringIO(data.decode()))


@pytest.mark.parametrize("name", sorted(bundled()))
def test_a_compiled_ruleset_keeps_actions_effects_as_text_and_loads_as_its_source(name):
    source = bundled()[name].read_bytes()
    data = json.loads(compiled(source))
    for action, spec in data["actions"].items():
        hot = spec.get("hot")  # an action done often stays parsed: its parse is garbage
        assert isinstance(spec.get("effects", []), list if hot else str), action
    assert _device_reads(compiled(source)) == ruleset.parse(source.decode())


def test_compiled_the_bundled_games_are_over_their_source_but_under_the_device_cap():
    for path in bundled().values():
        size = len(compiled(path.read_bytes()))
        assert path.stat().st_size <= ruleset.MAX_BYTES < size or size <= ruleset.MAX_BYTES
        assert size <= ruleset.MAX_FILE_BYTES


@pytest.mark.parametrize("case", IN_EFFECTS)
def test_a_compiled_rulesets_malformed_effects_are_refused_as_its_sources(case):
    source = malformed(case).encode()
    with pytest.raises(ruleset.RulesetError) as device:
        _device_reads(compiled(source))
    assert str(device.value) == check_text(source.decode())


def _with_action_effects(text):
    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = text
    return json.dumps(data)


def test_effects_text_that_is_not_json_is_refused_in_one_line():
    with pytest.raises(ruleset.RulesetError) as refused:
        ruleset.parse(_with_action_effects('[{"add": "$p.hp"'))
    assert str(refused.value) == "actions.hit.effects: not valid JSON"


def test_effects_text_nested_too_deep_is_refused_before_its_walk():
    deep = '[{"if": true, "then": ' * 20 + "[]" + "}]" * 20
    with pytest.raises(ruleset.RulesetError, match="^ruleset: nested over 32 deep$"):
        ruleset.parse(_with_action_effects(deep))


def test_only_an_actions_own_effects_may_be_text():
    data = copy.deepcopy(BASE)
    data["triggers"][0]["effects"] = '[{"lose": {"bound": "p"}}]'
    with pytest.raises(ruleset.RulesetError, match=r"triggers\[0\].effects: must be a list"):
        ruleset.parse(json.dumps(data))
    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = [{"if": True, "then": '[{"say": "x"}]'}]
    with pytest.raises(ruleset.RulesetError, match=r"actions.hit.effects\[0\].then: must be"):
        ruleset.parse(json.dumps(data))


def test_a_source_within_its_cap_but_over_the_devices_compiled_is_refused_in_one_line(tmp_path):
    from arbiter_referee.transfer import DeviceError, compile_into

    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = [{"say": '"' * 10500}]  # each quote escaped twice
    source = tmp_path / "quotes.json"
    source.write_text(json.dumps(data))
    assert check_text(source.read_text()) is None  # within the source's 32 KB
    with pytest.raises(DeviceError) as refused:
        compile_into(tmp_path / "sent", [("quotes", source)])
    assert "compiled, it is" in str(refused.value) and "at most 40960" in str(refused.value)
    assert "\n" not in str(refused.value)
