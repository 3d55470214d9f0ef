"""docs/rulesets.md stays true: its rulesets validate, its shell sessions print
what it shows, and it names every block, field, effect and operator the code has."""

from __future__ import annotations

import json
import re

import pytest
from helpers import REPO
from helpers.docs import FENCE, run_command, steps

from arbiter_referee.rulesets import SCHEMA, bundled, check_text

DOC = REPO / "docs" / "rulesets.md"
TEXT = DOC.read_text()
BLOCKS = [(m.group(1), m.group(2)) for m in FENCE.finditer(TEXT)]


def _json_blocks():
    out = []
    for lang, body in BLOCKS:
        if lang == "json":
            try:
                out.append((body, json.loads(body)))
            except ValueError as exc:
                pytest.fail(f"a json block in {DOC.name} does not parse ({exc}):\n{body}")
    return out


RULESETS = {data["name"]: body for body, data in _json_blocks() if "format" in data}
FRAGMENTS = [data for _, data in _json_blocks() if "format" not in data and "screen" not in data]
SESSIONS = [body for lang, body in BLOCKS if lang == "console"]


def backticked(name: str) -> bool:
    return f"`{name}`" in TEXT


# -- (1) every ruleset in the doc validates ---------------------------------------------


def test_the_doc_has_rulesets_fragments_and_sessions():
    assert "duel" in RULESETS and len(FRAGMENTS) >= 5 and len(SESSIONS) >= 2


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_full_ruleset_in_the_doc_validates(name):
    assert check_text(RULESETS[name]) is None


@pytest.mark.parametrize("index", range(len(FRAGMENTS)))
def test_every_fragment_validates_as_part_of_a_ruleset(index):
    fragment = FRAGMENTS[index]
    text = json.dumps({"format": 1, "name": "fragment", **fragment})
    assert check_text(text) is None, fragment


# -- (2) the shell sessions print what the doc shows -----------------------------------


def _shown_json_after(session_index: int):
    """The json block with a ``screen`` that follows the session, before the next one."""
    seen = -1
    for lang, body in BLOCKS:
        if lang == "console":
            seen += 1
        elif lang == "json" and seen == session_index and '"screen"' in body:
            return json.loads(body)
    return None


def _contains(actual, shown, where="state"):
    """``shown`` is ``actual`` in part: fewer keys, and a log shows some of its entries."""
    if isinstance(shown, dict):
        assert isinstance(actual, dict), where
        for key, value in shown.items():
            assert key in actual, f"{where}.{key} is not in the output"
            _contains(actual[key], value, f"{where}.{key}")
    elif isinstance(shown, list) and where == "state.log":
        rest = iter(actual)
        for entry in shown:
            assert any(entry == got for got in rest), f"log entry {entry} not found (in order)"
    else:
        assert actual == shown, f"{where}: the doc shows {shown!r}, the code gives {actual!r}"


def _play(index, tmp_path, monkeypatch, capsys):
    """Run session ``index`` as a reader would; the last ``--json`` state, if any."""
    monkeypatch.chdir(tmp_path)
    for name, text in RULESETS.items():
        (tmp_path / f"{name}.json").write_text(text)
    last = {"code": None, "json": None}
    for command, expected, heredoc in steps(SESSIONS[index]):
        got = run_command(command, heredoc, tmp_path, capsys, last)
        if got is not None:
            assert got == expected, f"$ {command}"
    return last["json"]


@pytest.mark.parametrize("index", range(len(SESSIONS)))
def test_every_session_prints_what_the_doc_shows(index, tmp_path, monkeypatch, capsys):
    state = _play(index, tmp_path, monkeypatch, capsys)
    shown = _shown_json_after(index)
    if shown is not None:
        assert state is not None, "a JSON excerpt follows a session with no --json"
        _contains(state, shown)


def test_the_worked_example_ends_as_described(tmp_path, monkeypatch, capsys):
    """The game the doc narrates is the one played, and its JSON is all explained."""
    index = next(i for i, s in enumerate(SESSIONS) if "--json" in s)
    state = _play(index, tmp_path, monkeypatch, capsys)
    assert (state["result"], state["winner"], state["seed"]) == ("win", "P1", 5)
    assert "P1, the last player in, won" in TEXT
    actions = json.loads(RULESETS["duel"])["actions"]
    for field in state:
        assert backticked(field), f"--json field {field} is not documented"
    for entry in state["log"]:
        assert backticked(entry["event"]) or entry["event"] in actions, entry
        for field in entry:
            assert backticked(field), f"log field {field} is not documented"


def test_generic_actions_are_documented():
    from arbiter.game.actions import GENERIC

    for name in GENERIC:
        assert backticked(name), name


# -- (3) every effect and operator in the code is named -----------------------------------


def _effects_in_code() -> set[str]:
    from arbiter.game.effects import EFFECTS  # the table the engine runs and the checker reads

    return set(EFFECTS)


def _operators_in_code() -> set[str]:
    from arbiter.game.expr import OPERATORS

    return set(OPERATORS)


@pytest.mark.parametrize("name", sorted(_effects_in_code()))
def test_every_effect_is_documented(name):
    assert backticked(name)
    assert re.search(r"^\| `%s` \|" % re.escape(name), TEXT, re.M), f"no row for {name}"


@pytest.mark.parametrize("name", sorted(_operators_in_code()))
def test_every_operator_is_documented(name):
    assert backticked(name)


# -- (4) every block and field the schema allows is named ------------------------------


def _schema_fields(node, out):
    if isinstance(node, dict):
        out.update(node.get("properties", {}))
        for value in node.values():
            _schema_fields(value, out)
    elif isinstance(node, list):
        for value in node:
            _schema_fields(value, out)
    return out


def test_every_top_level_block_is_documented():

    schema = json.loads(SCHEMA.read_text())
    top = set(schema["properties"])
    from arbiter.game import shapes

    firmware = {word.split(":")[0] for word in shapes._TOP.split()}
    assert top == firmware, "the schema and the firmware allow different blocks"
    for key in top:
        assert backticked(key), key
        row = r"^\| `%s` \|" % re.escape(key)
        assert re.search(row, TEXT, re.M), f"no row for {key} in the table"


def test_every_field_in_the_schema_is_documented():
    fields = _schema_fields(json.loads(SCHEMA.read_text()), {})
    missing = sorted(f for f in fields if not backticked(f))
    assert not missing


def test_the_numbers_and_names_the_doc_gives_are_the_codes():
    from arbiter.game import FORMAT, ruleset
    from arbiter.game.rng import commitment
    from arbiter.store import journal

    assert f"At most {ruleset.MAX_FILE_BYTES} bytes" in TEXT
    assert f'`"format": {FORMAT}`' in TEXT
    assert f"1 to {ruleset.MAX_PLAYERS}" in TEXT
    assert backticked(journal.JOURNAL) and backticked(journal.CHECKPOINT.strip())
    assert f"every {journal.CHECKPOINT_EVERY} events" in TEXT
    assert backticked(journal.CLOSED.strip())
    with pytest.raises(ruleset.RulesetError) as refused:
        ruleset.check({"format": FORMAT + 1, "name": "x"})
    assert backticked(str(refused.value))
    assert commitment(5) in TEXT  # the worked example's seed
    for name in bundled():
        assert backticked(name), name
