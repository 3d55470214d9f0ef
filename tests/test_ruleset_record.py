"""A ruleset the device has checked whole is not walked again at each game's start:
``rulesets/NAME.ok`` holds the digest of the exact bytes that passed
(arbiter/store/checked.py). Bytes that changed any other way are checked whole."""

from __future__ import annotations

import json

from helpers.device import open_setup

from arbiter_referee.compiled import compiled
from arbiter_referee.paths import RULESETS, passed_record


def test_a_ruleset_changed_behind_its_record_is_checked_and_refused(rig, tmp_path):
    rules = json.loads((RULESETS / "kaiju.json").read_text())
    rules["players"]["min"] = 0  # valid JSON, refused by the check only
    # as mpremote cp leaves it, compiled
    (tmp_path / "rulesets" / "kaiju.json").write_bytes(compiled(json.dumps(rules)))
    assert (tmp_path / "rulesets" / "kaiju.ok").exists()  # the old bytes' record stays
    open_setup(rig, "kaiju")
    assert rig.lines[0] == "Can't load"
    assert "players.min: must be 1..8" in " ".join(rig.lines)


def test_a_ruleset_checked_once_starts_without_the_walk(rig, tmp_path, monkeypatch):
    from arbiter.game import ruleset

    checks = []
    real = ruleset.check
    monkeypatch.setattr(ruleset, "check", lambda data, deep=True: checks.append(1) or
                        real(data, deep))
    record = tmp_path / "rulesets" / "jugger.ok"
    record.unlink()  # installed before records were kept: checked at the first start
    open_setup(rig, "jugger")
    assert rig.lines[1] == "Game length   <short>" and len(checks) == 1
    # the device notes what it checked as a deploy's push does
    assert record.read_text() == passed_record(compiled((RULESETS / "jugger.json").read_bytes()))
    rig.keys("b", "b")
    open_setup(rig, "jugger")
    assert rig.lines[1] == "Game length   <short>" and len(checks) == 1


def test_a_push_keeps_the_record_and_a_removal_drops_it(tmp_path, capsys):
    from arbiter.hw.flash import Flash
    from arbiter.store import install

    flash = Flash(str(tmp_path) + "/")
    (tmp_path / "rulesets").mkdir()
    data = compiled((RULESETS / "tactics.json").read_bytes())
    (tmp_path / "rulesets" / "tactics.part").write_bytes(data)
    install.push("tactics", flash=flash)
    assert capsys.readouterr().out == "OK tactics\n"
    assert (tmp_path / "rulesets" / "tactics.ok").read_text() == passed_record(data)
    install.remove("tactics", flash=flash)
    assert not (tmp_path / "rulesets" / "tactics.ok").exists()
