"""Playing a game on the device: the play screen, secret picks, the game menu.

Every change goes through ``Game.apply`` (the same engine as ``arbiter run``)
and, once applied, into the journal on flash. A: next phase; long A: redo;
long B: undo; B: the game menu (actions, dice, corrections, log, end).
"""

from arbiter import ui
from arbiter.buttons import DOWN, LEFT, LONG, RIGHT, UP, A, B
from arbiter.game.effects import Illegal
from arbiter.game.rules import colour_of
from arbiter.game.view import screen_lines
from arbiter.leds import PLAYER_COLOURS, WHITE
from arbiter.screens import Confirm, Menu, TextPage

_ROWS = 6


def player_colour(rules, player):
    colours = rules.get("players", {}).get("colours", ())
    index = int(player[1:]) - 1
    if index < len(colours):
        return colour_of(colours[index])
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


AMBER = (255, 120, 0)
RED = (255, 0, 0)


def warned_colour(game, player):
    """The player's colour, or amber / red once the ruleset's ``players.warn`` counter
    reaches its ``amber`` / ``red`` level (Juggernauts: alert tokens, red at 2)."""
    rules = game.rules
    warn = rules.get("players", {}).get("warn")
    if warn:
        value = game.state["players"][player].get(warn["counter"], 0)
        if isinstance(value, int) and "red" in warn and value >= warn["red"]:
            return RED
        if isinstance(value, int) and "amber" in warn and value >= warn["amber"]:
            return AMBER
    return player_colour(rules, player)


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

    def draw(self, app, fb):
        game = self.game
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
        elif button == A:
            self.act(app, "redo" if kind == LONG else "next", now)
        elif button == B and kind == LONG:
            self.act(app, "undo", now)
        elif button == B:
            app.push(GameMenu(self))
        app.redraw()

    def _pick_key(self, app, button, kind, now):
        """Pass the device round: each player sees only their own choice list."""
        from arbiter.game.actions import pending_pick

        secret, player = pending_pick(self.game)
        if self.choosing is None:
            if button == A and kind != LONG:
                self.choosing = 0
            elif button == B:
                app.push(GameMenu(self))
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
        before = len(game.log)
        try:
            event = game.apply(text)
        except Illegal as exc:
            self.notice = exc.reason
            app.log("refused %s: %s" % (public_text(text), exc.reason))
            return False
        self.journal.record(game, event)
        app.log(public_text(event))
        self.after(app, game.log[before:] if len(game.log) > before else (), now)
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
        if active:
            leds.set_base(warned_colour(game, active))
        else:
            leds.set_arcs([warned_colour(game, p) for p in state["order"]])
        picked = [e["items"][0] for e in new_entries if e["event"] == "draw" and
                  len(e["items"]) == 1 and e["items"][0] in state["pieces"]]
        if picked:  # a piece drawn at random (the Goon to move): its place in the owner's
            owner = state["pieces"][picked[-1]]["owner"]  # pieces, as that many LEDs
            colour = player_colour(rules, owner)
            leds.set_base(colour, game.piece_keys(owner).index(picked[-1]) + 1)
            leds.flash(colour, now, 2)
        if reveal is not None:
            leds.flash_each(colours, now)
            lines = ["%s: %s" % item for item in sorted(reveal["picks"].items())]
            app.push(TextPage("Revealed", lines + notes))


class GameMenu(Menu):
    """B on the play screen: everything besides the next phase."""

    def __init__(self, play):
        game = play.game
        self.play = play
        items = [("Undo", lambda app, now: self._do(app, "undo", now)),
                 ("Redo", lambda app, now: self._do(app, "redo", now))]
        if game.state["round"]:
            phase = game.phase()["name"]
            for name, spec in sorted(game.rules.get("actions", {}).items()):
                if phase in spec.get("phases", (phase,)):
                    items.append((spec.get("label", name),
                                  lambda app, now, n=name: app.push(action_form(play, n))))
            items.append(("Roll dice", lambda app, now: app.push(roll_form(play))))
            items.append(("Correct", lambda app, now: app.push(correct_form(play))))
        grid = game.rules.get("grid")
        if grid and game.state["round"]:
            items.append((grid.get("label", "Board"), lambda app, now: open_grid(app, game)))
        if game.state["game"]:
            items.append(("Table", lambda app, now: app.push(TextPage(
                "Table", table_lines(game)))))
        items.append(("Log", lambda app, now: app.push(TextPage(
            "Log", [describe(e) for e in game.log[-20:]]))))
        items.append(("Main menu", lambda app, now: leave(app)))
        items.append(("End game", lambda app, now: app.push(Confirm(
            "End game?", ["The dice seed", "is revealed and", "the game closed."],
            lambda app, now: end_game(app, play)))))
        super().__init__("Game", items)

    def _do(self, app, text, now):
        app.pop()
        self.play.act(app, text, now)


def table_lines(game):
    """The game-wide values (hands, a queue, the board) as text."""
    out = []
    for name in sorted(game.state["game"]):
        value = game.state["game"][name]
        if isinstance(value, list):
            value = " ".join(str(v) for v in value) or "-"
        out.append("%s: %s" % (name, value))
    return out


def open_grid(app, game):
    from arbiter.grid import GridPage

    grid = game.rules["grid"]
    try:
        items = game.get(grid["value"])
    except Illegal:
        items = []
    app.push(GridPage(items if isinstance(items, list) else [], grid.get("columns", 7),
                      grid.get("label", "Board")))


def leave(app):
    """To the main menu; the game stays on flash, resumed from Play."""
    app.leds.clear()
    del app.stack[1:]
    app.redraw()


def end_game(app, play):
    """Close the journal (it stays for pull-log) and reveal the seed."""
    from arbiter.game.engine import commitment

    game = play.game
    play.journal.close()
    app.log("game over; seed=%016x" % game.seed)
    app.leds.clear()
    del app.stack[1:]
    app.push(TextPage("Game over", ["Seed revealed:", "%016x" % game.seed,
                                    "commitment was", commitment(game.seed)]))


class Form:
    """Fields set with Up/Down (which) and Left/Right (value); A does the action.

    ``fields`` are [label, choices, index]; ``build(values)`` gives the action text.
    A field whose choices are ``numbers`` stops at its ends instead of wrapping.
    """

    def __init__(self, play, title, fields, build, numbers=None):
        self.numbers = numbers
        self.play = play
        self.title = title
        self.fields = fields
        self.build = build
        self.cursor = 0
        self.notice = ""

    def values(self):
        return [choices[i] if choices else "" for _, choices, i in self.fields]

    def draw(self, app, fb):
        ui.title(fb, self.title)
        top = max(0, self.cursor - 4)  # more than 5 fields scroll with the cursor
        for row, (label, choices, i) in enumerate(self.fields[top:top + 5]):
            text = "%s <%s>" % (label, choices[i]) if choices else label + " -"
            ui.line(fb, row + 1, text, row + top == self.cursor)
        if self.notice:
            first = min(len(self.fields), 5) + 1
            for row, text in enumerate(ui.wrap(self.notice)[: 7 - first]):
                ui.line(fb, first + row, text)
        ui.hint(fb, "<> A:do B:back")

    def key(self, app, button, kind, now):
        self.notice = ""
        field = self.fields[self.cursor] if self.fields else None
        if button == UP and self.fields:
            self.cursor = (self.cursor - 1) % len(self.fields)
        elif button == DOWN and self.fields:
            self.cursor = (self.cursor + 1) % len(self.fields)
        elif button in (LEFT, RIGHT) and field and field[1]:
            index = field[2] + (1 if button == RIGHT else -1)
            if field[1] is not self.numbers:  # lists wrap round; numbers stop at the ends
                index %= len(field[1])
            field[2] = max(0, min(index, len(field[1]) - 1))
            self.on_change(self.cursor)
        elif button == A and kind != LONG:
            if self.play.act(app, self.build(self.values()), now):
                app.pop()  # the form
                app.pop()  # the game menu
                return
            self.notice = self.play.notice
            self.play.notice = ""
        elif button == B:
            app.pop()
        app.redraw()

    def on_change(self, row):
        pass


def _numbers(low, high):
    return [str(n) for n in range(low, high + 1)]


AMOUNTS = _numbers(0, 30)
CHANGES = _numbers(-20, 20)
COUNTS = _numbers(1, 20)


def action_form(play, name):
    game = play.game
    spec = game.rules["actions"][name]
    fields = []
    offered = spec.get("choices", {})
    for param in spec.get("params", []):
        if param in offered:  # the ruleset's choices for this param (an expression)
            choices, start = param_choices(game, offered[param]), 0
        elif param == "p":
            choices = game.players_in_order()
            active = game.active_player()
            start = choices.index(active) if active in choices else 0
        elif param in ("k", "t"):
            choices, start = game.piece_keys(), 0
        else:
            choices, start = AMOUNTS, 1
        fields.append([param, choices, start])
    return Form(play, spec.get("label", name)[:16], fields,
                lambda values: " ".join([name] + values), AMOUNTS)


def param_choices(game, form):
    from arbiter.game.expr import evaluate

    try:
        values = evaluate(game, form)
    except Exception:  # a ruleset mistake: offer numbers rather than fail
        return AMOUNTS
    return [str(v) for v in values] if isinstance(values, list) and values else AMOUNTS


def roll_form(play):
    dice = sorted(play.game.rules.get("dice", {}))  # sorted: dict order differs by runtime
    dice += [d for d in ("d4", "d6", "d8", "d10", "d12", "d20") if d not in dice]
    return Form(play, "Roll dice", [["die", dice, 0], ["count", COUNTS, 0]],
                lambda values: "roll %s %s" % (values[0], values[1]), COUNTS)


class CorrectForm(Form):
    """A counter by hand: whose (player or piece), which counter, by how much."""

    def __init__(self, play):
        game = play.game
        holders = game.players_in_order() + game.piece_keys()
        fields = [["who", holders, 0], ["what", [], 0], ["by", CHANGES, 21]]
        super().__init__(play, "Correct", fields,
                         lambda v: "add %s.%s %s" % (v[0], v[1], v[2]), CHANGES)
        self.on_change(0)

    def on_change(self, row):
        if row == 0:
            state = self.play.game.state
            who = self.fields[0][1][self.fields[0][2]]
            record = state["pieces"][who] if "." in who else state["players"][who]
            self.fields[1][1] = sorted(k for k, v in record.items()
                                       if isinstance(v, int) and not isinstance(v, bool))
            self.fields[1][2] = 0


def correct_form(play):
    return CorrectForm(play)
