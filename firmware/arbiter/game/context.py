"""What expressions read (see expr.py): the state by paths, whose turn it is, the
bindings, arguments and vars of the action in progress, options, named values,
the pieces. The engine's Game is a Context that also changes the state."""

from arbiter.game import Illegal, RuleError
from arbiter.game.expr import EMPTY, evaluate
from arbiter.game.state import holder, kind_of, split

# Paths worked out once and kept (see locate): a ruleset's own are a few dozen; a
# path with no $ may also be made by an expression or typed in a correction, so
# those are kept only while there are fewer than this.
PATHS_KEPT = 64


class Context:
    def __init__(self, rules, options):
        self.rules = rules
        self.options = options
        self.state = None  # the game state (state.py), set when the game starts
        self._keys = None  # see piece_keys
        self._paths = {}  # "$v:h.$a:q" -> its two parts, worked out once (see locate)
        self.rolls = []  # the dice the action in progress rolled, for its record
        self.kept_parses = None  # effects.of_action's parses a rewind keeps (undo.rewind)
        self.shared = None  # a preview's: the game's own state (see Game.writable)
        self.clear_scratch()

    def clear_scratch(self):
        """What one action works with: its arguments, the names bound in it (``$p``,
        ``$k``, ``$t``), its vars (named rolls among them), the ``call`` stack and
        the actions' effects parsed for it (effects.of_action). Empty between
        actions, whatever happened, but in a rewind: its replay keeps them."""
        self.args, self.binding, self.vars, self.calls = {}, {}, {}, []
        self.parsed = {} if self.kept_parses is None else self.kept_parses
        self.steps = self.depth = 0  # effect lists run, nesting (effects.MAX_STEPS, deeper)

    # -- whose turn it is ------------------------------------------------------------

    def phase(self):
        phases = self.rules.get("phases", ())
        return phases[self.state["phase"]] if phases else {"name": "play"}

    def per_player(self, phase):
        """Whether players take turns in this phase; an expression may decide (an option)."""
        flag = phase.get("per_player")
        return evaluate(self, flag) if isinstance(flag, dict) else flag

    def active_player(self):
        if not self.per_player(self.phase()):
            return None
        order = self.players_in_order()
        return order[self.state["turn"] % len(order)] if order else None

    def players_in_order(self):
        """The players still in, in turn order (the state's own list while nobody is
        out, asked for at every step: read it, never change it)."""
        lost = self.state["lost"]
        if not lost:
            return self.state["order"]
        return [p for p in self.state["order"] if p not in lost]

    # -- bindings --------------------------------------------------------------------

    def bound(self, name):
        return self.binding.get(name)

    # A binding is set in place and given back after, not copied: these run for
    # every piece a condition looks at, and a copy each time is heap churn.

    def bound_eval(self, name, value, form):
        binding, old = self.binding, self.binding.get(name)
        binding[name] = value
        try:
            return evaluate(self, form)
        finally:
            _give_back(binding, name, old)

    def evaluate_bound(self, form, binding):
        """``form`` worked out with ``binding`` alone (a form's choices, its params so
        far), the action's own given back after."""
        saved, self.binding = self.binding, dict(binding) if binding else {}
        try:
            return evaluate(self, form)
        finally:
            self.binding = saved

    def path(self, text):
        if not isinstance(text, str):
            raise RuleError("a path must be text: %r" % (text,))
        if "$" not in text:
            return text
        return ".".join([self._filled(_part(part)) for part in text.split(".")])

    def locate(self, text):
        """A path's (kind, key, field), ``$`` names filled in."""
        template = self._paths.get(text) if isinstance(text, str) else None
        if template is None:
            if not isinstance(text, str) or text.rfind(".") <= 0:
                return split(self.path(text))
            if "$" not in text and len(self._paths) >= PATHS_KEPT:
                return split(text)  # one of many worked-out paths (corrections): not kept
            # kept: a ruleset has a few dozen paths, read at every step; each read
            # then builds no list and no string but a key of several parts
            template = self._paths[text] = self._template(text)
        key = template[0]
        key = self._filled(key) if key.__class__ is not list else self._key(key)
        field = self._filled(template[1])
        if not key or not field or key.count(".") > 1:
            raise RuleError("bad path " + text)
        return kind_of(key), key, field

    def _template(self, text):
        """A path worked out once: (its key's part or parts, its field's part), the
        field the ruleset's own name when it has one (a counter's, a stat's, a game
        value's): a kept path then holds no string of its own but its text."""
        dot = text.rfind(".")
        head = text[:dot]
        if "$" in head and "." in head:
            key = [_part(part) for part in head.split(".")]
        elif head[1:] in _BOUND and head.startswith("$"):  # "$p" and the like, inline:
            key = _BOUND[head[1:]]  # a first read may be at a Pico's deepest
        else:
            key = _part(head)
        field = text[dot + 1:]
        if field.startswith("$"):  # (_part, inline: a first read may be a Pico's deepest)
            field = _part(field)
        if field.__class__ is str:
            rules = self.rules
            pieces = rules.get("pieces", EMPTY)
            for names in (rules.get("counters", EMPTY), pieces.get("counters", EMPTY),
                          pieces.get("stats", EMPTY), rules.get("game", EMPTY)):
                for name in names:
                    if name == field:
                        return key, name
        return key, field

    def _key(self, part):
        # a path's key: one part, or a list of them ("$p.$v:pos") joined with dots
        if part.__class__ is not list:
            return self._filled(part)
        key = self._filled(part[0])
        for i in range(1, len(part)):
            key = key + "." + self._filled(part[i])
        return key

    def _filled(self, part):
        # a part of a path: as written, or ("b"|"a"|"v", NAME) for $NAME, $a:NAME, $v:NAME
        if part.__class__ is str:
            return part
        how, name = part
        if how == "a":
            return str(self.arg(name))
        if how == "v":  # (self.var, inline: a call less deep)
            if name not in self.vars:
                raise RuleError("unknown var " + name)
            return str(self.vars[name])
        value = self.binding.get(name)
        if value is None:
            raise RuleError("nothing bound to $" + name)
        return value

    def get(self, path):
        """A value by path (``$`` names filled in)."""
        template = self._paths.get(path) if isinstance(path, str) else None
        if template is not None:  # read at every step: no tuple, no string built
            key, field, binding = template[0], template[1], self.binding
            if key.__class__ is not str:  # "$p" and the like inline: few calls deep
                key = binding[key[1]] if key.__class__ is tuple and key[0] == "b" and \
                    key[1] in binding else self._key(key)
            if field.__class__ is not str:
                field = self._filled(field)
            record = holder(self.state, "piece" if "." in key else "game" if key == "game"
                            else "player", key)  # (state.kind_of, inline: a call less deep)
            if record is not None and field in record:
                return record[field]
        kind, key, field = self.locate(path)
        record = holder(self.state, kind, key)
        if record is None:
            raise Illegal("no such player or piece: " + key)
        if field not in record:
            if kind == "piece":
                stats = record["stats"]
                shared = self.rules.get("pieces", EMPTY).get("stats", EMPTY)
                if field in stats or field in shared:  # its own, else every piece's
                    return stats[field] if field in stats else shared[field]
            raise Illegal("%s has no %s" % (key, field))
        return record[field]

    def option(self, name):
        if name not in self.options:
            raise RuleError("unknown option " + name)
        return self.options[name]

    def value(self, name):
        """A named value (the ruleset's ``values``), worked out now."""
        return evaluate(self, {"val": name})

    def arg(self, name):
        if isinstance(name, list):  # [NAME, DEFAULT]: the default only when not given
            return self.args[name[0]] if name[0] in self.args else evaluate(self, name[1])
        if name not in self.args:
            raise Illegal("missing %s=" % name)
        return self.args[name]

    def now(self, what):
        if what == "player":
            return self.active_player()
        if what == "phase":
            return self.phase()["name"]
        if what == "round":
            return self.state["round"]
        raise RuleError("now is player, phase or round, not %r" % (what,))

    def roll_result(self, name, kind):
        """A named roll of this action: its ``rolls``, or their ``sum`` (with success
        faces, the hits)."""
        rolls = self.vars.get("roll:" + name)
        if rolls is None:
            raise RuleError("no roll named " + name)
        if kind == "rolls":
            return rolls
        return sum(rolls)

    def stat(self, name):
        piece = self.state["pieces"].get(self.binding.get("k"))
        if piece is None:
            raise RuleError("no piece bound for stat " + name)
        stats = piece["stats"]
        if name in stats:
            return stats[name]
        return self.rules.get("pieces", EMPTY).get("stats", EMPTY).get(name, 0)

    def var(self, name):
        if name not in self.vars:
            raise RuleError("unknown var " + name)
        return self.vars[name]

    def piece_keys(self, owner=None):
        """Piece keys, sorted (dict order differs by runtime); worked out once per set of
        pieces and owner, since conditions ask for them at every step."""
        pieces = self.state["pieces"]
        cache = self._keys
        if cache is None or cache[0] is not pieces or cache[1] != len(pieces):
            cache = self._keys = (pieces, len(pieces), {None: sorted(pieces)})
        keys = cache[2].get(owner)
        if keys is None:
            keys = cache[2][owner] = [k for k in cache[2][None] if pieces[k]["owner"] == owner]
        return keys

    def text(self, parts):
        """A message: a string, or a list of strings and expressions joined."""
        if isinstance(parts, str):
            return parts
        return "".join([str(value) for value in evaluate(self, parts)])


def _give_back(binding, name, old):
    if old is None:
        binding.pop(name, None)
    else:
        binding[name] = old


# the bound names most paths start with, one object each for every path kept
_BOUND = {"p": ("b", "p"), "k": ("b", "k"), "t": ("b", "t")}


def _part(text):
    if text.startswith("$a:") or text.startswith("$v:"):
        return text[1], text[3:]
    if text.startswith("$"):
        return _BOUND.get(text[1:]) or ("b", text[1:])
    return text
