"""Snapshots that share: loaded at a game's first snapshot, never while a ruleset
loads (a big one's parse and checks fill a Pico's heap)."""

_NONE = {}  # clone_like's ``like`` when it has no such part: never written


def _same(a, b):
    """``a == b`` to the letter: ``==`` holds True == 1 and 0 == False (a counter
    set by a test, then added to) and dicts equal in any key order."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if len(a) != len(b):
            return False
        keys = iter(b)
        for k in a:
            if next(keys) != k or not _same(a[k], b[k]):
                return False
        return True
    if isinstance(a, list):
        if len(a) != len(b):
            return False
        for i in range(len(a)):
            if not _same(a[i], b[i]):
                return False
        return True
    return a == b


def clone_like(value, like):
    """``clone``, but the parts equal to those of ``like`` (an earlier copy, never
    changed: a snapshot) are ``like``'s, not copies: snapshots a few actions apart
    share most of the state (a Pico's heap held six whole ones)."""
    if value == like and _same(value, like):  # the fast ``==`` turns most away
        return like
    if isinstance(value, dict):
        out = value.copy()
        had = like if isinstance(like, dict) else _NONE
        for k in value:
            v = value[k]
            if k != "stats" and (isinstance(v, dict) or isinstance(v, list)):
                out[k] = clone_like(v, had.get(k))
        return out
    if isinstance(value, list):
        out = value[:]
        had = like if isinstance(like, list) else ()
        for i in range(len(out)):
            v = out[i]
            if isinstance(v, dict) or isinstance(v, list):
                out[i] = clone_like(v, had[i] if i < len(had) else None)
        return out
    return value
