"""The journal on flash: resume after a reset, and after power cut at any write."""

import json

import pytest

from arbiter.flash import Flash
from arbiter.game import journal as jnl
from arbiter.game import rules
from arbiter.game.effects import Illegal
from arbiter.game.engine import Game
from host_tools.play import bundled

SCRIPT = ["next", "add P1.energy 3", "next", "next", "roar P1", "next", "glory P2 4",
          "add P2.k1.damage 3", "undo", "redo", "next", "next", "next", "roll d20 2",
          "add P1.k2.damage 9", "next", "next", "undo", "next"] + ["next"] * 12


class PowerCut(Exception):
    pass


class CuttingFlash(Flash):
    """Flash that loses power after ``budget`` bytes: the write in progress is cut."""

    def __init__(self, root, budget=None):
        super().__init__(root)
        self.budget = budget
        self.written = 0

    def _allow(self, text):
        if self.budget is None or self.written + len(text) <= self.budget:
            self.written += len(text)
            return text, False
        part = text[: self.budget - self.written]
        self.written = self.budget
        return part, True

    def write(self, name, text):
        part, cut = self._allow(text)
        if cut:
            with open(self.path(name + ".tmp"), "w") as f:
                f.write(part)  # the rename never happens
            raise PowerCut()
        super().write(name, text)

    def append(self, name, text):
        part, cut = self._allow(text)
        with open(self.path(name), "a") as f:
            f.write(part)
        if cut:
            raise PowerCut()
        self.appended = self.written  # this event is whole on flash from here


def kaiju():
    return rules.parse(bundled()["kaiju"].read_text())


def play(flash, script=SCRIPT, seed=5):
    """Play ``script``, journaling each event; returns the state after each whole event."""
    game = Game(kaiju(), players=3, seed=seed)
    journal = jnl.Journal(flash)
    journal.start(game)
    states = [(getattr(flash, "written", 0), json.dumps(game.state))]
    for action in script:
        try:
            event = game.apply(action)
        except Illegal:
            continue
        journal.record(game, event)
        states.append((getattr(flash, "appended", 0), json.dumps(game.state)))
    return game, states


def test_a_reset_resumes_the_game_exactly(tmp_path):
    game, _ = play(Flash(str(tmp_path) + "/"))
    again = jnl.resume(jnl.Journal(Flash(str(tmp_path) + "/")), kaiju())
    assert again.state == game.state
    assert again.events == game.events
    again.apply("undo")  # undo still works after a resume
    game.apply("undo")
    assert again.state == game.state


def test_checkpoint_is_used_and_agrees_with_full_replay(tmp_path, monkeypatch):
    monkeypatch.setattr(jnl, "CHECKPOINT_EVERY", 8)
    flash = Flash(str(tmp_path) + "/")
    game, _ = play(flash)
    assert (tmp_path / "game.ckpt").exists()
    resumed = jnl.resume(jnl.Journal(flash), kaiju())
    assert resumed.state == game.state
    (tmp_path / "game.ckpt").write_text("{broken")
    assert jnl.resume(jnl.Journal(flash), kaiju()).state == game.state


def test_journal_is_a_few_bytes_per_event(tmp_path):
    flash = Flash(str(tmp_path) + "/")
    game, _ = play(flash)
    lines = (tmp_path / "game.jnl").read_text().splitlines()[1:]
    assert max(len(line) for line in lines) < 40
    assert sum(len(line) + 1 for line in lines) / len(lines) < 16


def test_no_saved_game_and_another_rulesets_game(tmp_path):
    flash = Flash(str(tmp_path) + "/")
    assert jnl.resume(jnl.Journal(flash), kaiju()) is None
    play(flash)
    with pytest.raises(Illegal, match="the saved game is kaiju"):
        jnl.resume(jnl.Journal(flash), rules.parse(bundled()["tactics"].read_text()))


def test_power_cut_at_every_write_resumes_at_the_last_whole_event(tmp_path, monkeypatch):
    monkeypatch.setattr(jnl, "CHECKPOINT_EVERY", 5)
    (tmp_path / "full").mkdir()
    full = CuttingFlash(str(tmp_path / "full") + "/")
    _, states = play(full)
    ends = {written for written, _ in states}
    # Every write boundary, a byte either side of it, and points inside writes.
    cuts = sorted({b for e in ends for b in (e - 1, e, e + 1)} |
                  set(range(states[0][0], full.written + 1, 7)))
    assert len(cuts) > 60
    for budget in cuts:
        folder = tmp_path / f"cut{budget}"
        folder.mkdir()
        flash = CuttingFlash(str(folder) + "/", budget)
        try:
            play(flash)
        except PowerCut:
            pass
        resumed = jnl.resume(jnl.Journal(Flash(str(folder) + "/")), kaiju())
        if budget < states[0][0]:
            assert resumed is None  # cut while starting: no game to resume
            continue
        expected = [state for written, state in states if written <= budget][-1]
        assert json.dumps(resumed.state) == expected, f"cut after {budget} bytes"


def test_audit_confirms_an_honest_log_and_flags_an_edited_roll(tmp_path, capsys):
    from host_tools.cli import main as arbiter

    play(Flash(str(tmp_path) + "/"))
    log = tmp_path / "game.jnl"
    assert arbiter(["audit", str(log)]) == 0
    out = capsys.readouterr().out
    assert "all rolls match the seed" in out and "commitment" in out
    lines = log.read_text().splitlines()
    rolled = next(i for i, line in enumerate(lines) if line.startswith("roll d20"))
    text, dice = lines[rolled].split("|")
    first, second = dice.split(",")
    lines[rolled] = f"{text}|{int(first) % 20 + 1},{second}"  # one die changed
    log.write_text("\n".join(lines) + "\n")
    assert arbiter(["audit", str(log)]) == 1
    out = capsys.readouterr().out
    edited = f"{int(first) % 20 + 1},{second}"
    assert f"(roll d20 2): recorded {edited}, the seed gives {first},{second}" in out
    assert "1 event(s) do not match the seed" in out
