"""Presses per refereed action: a recorded game's key script replayed on the emulated
device (CPython: the same frames, quick), each event the journal records matched to
the press that made it.

A refereed action is a press that made the journal record something (an action, a
next, an undo; a confirmed action and the next it brings are one); its count is the
presses since the last such press, that one included: the menus opened, fields set,
pages read and refusals on the way. Presses before the game starts (the setup, the
dice seal) and after its last action are no action's.
"""

from __future__ import annotations

import contextlib
import io
import tempfile
from pathlib import Path

from arbiter_referee.bench.bus import median, percentile
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.session import use_firmware_path

BUDGET = 3  # the median a phone's life counter sets (issue 21)
P90_BUDGET = 6  # nine actions in ten, menu actions included (issue 48)


def per_action(seed: int, script: str) -> list[int]:
    """The presses each refereed action of ``script`` took, in order."""
    use_firmware_path()
    import vscript
    import vsession
    from arbiter.store.journal import JOURNAL

    downs = [at for at, _button, level in vscript.parse(script)[0] if level == 0]
    started, events = [], []
    with tempfile.TemporaryDirectory() as folder, \
            contextlib.redirect_stdout(io.StringIO()):
        factory_flash(Path(folder))
        board, dev = vsession.start(seed, script, folder + "/")
        write, append = board.flash.write, board.flash.append

        def journal_write(name, text):
            if name == JOURNAL and not started:  # the game's header: it has begun
                started.append(board.elapsed)
            return write(name, text)

        def journal_append(name, text):
            if name == JOURNAL:
                events.append(board.elapsed)
            return append(name, text)

        board.flash.write, board.flash.append = journal_write, journal_append
        while vsession.step(board, dev):
            pass
    if not started:
        return []
    out, last = [], sum(1 for at in downs if at <= started[0])
    for at in sorted(set(events)):
        press = sum(1 for down in downs if down <= at)  # presses made by then
        if press > last:
            out.append(press - last)
            last = press
    return out


def figures(seed: int, script: str) -> dict:
    counts = per_action(seed, script)
    return {"actions": len(counts), "presses": sum(counts),
            "median": median(counts), "p90": percentile(counts, 90),
            "most": max(counts, default=0)}
