"""Flash per game event (headless, CPython): the firmware's journal, which appends
each event as a short line and is compacted every CHECKPOINT_EVERY events, next
to rewriting the whole state as JSON after every event. Also the scale run: a
long game played as the device plays it (a bounded game, ``DEVICE_KEEP``), its
journal's size and what a resume costs at marks, next to the same game kept
whole (every event in RAM and in an uncompacted journal)."""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from pathlib import Path

from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.emulator.session import use_firmware_path
from arbiter_referee.rulesets import bundled

# bytes written per event: the journal's lines and checkpoints, and the journals they
# replace kept whole for the audit (store/journal.py, PAST): about twice the first two
BUDGET_PER_EVENT = 128
RESUME_HEAP = 2 * 1024 * 1024  # no collection inside a resume here: room for its garbage
# Under real MicroPython: resume the journal on /flash/ (the ruleset loaded first,
# as the device does) and print its fuel, what it allocated, and what stays alive.
# A driver's start under real MicroPython: the journal and flash modules, and the
# ruleset on /flash/ loaded first, as the device does.
WITH_RULES = """
__import__('arbiter.store.journal')
__import__('arbiter.store.saved')
__import__('arbiter.hw.flash')
jmod = sys.modules['arbiter.store.journal']
flash = sys.modules['arbiter.hw.flash'].Flash('/flash/')
rules = vrun.load_file('/flash/rulesets/' + drvdata.RULESET + '.json')
gc.collect()
"""
RESUME = WITH_RULES + """
base = gc.mem_alloc()
began = int(host.call('fuel', ''))
saved = sys.modules['arbiter.store.saved']
game = saved.resume(jmod.Journal(flash), rules, None, jmod.DEVICE_KEEP)
spent = int(host.call('fuel', '')) - began
allocated = gc.mem_alloc() - base
gc.collect()
print('R %d %d %d %d' % (spent, allocated, gc.mem_alloc() - base, game.count()))
"""


def _engine():
    use_firmware_path()
    from arbiter.game import Illegal
    from arbiter.game.engine import Game
    from arbiter.store import journal
    from vboard import VirtualFlash

    return journal, Illegal, Game, VirtualFlash


def whole_state(game) -> str:
    # What a naive save writes after each event: everything a resume needs
    # besides the ruleset (the state and the dice generator's position).
    return json.dumps({"state": game.state, "rng": game.rng.snapshot()})


def flash_per_event(ruleset: str, players: int, seed: int, actions, options=None) -> dict:
    """What a game writes to flash per event, as the device plays it: in bytes of its
    files, and on littlefs as a Pico mounts it (blocks erased and bytes programmed,
    which is what wears the flash), beside rewriting the whole state each event."""
    journal, Illegal, Game, VirtualFlash = _engine()
    from arbiter.hw.flash import Flash
    from arbiter_referee.bench import littlefs

    device = littlefs.Device()
    lfs = Flash("", littlefs.Filesystem(littlefs.mount(device, format=True)))
    lfs._os.mkdir("rulesets")  # a device after arbiter deploy: the bundled games on it
    for path in bundled().values():
        lfs.write("rulesets/" + path.name, compiled(path.read_bytes()).decode())
    erased, programmed = device.erases, device.programmed
    with tempfile.TemporaryDirectory() as folder:
        flash = VirtualFlash(folder + "/")
        game = Game(loaded(bundled()[ruleset].read_bytes()), players, options, seed,
                    journal.DEVICE_KEEP)  # as the device plays it
        journals = journal.Journal(flash), journal.Journal(lfs)
        for jnl in journals:
            jnl.start(game)  # the header counts: it is written for this game too
        naive, events, refused = 0, 0, []
        for action in actions:
            try:
                event = game.apply(action)
            except Illegal as exc:
                refused.append(f"{action}: {exc}")
                continue
            for jnl in journals:
                jnl.record(game, event)
            events += 1
            naive += len(whole_state(game))
    per_event = flash.bytes_written / events if events else 0
    naive_per_event = naive / events if events else 0
    erased, programmed = device.erases - erased, device.programmed - programmed
    return {"events": events, "refused": refused, "bytes": flash.bytes_written,
            "per_event": round(per_event, 1), "naive_per_event": round(naive_per_event, 1),
            "ratio": round(per_event / naive_per_event, 3) if naive_per_event else None,
            "budget_ok": per_event <= BUDGET_PER_EVENT,
            "littlefs_erases_per_event": round(erased / events, 3) if events else 0,
            "littlefs_programmed_per_event": round(programmed / events) if events else 0,
            "littlefs_most_erased_block": max(device.erased),
            "result": game.state["result"], "winner": game.state["winner"]}


def scale(ruleset: str, players: int, cycle, events: int, seed: int = 1,
          marks=None, micropython: bool = True) -> list[dict]:
    """Play ``cycle`` over and over as the device does until the game holds
    ``events``; at each mark, the journal's size, what the game holds in RAM and
    what a resume costs (CPython time; with ``micropython``, fuel and heap under
    real MicroPython), beside the same game kept whole. The default marks include
    the event before the last checkpoint: a resume there replays the most."""
    journal, Illegal, Game, VirtualFlash = _engine()
    if marks is None:
        marks = (1_000, 2_000, 5_000, events - events % journal.CHECKPOINT_EVERY - 1, events)
    data = loaded(bundled()[ruleset].read_bytes())
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        flash = VirtualFlash(folder + "/play/")
        Path(flash.root).mkdir()
        game = Game(data, players=players, seed=seed, keep=journal.DEVICE_KEEP)
        jnl = journal.Journal(flash)
        jnl.start(game)
        whole = flash.size(journal.JOURNAL)  # the journal never compacted
        tries = 0
        while game.count() < events and tries < events * 10:
            action = cycle[tries % len(cycle)]
            tries += 1
            try:
                event = game.apply(action)
            except Illegal:
                continue
            jnl.record(game, event)
            whole += len(event) + 1
            if game.count() in marks and all(r["events"] != game.count() for r in rows):
                rows.append(_row(journal, flash, data, game, whole, f"{folder}/at{len(rows)}"))
        if not rows or rows[-1]["events"] != game.count():  # stopped short
            rows.append(_row(journal, flash, data, game, whole, f"{folder}/at{len(rows)}"))
        if micropython:
            for i, row in enumerate(rows):
                row.update(_resume_micropython(Path(f"{folder}/at{i}"), ruleset))
                if row["resumed_events"] != row["events"]:
                    raise RuntimeError(f"MicroPython resumed {row['resumed_events']} events "
                                       f"of {row['events']}")
    return rows


def _row(journal, flash, data, game, whole, keep_at) -> dict:
    began = time.perf_counter()
    from arbiter.store import saved

    again = saved.resume(journal.Journal(flash), data, keep=journal.DEVICE_KEEP)
    took = time.perf_counter() - began
    assert again.state == game.state and again.count() == game.count(), \
        "resume differs from the game"
    checkpoint = _checkpoint_line(flash.path(journal.JOURNAL), journal.CHECKPOINT)
    shutil.copytree(flash.root, keep_at)  # this journal, for the MicroPython resume
    return {"events": game.count(), "journal_bytes": flash.size(journal.JOURNAL),
            "whole_journal_bytes": whole, "checkpoint_bytes": len(checkpoint),
            "flash_per_event": round(flash.bytes_written / game.count(), 1),
            "past_bytes": flash.size(journal.PAST) or 0,
            "ram_events": len(game.history.events), "ram_log": len(game.log),
            "whole_ram_events": game.count(), "whole_ram_log": game.logged(),
            "resume_ms": round(took * 1000, 1),
            "replayed": game.count() - (json.loads(checkpoint)["n"] if checkpoint else 0),
            "result": game.state.get("result")}


def _checkpoint_line(path: str, prefix: str) -> str:
    with open(path) as f:
        return next((line[len(prefix):] for line in f if line.startswith(prefix)), "")


def _resume_micropython(flash_dir: Path, ruleset: str) -> dict:
    from arbiter_referee.compiled import factory_flash
    from arbiter_referee.emulator.session import run_driver

    factory_flash(flash_dir)
    result = run_driver("vrun", RESUME, {"/flash": (flash_dir, True)}, RESUME_HEAP,
                        data={"RULESET": ruleset}, metered=True)
    line = next((line for line in result.stdout.splitlines() if line.startswith("R ")), None)
    if result.exit_code != 0 or line is None:
        raise RuntimeError(f"resume under MicroPython failed:\n{result.stderr}")
    fuel, allocated, live, count = (int(v) for v in line.split()[1:])
    return {"resume_fuel": fuel, "resume_allocated": allocated, "resume_live": live,
            "resumed_events": count}


def scale_lines(scale: dict) -> list[str]:
    """The scale run as ``arbiter bench`` prints it."""
    out = [f"== scale: a long {scale['ruleset']} game as the device plays it (kept whole: "
           f"in brackets)"]
    for m in scale["marks"]:
        out.append(f"  {m['events']:>6} events: journal {_kb(m['journal_bytes'])} "
                   f"({_kb(m['whole_journal_bytes'])}), checkpoint {_kb(m['checkpoint_bytes'])},"
                   f" {m['flash_per_event']} B/event written, the journals it replaced "
                   f"{_kb(m.get('past_bytes', 0))}")
        out.append(f"         in RAM {m['ram_events']} events ({m['whole_ram_events']}), "
                   f"{m['ram_log']} log entries ({m['whole_ram_log']})")
        mp = (f"; MicroPython {m['resume_fuel']:,} fuel, {_kb(m['resume_live'])} live after"
              if "resume_fuel" in m else "")
        out.append(f"         resume replays {m['replayed']} events: {m['resume_ms']} ms "
                   f"CPython{mp}")
    return out


def _kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"
