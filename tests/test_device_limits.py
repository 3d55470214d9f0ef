"""What the device cannot hold is never the game's end (issue 41): an action that runs
out of heap or of C stack is refused with the reason and the game put back as it was
(no replay: issue 42); a preview that cannot run leaves its form; an undo whose rewind
failed reads the game back from its journal; and a saved game the device cannot
replay stays on flash instead of being set aside."""

from __future__ import annotations

import pytest
from helpers.device import fill_form, game_of, open_menu_item, play_screen, start_game

from arbiter_referee.emulator.rig import Rig

LIMITS = [(MemoryError("memory allocation failed"), "not enough memory"),
          (RuntimeError("maximum recursion depth exceeded"),
           "the rules nest too deep for the device")]


def _kaiju(rig):
    """A Kaiju game begun on the device, journaled; its ``next`` moves on a player or
    a phase, running the phase's effects."""
    start_game(rig, "kaiju")
    return play_screen(rig)


def _one_next(tmp_path):
    """A Kaiju game on the device, one ``next`` in: (rig, play screen, state, events)."""
    rig = Rig(tmp_path)
    screen = _kaiju(rig)
    assert screen.act(rig.app, "next", rig.board.elapsed)
    return rig, screen, repr(screen.game.state), screen.game.count()


def _failing(monkeypatch, target, name, error, times=1):
    """``target.name`` raises ``error`` the next ``times`` calls, then works again."""
    real = getattr(target, name)
    left = [times]

    def failing(*args, **kwargs):
        if left[0] > 0:
            left[0] -= 1
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(target, name, failing)


@pytest.mark.parametrize(("error", "reason"), LIMITS)
def test_an_action_out_of_heap_or_stack_is_refused_with_the_reason(
        tmp_path, monkeypatch, error, reason):
    from arbiter.game import effects

    rig = Rig(tmp_path)
    screen = _kaiju(rig)
    game = screen.game
    before = (repr(game.state), game.count(), (tmp_path / "game.jnl").read_text())
    _failing(monkeypatch, effects, "_open", error)  # its effects' first block
    assert not screen.act(rig.app, "next", rig.board.elapsed)
    assert screen.notice == "cannot do that: " + reason
    assert (repr(game.state), game.count(), (tmp_path / "game.jnl").read_text()) == before
    assert screen.act(rig.app, "next", rig.board.elapsed), screen.notice


@pytest.mark.parametrize(("error", "reason"), LIMITS)
def test_a_refusal_puts_the_game_back_without_replaying_it(
        tmp_path, monkeypatch, error, reason):
    # issue 42: a refusal replayed the game from its last snapshot, up to 390 ms on
    # a Pico; it now puts back the state the action started from. A rewind that would
    # fail shows that none is made: the refusal stays a plain one, the game as it was
    from arbiter.game import effects, undo

    rig, screen, state, count = _one_next(tmp_path)
    _failing(monkeypatch, effects, "_open", error, times=1)  # the action fails...
    _failing(monkeypatch, undo, "rewind", error, times=1)  # ...a rewind would too
    assert not screen.act(rig.app, "next", rig.board.elapsed)
    assert screen.notice == "cannot do that: " + reason
    assert repr(game_of(rig).state) == state and game_of(rig).count() == count
    assert screen.act(rig.app, "next", rig.board.elapsed), screen.notice
    again = rig.reboot()  # and the journal resumes as ever
    again.settle()
    assert again.lines[0] == "Game restored"
    assert game_of(again).count() == count + 1


def test_an_undo_whose_rewind_fails_reads_the_game_back(tmp_path, monkeypatch):
    from arbiter.game import undo

    rig, screen, state, count = _one_next(tmp_path)
    _failing(monkeypatch, undo, "rewind", MemoryError("memory allocation failed"))
    assert not screen.act(rig.app, "undo", rig.board.elapsed)
    assert screen.notice == "cannot undo: not enough memory (the game is read back)"
    rig.run(200)
    assert repr(game_of(rig).state) == state and game_of(rig).count() == count
    assert screen.act(rig.app, "undo", rig.board.elapsed), screen.notice  # then it undoes


@pytest.mark.parametrize(("error", "reason"), LIMITS)
def test_a_saved_game_the_device_cannot_replay_stays_on_flash(
        tmp_path, monkeypatch, error, reason):
    from arbiter.game import replay

    rig = _one_next(tmp_path)[0]
    journal = (tmp_path / "game.jnl").read_text()
    _failing(monkeypatch, replay, "replay", error)  # the boot's replay fails
    again = rig.reboot()
    again.settle()
    said = " ".join(again.lines)
    assert said.startswith("Saved game Could not resume kaiju: %s It stays on flash" % reason)
    assert (tmp_path / "game.jnl").read_text() == journal
    assert not (tmp_path / "game.jnl.bad").exists()
    last = again.reboot()  # the next boot resumes it
    last.settle()
    assert last.lines[0] == "Game restored"


@pytest.mark.parametrize(("error", "reason"), LIMITS)
def test_a_preview_the_heap_cannot_hold_leaves_the_form_and_the_game(
        tmp_path, monkeypatch, error, reason):
    # the chip at 144 KB: Kaiju's damage form ran out of heap while its preview read
    # the action from flash, and the device crashed (issue 42). A preview is a help:
    # without it the form stays, and A does the action
    import json

    from helpers.device import act
    from helpers.game import piece

    from arbiter.game import effects
    from arbiter_referee.compiled import compiled
    from arbiter_referee.rulesets import bundled

    rig = Rig(tmp_path)
    data = json.loads(bundled()["kaiju"].read_text())
    data["phases"][4]["fast"] = "damage"  # its Action's knob: the damage form
    (tmp_path / "rulesets" / "kaiju.json").write_bytes(compiled(json.dumps(data)))
    start_game(rig, "kaiju", "right")  # 3 players, as test_fast_path's knob
    for action in ["next", "next", "pass P1", "pass P2", "pass P3",
                   "active P1 k1", "active P2 k1", "active P3 k1"]:  # Rex, Kraken, Hive
        act(rig, action)
    rig.run(100)
    game = game_of(rig)
    _failing(monkeypatch, effects, "_open", error)  # the preview's first read
    rig.keys("right")  # the knob: damage, previewed as its fields change
    rig.run(200)
    assert not any("crash" in line for line in rig.device.log.lines)
    assert any(line.startswith("Damage: <Rex> <1>") for line in rig.lines), rig.lines
    rig.keys("a")
    done = game.history.events[-1]
    assert done.startswith("damage ") and done.endswith(" k=%s n=1" % piece(game, "Rex"))


UNSAVED = [(MemoryError("memory allocation failed"), "not saved: not enough memory"),
           (OSError(28), "not saved: the flash is full. Free some space")]  # ENOSPC


@pytest.mark.parametrize(("error", "reason"), UNSAVED)
def test_an_action_the_journal_cannot_hold_is_refused_and_the_game_read_back(
        tmp_path, monkeypatch, error, reason):
    # the chip at 144 KB: a MemoryError in the journal's append, after the action was
    # applied, crashed the device (the game in RAM one event ahead of the flash). Now
    # it is refused like any action the device cannot hold, and nothing is lost
    rig, screen, state, count = _one_next(tmp_path)
    journal = (tmp_path / "game.jnl").read_text()
    _failing(monkeypatch, rig.board.flash, "append", error)
    assert not screen.act(rig.app, "next", rig.board.elapsed)
    assert screen.notice == reason
    rig.run(200)
    assert rig.device.app is not None and rig.lines[0] != "Error", rig.lines
    assert reason in " ".join(rig.lines)
    assert repr(game_of(rig).state) == state and game_of(rig).count() == count
    assert (tmp_path / "game.jnl").read_text() == journal
    assert play_screen(rig).act(rig.app, "next", rig.board.elapsed)  # then it goes on
    again = rig.reboot()
    again.settle()
    assert again.lines[0] == "Game restored"
    assert game_of(again).count() == count + 1


def test_a_forms_action_the_journal_cannot_hold_reads_the_game_back(
        tmp_path, monkeypatch):
    # a form's action is done in a pass of its own (act_later); a refused one opens its
    # form again, but one the journal could not hold reads the game back first
    rig, screen, state, count = _one_next(tmp_path)
    _failing(monkeypatch, rig.board.flash, "append", MemoryError("memory allocation failed"))
    open_menu_item(rig, "Damage")
    fill_form(rig, [])
    rig.run(200)
    assert rig.app.screen is play_screen(rig), rig.lines
    assert "not saved: not enough memory" in " ".join(rig.lines)
    assert repr(game_of(rig).state) == state and game_of(rig).count() == count


def test_a_compaction_the_heap_cannot_hold_loses_nothing(tmp_path, monkeypatch):
    # the journal is rewritten every CHECKPOINT_EVERY events, in a pass of its own:
    # one that fails leaves the journal as it was (written atomically), the game read
    # back from it, and says nothing to the table (the action was saved)
    from arbiter.store import journal

    monkeypatch.setattr(journal, "CHECKPOINT_EVERY", 2)
    rig, screen, state, count = _one_next(tmp_path)
    _failing(monkeypatch, rig.board.flash, "write", MemoryError("memory allocation failed"))
    assert screen.act(rig.app, "next", rig.board.elapsed)  # the second event: due
    rig.run(200)
    assert rig.device.app is not None and rig.lines[0] != "Error", rig.lines
    assert game_of(rig).count() == count + 1 and not play_screen(rig).notice
    assert any(line.startswith("journal not compacted") for line in rig.device.log.lines)
    again = rig.reboot()
    again.settle()
    assert again.lines[0] == "Game restored"
    assert game_of(again).count() == count + 1
