"""The journals a game's compactions replaced, kept whole at the end of ``game.old``
(store/journal.py), so every event of the game stays on flash for the audit. Loaded
for a compaction and let go after (game/jobs.py): a Pico's heap holds it only then."""

from arbiter.store import JOURNAL, PAST

ROOM = 32768  # bytes free below which game.old no longer grows (setup.LOW_FLASH's 2x)


def keep(flash):
    """The journal's whole lines (not a last line cut short) added to the end of
    game.old, after a newline if it ends mid-line (a power cut stopped a copy); not
    while the flash has less than ROOM free: the game's own journal comes first."""
    free = flash.free()
    end = _whole_lines(flash)
    if not end or free is not None and free < ROOM:
        return
    gap = flash.exists(PAST) and not flash.ends_with(PAST, b"\n")
    buf = bytearray(256)
    try:
        with flash.open(JOURNAL, "rb") as source:
            with flash.open(PAST, "ab") as f:
                if gap:
                    f.write(b"\n")
                left = end
                while left:
                    got = source.readinto(buf)
                    if not got:
                        break
                    got = min(got, left)
                    f.write(memoryview(buf)[:got])
                    left -= got
    except OSError:  # (the flash full after all): the compaction goes on without it;
        return  # the audit says this copy is cut, and verifies from the next checkpoint
    flash.wrote(end + gap)


def _whole_lines(flash):
    """Bytes of the journal up to its last newline (0 when none), read from its end."""
    try:
        with flash.open(JOURNAL, "rb") as f:
            at = f.seek(0, 2)
            while at > 0:
                step = min(256, at)
                at -= step
                f.seek(at)
                found = f.read(step).rfind(b"\n")
                if found >= 0:
                    return at + found + 1
    except OSError:
        pass
    return 0
