"""Button scripts: a line of words turned into a timeline of pin changes.

Words: ``up down left right a b`` (a short press), ``NAME:long`` (held 900 ms),
``NAME:hold=MS``, ``wait=MS``, ``press=MS`` and ``gap=MS`` (timing of the
following presses), ``chatter=MS`` (each edge bounces for MS ms, 1 ms per
flip). Times are ms since boot; the script starts at 1,500 ms, after the
splash. ``parse`` returns ([(at_ms, button, level)], end_ms).
"""

NAMES = ("up", "down", "left", "right", "a", "b")
START_MS = 1500
TAIL_MS = 1000


def _edge(emit, at, button, level, chatter):
    # Bounce: the contact flips every ms before settling at ``level``.
    for k in range(chatter):
        emit(at + k, button, level if k % 2 == 0 else 1 - level)
    emit(at + chatter, button, level)


def walk(script, emit):
    """Calls ``emit(at_ms, button, level)`` for each pin change; returns the end ms."""
    at = START_MS
    press_ms, gap_ms, chatter = 80, 250, 0
    for word in script.split():
        name, _, arg = word.partition(":")
        key, _, value = word.partition("=")
        if key in ("wait", "press", "gap", "chatter"):
            ms = int(value)
            if key == "wait":
                at += ms
            elif key == "press":
                press_ms = ms
            elif key == "gap":
                gap_ms = ms
            else:
                chatter = ms
            continue
        if name not in NAMES:
            raise ValueError("Invalid script word " + word)
        button = NAMES.index(name)
        hold = press_ms
        if arg == "long":
            hold = 900
        elif arg.startswith("hold="):
            hold = int(arg[5:])
        elif arg:
            raise ValueError("Invalid script word " + word)
        _edge(emit, at, button, 0, chatter)
        at += hold
        _edge(emit, at, button, 1, chatter)
        at += gap_ms
    return at + TAIL_MS


def parse(script):
    timeline = []
    end = walk(script, lambda at, button, level: timeline.append((at, button, level)))
    return timeline, end


def packed(script):
    """``parse`` as one int per edge (at << 4 | button << 1 | level) in an array:
    the emulated device's heap holds the script too, and a game's worth of tuples
    would weigh tens of KB there, which a Pico never carries."""
    from array import array

    timeline = array("i")
    end = walk(script, lambda at, button, level: timeline.append(at << 4 | button << 1 | level))
    return timeline, end


def unpack(edge):
    return edge >> 4, edge >> 1 & 7, edge & 1
