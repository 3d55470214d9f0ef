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


def _edge(at, button, level, chatter):
    # Bounce: the contact flips every ms before settling at ``level``.
    for k in range(chatter):
        yield at + k, button, level if k % 2 == 0 else 1 - level
    yield at + chatter, button, level


def _words(script):
    # one word at a time: a game's script split at once would be a list of
    # thousands of strings in the emulated device's heap. ``script`` is text, or
    # bytes read in place (the bench keeps the script out of the heap it measures).
    blank = " \t\r\n" if isinstance(script, str) else (32, 9, 13, 10)
    i, n = 0, len(script)
    while i < n:
        while i < n and script[i] in blank:
            i += 1
        j = i
        while j < n and script[j] not in blank:
            j += 1
        if j > i:
            word = script[i:j]
            yield word if isinstance(word, str) else bytes(word).decode()
        i = j


def edges(script):
    """Each pin change as (at_ms, button, level), worked out as the clock reaches it
    (the emulated heap holds no timeline); the last is (end_ms, -1, -1)."""
    at = START_MS
    press_ms, gap_ms, chatter = 80, 250, 0
    for word in _words(script):
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
        for edge in _edge(at, button, 0, chatter):
            yield edge
        at += hold
        for edge in _edge(at, button, 1, chatter):
            yield edge
        at += gap_ms
    yield at + TAIL_MS, -1, -1


def brisk(script, rng, hold=(60, 100), gap=(60, 100)):
    """``script`` as a brisk player presses it: each short press held ``hold`` ms and
    the next made ``gap`` ms after its release (from ``rng``, a random.Random), not
    waiting for the screen; long presses and waits as they were."""
    out = []
    for word in _words(script):
        key = word.partition("=")[0]
        if key in ("press", "gap"):
            continue  # the script's own pace: replaced
        if key in NAMES or word.partition(":")[0] in NAMES:
            out.append("press=%d gap=%d" % (rng.randint(*hold), rng.randint(*gap)))
        out.append(word)
    return " ".join(out)


def parse(script):
    timeline = list(edges(script))
    end = timeline.pop()[0]
    return timeline, end
