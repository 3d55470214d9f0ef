"""Playing a game on the device: the play screen, secret picks, the game menu.

Every change goes through ``Game.apply`` (the same engine as ``arbiter run``)
and, once applied, into the journal on flash. A: next phase; long A: redo;
long B: undo; B: the game menu (actions, dice, corrections, log, end).
"""

from arbiter import ui
from arbiter.buttons import DOWN, LONG, UP, A, B
from arbiter.game.effects import Illegal
from arbiter.game.expr import EMPTY
from arbiter.game.view import screen_lines
from arbiter.leds import PLAYER_COLOURS, WHITE, rgb
from arbiter.screens import TextPage

_ROWS = 6


def player_colour(rules, player):
    colours = rules.get("players", EMPTY).get("colours", ())
    index = int(player[1:]) - 1
    if index < len(colours):
        return rgb(colours[index])  # checked with the ruleset
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


AMBER = (255, 120, 0)
RED = (255, 0, 0)


def _reached(game, player, spec, level):
    """Whether the player's counter named in ``spec`` is at ``level`` or more."""
    value = game.state["players"][player].get(spec["counter"], 0)
    return isinstance(value, int) and value >= level


def warning(game, player):
    """AMBER / RED once the ruleset's ``players.warn`` counter reaches its ``amber`` /
    ``red`` level (Juggernauts: alert tokens, red at 2), else None."""
    warn = game.rules.get("players", EMPTY).get("warn")
    if warn and "red" in warn and _reached(game, player, warn, warn["red"]):
        return RED
    if warn and "amber" in warn and _reached(game, player, warn, warn["amber"]):
        return AMBER
    return None


def pulsing(game, player):
    """Whether the ruleset's ``players.pulse`` counter is at its ``at`` level or more
    (Kaiju: the team may Rage): that player's arc blinks in their own colour."""
    pulse = game.rules.get("players", EMPTY).get("pulse")
    return bool(pulse) and _reached(game, player, pulse, pulse.get("at", 1))


def public_text(event):
    """An event as the serial console may show it: a secret pick names no choice."""
    text = event.split("|")[0]
    if text.startswith("pick "):
        return " ".join(text.split()[:2])
    return text


def describe(entry):
    """One log entry in a line or two for the log page."""
    kind = entry["event"]
    if kind == "roll":
        return "%s %s: %s" % (entry["player"], entry["die"],
                              " ".join(str(r) for r in entry["rolls"]))
    if kind == "phase":
        return "-- " + entry["name"] + (" (skipped)" if entry.get("skipped") else "")
    if kind == "note":
        return entry["text"]
    if kind == "draw":  # cards or a piece drawn at random
        return "%s: %s" % (entry["reason"], " ".join(str(i) for i in entry["items"]))
    if kind == "pick":
        return entry["player"] + " picked"
    if kind == "reveal":
        return " ".join("%s:%s" % item for item in sorted(entry["picks"].items()))
    if kind in ("add", "set"):
        return "%s %s = %s" % (kind, entry["path"], entry["value"])
    args = entry.get("args")
    if args:
        return kind + " " + " ".join(str(args[k]) for k in sorted(args))
    return kind if kind != "start" else "start " + entry.get("commitment", "")


class PlayScreen:
    def __init__(self, game, journal):
        self.game = game
        self.journal = journal
        self.notice = ""  # why the last action was refused, until the next key
        self.choosing = None  # cursor in the secret's choices while a player picks
        self.notes = []  # what the last action said (``say`` effects)
        self.pending = None  # (log entries, ms) of actions whose LEDs and pages wait

    def draw(self, app, fb):
        game = self.game
        if self.pending is not None:  # in the drawing's pass, not the action's: their
            entries, now = self.pending  # garbage is collected apart on a small heap
            self.pending = None
            self.after(app, entries, now)
        if self.choosing is not None:
            self._draw_choices(fb)
            return
        lines = screen_lines(game)
        # what the last action said: the newest on line 6, earlier ones in free rows
        free = [row for row in range(5, 1, -1) if not lines[row]]
        for row, text in zip(free, reversed(self.notes[:-1])):
            lines[row] = text[:16]
        if self.notice:
            lines[6] = self.notice[:16]
        ui.draw_lines(fb, lines)

    def _draw_choices(self, fb):
        from arbiter.game.actions import pending_pick

        secret, player = pending_pick(self.game)
        ui.title(fb, player + ": " + secret.get("prompt", secret["name"]))
        choices = secret["choices"]
        top = max(0, min(self.choosing - _ROWS + 1, len(choices) - _ROWS))
        for row in range(min(_ROWS, len(choices))):
            i = top + row
            ui.line(fb, row + 1, " " + str(choices[i]), i == self.choosing)
        ui.hint(fb, "A:pick B:back")

    def key(self, app, button, kind, now):
        self.notice = ""
        if self.game.state["round"] == 0:
            self._pick_key(app, button, kind, now)
        elif button == A and kind != LONG and "confirm" in self.game.phase() and \
                not self.game.state["result"]:  # confirmed first (Tactics: the castles)
            from arbiter.confirm import open_confirm

            open_confirm(app, self)
        elif button == A:
            self.act(app, "redo" if kind == LONG else "next", now)
        elif button == B and kind == LONG:
            self.act(app, "undo", now)
        elif button == B:
            app.push(game_menu(self))
        elif button == DOWN and "grid" in self.game.rules:  # the board, a key away
            from arbiter.grid import open_grid

            open_grid(app, self.game)
        elif button == DOWN and "pages" in self.game.rules:  # the phase's page (the hands)
            from arbiter.pages import open_for_phase

            open_for_phase(app, self.game)
        app.redraw()

    def _pick_key(self, app, button, kind, now):
        """Pass the device round: each player sees only their own choice list."""
        from arbiter.game.actions import pending_pick

        secret, player = pending_pick(self.game)
        if self.choosing is None:
            if button == A and kind != LONG:
                self.choosing = 0
            elif button == B:
                app.push(game_menu(self))
            return
        count = len(secret["choices"])
        if button == UP:
            self.choosing = (self.choosing - 1) % count
        elif button == DOWN:
            self.choosing = (self.choosing + 1) % count
        elif button == B:
            self.choosing = None
        elif button == A and kind != LONG:
            choice = secret["choices"][self.choosing]
            self.choosing = None  # hide the list before the next player takes the device
            self.act(app, "pick %s %s" % (player, choice), now)

    def act(self, app, text, now):
        """Apply an action and journal it; on refusal show why. True if applied."""
        game = self.game
        before = game.logged()  # counted from the start: a bounded log drops old entries
        try:
            event = game.apply(text)
        except Illegal as exc:
            self.notice = exc.reason
            app.log("refused %s: %s" % (public_text(text), exc.reason))
            return False
        self.journal.record(game, event)
        app.log(public_text(event))
        entries = game.log_since(before)
        if self.pending is not None:  # two actions before a drawing: both count
            entries = self.pending[0] + entries
        self.pending = (entries, now)
        app.redraw()
        return True

    def after(self, app, new_entries, now):
        """LEDs and pages for what just happened: rolls spin, reveals and wins flash."""
        game, leds = self.game, app.leds
        rules, state = game.rules, game.state
        colours = [player_colour(rules, p) for p in state["order"]]
        active = game.active_player() if state["round"] else None
        reveal = None
        rolled = False
        notes = []
        for entry in new_entries:
            if entry["event"] == "roll":
                rolled = True
                notes.append(describe(entry))
            elif entry["event"] == "reveal":
                reveal = entry
            elif entry["event"] == "note":
                notes.append(entry["text"])
        self.notes = notes
        if state["result"] == "win":
            colour = player_colour(rules, state["winner"])
            leds.set_base(colour)
            leds.flash(colour, now, 5)
            return
        if state["result"] == "tie":
            leds.set_arcs(colours)
            leds.flash_each(colours, now, 2)
            return
        if rolled:
            leds.spin(player_colour(rules, active) if active else WHITE, now)
        shown = state["order"]  # everyone's, or one player's turn and whoever pulses
        if active:
            shown = [active] + [p for p in shown if p != active and pulsing(game, p)]
        warnings = [warning(game, p) for p in shown]
        leds.set_arcs([w or player_colour(rules, p) for w, p in zip(warnings, shown)])
        # a warning blinks (never a colour); so does a pulse, in the player's colour
        leds.blink_arcs([w or pulsing(game, p) for w, p in zip(warnings, shown)])
        if "leds" in rules:  # the ruleset's own picture: an LED per piece (Jugger)
            from arbiter.game.lights import show

            show(game, leds, new_entries, now, player_colour)
        picked = [e["items"][0] for e in new_entries if e["event"] == "draw" and
                  len(e["items"]) == 1 and e["items"][0] in state["pieces"]]
        if picked:  # a piece drawn at random (the Goon to move): its place in the owner's
            owner = state["pieces"][picked[-1]]["owner"]  # pieces, as that many LEDs
            colour = player_colour(rules, owner)
            leds.set_base(colour, game.piece_keys(owner).index(picked[-1]) + 1)
            leds.flash(colour, now, 2)
        if "pages" in rules:  # a page that belongs to a phase just begun opens
            from arbiter.pages import opened

            opened(app, self, new_entries)
        if reveal is not None:
            leds.flash_each(colours, now)
            lines = ["%s: %s" % item for item in sorted(reveal["picks"].items())]
            app.push(TextPage("Revealed", lines + notes))


def game_menu(play):
    from arbiter.game_menu import GameMenu  # loaded when first opened: heap

    return GameMenu(play)
