"""Choosing a ruleset on flash, setting a game up, starting it, resuming it.

Imported only when a game is chosen or found on flash, so the engine takes
no heap while the device just rolls dice; the engine and the play screen load
only once a game starts, so a big ruleset is parsed with them still on flash.
"""

from arbiter import ui
from arbiter.game.jobs import let_go
from arbiter.hw.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.store import saved
from arbiter.store.journal import DEVICE_KEEP, Journal
from arbiter.ui.menu import Confirm, Menu, TextPage

FOLDER = "rulesets/"


def load_rules(flash, name):
    """The checked ruleset ``name`` from flash; raises RulesetError with the reason.
    The checks' code (7 KB of a Pico's heap) is loaded for this and let go after."""
    from arbiter.game import ruleset
    from arbiter.store import checked

    digest = checked.record(flash, name)
    passed = checked.passed(flash, name, digest)
    try:
        with _ruleset_file(flash, name, ruleset) as stream:
            rules = ruleset.read(stream, flash.lines(FOLDER + name + ".json"), passed)
    finally:
        let_go("game", "ruleset")
    if not passed:
        checked.remember(flash, name, digest)
    let_go("store", "checked")
    return rules


def _ruleset_file(flash, name, ruleset):
    """The ruleset's file, open, its size checked first; RulesetError if it is not there."""
    ruleset.check_size(flash.size(FOLDER + name + ".json"))
    try:
        return flash.open(FOLDER + name + ".json")
    except OSError:
        raise ruleset.RulesetError("", "no ruleset %s on the device" % name) from None


def choose(app, now):
    names = [n[:-5] for n in app.flash.names(FOLDER[:-1]) if n.endswith(".json")]
    from arbiter.game.ruleset import LINES_HEAD

    items = [(title(app.flash, n, LINES_HEAD), lambda app, now, n=n: _open(app, n))
             for n in names]
    let_go("game", "ruleset")
    if saved.unfinished(app.flash):
        items.insert(0, ("Resume game", resume_saved))
    if not items:
        app.push(TextPage("Play", ["No rulesets on the device.",
                                   "Add one from a PC: arbiter push NAME"]))
        return
    app.push(Menu("Play", items))


def title(flash, name, head):
    """The game's title, for the list of games (``jugger`` is Jugger TTG): the PC puts
    it first in the compiled file's JSON (arbiter_referee/compiled.py), read here
    without reading the rest. A file without one is listed by its name."""
    try:
        with flash.open(FOLDER + name + ".json") as f:
            start = f.read(len(head) + 9)
            f.seek(int(start[len(head):len(head) + 8]))
            text = f.read(80)
        if not text.startswith('{"title":"'):
            return name
        end = 10
        while text[end] != '"':
            end += 2 if text[end] == "\\" else 1
        if "\\" not in text[:end]:
            return text[10:end] or name
        import json

        return json.loads(text[9:end + 1]) or name
    except Exception:  # cut short, broken: the load says why (Loading)
        return name


def _open(app, name):
    app.push(Loading(name))


def _refused(app, name, exc):
    app.log("ruleset %s refused: %s" % (name, exc))
    app.push(TextPage("Can't load", [name, str(exc)]))


class Loading:
    """Reads a ruleset a step a main-loop pass (ruleset.steps: parse, share, check)
    so a Pico's heap lets go of each step's leftovers before the next, then gives
    its place to the game's setup. Keys wait: it takes a few passes."""

    loads = True  # the boot's resume is not done while it is up (App.step)

    def __init__(self, name, then=None):
        self.name = name
        self.steps = None
        self.started = False
        self.then = then  # given the ruleset once read (a resume's); else the setup

    def ready(self, app, now):
        if not self.started:  # this frame says "Loading" at once: the work comes after
            self.started = True
            app.later = self._step

    def draw(self, app, fb):
        ui.title(fb, "Loading")
        ui.line(fb, 2, self.name)

    def _step(self, app, now):
        """One step of the load, each in a pass of its own (App.later)."""
        app.later = self._step  # the next, unless this one ends the load
        try:
            if self.steps is None:
                # the digest in a pass of its own: beside the parse's, its garbage
                # left a game 6 KB more heap (emulator, as .mpy)
                from arbiter.store import checked

                self.digest = checked.record(app.flash, self.name)
                self.passed = checked.passed(app.flash, self.name, self.digest)
                self.steps = 0
                return
            if self.steps == 0:
                self.steps = self._start(app)
                return
            rules = next(self.steps)
        except (ValueError, MemoryError, OSError) as exc:
            self._done(app)
            _refused(app, self.name, exc)
            return
        if rules is not None:
            if not self.passed:  # checked whole now: the next start need not
                from arbiter.store import checked

                checked.remember(app.flash, self.name, self.digest)
            self._done(app)
            if self.then is not None:
                self.then(app, rules)
            else:
                app.push(Setup(self.name, rules))

    def _start(self, app):
        from arbiter.game import ruleset

        self.stream = _ruleset_file(app.flash, self.name, ruleset)
        return ruleset.steps(self.stream, app.flash.lines(FOLDER + self.name + ".json"),
                             self.passed)

    def _done(self, app):
        if self.steps:
            self.stream.close()
        self.steps = self.stream = None
        app.later = None  # no next step
        let_go("game", "ruleset")
        let_go("store", "checked")
        app.pop()

    def key(self, app, button, kind, now):
        pass


def _shown(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


class Setup:
    """Player count and options; A starts the game."""

    def __init__(self, name, rules):
        self.name = name
        self.rules = rules
        spec = rules.get("players", {})
        self.low = spec.get("min", 2)
        self.high = spec.get("max", self.low)
        self.players = spec.get("default", self.low)
        self.options = {}
        for option, ospec in rules.get("options", {}).items():
            self.options[option] = ospec.get("default", ospec["choices"][0])
        self.rows = (["players"] if self.low < self.high else []) + sorted(self.options)
        self.cursor = self.top = 0

    def _row_text(self, row):
        if row == "players":
            return "Players  <%d>" % self.players
        label = self.rules["options"][row].get("label", row)
        value = "<%s>" % _shown(self.options[row])
        if len(label) + 1 + len(value) > ui.COLS:  # wrapped: the value on the next line
            return label + " " + value
        return label + " " * (ui.COLS - len(label) - len(value)) + value

    def draw(self, app, fb):
        first = ui.title(fb, self.rules.get("title", self.name))
        rows = self.rows
        if not rows:
            ui.line(fb, 2, "%d players" % self.players)
        self.top = ui.listing(fb, self.top, self.cursor,
                              [self._row_text(row) for row in rows], first, 7 - first)[0]
        ui.hint(fb, "<> A:start")

    def key(self, app, button, kind, now):
        rows = self.rows
        if button == UP and rows:
            self.cursor = (self.cursor - 1) % len(rows)
        elif button == DOWN and rows:
            self.cursor = (self.cursor + 1) % len(rows)
        elif button in (LEFT, RIGHT) and rows:
            self._change(rows[self.cursor], 1 if button == RIGHT else -1)
        elif button == A and kind != LONG:
            self._start(app, now)
        elif button == B:
            app.pop()
        app.redraw()

    def _change(self, row, step):
        if row == "players":
            span = self.high - self.low + 1
            self.players = self.low + (self.players - self.low + step) % span
            return
        choices = self.rules["options"][row]["choices"]
        index = choices.index(self.options[row]) if self.options[row] in choices else 0
        self.options[row] = choices[(index + step) % len(choices)]

    def _start(self, app, now):
        if saved.unfinished(app.flash):
            app.push(Confirm("Saved game", ["A game in play is", "saved. Start a new",
                                            "one and lose it?"],
                             lambda app, now: start(app, self, now)))
        else:
            start(app, self, now)


def start(app, setup, now):
    """The dice sealed first: the device's seed from fresh hardware entropy, its
    commitment shown, then the players' part (screens/seal.py) and the game."""
    from arbiter.game.rng import commitment
    from arbiter.screens.seal import Seal
    from arbiter.store import firmware

    let_go("game", "replay")  # a resume's code only
    refused, digest = firmware.check(app.flash)
    let_go("store", "firmware")
    if refused:
        app.log("game not started: " + refused)
        app.push(TextPage("Can't start", [refused]))
        return
    seed = app.entropy()
    app.log("game %s: %d players, commitment %s%s" % (
        setup.name, setup.players, commitment(seed),
        ", firmware " + digest if digest else ""))
    app.push(Seal(setup, seed, commitment(seed), begin, digest and digest[:firmware.SHOWN]))


def begin(app, setup, seed, mix, now):
    from arbiter.game import Illegal
    from arbiter.game.engine import Game

    try:
        game = Game(setup.rules, setup.players, setup.options, seed, DEVICE_KEEP, mix)
    except Exception as exc:  # the rules' setup failed (a bound, a ruleset's bug): say so
        app.pop()
        app.push(TextPage("Can't start", [exc.reason if isinstance(exc, Illegal) else
                                          "%s: %s" % (type(exc).__name__, exc)]))
        return
    journal = Journal(app.flash)
    journal.start(game)
    app.log("players' part of the dice: " + mix)
    # the play screen's code loads in a pass of its own: the engine's and the game's
    # garbage is collected first (a Pico's heap)
    app.later = lambda app, now: _play(app, game, journal, now, None, None)


# Bytes free below which the table is warned as a game starts or resumes, before it
# cannot be saved: a compaction's new journal (a few KB beside the old one) and the
# events until the next, with a littlefs block to spare. The journal's size is bounded
# and nothing else writes during a game, so the room does not shrink as it goes.
LOW_FLASH = 16384


def _play(app, game, journal, now, lines, title):
    from arbiter.screens.play import PlayScreen

    let_go("store", "saved")  # reading a saved game back: not while one is played
    play = PlayScreen(game, journal)
    app.home()
    app.push(play)
    play.after(app, (), now)
    free = app.flash.free()  # (a Pico's littlefs counts its blocks: not at every action)
    if free is not None and free < LOW_FLASH:
        play.notice = "Flash almost full: saving stops soon. Free some space."
        app.log("flash almost full: %d bytes free" % free)
    if lines:
        app.push(TextPage(title, lines))


def _resume_later(app, rules):
    """The replay in a pass of its own: beside the ruleset's last step, Kaiju's
    did not fit a Pico's heap."""
    app.later = (resume_saved, rules)


def resume_saved(app, now, rules=None):
    """At boot: the game on flash, back where it was, and a page saying so. A game
    that cannot be resumed is set aside (game.jnl.bad) with the reason shown: it
    must not fail again at every boot. But not for want of its ruleset, of heap or of
    C stack, which are not the game's fault: it stays, to resume once they are back
    (a heap a crash left fragmented is whole again after a reset; a firmware that
    needs less stack comes with an update). The ruleset is read
    first a step a pass (Loading), as at a game's start, and the replay comes in a
    pass of its own: all in the resume's pass, a big one did not fit a Pico's heap."""
    from arbiter.store.journal import JOURNAL

    journal = Journal(app.flash)
    if not saved.unfinished(app.flash):
        return
    name = "?"
    try:  # the ruleset first, then the journal (line by line): never both texts at once
        header = saved.header(app.flash)
        if header is None:
            raise ValueError("its first line is unreadable")
        name = str(header.get("ruleset"))
        if rules is None and app.flash.exists(FOLDER + name + ".json"):
            app.push(Loading(name, _resume_later))
            return
        game = saved.resume(journal, rules or load_rules(app.flash, name), keep=DEVICE_KEEP)
        let_go("game", "replay")  # a resume's code only
    except Exception as exc:  # any failure at all
        full = isinstance(exc, OSError) and exc.args and exc.args[0] == 28  # ENOSPC
        limit = full or isinstance(exc, MemoryError) or isinstance(exc, RuntimeError)
        reason = "not enough memory" if isinstance(exc, MemoryError) else \
            "the flash is full: free some space" if full else \
            "the rules nest too deep for the device" if limit else \
            (getattr(exc, "reason", None) or str(exc) or type(exc).__name__)[:80]
        app.home()
        # the device's heap, C stack or flash is not the game's fault: it stays
        if limit or name != "?" and not app.flash.exists(FOLDER + name + ".json"):
            app.log("saved game not resumed: " + reason)
            app.push(TextPage("Saved game", ["Could not resume " + name + ":", reason,
                                             "It stays on flash until a new game."]))
            return
        app.log("saved game not resumed: " + app.flash.set_aside(JOURNAL, reason))
        app.push(TextPage("Saved game", ["Could not resume " + name + ":", reason,
                                         "Set aside as " + JOURNAL + ".bad."]))
        return
    state = game.state
    lines = [game.rules.get("title", name), "%d events" % game.count()]
    if state["round"]:
        phase = game.phase()
        lines.append("%s %d, %s" % (game.rules.get("round_label", "Round"), state["round"],
                                    phase.get("label", phase["name"])))
    if game.history.events:
        from arbiter.screens.play import in_words

        lines.append("last: " + in_words(game, game.history.events[-1]))
    app.log("resumed %s after %d events" % (name, game.count()))
    _play(app, game, journal, now, lines, "Game restored")

