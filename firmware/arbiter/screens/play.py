"""Playing a game on the device: the play screen, secret picks, the game menu.

Every change goes through ``Game.apply`` (the same engine as ``arbiter run``)
and, once applied, into the journal on flash. A: next phase; long A: redo;
long B: undo; B: the game menu (actions, dice, corrections, log, end); Left/Right:
the phase's common action (fast.py); Down: the board, the phase's page or the pieces.
"""

from arbiter import ui
from arbiter.game import Illegal, Lost
from arbiter.game.actions import pending_pick
from arbiter.game.expr import evaluate
from arbiter.game.jobs import let_go
from arbiter.hw.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.screens.colours import show_outcome
from arbiter.screens.view import describe, play_lines, public_text
from arbiter.ui.menu import TextPage


class PlayScreen:
    closes_usb = True  # while a game is in play no PC takes the device (screens/usb.py)
    slow_keys = (UP, DOWN, LEFT, RIGHT, A)  # they open forms and pages (App._key)

    def __init__(self, game, journal):
        self.game = game
        self.journal = journal
        self.notice = ""  # why the last action was refused, until the next key
        self.choosing = None  # cursor in the secret's choices while a player picks
        self.notes = []  # what the last action said (``say`` effects)
        self.pending = None  # (log entries, ms) of actions whose LEDs and pages wait
        self.said = ""  # what an undo, redo or correction changed, for the next notes
        self.more = None  # all the play screen says, when its lines cannot hold it
        # the actions the game menu lists in each phase (phase: [(label, name)]) and
        # the fast path's (phase: name): each action is read from flash to know, so
        # both are kept for the game (a phase comes back every turn)
        self.offered, self.fast = {}, {}
        # the key line's words (game_menu.offered): the fast path's by action, Down's
        # page's by phase
        self.words, self.downs = {}, {}

    def ready(self, app, now):
        if self.game.phase()["name"] not in self.offered:  # a phase not seen yet: its
            app.idle = self.menus_ready  # menu worked out while the players look
        if self.pending is not None:  # in the drawing's pass, not the action's: their
            entries, then = self.pending  # garbage is collected apart on a small heap
            self.pending = None
            self.after(app, entries, then)

    def draw(self, app, fb):
        game = self.game
        if self.choosing is not None:
            from arbiter.screens.secret_pick import draw_choices

            draw_choices(self, fb)
            return
        lines, self.more = play_lines(game, self.notes, self.notice, self.key_words())
        ui.draw_lines(fb, lines)

    def key_words(self):
        """The fast path's action and Down's page, each in a word for the key line, as
        worked out in the phase's first idle pass (menus_ready): "" until then."""
        game = self.game
        phase = game.phase()
        name = phase.get("fast")
        if name.__class__ is dict:  # the situation says which (Jugger's act, attack)
            name = evaluate(game, name)
        elif name is None:
            name = self.fast.get(phase["name"])
        return self.words.get(name, "") if name else "", self.downs.get(phase["name"], "")

    def menus_ready(self, app, now):
        """The game menu's list for the phase, before it opens in it (game_menu.offered):
        no press waits for the actions to be read from flash."""
        import sys

        held = "arbiter.screens.game_menu" in sys.modules  # the menu is open
        from arbiter.screens.game_menu import offered

        words = self.key_words()
        offered(self)
        if self.key_words() != words:  # the key line names the fast path, Down's page
            app.redraw()
        if not held:
            let_go("screens", "game_menu")  # loaded when the menu opens

    def key(self, app, button, kind, now):
        self.notice = ""
        picking = pending_pick(self.game)[0] is not None
        if picking and self.choosing is None and button == B:
            app.push(game_menu(self))
        elif picking:
            from arbiter.screens.secret_pick import pick_key

            pick_key(self, app, button, kind, now)
        elif button == A and kind != LONG and "confirm" in self.game.phase() and \
                not self.game.state["result"]:  # confirmed first (Tactics: the castles)
            from arbiter.screens.confirm import open_confirm

            open_confirm(app, self)
        elif button == A and kind != LONG and "on_a" in self.game.phase() and \
                not self.game.state["result"]:  # the phase's own step (Impactics' cards)
            if not self.act(app, self.game.phase()["on_a"], now):
                self.notice = ""  # refused: its business is done, so A moves on
                self.act(app, "next", now)
        elif button == A and self.game.state["result"]:
            pass  # the winner stays on the screen: the game menu (B) has the rest
        elif button == A:
            self.act(app, "redo" if kind == LONG else "next", now)
        elif button == B and kind == LONG:
            self.undo(app, now)
        elif button == B:
            app.push(game_menu(self))
        elif button == UP and self.more:  # what the screen could not hold, on a page
            app.push(TextPage(self.game.rules.get("title", "Game"), self.more))
        elif button == LEFT or button == RIGHT:  # the phase's common action, as a knob
            if not self.game.state["result"]:
                from arbiter.screens.fast import open_fast

                open_fast(app, self, button, kind, now)
        elif button == DOWN:  # the board, the phase's page (the hands), else the pieces
            self._down(app)
        app.redraw()

    def _down(self, app):
        game = self.game
        if "grid" in game.rules:
            from arbiter.screens.grids import open_grid

            open_grid(app, game)
            return
        if "pages" in game.rules:
            from arbiter.screens.pages import open_for_phase

            if open_for_phase(app, game):
                return
        from arbiter.screens.pieces import piece_page

        app.push(piece_page(game))

    def act(self, app, text, now):
        """Apply an action and journal it; on refusal show why. True if applied."""
        game = self.game
        before = game.logged()  # counted from the start: a bounded log drops old entries
        try:
            event = game.apply(text)
        except Illegal as exc:
            self.notice = exc.reason
            app.log("refused %s: %s" % (public_text(text), exc.reason), False)
            if isinstance(exc, Lost):  # in a pass of its own: the lost game's heap first
                app.later = (read_back, self)
            elif getattr(exc, "spent", None):  # its dice are spent: journaled as such
                try:
                    self.journal.record(game, exc.spent, False)
                except Exception as failed:
                    self._unsaved(app, failed)
            return False
        try:
            if self.journal.record(game, event, False):  # its garbage apart from the action's
                app.later = self._compact
        except Exception as exc:  # a full heap or flash: the game in RAM is ahead of the
            self._unsaved(app, exc)  # journal, so it is read back from there
            return False
        app.log(public_text(event), False)  # the console's: the engine's text
        self.said = changed(game, text)
        entries = game.log_since(before)
        if self.pending is not None:  # two actions before a drawing: both count
            entries = self.pending[0] + entries
        self.pending = (entries, now)
        app.redraw()
        return True

    def _compact(self, app, now):
        try:
            self.journal.compact(self.game)
        except Exception as exc:  # the journal on flash stays whole (written atomically)
            app.log("journal not compacted: %s" % (exc,))  # and its head is read again
            app.later = (read_back, self)

    def _unsaved(self, app, exc):
        """The journal could not be written (``exc``): the action is not taken, and the
        game is read back from flash as it was saved (read_back)."""
        self.notice = "not saved: %s" % (
            "not enough memory" if isinstance(exc, MemoryError) else
            "the flash is full. Free some space" if exc.args and exc.args[0] == 28 else
            "flash error %s" % (exc,))  # (28: ENOSPC)
        app.log(self.notice)
        app.later = (read_back, self)
        app.redraw()

    def act_later(self, app, memo):
        """A form's action, done in a pass of its own once the form is closed and the
        forms' code let go (an action's garbage on top of the forms' code was a game's
        heap peak). ``memo``: the action's text, and the form as it was: its
        game_menu.open_form name and tool, values, cursor, top and menu_at. Refused,
        the game menu and the form open again as they were, saying why."""
        app.pop()  # the form
        self.memo = memo
        app.later = self._act_memo  # (a method, not a lambda: a frame less deep)
        app.redraw()

    def _act_memo(self, app, now):
        memo, self.memo = self.memo, None
        if self.act(app, memo[0], now):
            if memo[7] is not None:
                self.remember(memo[7], memo[3])
            return
        if app.later is not None:  # the game is read back first (not saved): no form
            return
        notice, self.notice = self.notice, ""
        # reopened in a pass of its own: the refused action's garbage goes first
        app.later = lambda app, now: self._reopen(app, memo, notice)
        app.redraw()

    def _reopen(self, app, memo, notice):
        self._form(app, memo[1], memo[2], memo[6], memo, notice)

    def remember(self, key, values):
        """The values chosen, for the next opening of this action on this player's
        behalf (kept here: a game's, not the device's)."""
        last = getattr(self, "last", None)
        if last is None:
            last = self.last = {}
        last[key] = values

    def open_form(self, app, name, tool, at):
        """A game menu's form (game_menu.open_form; ``at``: the menu's cursor and top),
        in a pass of its own once the menu's code is collected: the forms' code, a
        form and its choices' garbage on top of the menu's were a game's heap peak."""
        app.later = lambda app, now: self._form(app, name, tool, at, None, "")
        app.redraw()

    def _form(self, app, name, tool, at, memo, notice):
        from arbiter.screens.forms import action_form

        if tool == 3:  # the play screen's own (fast.py), back in place
            from arbiter.screens.fast import FastForm

            form = action_form(self, name, FastForm)
        elif tool:
            from arbiter.screens.tool_forms import CorrectForm, RollForm

            form = RollForm(self) if tool == 1 else CorrectForm(self)
        else:
            form = action_form(self, name)
        form.menu_at = at
        app.push(form)
        if memo is not None:  # as it was when its action was refused
            form.restore(memo[3], memo[4], memo[5], notice)

    def menu_again(self, app, at):
        """The game menu, its cursor and top ``at`` as they were (a form closed)."""
        menu = game_menu(self)
        menu.cursor, menu.top = at
        app.push(menu)

    def undo(self, app, now):
        """Of an action that rolled, that turned a card up (fog of war), or of a
        finished game's last, once the table agrees: its dice stay in the log."""
        game = self.game
        dice = game.history.needs()
        seen = False
        if dice is None and not (game.state["result"] and game.history.events):
            if self.act(app, "undo", now) or not self.notice.startswith("undo needs"):
                return
            seen, self.notice = True, ""  # it would hide a card everyone has seen
        from arbiter.ui.menu import Confirm

        said = ["Its rolls " + dice.replace(",", " ").replace(";", " "), "stay in the log."] \
            if dice else ["A card turned up", "goes face down."] if seen else [
                "The game is over:", "play on?"]
        app.push(Confirm("Undo?", [in_words(game, game.history.events[-1]) + "?"] + said +
                         ["All agree?"], lambda app, now: self.act(app, "undo agreed", now)))

    def after(self, app, new_entries, now):
        """What just happened, shown: the LEDs (rolls spin, reveals and wins flash),
        the notes, a phase's page, the reveal."""
        game = self.game
        reveal = None
        rolled = False
        notes = []
        for entry in new_entries:
            if entry["event"] == "roll":
                rolled = True
                notes.append(describe(entry))
                app.log(notes[-1])  # the faces, as Roll dice outside a game logs them
            elif entry["event"] == "reveal":
                reveal = entry
            elif entry["event"] == "note":
                notes.append(entry["text"])
        if self.said:  # an undo or a correction says nothing of its own
            notes.insert(0, self.said)
            self.said = ""
        self.notes = notes
        show_outcome(app.leds, game, new_entries, now, rolled, reveal is not None)
        if game.state["result"]:
            return
        if "pages" in game.rules:  # a page that belongs to a phase just begun opens
            from arbiter.screens.pages import opened

            opened(app, self, new_entries)
        if reveal is not None:
            lines = ["%s: %s" % item for item in sorted(reveal["picks"].items())]
            app.push(TextPage("Revealed", lines + notes))


def in_words(game, event):
    """An action in players' words (screens/log.py, loaded for it)."""
    from arbiter.screens.log import said

    try:
        return said(game, event)
    finally:
        let_go("screens", "log")


def changed(game, text):
    """What an undo, a redo or a correction changed, in a line ("" for the rest)."""
    if text.startswith("undo"):
        return "Undone: " + in_words(game, game.history.undone[-1][0])
    if text == "redo":
        return "Redone: " + in_words(game, game.history.events[-1])
    if text.startswith("add "):  # the Correct form's "add WHO.WHAT BY"
        _, path, by = text.split()
        who, _, what = path.rpartition(".")
        state = game.state
        record = state["pieces"].get(who) if "." in who else state["players"].get(who)
        now = record.get(what) if record else None
        name = record.get("name", who) if record and "." in who else who  # Kraken, not P2.k1
        return "Corrected: %s %s %s%s, now %s" % (name, what, "+" if int(by) >= 0 else "",
                                                   by, now)
    return ""


def game_menu(play):
    from arbiter.screens.game_menu import GameMenu  # loaded when first opened: heap

    return GameMenu(play)


def read_back(app, now, play):
    """The game of ``play`` read back from its journal, as it was before the refused
    action whose rewind failed (game.Lost); the journal never had that action. If
    even that fails, the saved game is resumed as at a boot (it stays on flash)."""
    from arbiter.store import saved
    from arbiter.store.journal import DEVICE_KEEP

    rules, play.game = play.game.rules, None
    try:
        play.game = saved.resume(play.journal, rules, keep=DEVICE_KEEP)
        if play.game is None:
            raise ValueError("no game on flash")
    except Exception as exc:
        app.log("game not read back: %s" % (exc,))
        app.home()
        app.resume(now)
    finally:
        let_go("store", "saved")  # (while a game is played: not held)
    app.redraw()
