"""Does a long game need more heap than its start? (issue 18)

A game of ``events`` events played as the device plays it (the bounded log and
history of ``DEVICE_KEEP``, every event journaled on flash, compacted now and
then) under real MicroPython, the firmware as ``.mpy``, collected after every
action. Per action: the most in use (what is alive and the action's garbage:
the heap it needs) and what is alive after. The figures of the first
``FIRST`` events beside those of the whole game give the growth.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from arbiter_referee.bench import scenarios
from arbiter_referee.bench.journal_wear import WITH_RULES

EVENTS, FIRST = 3_000, 100
GROWTH_BUDGET = 0.05  # a long game needs at most 5% more heap than its first actions
HEAP = 1024 * 1024  # room for any action's garbage: collected between actions here

# Juggernauts ends once a juggernaut falls: a cycle of turns without attacks
# (defences, an undo and redo) keeps it going, its rounds counting up.
CYCLES = {
    "jugger": (2, (), scenarios.SCALE_CYCLE),
    "juggernauts": (2, ("pick P1 d4", "pick P2 d6"), ("next",) * 6 + (
        "defend discard=0 level=1 p=P1 pos=2", "defend discard=0 level=1 p=P2 pos=5",
        "undo", "redo")),
}

BODY = WITH_RULES + """
game = vrun.Game(rules, drvdata.PLAYERS, None, drvdata.SEED, jmod.DEVICE_KEEP)
journal = jmod.Journal(flash)
journal.start(game)
for action in drvdata.START:
    journal.record(game, vrun.apply(game, action))
action = None
gc.collect()
tries = first_high = first_live = high = live_high = 0
while game.count() < drvdata.EVENTS and tries < drvdata.EVENTS * 10:
    event = vrun.apply(game, drvdata.CYCLE[tries % len(drvdata.CYCLE)])
    tries += 1
    if event is not None:
        journal.record(game, event)
    event = None
    used = gc.mem_alloc()
    gc.collect()
    live = gc.mem_alloc()
    high = max(high, used)
    live_high = max(live_high, live)
    if game.count() <= drvdata.FIRST:
        first_high, first_live = high, live_high
print('G %d %d %d %d %d' % (game.count(), first_high, first_live, high, live_high))
"""


def growth(ruleset: str, events: int = EVENTS, first: int = FIRST, seed: int = 1) -> dict:
    """{"events", "first": heap needed and live over the first ``first`` events,
    "whole": the same over all, "growth": how much more the whole game needs}."""
    from arbiter_referee.bench.heap import device_firmware
    from arbiter_referee.compiled import factory_flash
    from arbiter_referee.emulator.session import run_driver

    players, start, cycle = CYCLES[ruleset]
    with tempfile.TemporaryDirectory() as folder:
        factory_flash(Path(folder))
        result = run_driver("vrun", BODY, {"/flash": (Path(folder), True)}, HEAP,
                            device_firmware(),
                            {"RULESET": ruleset, "PLAYERS": players, "SEED": seed,
                             "START": start, "CYCLE": cycle, "EVENTS": events,
                             "FIRST": first})
    line = next((line for line in result.stdout.splitlines() if line.startswith("G ")), None)
    if result.exit_code != 0 or line is None:
        raise RuntimeError(f"the long game under MicroPython failed:\n{result.stderr[-2000:]}")
    count, first_high, first_live, high, live_high = (int(v) for v in line.split()[1:])
    grew = round(high / first_high - 1, 3)
    return {"events": count, "first_events": first,
            "first": {"heap_high": first_high, "heap_live": first_live},
            "whole": {"heap_high": high, "heap_live": live_high},
            "growth": grew, "budget_ok": grew <= GROWTH_BUDGET}
