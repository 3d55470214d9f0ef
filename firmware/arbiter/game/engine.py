"""The event-sourced referee: a game is ``replay(ruleset, options, seed, events)``.

Every player action is an event (a short line of text). Applying one either
changes the state and is recorded with the dice it rolled, or raises
``Illegal`` with a reason and changes nothing. Undo is a replay without the
last event; the generator restarts from the seed, so a re-done roll comes out
the same (no undoing until lucky).
"""

import hashlib

from arbiter.game import actions, effects
from arbiter.game.effects import Illegal
from arbiter.game.expr import EMPTY, RuleError, evaluate
from arbiter.game.state import clone, holder, new_state, split
from arbiter.rng import Rng

SNAP_EVERY = 16  # events between in-memory snapshots
SNAP_KEEP = 4  # snapshots kept: undo further back replays from the start
# keep=N (a device): an undo or a refused action replays at most 3 events from a
# snapshot (a button answers at once, a pass's garbage stays small), undo reaches
# 20 actions back or more, and the snapshots take a few KB.
BOUNDED_SNAP_EVERY = 4
BOUNDED_SNAP_KEEP = 6


def commitment(seed):
    """A short hash of the seed, shown at the start and checked when it is revealed."""
    return hashlib.sha256(seed.to_bytes(8, "big")).digest()[:6].hex()


class Game:
    def __init__(self, rules, players=None, options=None, seed=0, keep=None):
        self.rules = rules
        spec = rules.get("players", EMPTY)
        low, high = spec.get("min", 2), spec.get("max", spec.get("min", 2))
        self.players = spec.get("default", low) if players is None else players
        if not low <= self.players <= high:
            raise Illegal("%s takes %d to %d players" % (rules["name"], low, high))
        self.options = self._resolve_options(options or {})
        self.seed = seed
        self.events = []  # applied events: "action|rolls"
        self.undone = []  # for redo
        self._snaps = []  # (events applied, state, rng, log length): undo replays from one
        self._keys = None  # see piece_keys
        self._fields = {}  # "$k.NAME" -> "NAME" (see locate)
        # keep=N (a device's heap): the log keeps its last N entries and the events
        # before the oldest snapshot are dropped, so undo reaches undo_reach() or more
        # back. None keeps everything (host tools: the whole log).
        self.keep = keep
        self._every, self._kept = (SNAP_EVERY, SNAP_KEEP) if keep is None else \
            (BOUNDED_SNAP_EVERY, BOUNDED_SNAP_KEEP)
        self.dropped = 0  # events no longer in RAM, before events[0]
        self._restart()

    def _resolve_options(self, given):
        resolved = {}
        declared = self.rules.get("options", EMPTY)
        for name in given:
            if name not in declared:
                raise Illegal("unknown option %s" % name)
        for name, spec in declared.items():
            value = given.get(name, spec.get("default", spec["choices"][0]))
            if value not in spec["choices"]:
                # options arrive as text from a command line: match by spelling
                match = [c for c in spec["choices"] if str(c).lower() == str(value).lower()]
                if not match:
                    raise Illegal("option %s must be one of %s" % (
                        name, ", ".join(str(c) for c in spec["choices"])))
                value = match[0]
            resolved[name] = value
        return resolved

    # -- life cycle ---------------------------------------------------------------

    def _restart(self):
        self.state = new_state(self.rules, self.players)
        self.rng = Rng(self.seed)
        self.log = [{"event": "start", "ruleset": self.rules["name"],
                     "commitment": commitment(self.seed)}]
        self.log_dropped = 0  # log entries no longer in RAM, before log[0]
        self.clear_scratch()
        self._rolls = []
        self._setup_players()
        if not self.rules.get("secrets"):
            self._begin_play()

    def _setup_players(self):
        state = self.state
        if self.rules.get("teams"):  # each player's pieces and card come from a team
            from arbiter.game.teams import deal

            deal(self)
            return
        pieces = self.rules.get("pieces", EMPTY)
        for player in state["order"]:
            specs = pieces.get("by_player", EMPTY).get(player, pieces.get("each", ()))
            for spec in specs:
                self.add_piece(player, spec)
        for player in state["order"]:  # after the pieces: a start may depend on them
            self.binding = {"p": player}
            record = state["players"][player]
            for name, spec in self.rules.get("counters", EMPTY).items():
                record[name] = self._start_value(spec)
        self.binding = {}

    def add_piece(self, owner, spec):
        key = owner + "." + spec["key"]
        self._keys = None  # the pieces change: their sorted keys are worked out again
        piece = {"owner": owner, "name": spec.get("name", spec["key"]),
                 "stats": spec.get("stats", EMPTY)}  # read-only: shared, never copied
        self.state["pieces"][key] = piece
        saved, self.binding = self.binding, {"p": owner, "k": key}
        for name, counter in self.rules.get("pieces", EMPTY).get("counters", EMPTY).items():
            piece[name] = self._start_value(counter)
        self.binding = saved

    def _start_value(self, spec):
        if "choices" in spec:
            return spec.get("start", spec["choices"][0])
        return evaluate(self, spec.get("start", 0))

    def _begin_play(self):
        self.order_players(self.rules.get("turn_order", {"by": "fixed"}))
        self.state["round"] = 1
        self.run(self.rules.get("setup", ()))
        self._enter_phase()

    # -- actions --------------------------------------------------------------------

    def apply(self, text):
        """Apply one action; returns the recorded event. Raises Illegal (state unchanged)."""
        name, args = actions.parse(text)
        self._trim_log()  # before, not after: the caller reads this action's entries
        if name == "undo":
            return self.undo()
        if name == "redo":
            return self.redo()
        event = self._apply_new(name, args, text)
        self.events.append(event)
        self.undone = []
        self._snapshot()
        return event

    def count(self):
        """Events applied since the start, the dropped ones included."""
        return self.dropped + len(self.events)

    def logged(self):
        """Log entries since the start, the dropped ones included."""
        return self.log_dropped + len(self.log)

    def log_since(self, logged):
        """The log entries after the first ``logged`` (those still in RAM)."""
        return self.log[max(0, logged - self.log_dropped):]

    def undo_reach(self):
        """The fewest actions undo reaches back when older events are dropped."""
        return self._every * (self._kept - 1)

    def oldest(self):
        """(events, state, rng, logged) of the oldest snapshot, or None."""
        return self._snaps[0] if self._snaps else None

    def _snapshot(self):
        count = self.count()
        if count % self._every == 0:
            self._snaps.append((count, clone(self.state), self.rng.snapshot(),
                                self.logged()))
            del self._snaps[:-self._kept]
            # With every snapshot kept, no undo goes past the oldest (undo_reach() or
            # more): the events before it go (a game resumed from a checkpoint has none
            # before it either).
            drop = self._snaps[0][0] - self.dropped
            if drop > 0 and len(self._snaps) == self._kept and \
                    (self.keep is not None or self.dropped):
                del self.events[:drop]
                self.dropped += drop

    def _trim_log(self):
        extra = len(self.log) - self.keep if self.keep is not None else 0
        if extra > 0:
            del self.log[:extra]
            self.log_dropped += extra

    def _apply_new(self, name, args, text, expected=None, again=False):
        # ``again``: an event replayed (undo, resume, audit) was accepted before and
        # cannot fail. A new one that fails is rolled back by replaying from the last
        # snapshot: no copy of the state per action (a Pico's heap), and a refusal,
        # the rare case, pays instead.
        self._rolls = []
        try:
            if self.state["result"] and name != "note":
                raise Illegal("the game is over")
            actions.perform(self, name, args)
            self._settle()
        except (Illegal, RuleError, KeyError, IndexError, TypeError, ValueError) as exc:
            self.clear_scratch()  # nothing of the refused action may reach the replay
            if not again:
                self._rewind(self.count())
            if isinstance(exc, Illegal):
                raise
            raise Illegal("cannot do that: %s" % exc) from None
        finally:
            self.clear_scratch()
        return actions.record(actions.canonical(name, args), self._rolls)

    def clear_scratch(self):
        """What one action works with (variables, arguments, bindings, calls, a win
        or loss still to resolve): empty between actions, whatever happened."""
        self.vars, self.args, self.binding, self.calls = {}, {}, {}, []
        self.pending_win, self.pending_lose, self.pending_tie = [], [], False

    def undo(self):
        if not self.events:
            raise Illegal("no further undo: it reaches the last %d actions" % self.undo_reach()
                          if self.dropped else "nothing to undo")
        self.undone.append(self.events.pop())
        self._rewind(self.count())
        return "undo"

    def _rewind(self, count):
        """The state after the first ``count`` events: from the nearest snapshot."""
        self._snaps = [snap for snap in self._snaps if snap[0] <= count]
        if not self._snaps:  # only when nothing is dropped: a snapshot stays at dropped
            self.replay(self.events[:count])
            return
        done, state, rng, logged = self._snaps[-1]
        self.state = clone(state)
        self.rng.restore(rng)
        kept = logged - self.log_dropped
        if kept < 0:  # the entries up to the snapshot are trimmed: the log goes on from it
            self.log_dropped, kept = logged, 0
        del self.log[kept:]
        for event in self.events[done - self.dropped:count - self.dropped]:
            text, _ = actions.unrecord(event)
            name, args = actions.parse(text)
            self._apply_new(name, args, text, again=True)

    def redo(self):
        if not self.undone:
            raise Illegal("nothing to redo")
        event = self.undone.pop()
        text, _ = actions.unrecord(event)
        self.events.append(self._apply_new(*actions.parse(text), text))
        self._snapshot()
        return "redo"

    def replay(self, events, check=None):
        """Rebuild the state from the start. ``check(i, recorded, rolled)`` sees each
        event's recorded dice beside the ones the generator gives now (audit)."""
        self._restart()
        self.events, self._snaps, self.dropped = [], [], 0
        self._reapply(events, check)

    def replay_from(self, start, events, logged=0, check=None):
        """As ``replay``, on top of the state after the first ``start`` events (a
        journal's checkpoint, ``logged`` log entries in): undo stops there."""
        if start == 0:
            self.replay(events, check)
            return
        self.events, self.dropped = [], start
        self.log, self.log_dropped = [], logged
        self._snaps = [(start, clone(self.state), self.rng.snapshot(), logged)]
        self._reapply(events, check)

    def _reapply(self, events, check):
        for i, event in enumerate(events):
            self._trim_log()
            text, recorded = actions.unrecord(event)
            name, args = actions.parse(text)
            now = self._apply_new(name, args, text, again=True)
            self.events.append(now)
            self._snapshot()
            if check:
                check(i, recorded, actions.unrecord(now)[1])

    # -- what effects call ----------------------------------------------------------

    def run(self, forms):
        effects.run(self, forms)

    def say(self, text):
        self.state["message"] = text
        self.log.append({"event": "note", "text": text})

    def roll(self, die, count, player, reason, name=None):
        spec = self.rules.get("dice", EMPTY).get(die)
        faces = spec["faces"] if spec else int(die[1:])  # a plain dN needs no declaration
        if isinstance(faces, list):
            rolls = [faces[self.rng.below(len(faces))] for _ in range(count)]
        else:
            rolls = [self.rng.roll(faces) for _ in range(count)]
        self._rolls.append(rolls)
        self.log.append({"event": "roll", "player": player, "die": die, "rolls": rolls,
                         "reason": reason})
        self.vars["roll:" + (name or die)] = rolls
        return rolls

    def roll_result(self, name, kind):
        rolls = self.vars.get("roll:" + name)
        if rolls is None:
            raise RuleError("no roll named " + name)
        if kind == "rolls":
            return rolls
        return sum(rolls)  # sum of face values; with success faces, that is the hits

    def change(self, path, value):
        """Sets a value by path (``$`` names filled in), kept in the counter's bounds;
        a counter that crosses a trigger's threshold runs the trigger."""
        kind, key, field = self.locate(path)
        record = holder(self.state, kind, key)
        if record is None:
            raise Illegal("no such player or piece: " + key)
        spec = self.counter_spec(kind, field)
        if spec is not None and ("min" in spec or "max" in spec) and "choices" not in spec:
            low, high = self.bounds(spec, kind, key, record)
            value = max(low, value) if low is not None else value
            value = min(high, value) if high is not None else value
        old = record.get(field)
        record[field] = value
        if isinstance(old, int) and isinstance(value, int) and value != old:
            self._fire(kind, key, record, field, old, value)

    def counter_spec(self, kind, field):
        if kind == "player":
            return self.rules.get("counters", EMPTY).get(field)
        if kind == "piece":
            return self.rules.get("pieces", EMPTY).get("counters", EMPTY).get(field)
        return None

    def _bind_holder(self, kind, key, record):
        """Binds $p (and $k for a piece) to a value's holder; returns the old binding."""
        saved = self.binding
        self.binding = {"p": record["owner"], "k": key} if kind == "piece" else {"p": key}
        return saved

    def bounds(self, spec, kind, key, record=None):
        """A counter's (min, max) for one holder, None where it has none."""
        if record is None:
            record = holder(self.state, kind, key)
        saved = self._bind_holder(kind, key, record)
        low = evaluate(self, spec["min"]) if "min" in spec else None
        high = evaluate(self, spec["max"]) if "max" in spec else None
        self.binding = saved
        return low, high

    def _fire(self, kind, key, record, field, old, new):
        """Threshold triggers: run when a counter rises to or past ``at`` (or, with
        ``falls``, drops from ``at`` or more to below it)."""
        falling = new < old
        for trigger in self.rules.get("triggers", ()):
            on = trigger.get("on", "player")
            if trigger["counter"] != field or on != kind or \
                    trigger.get("falls", False) != falling:
                continue
            saved = self._bind_holder(kind, key, record)
            at = evaluate(self, trigger["at"])
            if new < at <= old if falling else old < at <= new:
                self.run(trigger.get("effects", ()))
            self.binding = saved

    def order_players(self, spec):
        from arbiter.game.order import order_players

        self.state["order"] = order_players(self, spec)

    # -- phases, turns and the end ---------------------------------------------------

    def phase(self):
        phases = self.rules.get("phases", ())
        return phases[self.state["phase"]] if phases else {"name": "play"}

    def active_player(self):
        if not self.per_player(self.phase()):
            return None
        order = self.players_in_order()
        return order[self.state["turn"] % len(order)] if order else None

    def per_player(self, phase):
        """Whether players take turns in this phase; an expression may decide (an option)."""
        flag = phase.get("per_player")
        return evaluate(self, flag) if isinstance(flag, dict) else flag

    def players_in_order(self):
        """The players still in, in turn order (the state's own list while nobody is
        out, asked for at every step: read it, never change it)."""
        lost = self.state["lost"]
        if not lost:
            return self.state["order"]
        return [p for p in self.state["order"] if p not in lost]

    def next_phase(self, leave=True):
        """Moves on: the next player's turn, else the next phase. ``leave=False`` when
        the player whose turn it is just went out (its checks no longer apply)."""
        phase, state = self.phase(), self.state
        if leave and "leave" in phase:  # checks before a turn or the phase ends: a require refuses
            self.with_binding("p", self.active_player(), phase["leave"])
        count = len(self.players_in_order())
        if self.per_player(phase) and count:
            until = phase.get("repeat_until")
            if until is None and state["turn"] < count - 1 or \
                    until is not None and not evaluate(self, until):
                state["turn"] = (state["turn"] + 1) % count  # a repeating phase goes round
                self.with_binding("p", self.active_player(), phase.get("turn", ()))
                self._check_end("turn_start")
                return
        self.run(phase.get("exit", ()))
        self._advance()

    def _advance(self, skipped=0):
        state = self.state
        if state["phase"] + 1 >= len(self.rules.get("phases", ())):
            # the round's end is checked while the last phase still stands, so the
            # checks see a real phase; a game that ends here stays in it
            self._check_end("round_end")
            if state["result"]:
                return
            state["phase"] = -1
            state["round"] += 1
        state["phase"] += 1
        state["turn"] = 0
        self._enter_phase(skipped)

    def _enter_phase(self, skipped=0):
        phase = self.phase()
        skip = phase.get("skip_if")
        # a skipped phase has no turns and no exit; a round skipping every phase stops
        if skip is not None and skipped <= len(self.rules["phases"]) and evaluate(self, skip):
            self.log.append({"event": "phase", "name": phase["name"], "skipped": True})
            self._advance(skipped + 1)
            return
        self.log.append({"event": "phase", "round": self.state["round"], "name": phase["name"]})
        self.run(phase.get("enter", ()))
        if self.per_player(phase):
            self.with_binding("p", self.active_player(), phase.get("turn", ()))
            self._check_end("turn_start")

    def _check_end(self, moment):
        # At the start of a turn only the player whose turn it is is checked.
        players = [self.active_player()] if moment == "turn_start" else self.players_in_order()
        for rule in self.rules.get("end", ()):
            if rule.get("at", "always") != moment:
                continue
            for player in players:
                if "win_if" in rule and self.bound_eval("p", player, rule["win_if"]):
                    self.pending_win.append(player)
                if "lose_if" in rule and self.bound_eval("p", player, rule["lose_if"]):
                    self.pending_lose.append(player)
        self._resolve()

    def _settle(self):
        self._check_end("always")

    def _resolve(self):
        from arbiter.game.order import resolve_end

        resolve_end(self)

    # -- the expression context (see expr.py) --------------------------------------

    def bound(self, name):
        return self.binding.get(name)

    # A binding is set in place and given back after, not copied: these run for
    # every piece a condition looks at, and a copy each time is heap churn.

    def with_binding(self, name, value, forms):
        binding, old = self.binding, self.binding.get(name)
        binding[name] = value
        try:
            self.run(forms)
        finally:
            _give_back(binding, name, old)

    def bound_eval(self, name, value, form):
        binding, old = self.binding, self.binding.get(name)
        binding[name] = value
        try:
            return evaluate(self, form)
        finally:
            _give_back(binding, name, old)

    def path(self, text):
        if not isinstance(text, str):
            raise RuleError("a path must be text: %r" % (text,))
        if "$" not in text:
            return text
        out = []
        for part in text.split("."):
            if part.startswith("$a:"):
                part = str(self.arg(part[3:]))
            elif part.startswith("$v:"):
                part = str(self.var(part[3:]))
            elif part.startswith("$"):
                value = self.binding.get(part[1:])
                if value is None:
                    raise RuleError("nothing bound to " + part)
                part = value
            out.append(part)
        return ".".join(out)

    def locate(self, text):
        """A path's (kind, key, field), ``$`` names filled in."""
        if isinstance(text, str) and len(text) > 3 and text[0] == "$" and text[2] == "." \
                and text.find("$", 1) < 0 and text.find(".", 3) < 0:
            key = self.binding.get(text[1])  # the common $p.NAME / $k.NAME: no string built
            if key is None:
                raise RuleError("nothing bound to " + text)
            field = self._fields.get(text)
            if field is None:  # kept: a ruleset has a few dozen such paths
                field = self._fields[text] = text[3:]
            return ("piece" if "." in key else "game" if key == "game" else "player"), key, \
                field
        return split(self.path(text))

    def get(self, path):
        """A value by path (``$`` names filled in)."""
        field = self._fields.get(path) if isinstance(path, str) else None
        if field is not None:  # $p.NAME / $k.NAME, read at every step: no tuple, no slice
            key = self.binding.get(path[1])
            record = None if key is None else self.state["pieces"].get(key) \
                if "." in key else self.state["players"].get(key)
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
        values = self.rules.get("values", EMPTY)
        if name not in values:
            raise RuleError("unknown value " + name)
        return evaluate(self, values[name])

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

    def count_pieces(self, owner, where):
        count = 0
        for key in self.piece_keys(owner):
            if where is None or self.bound_eval("k", key, where):
                count += 1
        return count

    def piece_values(self, owner, form, where=None):
        return [self.bound_eval("k", k, form) for k in self.piece_keys(owner)
                if where is None or self.bound_eval("k", k, where)]

    def count_players(self, where):
        return sum(1 for p in self.players_in_order() if self.bound_eval("p", p, where))

    def text(self, parts):
        """A message: a string, or a list of strings and expressions joined."""
        if isinstance(parts, str):
            return parts
        return "".join(str(evaluate(self, p)) for p in parts)


def _give_back(binding, name, old):
    if old is None:
        binding.pop(name, None)
    else:
        binding[name] = old
