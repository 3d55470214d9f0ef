"""``arbiter validate``: every bundled ruleset passes; each kind of bad ruleset is
refused with a short reason naming where, and exit status 1."""

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arbiter_referee.cli import main as arbiter
from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.rulesets import SCHEMA, bundled

KAIJU = json.loads(bundled()["kaiju"].read_text())


@pytest.mark.parametrize("name", sorted(bundled()))
def test_bundled_rulesets_validate(name, capsys):
    assert arbiter(["validate", name]) == 0
    assert capsys.readouterr().out.strip().endswith(": ok")


def mutate(change):
    data = json.loads(json.dumps(KAIJU))
    change(data)
    return json.dumps(data)  # one line: the mutated ruleset stays under the size cap


def _set(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


BAD = {
    "truncated JSON": (bundled()["kaiju"].read_text()[:500], "not valid JSON at line"),
    "over the size cap": ('{"format": 1, "name": "big", "notes": "%s"}' % ("x" * 50000),
                          "too large"),
    "die with no faces": (mutate(_set(["dice", "d6", "faces"], [])), "dice.d6.faces"),
    "die without faces": (mutate(_set(["dice", "d6"], {"label": "six"})), "dice.d6"),
    "counter min over max": (mutate(_set(["counters", "fury", "min"], 150)),
                             "counters.fury: min 150 exceeds max 99"),
    "threshold on an unknown counter": (
        mutate(lambda d: d["triggers"].append({"counter": "rage", "at": 3})),
        "triggers[%d].counter: unknown counter 'rage'"
        % len(json.loads(bundled()["kaiju"].read_text())["triggers"])),
    "more than 8 players": (mutate(_set(["players", "max"], 9)), "players.max"),
    "top level not an object": ("[1, 2, 3]", "ruleset: must be an object"),
    "unknown format version": (mutate(_set(["format"], 2)),
                               "format 2 is not understood; this Arbiter reads format 1"),
    "unknown effect": (mutate(lambda d: d["phases"][0].update(enter=[{"explode": 1}])),
                       "phases[0].enter[0]"),
    "a long value of the wrong type": (mutate(_set(["notes"], ["house rule " * 40] * 10)),
                                       "notes: must be text"),
    "roll of an unknown die": (mutate(lambda d: d["phases"][0].update(
        enter=[{"roll": "d7", "reason": "x"}])), "unknown die 'd7'"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_rulesets_are_refused_with_a_reason(case, tmp_path, capsys):
    text, expected = BAD[case]
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert arbiter(["validate", str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert expected in err
    assert len(err.splitlines()) <= 2
    assert len(err) < 200 + len(str(path))  # a reason, not the file back


def test_the_device_refuses_what_the_host_refuses():
    from arbiter.game import ruleset

    for case in ("die with no faces", "counter min over max", "threshold on an unknown counter",
                 "more than 8 players", "top level not an object", "unknown format version",
                 "over the size cap", "truncated JSON"):
        with pytest.raises(ruleset.RulesetError):
            sent = compiled(BAD[case][0])
            ruleset.check_size(len(sent))  # the device's first check, on the file's size
            loaded(sent)


def test_device_names_the_format_it_needs():
    from arbiter.game import ruleset

    with pytest.raises(ruleset.RulesetError, match="this Arbiter reads format 1"):
        loaded('{"format": 7, "name": "future"}')


def test_the_size_cap_counts_bytes_on_the_device_as_on_the_host(tmp_path, capsys):
    from arbiter.game import ruleset
    from arbiter.hw.flash import Flash
    from arbiter.screens.setup import load_rules

    # as many é as keep the compiled file's characters under the cap: twice as many
    # bytes in UTF-8 (the notes stay in its JSON, not escaped)
    rest = len(compiled(json.dumps(dict(KAIJU, notes=""))))
    data = dict(KAIJU, notes="é" * (ruleset.MAX_FILE_BYTES - rest - 1))
    sent = compiled(json.dumps(data, ensure_ascii=False))
    assert len(sent.decode()) < ruleset.MAX_FILE_BYTES < len(sent)
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "kaiju.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert arbiter(["validate", str(tmp_path / "kaiju.json")]) == 1
    assert "too large: %d bytes compiled" % len(sent) in capsys.readouterr().err
    (tmp_path / "rulesets" / "kaiju.json").write_bytes(sent)
    with pytest.raises(ruleset.RulesetError, match="too large"):
        load_rules(Flash(str(tmp_path) + "/"), "kaiju")


SCHEMA_DOC = json.loads(SCHEMA.read_text())


def test_the_schema_has_a_url_for_its_id():
    parts = urlsplit(SCHEMA_DOC["$id"])
    assert parts.scheme == "https" and parts.netloc and parts.path.endswith(".json")


def test_a_ruleset_naming_the_schema_validates_on_the_host_and_the_device(tmp_path, capsys):

    text = json.dumps({"$schema": SCHEMA_DOC["$id"], **KAIJU})
    path = tmp_path / "kaiju.json"
    path.write_text(text)
    assert arbiter(["validate", str(path)]) == 0, capsys.readouterr().err
    assert loaded(text)["name"] == "kaiju"


@pytest.mark.parametrize("name", sorted(bundled()))
def test_rulesets_validate_against_the_schema_found_by_its_id(name):
    # as an editor does: the ruleset's "$schema" is looked up by the schema's $id
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resource(SCHEMA_DOC["$id"],
                                        Resource.from_contents(SCHEMA_DOC))
    data = {"$schema": SCHEMA_DOC["$id"], **json.loads(bundled()[name].read_text())}
    validator = Draft202012Validator({"$ref": data["$schema"]}, registry=registry)
    assert [e.message for e in validator.iter_errors(data)] == []


def test_vs_code_maps_the_rulesets_to_the_schema():
    root = Path(__file__).resolve().parents[1]
    settings = json.loads((root / ".vscode" / "settings.json").read_text())
    (entry,) = [e for e in settings["json.schemas"]
                if (root / e["url"]).resolve() == SCHEMA.resolve()]
    assert "/rulesets/*.json" in entry["fileMatch"]
