"""Headless play, portable: load a ruleset, apply actions, print the public state
and the play screen's display RAM. Run by ``arbiter run`` in either runtime; the
MicroPython driver calls ``start`` / ``act`` / ``finish`` from the top level."""

import binascii
import json
import os
import sys

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter.game.jobs import let_go
from arbiter.hw.flash import Flash


def load_file(path):
    """The checked ruleset read from a file as the device reads one: streamed, so
    the text is never held whole; or None after printing why it is refused."""
    from arbiter.game import ruleset

    try:
        with open(path) as f:
            return ruleset.read(f, Flash().lines(path))
    except ValueError as exc:
        print("X 0 " + str(exc))
        return None


def load_steps(path):
    """``load_file`` a step at a time (ruleset.steps), as the device loads it: the
    MicroPython driver collects between the steps (``load_step``). The first step
    parses the open file, streamed as ``load_file`` does: the text never held whole."""
    return _steps(path)


def _steps(path):
    from arbiter.game import ruleset

    ruleset.check_size(os.stat(path)[6])  # at the first step: load_step says why
    with open(path) as f:  # open to the last step: the checks read the effects' lines
        yield from ruleset.steps(f, Flash().lines(path))


def load_step(steps):
    """The next step of ``load_steps``: (finished, the ruleset or None). A refused
    ruleset prints why and finishes with None. Once finished the checks' code
    leaves the heap, as on the device (screens.setup)."""
    try:
        rules = next(steps)
    except ValueError as exc:
        print("X 0 " + str(exc))
        let_go("game", "ruleset")
        return True, None
    if rules is None:
        return False, None
    let_go("game", "ruleset")
    return True, rules


def start(rules, players, seed, options, mix=None):
    """The game, or None after printing why it cannot start."""
    if rules is None:
        return None
    let_go("game", "replay")  # a resume's code only, as the device (screens.setup)
    try:
        game = Game(rules, players, options, seed, None, mix)
    except (ValueError, Illegal) as exc:
        print("X 0 " + str(getattr(exc, "reason", exc)))
        return None
    # A snapshot every 4 events, as on the device (every event is kept all the same):
    # a refusal replays from the last one in one pass, and 15 of Jugger's events
    # replayed made 75 KB of garbage in a Pico's heap.
    from arbiter.game import history

    game.history.every, game.history.kept = history.BOUNDED_SNAP_EVERY, history.BOUNDED_SNAP_KEEP
    return game


def act(game, number, action):
    """Apply one action; False (after printing the reason) if it was refused."""
    try:
        game.apply(action)
    except Illegal as exc:
        print("X %d %s" % (number, exc.reason))
        return False
    return True


def apply(game, action):
    """The event ``action`` records, or None when the game refuses it (quietly: a
    long game's driver tries actions that do not always apply)."""
    try:
        return game.apply(action)
    except Illegal:
        return None


def journaled(game, journal, action):
    """``action`` applied and journaled as the play screen does (screens/play.py): a
    refusal's spent dice journaled too (game/spent.py). The event, or None if refused."""
    try:
        event = game.apply(action)
    except Illegal as exc:
        if exc.spent:
            journal.record(game, exc.spent)
        return None
    journal.record(game, event)
    return event


def screen_ram(game):
    """The play screen as the OLED's display RAM."""
    import framebuf

    from arbiter import ui
    from arbiter.screens.view import play_lines

    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    ui.draw_lines(fb, play_lines(game)[0])
    return buf


def finish(game):
    """The game's public state and play screen, printed. Their code (the screens',
    the drawing kit's) loads for it and goes after: the heap the games are played in
    holds only what the device would while playing."""
    before = set(sys.modules)
    from arbiter.game.public import public_state

    # streamed: a long game's state as one string would not fit beside the game
    sys.stdout.write("R ")
    json.dump(public_state(game), sys.stdout)
    sys.stdout.write("\n")
    print("S " + binascii.hexlify(screen_ram(game)).decode())
    if sys.implementation.name == "micropython":  # (CPython's tests hold their classes)
        for name in [name for name in sys.modules if name not in before]:
            sys.modules.pop(name)
            package, _, leaf = name.rpartition(".")
            if hasattr(sys.modules.get(package), leaf):
                delattr(sys.modules[package], leaf)
