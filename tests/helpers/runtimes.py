"""A rule test on both runtimes: the games a test makes with ``helpers.game.new_game``
are played here, where each message and refusal is read, and recorded; under
``micropython`` the same games are played again in real MicroPython in a Pico's
192 KB heap, all in one run: each refusal must be met again, at the same action,
with the same reason, no other action refused, and each game must end in the same
public state and play screen as here.

    @pytest.fixture(params=RUNTIMES)
    def runtime(request):
        with replayed(request.param, "tactics", request.session):
            yield request.param

A board a test arranges by hand (not by actions) is recorded with ``patched``."""

import contextlib
import json
import tempfile
from pathlib import Path

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter_referee.build import device_firmware
from arbiter_referee.compiled import compiled_copy
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.emulator.session import run_driver
from arbiter_referee.headless import RUN_HEAP
from arbiter_referee.rulesets import ruleset_path
from helpers import game as games

RUNTIMES = ["cpython", "micropython"]


class Recorded(Game):
    """A Game that keeps its steps: ("a", action, refusal reason or None),
    ("=", {field: value}) for game fields set by hand (``patched``) or
    ("?", action, what its preview said) (``previewed``)."""

    def __init__(self, rules, players=None, options=None, seed=0):
        super().__init__(rules, players, options, seed)
        self.replay_made = (players, seed, dict(options or {}))
        self.replay_steps = []

    def apply(self, text):
        try:
            event = super().apply(text)
        except Illegal as exc:
            self.replay_steps.append(("a", text, exc.reason))
            raise
        self.replay_steps.append(("a", text, None))
        return event


def patched(game, fields):
    """``game.state["game"]`` given ``fields``, kept from now on (a snapshot: a
    refusal rolls back to it, not past it); recorded when the game is."""
    from arbiter.game.state import clone

    game.writable("game", "game").update(fields)  # the snapshot's stays as it was
    game.history.snaps.append((game.history.count(), clone(game.state), game.logged()))
    if isinstance(game, Recorded):
        game.replay_steps.append(("=", fields))


def previewed(game, text):
    """What ``text`` would say (preview.preview), recorded when the game is."""
    from arbiter.game.preview import preview

    said = preview(game, text)
    if isinstance(game, Recorded):
        game.replay_steps.append(("?", text, said))
    return said


# The driver: every game in turn, each in the heap alone; a refusal printed, then on.
# The games lie outside the heap (a Pico holds no script), each a JSON head (its
# players, seed, options and where each step ends) and its steps, each step's text
# read as it comes. The driver's own code is in the heap too: the previews' and the
# patches' parts only when played (a Jugger refusal's rewind fits with a few hundred
# bytes to spare). (mp_program: every name a global: a from-import makes a local.)
# The ruleset drvdata.RULESET read a step at a time, collected between, as rules
LOAD_RULESET = """\
steps = vrun.load_steps(drvdata.RULESET)
done = False
while not done:
    gc.collect()
    done, rules = vrun.load_step(steps)
steps = None
"""
DRIVER = """\
json = __import__('json')
where, size = host.call('blob', '').split()
blob = __import__('uctypes').bytearray_at(int(where), int(size))
where = size = None
""" + LOAD_RULESET + """\
for n in range(len(drvdata.GAMES)):
    gc.collect()
    at, base = drvdata.GAMES[n]
    players, seed, options, ends = json.loads(blob[at:base])
    print('G %d' % n)
    game = vrun.start(rules, players, seed, options)
    at = base
    for i in range(len(ends)):
        gc.collect()
        kind, what, at = blob[at], str(blob[at + 1:base + ends[i]], 'utf-8'), base + ends[i]
        if kind == 97:
            vrun.act(game, i, what)
"""
PREVIEWS = ("preview = __import__('arbiter.game.preview', None, None, ('preview',)).preview\n",
            """\
        elif kind == 63:
            print('P %d %s' % (i, preview(game, what)))
""")
PATCHES = ("clone = __import__('arbiter.game.state', None, None, ('clone',)).clone\n", """\
        elif kind == 61:
            game.writable('game', 'game').update(json.loads(what))
            game.history.snaps.append((game.history.count(), clone(game.state), game.logged()))
""")
END = """\
    gc.collect()
    vrun.finish(game)
    game = None
"""


def driver(kinds):
    """The driver for games whose steps are of ``kinds`` ("a", "?", "=")."""
    parts = [part for kind, part in (("?", PREVIEWS), ("=", PATCHES)) if kind in kinds]
    return "".join(p[0] for p in parts) + DRIVER + "".join(p[1] for p in parts) + END


def on_micropython(ruleset, recorded):
    """Plays the recorded games in MicroPython: per game, (refusals and previews
    [(step, reason or what it said)], public state with its "screen")."""
    path = ruleset_path(ruleset)
    blob, heads = bytearray(), []
    for game in recorded:
        steps = [(kind + (json.dumps(what) if kind == "=" else what)).encode()
                 for kind, what, *_ in game.replay_steps]
        ends = [sum(len(step) for step in steps[:i + 1]) for i in range(len(steps))]
        head = json.dumps([*game.replay_made, ends]).encode()
        heads.append((len(blob), len(blob) + len(head)))
        blob += head + b"".join(steps)
    kinds = {step[0] for game in recorded for step in game.replay_steps}
    with tempfile.TemporaryDirectory() as folder:  # the ruleset as a device keeps it
        compiled_copy(path, Path(folder))
        result = run_driver("vrun", driver(kinds), {"/rs": (Path(folder), False)}, RUN_HEAP,
                            device_firmware(), {"RULESET": "/rs/" + path.name, "GAMES": heads},
                            preload=False, blob=bytes(blob))
    if result.exit_code != 0:
        raise RuntimeError(f"MicroPython failed:\n{result.stderr}")
    outs = []
    for line in result.stdout.splitlines():
        if line.startswith("G "):
            outs.append(([], None))
        elif line[:2] in ("X ", "P "):
            number, _, said = line[2:].partition(" ")
            outs[-1][0].append((int(number), said))
        elif line.startswith("R "):
            outs[-1] = (outs[-1][0], json.loads(line[2:]))
        elif line.startswith("S "):
            outs[-1][1]["screen"] = read_lines(bytes.fromhex(line[2:]))
    return outs


def here(game):
    """The public state and play screen of a game of this process, as vrun gives them."""
    import vrun

    state = game.public()
    state["screen"] = read_lines(vrun.screen_ram(game))
    return state


def agree(ruleset, recorded):
    """Each recorded game played in MicroPython as it was played here."""
    outs = on_micropython(ruleset, recorded)
    assert len(outs) == len(recorded), "MicroPython played %d of %d games" % (
        len(outs), len(recorded))
    for n, (game, (refusals, state)) in enumerate(zip(recorded, outs, strict=True)):
        want = [(i, step[2]) for i, step in enumerate(game.replay_steps)
                if step[0] == "?" or step[0] == "a" and step[2] is not None]
        where = "game %d %r" % (n, game.replay_made)
        assert refusals == want, (where, refusals, want)
        assert games.canonical(state) == games.canonical(here(game)), where


@contextlib.contextmanager
def replayed(runtime, ruleset, session=None):
    """While in it, ``new_game`` records its games; on leaving, under ``micropython``,
    they are played there too and must agree (see the module's text). ``session``
    (pytest's): no replay after the test itself failed, it would say nothing more."""
    recorded = []
    failed = session.testsfailed if session else 0
    games.RECORDING = recorded
    try:
        yield
    finally:
        games.RECORDING = None
    if runtime == "micropython" and (session is None or session.testsfailed == failed):
        assert recorded, "no game to play in MicroPython"
        agree(ruleset, recorded)
