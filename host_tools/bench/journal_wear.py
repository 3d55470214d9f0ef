"""Flash per game event (headless, CPython): the firmware's journal, which appends
each event as a short line and checkpoints every CHECKPOINT_EVERY events, next
to rewriting the whole state as JSON after every event. Also the scale run: a
long game's journal size and how long a resume takes."""

from __future__ import annotations

import json
import tempfile
import time

from host_tools.emulator.session import use_firmware_path
from host_tools.play import bundled

BUDGET_PER_EVENT = 64


def _engine():
    use_firmware_path()
    from arbiter.game import journal, rules
    from arbiter.game.effects import Illegal
    from arbiter.game.engine import Game
    from vboard import VirtualFlash

    return journal, rules, Illegal, Game, VirtualFlash


def whole_state(game) -> str:
    # What a naive save writes after each event: everything a resume needs
    # besides the ruleset (the state and the dice generator's position).
    return json.dumps({"state": game.state, "rng": game.rng.snapshot()})


def flash_per_event(ruleset: str, players: int, seed: int, actions) -> dict:
    journal, rules, Illegal, Game, VirtualFlash = _engine()
    with tempfile.TemporaryDirectory() as folder:
        flash = VirtualFlash(folder + "/")
        game = Game(rules.parse(bundled()[ruleset].read_text()), players=players, seed=seed)
        jnl = journal.Journal(flash)
        jnl.start(game)  # the header counts: it is written for this game too
        naive, events, refused = 0, 0, []
        for action in actions:
            try:
                event = game.apply(action)
            except Illegal as exc:
                refused.append(f"{action}: {exc}")
                continue
            jnl.record(game, event)
            events += 1
            naive += len(whole_state(game))
    per_event = flash.bytes_written / events if events else 0
    naive_per_event = naive / events if events else 0
    return {"events": events, "refused": refused, "bytes": flash.bytes_written,
            "per_event": round(per_event, 1), "naive_per_event": round(naive_per_event, 1),
            "ratio": round(per_event / naive_per_event, 3) if naive_per_event else None,
            "budget_ok": per_event <= BUDGET_PER_EVENT}


def scale(ruleset: str, players: int, cycle, events: int, seed: int = 1,
          marks=(1_000, 10_000)) -> list[dict]:
    """Play ``cycle`` over and over until the game holds ``events``; at each mark,
    the journal's and checkpoint's sizes and the time (CPython) to resume."""
    journal, rules, Illegal, Game, VirtualFlash = _engine()
    data = rules.parse(bundled()[ruleset].read_text())
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        flash = VirtualFlash(folder + "/")
        game = Game(data, players=players, seed=seed)
        jnl = journal.Journal(flash)
        jnl.start(game)
        tries = 0
        while len(game.events) < events and tries < events * 10:
            action = cycle[tries % len(cycle)]
            tries += 1
            try:
                event = game.apply(action)
            except Illegal:
                continue
            jnl.record(game, event)
            if len(game.events) in marks:
                rows.append(_resume_row(journal, flash, data, game))
        if not rows or rows[-1]["events"] != len(game.events):  # stopped short
            rows.append(_resume_row(journal, flash, data, game))
    return rows


def _resume_row(journal, flash, data, game) -> dict:
    began = time.perf_counter()
    again = journal.resume(journal.Journal(flash), data)
    took = time.perf_counter() - began
    assert again.state == game.state, "resume differs from the game"
    return {"events": len(game.events), "journal_bytes": flash.size(journal.JOURNAL),
            "checkpoint_bytes": flash.size(journal.CHECKPOINT) or 0,
            "resume_ms": round(took * 1000, 1),
            "replayed": len(game.events) % journal.CHECKPOINT_EVERY,
            "result": game.state.get("result")}
