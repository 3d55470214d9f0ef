"""Forms: an action's parameters, a dice roll, a correction, set field by field."""

from arbiter import ui
from arbiter.game.effects import action
from arbiter.game.expr import EMPTY, evaluate
from arbiter.hw.buttons import DOWN, LEFT, LONG, REPEAT, RIGHT, UP, A, B

FAST_AFTER = 5  # repeats of a held Left/Right before a number moves FAST_STEP at a time
FAST_STEP = 5
# what a field is called when its ruleset's action has no ``labels`` for it
WORDS = {"p": "player", "k": "piece", "t": "target", "n": "amount"}


class Form:
    """Fields set with Up/Down (which) and Left/Right (value); A does the action.

    ``fields`` are [label, choices, index]; ``build(values)`` gives the action text.
    A field whose choices are ``numbers`` stops at its ends instead of wrapping,
    and moves faster the longer Left/Right is held.
    """

    slow_keys = ()  # A's action is done in a pass of its own, which marks it (App)
    labels = EMPTY  # an action's words for its fields (ActionForm)

    def __init__(self, play, title, fields, build, numbers=None):
        self.numbers = numbers
        self.play = play
        self.title = title
        self.fields = fields
        self.build = build
        self.cursor = self.top = 0
        self.held = 0  # repeats of the Left/Right held now
        self.notice = ""  # why the action was refused, until the next key
        self.said = ""  # a preview: what the action would say
        self.name = None  # the ruleset action's (ActionForm), else
        self.tool = 0  # 1: Roll dice's form, 2: Correct's (game_menu.open_form)
        self.menu_at = None  # the game menu's cursor and top, opened from there
        self.then = None  # a screen's own form (the board's joker): it does the action
        self.set = 0  # a bit per field set by hand: it keeps its value when others change

    def values(self):
        return [choices[i] if choices else "" for _, choices, i in self.fields]

    def draw(self, app, fb):
        first = ui.title(fb, self.title)
        notice = self.notice or self.said
        said = ui.wrap(notice) if notice else ()
        rows = max(1, 7 - first - len(said))  # the fields give way to what the action says
        self.top, shown = ui.listing(
            fb, self.top, self.cursor,
            ["%s <%s>" % (self.word(key), self.shown(choices[i])) if choices else
             self.word(key) + " -" for key, choices, i in self.fields], first,
            min(6 - first, rows))
        for row, text in enumerate(said[: 7 - first - shown]):
            ui.line(fb, first + shown + row, text)
        ui.hint(fb, "<> A:do B:back")

    def word(self, key):
        """A field as players call it: its ruleset's ``labels``, else a plain word."""
        return self.labels.get(key) or WORDS.get(key, key)

    def shown(self, value):
        """A choice as players read it: a piece by its name (Kaiju's ``k1`` of the
        form's player too), a flag not given as "no", anything else as it is."""
        if value == "":
            return "no"
        pieces = self.play.game.state["pieces"]
        if value not in pieces:
            for label, choices, i in self.fields:
                if label == "p" and choices and choices[i] + "." + value in pieces:
                    value = choices[i] + "." + value
        record = pieces.get(value)
        return record.get("name", value) if record else value

    def key(self, app, button, kind, now):
        self.notice = ""
        field = self.fields[self.cursor] if self.fields else None
        if button == UP and self.fields:
            self.cursor = (self.cursor - 1) % len(self.fields)
        elif button == DOWN and self.fields:
            self.cursor = (self.cursor + 1) % len(self.fields)
        elif button in (LEFT, RIGHT) and field and field[1]:
            self.held = self.held + 1 if kind == REPEAT else 0
            step = FAST_STEP if self.held > FAST_AFTER and field[1] is self.numbers else 1
            index = field[2] + (step if button == RIGHT else -step)
            if field[1] is not self.numbers:  # lists wrap round; numbers stop at the ends
                index %= len(field[1])
            field[2] = max(0, min(index, len(field[1]) - 1))
            self.set |= 1 << self.cursor
            self.on_change(self.cursor)
        elif button == A and kind != LONG:
            values = self.values()
            if self.then is not None:  # its screen, under it, does it and shows why not
                app.pop()
                self.then(app, self.build(values), now)
                app.redraw()
                return
            self.play.act_later(app, (self.build(values), self.name, self.tool, values,
                                      self.cursor, self.top, self.menu_at, self.memory()))
            return
        elif button == B:
            app.pop()
            if self.menu_at is not None:
                self.play.menu_again(app, self.menu_at)
        app.redraw()

    def on_change(self, row):
        pass

    def memory(self):
        """Under what the values chosen are remembered once done (ActionForm), or None."""
        return None

    def restore(self, values, cursor, top, notice):
        """As the form was (``values`` of its fields, in order: the choices of those
        below follow), saying ``notice``: opened again after its action was refused."""
        for i, field in enumerate(self.fields):
            if field[1] and values[i] in field[1]:
                field[2] = field[1].index(values[i])
                self.set |= 1 << i
                self.on_change(i)
        self.cursor, self.top, self.notice = cursor, top, notice


# The forms' numbers: literals, so a Pico keeps them as interned names (a list of
# 31 made strings took 1 KB); the Roll dice and Correct forms make theirs from these.
AMOUNTS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13",
           "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25",
           "26", "27", "28", "29", "30")


class ActionForm(Form):
    """The ruleset's ``choices`` for a param are worked out with ``$p``, ``$k`` and
    ``$t`` bound to the player and pieces chosen in the form, and again when one of
    those changes (an attack offers the others; a damage, the players who can have
    dealt it). A ``choices`` entry that is not a param is a named argument, offered
    after the params and passed as ``NAME=VALUE`` (Kaiju's ``by=``). With
    ``"preview": true`` the form shows what the action would say, as it is set."""

    remembers = False  # the fast path's form opens at the last values (fast.py)

    def __init__(self, play, name, spec, fields):
        super().__init__(play, spec.get("label", name), fields, self._text, AMOUNTS)
        self.name = name
        self.labels = spec.get("labels", EMPTY)
        # the actions its previews read from flash, its own first: read once a form
        at = play.game.rules.get("actions", EMPTY).get(name)
        self.specs = {} if at is None else {at: spec}
        # nothing is kept that no form opens at: pieces alone, or a knob's (fast.py),
        # which opens at what the situation implies (Jugger's defense is the defender's)
        self.keeps = "knob" not in spec and any(f[0] not in ("p", "k", "t") for f in fields)
        self.named = len(spec.get("params", []))  # fields from here on are NAME=VALUE
        self.offered = spec.get("choices", {})
        self.preview = spec.get("preview", False)
        self.stale = 0  # 2: the preview is out of date; 1: work it out at the next draw
        self.start = ()  # the defaults' values: a field worked out again opens there too
        if "defaults" in spec:  # where the form starts, such as who holds each castle now
            self.start_at(spec["defaults"])
        self.on_change(-1)
        self.recall()

    def recall(self, reset=False):
        """The values this player chose last time (memory), where still offered; none
        kept, with ``reset``, those kept back at where they open."""
        last = getattr(self.play, "last", None) if self.remembers else None
        last = last.get(self.memory()) if last else None
        for i, field in enumerate(self.fields):
            if not self.kept(field):
                continue
            if last and last[i] in field[1]:
                field[2] = field[1].index(last[i])
                self.set |= 1 << i
            elif reset:
                field[2] = self.first(i)
                self.set &= ~(1 << i)
            else:
                continue
            self.on_change(i)

    @property
    def slow_keys(self):
        """Left/Right on a player or a piece: the fields below are worked out again
        (on_change), which can take a Pico over 100 ms, so the press is marked (App)."""
        field = self.fields[self.cursor] if self.fields else None
        return (LEFT, RIGHT) if field and field[0] in ("p", "k", "t") else ()

    def kept(self, field):
        """Whether ``field`` opens at the value chosen last time: all but who."""
        return field[0] not in ("p", "k", "t")

    def memory(self):
        """Whose choice it is: the form's player, else the player whose turn it is;
        None when nothing chosen would be used again."""
        if not self.keeps:
            return None
        for label, choices, i in self.fields:
            if label == "p" and choices:
                return self.name + " " + choices[i]
        return self.name + " " + str(self.play.game.active_player())

    def start_at(self, defaults):
        """Each field at its value in the list ``defaults`` (an expression) gives, when
        offered; the preview, already out of date, follows at the next draw."""
        try:
            values = evaluate(self.play.game, defaults)
        except Exception:  # a ruleset mistake: the form starts where it would
            return
        self.start = [str(v) for v in values] if isinstance(values, list) else ()
        for field, value in zip(self.fields, self.start):
            if value in field[1]:
                field[2] = field[1].index(value)

    def first(self, i):
        """Where field ``i`` opens once worked out again: its default, when offered,
        else its first choice (what the situation implies)."""
        choices = self.fields[i][1]
        value = self.start[i] if i < len(self.start) else None
        return choices.index(value) if value in choices else 0

    def _text(self, values):
        words = [self.name]
        for i, value in enumerate(values):
            words.append(value if i < self.named else "%s=%s" % (self.fields[i][0], value))
        return " ".join(words)

    def on_change(self, row):
        fields = self.fields
        if row < 0 or fields[row][0] in ("p", "k", "t"):
            binding = {}
            for again in (0, 1):  # the second pass: each field with those above it as now
                for i, field in enumerate(fields):
                    if again and i != row and field[0] in self.offered:
                        was = field[1][field[2]] if field[1] else None
                        field[1] = param_choices(self.play.game,
                                                 self.offered[field[0]], binding)
                        if field[1] is AMOUNTS and field[0] in ("k", "t"):
                            # no piece is legal now: all, for the reason it is refused
                            field[1] = self.play.game.piece_keys()
                        # the first choice (what the situation implies), unless set by
                        # hand: then the same while it is offered
                        field[2] = field[1].index(was) if row >= 0 and was in field[1] \
                            and self.set >> i & 1 else self.first(i)
                    if field[0] in ("p", "k", "t") and field[1]:
                        binding[field[0]] = field[1][field[2]]
        if self.preview:
            self.said, self.stale = "", 2

    def ready(self, app, now):
        self.work_out_preview(app)

    def work_out_preview(self, app):
        """The preview, in a pass of its own after the one that changed the fields: on
        a Pico's heap the two passes' garbage does not fit at once."""
        if self.stale == 1:
            from arbiter.game.preview import preview

            self.said, self.stale = preview(self.play.game, self.build(self.values()),
                                            self.specs), 0
        elif self.stale:
            self.stale = 1
            app.redraw()


def action_form(play, name, form=ActionForm):
    game = play.game
    spec = action(game, name)
    fields = []
    params = spec.get("params", [])
    for param in params + sorted(k for k in spec.get("choices", {}) if k not in params):
        if param == "p":
            choices = list(game.players_in_order())
            active = game.active_player()
            start = choices.index(active) if active in choices else 0
        elif param in ("k", "t"):
            choices, start = game.piece_keys(), 0
        else:
            choices, start = AMOUNTS, 1
        fields.append([param, choices, start])
    return form(play, name, spec, fields)


def param_choices(game, form, binding=None):
    try:
        values = game.evaluate_bound(form, binding)
    except Exception:  # a ruleset mistake: offer numbers rather than fail
        return AMOUNTS
    return [str(v) for v in values] if isinstance(values, list) and values else AMOUNTS
