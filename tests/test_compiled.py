"""Rulesets compiled on the PC (arbiter_referee/compiled.py): what push, deploy and a
new device's flash send, and the one shape a device reads. Data only: each action's
effects lines of JSON text (a long one split), each team's line, each phase's,
trigger's and the setup's effects' line, each action's line, the ruleset's JSON
after them. The device checks them an action at a time, refuses the malformed as
it refuses the source, and reads an action from flash when it is offered or done,
its effects' lines when it is done, a team's when it is taken."""

import copy
import io
import json

import pytest
from helpers.malformed import BASE, CHANGES, malformed

from arbiter.game import ruleset
from arbiter_referee.compiled import LINE_BYTES, compiled, loaded
from arbiter_referee.rulesets import bundled, check_text

# the malformed cases whose mistake lies in an action's effects: compiled, the
# device meets them in its step per action, after the rest of the ruleset
IN_EFFECTS = [case for case in sorted(CHANGES) if "actions." in (check_text(malformed(case)) or "")
              and ".effects" in (check_text(malformed(case)) or "")]


def _device_reads(data):
    """As the device reads its file (ruleset.read: the cap is checked on the size),
    its lines read from memory (compiled.loaded)."""
    ruleset.check_size(len(data))
    return loaded(data)


def _parts(data):
    """A compiled file's lines (by byte offset) and its JSON."""
    head, rest = data.split(b"\n", 1)
    assert head.startswith(ruleset.LINES_HEAD.encode())
    end = int(head[len(ruleset.LINES_HEAD):])
    lines, at = {}, len(head) + 1
    for line in data[at:end].split(b"\n")[:-1]:
        assert int(line[:5]) == len(line) - 5
        lines[at] = line[5:].decode()
        at += len(line) + 1
    return lines, json.loads(data[end:])


def _actions(lines, body):
    """A compiled file's actions, each read from its line."""
    return {name: json.loads(lines[at]) for name, at in body["actions"].items()}


def _with_action(data, name, spec):
    """A compiled file whose action ``name`` is ``spec``, in a line of its own added
    after the others (every other offset stays as it was)."""
    head = len(ruleset.LINES_HEAD)
    end = int(data[head:head + 8])
    body = json.loads(data[end:])
    text = json.dumps(spec, separators=(",", ":")).encode()
    line = b"%05d%s\n" % (len(text), text)
    body["actions"][name] = end
    return b"%s%08d%s%s%s" % (data[:head], end + len(line), data[head + 8:end], line,
                              json.dumps(body, separators=(",", ":")).encode())


@pytest.mark.parametrize("name", sorted(bundled()))
def test_a_compiled_ruleset_keeps_actions_effects_as_lines_and_loads_as_its_source(name):
    source = bundled()[name].read_bytes()
    lines, data = _parts(compiled(source))
    assert all(type(at) is int for at in data["actions"].values())
    for action, spec in _actions(lines, data).items():
        was = json.loads(source)["actions"][action]
        assert {k: v for k, v in spec.items() if k != "effects"} == \
            {k: v for k, v in was.items() if k != "effects"}, action
        assert _joined(lines, spec["effects"]) == was.get("effects", []), action
    rules, was = _device_reads(compiled(source)), json.loads(source)
    for key in set(was) - {"actions", "teams", "phases", "triggers", "setup"}:
        assert rules[key] == was[key], key  # the rest as written


def _joined(lines, offsets):
    """An action's effects read from their lines in order."""
    effects = []
    for at in offsets:
        effects += json.loads(lines[at])
    return effects


@pytest.mark.parametrize("name", sorted(bundled()))
def test_an_actions_long_effects_are_split_in_lines_a_device_reads_in_little_room(name):
    # Juggernauts' attack is 2,087 bytes of JSON: read whole, it needed a free
    # block that size in a full heap (the calibrated figure fell from 151 to 145 KB)
    source = json.loads(bundled()[name].read_bytes())
    lines, data = _parts(compiled(bundled()[name].read_bytes()))
    for spec in _actions(lines, data).values():
        for at in spec["effects"]:
            text = lines[at]
            assert len(text) <= LINE_BYTES or len(json.loads(text)) == 1, text[:60]
    for action, spec in _actions(lines, data).items():
        if len(spec["effects"]) > 1:
            whole = json.dumps(source["actions"][action]["effects"], separators=(",", ":"))
            assert len(whole) > LINE_BYTES  # split only when one line would be longer


@pytest.mark.parametrize("name", ["jugger", "kaiju"])
def test_a_device_keeps_a_compiled_rulesets_teams_on_flash_and_deals_them(tmp_path, name):
    """Jugger: "Tú y tus amigos podéis construir un EQUIPO DE JUGGER utilizando las
    fichas de 30 jugadores": the teams are dealt as the source's, but each is read
    when a player takes it, so a game in play holds no team's text (Jugger's, 2.9 KB)."""
    from arbiter.game.engine import Game
    from arbiter.game.public import public_state
    from arbiter.hw.flash import Flash

    source = bundled()[name].read_bytes()
    lines, data = _parts(compiled(source))
    assert [json.loads(lines[at]) for at in data["teams"]] == json.loads(source)["teams"]
    (tmp_path / "r.json").write_bytes(compiled(source))
    flash = Flash(str(tmp_path) + "/")
    for passed in (False, True):  # its first load checks them; a later one need not
        with flash.open("r.json") as stream:
            rules = ruleset.read(stream, flash.lines("r.json"), passed)
        assert rules["teams"] == data["teams"]  # offsets: no team's text in the heap
        from_flash = Game(rules, seed=3)
        from_source = Game(loaded(source.decode()), seed=3)
        assert public_state(from_flash) == public_state(from_source)
        assert from_flash.state["pieces"]  # dealt from the teams


def _with_body(data, body):
    """A compiled file with its JSON replaced by ``body``'s."""
    start = int(data.split(b"\n", 1)[0][len(ruleset.LINES_HEAD):])
    return data[:start] + json.dumps(body, separators=(",", ":")).encode()


def test_a_compiled_teams_offset_that_is_no_line_is_refused_naming_the_team():
    data = compiled(bundled()["kaiju"].read_bytes())
    lines, body = _parts(data)
    body["teams"][1] += 1
    with pytest.raises(ruleset.RulesetError) as refused:
        _device_reads(_with_body(data, body))
    assert str(refused.value) == "teams[1]: not a line of the file"


def test_a_compiled_teams_line_is_checked_as_the_team():
    data = compiled(bundled()["kaiju"].read_bytes())
    bad = data.replace(b'"name":"Abyss"', b'"name":1234567')  # in its line: same length
    assert bad != data
    with pytest.raises(ruleset.RulesetError) as refused:
        _device_reads(bad)
    assert str(refused.value).startswith("teams[1].name: ")
    source = json.loads(bundled()["kaiju"].read_bytes())
    source["teams"][1]["name"] = 1234567
    with pytest.raises(ruleset.RulesetError) as from_source:
        loaded(json.dumps(source))
    assert str(from_source.value) == str(refused.value)


def test_a_compiled_phases_and_triggers_effects_are_lines_checked_as_their_effects():
    # each phase's effects, each trigger's and the setup's are a line the device reads
    # when they run: at the first load each is checked as the source's, same reason
    data = compiled(bundled()["jugger"].read_bytes())
    lines, body = _parts(data)
    source = json.loads(bundled()["jugger"].read_bytes())
    for phase, was in zip(body["phases"], source["phases"], strict=True):
        for key in ruleset.PHASE_EFFECTS:
            assert key not in was or json.loads(lines[phase[key]]) == was[key]
    assert json.loads(lines[body["setup"]]) == source["setup"]
    assert json.loads(lines[body["triggers"][0]["effects"]]) == source["triggers"][0]["effects"]
    key = next(k for k in ruleset.PHASE_EFFECTS if k in body["phases"][0])
    end = int(data[len(ruleset.LINES_HEAD):len(ruleset.LINES_HEAD) + 8])
    body["phases"][0][key] = end + 9999
    with pytest.raises(ruleset.RulesetError, match=r"^phases\[0\]\.%s: not a line of the "
                       "file$" % key):
        _device_reads(_with_body(data, body))
    text = lines[body["setup"]]
    broken = text.replace('"', "'", 1)  # the same length: every offset stays
    with pytest.raises(ruleset.RulesetError, match=r"^setup: not valid JSON$"):
        _device_reads(data.replace(text.encode(), broken.encode(), 1))
    source["setup"] = json.loads(text.replace('{"', '{"x', 1))  # an effect not known
    with pytest.raises(ruleset.RulesetError) as from_source:
        loaded(json.dumps(source))
    with pytest.raises(ruleset.RulesetError) as refused:  # read from its line
        _device_reads(compiled(json.dumps(source).encode()))
    assert str(refused.value) == str(from_source.value)
    assert str(refused.value).startswith("setup[0]")


def test_a_compiled_actions_line_is_checked_as_the_action():
    # each action is a line the device reads when it is wanted: at the first load it
    # is checked as the source's action is, with the same reason
    data = compiled(bundled()["kaiju"].read_bytes())
    lines, body = _parts(data)
    roar = _actions(lines, body)["roar"]
    with pytest.raises(ruleset.RulesetError) as refused:
        _device_reads(_with_action(data, "roar", dict(roar, params="p")))
    source = json.loads(bundled()["kaiju"].read_bytes())
    source["actions"]["roar"]["params"] = "p"
    with pytest.raises(ruleset.RulesetError) as from_source:
        loaded(json.dumps(source))
    assert str(refused.value) == str(from_source.value)
    assert str(refused.value).startswith("actions.roar.params: ")
    broken = data.replace(b'"label":"Roar: +2 Energy"', b'"label":"Roar: +2 Energy}')
    assert broken != data
    with pytest.raises(ruleset.RulesetError, match=r"^actions\.roar: not valid JSON$"):
        _device_reads(broken)


def test_a_device_keeps_a_compiled_actions_effects_on_flash_and_plays_them(tmp_path):
    from arbiter.game import effects
    from arbiter.game.engine import Game
    from arbiter.game.public import public_state
    from arbiter.hw.flash import Flash

    (tmp_path / "kaiju.json").write_bytes(compiled(bundled()["kaiju"].read_bytes()))
    flash = Flash(str(tmp_path) + "/")
    with flash.open("kaiju.json") as stream:
        rules = ruleset.read(stream, flash.lines("kaiju.json"))
    from_flash = Game(rules, seed=3)
    assert all(type(at) is int for at in rules["actions"].values())  # their lines' offsets
    assert all(type(phase[key]) is int for phase in rules["phases"]  # and the phases',
               for key in ruleset.PHASE_EFFECTS if key in phase)
    assert all(type(trigger["effects"]) is int for trigger in rules["triggers"])  # triggers'
    kept = [effects.action(from_flash, name)["effects"] for name in rules["actions"]]
    assert all(type(at) is int for effects in kept for at in effects)
    assert any(len(effects) > 1 for effects in kept)  # Kaiju's damage: 2 lines
    from_source = Game(loaded(bundled()["kaiju"].read_text()), seed=3)
    for game in (from_flash, from_source):  # damage: an action read from two lines
        for action in ("team p=P1 name=Titans", "team p=P2 name=Abyss", "next",
                       "damage by=P2 k=P1.k2 n=1"):
            game.apply(action)
    assert from_flash.log[-1] == from_source.log[-1]
    assert public_state(from_flash) == public_state(from_source)
    assert from_flash.log[-3:] == from_source.log[-3:]


def test_a_long_actions_lines_are_parsed_and_done_one_at_a_time(tmp_path):
    # done whole, Juggernauts' attack held a 7 KB parse while it called pay and
    # mark: a part at a time took its calibrated heap from 145 to 140 KB
    from arbiter.game import LINES, effects
    from arbiter.game.engine import Game
    from arbiter.hw.flash import Flash

    (tmp_path / "kaiju.json").write_bytes(compiled(bundled()["kaiju"].read_bytes()))
    flash = Flash(str(tmp_path) + "/")
    with flash.open("kaiju.json") as stream:
        rules = ruleset.read(stream, flash.lines("kaiju.json"))
    game = Game(rules, seed=3)
    for action in ("team p=P1 name=Titans", "team p=P2 name=Abyss", "next"):
        game.apply(action)
    parts = len(effects.action(game, "damage")["effects"])
    read, steps_at_read = rules[LINES], []

    def reading(at):
        steps_at_read.append(game.steps)
        return read(at)

    rules[LINES] = reading
    game.apply("damage by=P2 k=P1.k2 n=1")
    # the action's own line, then each of its effects' lines, each read once the
    # effects of the one before have run; then, as it calls it, hurt's alike
    assert parts > 1 and len(steps_at_read) > 1 + parts  # (and what it calls: hurt)
    own = steps_at_read[1:1 + parts]
    assert own == sorted(set(own))
    assert steps_at_read[1 + parts:] == sorted(steps_at_read[1 + parts:])
    assert own[-1] < steps_at_read[1 + parts]  # hurt is read once damage calls it


@pytest.mark.parametrize("name", sorted(bundled()))
def test_a_loaded_ruleset_keeps_its_phases_effects_on_their_lines_read_when_they_run(name):
    # parsed, Jugger's phases held 2.4 KB more of a Pico's heap through the game
    from arbiter.game import LINES

    source = json.loads(bundled()[name].read_bytes())
    rules = _device_reads(compiled(bundled()[name].read_bytes()))
    kept = 0
    for phase, was in zip(rules.get("phases", ()), source.get("phases", ()), strict=True):
        for key in ruleset.PHASE_EFFECTS:
            if key in was:
                assert json.loads(rules[LINES](phase[key])) == was[key]
                kept += 1
    assert kept  # every bundled game has some


@pytest.mark.parametrize("name", ["jugger", "kaiju"])
def test_a_loaded_ruleset_holds_no_action_its_choices_read_with_it_as_written(name):
    # parsed, Kaiju's actions held 7 KB of a Pico's heap through the game, their
    # choices 2.5 KB; the form offers what they work out to (Kaiju's attack: the
    # other players' monsters)
    from arbiter.game import effects
    from arbiter.game.engine import Game

    source = json.loads(bundled()[name].read_bytes())
    rules = _device_reads(compiled(bundled()[name].read_bytes()))
    game, worked_out = Game(rules, seed=3), 0
    for action, at in rules["actions"].items():
        assert type(at) is int  # the offset of its line: no field of it held
        spec = effects.action(game, action)
        for key, was in source["actions"][action].get("choices", {}).items():
            worked_out += isinstance(was, dict)
            assert spec["choices"][key] == was
    assert worked_out


def test_compiled_the_bundled_games_are_under_the_device_cap():
    for path in bundled().values():
        assert len(compiled(path.read_bytes())) <= ruleset.MAX_FILE_BYTES


def test_a_compiled_files_broken_head_or_line_is_refused_in_one_line():
    data = compiled(bundled()["tactics"].read_bytes())
    head = len(ruleset.LINES_HEAD)
    broken = "^ruleset: a compiled ruleset's head is broken$"
    with pytest.raises(ruleset.RulesetError, match=broken):
        _device_reads(data[:head] + b"0000001x" + data[head + 8:])
    lines, body = _parts(data)
    end = int(data[head:head + 8])
    name = sorted(body["actions"])[0]
    spec = _actions(lines, body)[name]
    spec["effects"] = [end + 9999]  # beyond the lines
    with pytest.raises(ruleset.RulesetError, match=r"^actions\.%s\.effects: not a line of "
                       "the file$" % name):
        _device_reads(_with_action(data, name, spec))
    body["actions"][name] = end + 1  # the action's own line: inside the JSON
    with pytest.raises(ruleset.RulesetError, match=r"^actions\.%s: not a line of the file$"
                       % name):
        _device_reads(_with_body(data, body))


def test_an_actions_lines_that_are_not_its_parts_are_refused_in_one_line():
    data = compiled(bundled()["juggernauts"].read_bytes())
    lines, body = _parts(data)
    attack = _actions(lines, body)["attack"]
    split = attack["effects"]
    assert isinstance(split, list)
    end = int(data[len(ruleset.LINES_HEAD):len(ruleset.LINES_HEAD) + 8])
    refused = r"^actions\.attack\.effects: not a line of the file$"
    for parts in ([split[0], end + 9999], [split[0], split[0] + 1]):  # beyond, inside a line
        with pytest.raises(ruleset.RulesetError, match=refused):
            _device_reads(_with_action(data, "attack", dict(attack, effects=parts)))
    # a part that is not a list of effects: the parts cannot be joined
    at, text = split[1], lines[split[1]]
    assert data[at:at + 5 + len(text)] == b"%05d%s" % (len(text), text.encode())
    an_object = '{"x":"' + "a" * (len(text) - 8) + '"}'  # its length: no offset moves
    not_a_list = b"%05d%s" % (len(text), an_object.encode())
    with pytest.raises(ruleset.RulesetError, match=r"^actions\.attack\.effects: must be a "
                       "list of effects$"):
        _device_reads(data[:at] + not_a_list + data[at + 5 + len(text):])


@pytest.mark.parametrize("case", IN_EFFECTS)
def test_a_compiled_rulesets_malformed_effects_are_refused_as_its_sources(case):
    source = malformed(case).encode()
    with pytest.raises(ruleset.RulesetError) as device:
        _device_reads(compiled(source))
    assert str(device.value) == check_text(source.decode())


def _with_action_effects(effects):
    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = effects
    return json.dumps(data)


def test_an_actions_effects_nested_too_deep_are_refused_before_their_walk():
    deep = json.loads('[{"if": true, "then": ' * 20 + "[]" + "}]" * 20)
    with pytest.raises(ruleset.RulesetError, match="^ruleset: nested over 32 deep$"):
        loaded(_with_action_effects(deep))


def test_effects_are_lists_written_out_never_their_text():
    # the compiled shape is the PC's to make: a source's effects as JSON text are
    # refused, wherever they are
    for text in ('[{"say": "x"}]', '[{"add": "$p.hp"'):
        with pytest.raises(ruleset.RulesetError, match=r"^actions\.hit\.effects: must be"):
            loaded(_with_action_effects(text))
    data = copy.deepcopy(BASE)
    data["triggers"][0]["effects"] = '[{"lose": {"bound": "p"}}]'
    with pytest.raises(ruleset.RulesetError, match=r"triggers\[0\].effects: must be a list"):
        loaded(json.dumps(data))
    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = [{"if": True, "then": '[{"say": "x"}]'}]
    with pytest.raises(ruleset.RulesetError, match=r"actions.hit.effects\[0\].then: must be"):
        loaded(json.dumps(data))


def test_a_device_refuses_a_ruleset_not_compiled_for_it_in_one_line():
    # a file copied by hand, or compiled by an older Arbiter: the device says how to
    # send it, and never reads it another way
    source = bundled()["kaiju"].read_bytes()
    older = compiled(source).replace(ruleset.LINES_HEAD.encode(), b"//arbiter lines ", 1)
    for data in (source, older, b""):
        with pytest.raises(ruleset.RulesetError, match="^ruleset: not compiled for this "
                           "Arbiter: send it with arbiter push$"):
            ruleset.read(io.StringIO(data.decode()), None)


def test_a_source_within_its_cap_but_over_the_devices_compiled_is_refused_in_one_line(tmp_path):
    from arbiter_referee.transfer import DeviceError, compile_into

    data = copy.deepcopy(BASE)
    data["actions"]["hit"]["effects"] = [{"say": "\u00f1" * 7000}]  # each \\u00f1 in a line
    source = tmp_path / "quotes.json"
    source.write_text(json.dumps(data, ensure_ascii=False))
    assert len(source.read_bytes()) < 32768  # not 40 KB before it is compiled
    said = check_text(source.read_text())
    assert said.startswith("too large: ") and said.endswith(" bytes compiled, the limit is 40960")
    with pytest.raises(DeviceError) as refused:
        compile_into(tmp_path / "sent", [("quotes", source)])
    assert "compiled, it is" in str(refused.value) and "at most 40960" in str(refused.value)
    assert "\n" not in str(refused.value)
