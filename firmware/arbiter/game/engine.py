"""The referee: a game of one ruleset, applying actions, undoing them, ending.

A game is ``replay(ruleset, options, seed, events)``. Every player action is an
event (a short line of text). ``apply`` either changes the state and records the
event with the dice it rolled, or raises ``Illegal`` with a reason and changes
nothing; ``undo`` and ``redo`` step through the events (its ``history``);
``public()`` is what the players may see and ``result`` how it ended. The rest
of this class is what effects call (effects.py) and the rules of play: phases,
turns, triggers and the end. What expressions read is its Context part.
"""

from arbiter.game import Illegal, Lost, RuleError, actions, effects
from arbiter.game.context import Context
from arbiter.game.expr import EMPTY, evaluate
from arbiter.game.history import History
from arbiter.game.jobs import let_go
from arbiter.game.rng import Rng, commitment, dice_seed
from arbiter.game.state import clone, holder, new_state, own, shared_copy


class Game(Context):
    def __init__(self, rules, players=None, options=None, seed=0, keep=None, mix=None):
        spec = rules.get("players", EMPTY)
        low, high = spec.get("min", 2), spec.get("max", spec.get("min", 2))
        self.players = spec.get("default", low) if players is None else players
        if not low <= self.players <= high:
            raise Illegal("%s takes %d to %d players" % (rules["name"], low, high))
        from arbiter.game.start import resolve_options

        super().__init__(rules, resolve_options(rules, options or {}))
        self.seed = seed  # the device's part, committed to at the start
        self.mix = mix  # the players' part, added after (see rng.dice_seed)
        # keep=N (a device's heap): the log keeps its last N entries and the history
        # the events undo can reach; None keeps everything (host tools).
        self.keep = keep
        self.history = History(self, keep)
        self.restart()

    # -- what the players do -----------------------------------------------------------

    def apply(self, text):
        """Apply one action; returns the recorded event. Raises Illegal (state
        unchanged), or Lost (the game in memory is lost: read it back from flash)."""
        if "|" in text:  # an event's dice follow a | (actions.record): none typed
            raise Illegal("no | in an action")
        name, args = actions.parse(text)
        self.trim_log()  # before, not after: the caller reads this action's entries
        if name == "undo" or name == "redo":
            agreed = name == "undo" and args["_"] == ["agreed"]  # the table agreed
            if len(args) > 1 or args["_"] and not agreed:  # it would be journaled as undo
                raise Illegal("usage: undo, undo agreed" if name == "undo" else "usage: redo")
            try:
                if name == "undo":
                    return self.history.undo(agreed)
                return self.history.redo()
            except Illegal:
                raise
            except Exception as exc:  # its rewind failed half way: the game is lost
                raise Lost("cannot %s: %s (the game is read back)" % (name, _reason(exc))) \
                    from None
        event = self.do(text, name, args)
        self.history.add(event, self.begun)
        return event

    def count(self):
        """Events applied since the start (see history)."""
        return self.history.count()

    @property
    def result(self):
        """None while the game goes on, else "win" (``state["winner"]`` won) or "tie"."""
        return self.state["result"]

    def public(self):
        """What the players may see: no unrevealed secret, no seed before the end."""
        from arbiter.game.public import public_state

        return public_state(self)

    # -- life cycle ---------------------------------------------------------------

    def restart(self):
        """The game as it starts: its state, its generator at the seed, its log."""
        from arbiter.game.start import setup_players

        self.state = new_state(self.rules, self.players)
        self.rng = Rng(dice_seed(self.seed, self.mix))
        self.log = [{"event": "start", "ruleset": self.rules["name"],
                     "commitment": commitment(self.seed)}]
        self.log_dropped = 0  # log entries no longer in RAM, before log[0]
        self.clear_scratch()
        setup_players(self)
        let_go("game", "start")  # a game's start only (and an undo back to it)
        if actions.pending_pick(self)[0] is None:  # no secret to pick before play
            self.begin_play()

    def add_piece(self, owner, spec):
        key = owner + "." + spec["key"]
        if len(self.state["pieces"]) >= effects.MAX_PIECES:
            raise RuleError("over %d pieces" % effects.MAX_PIECES)
        self._keys = None  # the pieces change: their sorted keys are worked out again
        piece = {"owner": owner, "name": spec.get("name", spec["key"]),
                 "stats": spec.get("stats", EMPTY)}  # read-only: shared, never copied
        self.state["pieces"][key] = piece
        saved, self.binding = self.binding, {"p": owner, "k": key}
        for name, counter in self.rules.get("pieces", EMPTY).get("counters", EMPTY).items():
            piece[name] = self.start_value(counter)
        self.binding = saved

    def start_value(self, spec):
        """A counter's value at the start (with $p, and $k for a piece, bound)."""
        if "choices" in spec:
            return spec.get("start", spec["choices"][0])
        return evaluate(self, spec.get("start", 0))

    def begin_play(self):
        """Round 1 begins (once every secret is picked): the turn order, the setup."""
        self.order_players(self.rules.get("turn_order", {"by": "fixed"}))
        self.state["round"] = 1
        self.run(effects.kept(self, self.rules.get("setup")))
        self._advance(True)

    # -- applying ------------------------------------------------------------------

    def do(self, text, name=None, args=None, again=False, recorded=True):
        """An action done: its event (None unless ``recorded``), or Illegal with the
        reason and nothing changed. ``again``: a recorded event done once more (undo,
        a resume, an audit: ``text`` with its dice, which come again from the
        generator); it was accepted before and cannot fail."""
        # A new action works on a copy of the state that shares every record with it
        # until one changes (writable): a refusal puts the state back as it was, with
        # no replay (``begun``: where the generator and the log stood, see
        # History.starts). A record copied costs its size, not a whole state: a
        # Pico's heap. Dice it rolled are spent: see spent.py.
        if name is None:
            text = text.partition("|")[0]
            name, args = actions.parse(text)
        if self.state["result"] and name != "note":  # before anything moved
            raise Illegal("the game is over")
        self.rolls = []
        kept = None
        try:
            if not again:
                self.begun = self.rng.mark(self.logged())
                kept, self.state = self.state, shared_copy(self.state)
                self.shared = kept
                # the game values' own table at once: code that holds it (Tactics')
                # reads what the action changed
                self.state["game"] = kept["game"].copy()
            actions.perform(self, name, args)
            self._settle()
        except Exception as exc:  # a ruleset's error, a too deep call, a full heap
            if again and _device_limit(exc):
                raise  # a replay the device could not hold (a resume): not the game's fault
            reason = exc.reason if isinstance(exc, Illegal) else \
                "cannot do that: %s" % _reason(exc)
            spent = None
            if kept is not None:
                self.state = kept
                if self.rolls and not _device_limit(exc):  # a few a game: loaded for each
                    from arbiter.game.spent import spend

                    spent = spend(self, text)
                    let_go("game", "spent")
                else:  # nothing rolled, or a refusal that tells nothing of its dice
                    self.rng.goto(self.begun)
                    self.cut_log(self.begun[4])
            exc = None  # (its traceback holds the failed action's garbage)
            refusal = Illegal(reason)
            refusal.spent = spent
            raise refusal from None
        finally:
            if kept is not None:
                self.shared = None
            self.clear_scratch()
        if not recorded:  # a rewind's replay: what it records is known
            return None
        return actions.record(actions.canonical(name, args), self.rolls)

    def clear_scratch(self):
        """The action's working state (see Context), a win or loss still to resolve,
        and the decks' code if its cards loaded it (effects._cards)."""
        super().clear_scratch()
        self.pending_win, self.pending_lose, self.pending_tie = [], [], False
        self.why = {}  # player: why they win or lose (an end rule's ``why``)
        let_go("game", "decks")

    # -- the log ------------------------------------------------------------------

    def logged(self):
        """Log entries since the start, the dropped ones included."""
        return self.log_dropped + len(self.log)

    def log_since(self, logged):
        """The log entries after the first ``logged`` (those still in RAM)."""
        return self.log[max(0, logged - self.log_dropped):]

    def trim_log(self):
        extra = len(self.log) - self.keep if self.keep is not None else 0
        if extra > 0:
            del self.log[:extra]
            self.log_dropped += extra

    def cut_log(self, logged):
        """The log back to its first ``logged`` entries (undo)."""
        kept = logged - self.log_dropped
        if kept < 0:  # the entries up to it are trimmed: the log goes on from it
            self.log_dropped, kept = logged, 0
        del self.log[kept:]

    # -- what effects call ----------------------------------------------------------

    # runs effects, with ``$name`` bound to ``value`` if given: (forms, name, value)
    run = effects.run

    def say(self, text):
        self.state["message"] = text
        self.log.append({"event": "note", "text": text})

    def roll(self, die, count, player, reason, name=None):
        spec = self.rules.get("dice", EMPTY).get(die)
        faces = spec["faces"] if spec else int(die[1:])  # a plain dN needs no declaration
        if count > effects.MAX_DICE:
            raise RuleError("%d dice in one roll; at most %d" % (count, effects.MAX_DICE))
        if isinstance(faces, list):
            rolls = [faces[self.rng.below(len(faces))] for _ in range(count)]
        else:
            rolls = [self.rng.roll(faces) for _ in range(count)]
        self.rolls.append(rolls)
        self.log.append({"event": "roll", "player": player, "die": die, "rolls": rolls,
                         "reason": reason})
        self.vars["roll:" + (name or die)] = rolls
        return rolls

    def writable(self, kind, key):
        """The record of a player or a piece, or the game values (kind "game"), to
        change (None: no such one). The state shares its records with the last
        snapshot (a preview's with the game's own state: state.shared_copy) until
        one is changed: it is copied first, so theirs stays as it was. Every change
        of a record goes through here."""
        record = holder(self.state, kind, key)
        if record is not None:
            frozen = self.shared if self.shared is not None else self.history.frozen()
            if frozen is not None and record is holder(frozen, kind, key):
                # the game values' lists (Tactics' board) are replaced whole, never
                # changed in place: they stay shared, only the table is copied
                record = record.copy() if kind == "game" else clone(record)
                own(self.state, kind, key, record)
        return record

    def change(self, path, value):
        """Sets a value by path (``$`` names filled in), kept in the counter's bounds;
        a counter that crosses a trigger's threshold runs the trigger."""
        kind, key, field = self.locate(path)
        record = holder(self.state, kind, key)
        if record is None:
            raise Illegal("no such player or piece: " + key)
        if kind == "piece" and field not in record and self._stat(record, field):
            record = self.writable(kind, key)
            stats = dict(record["stats"])  # the roster's own stays as it was
            stats[field] = value
            record["stats"] = stats
            return
        spec = self.counter_spec(kind, field)
        if spec is not None and ("min" in spec or "max" in spec) and "choices" not in spec:
            low, high = self.bounds(spec, kind, key, record)
            value = max(low, value) if low is not None else value
            value = min(high, value) if high is not None else value
        old = record.get(field)
        if field in record and old.__class__ is value.__class__ and old == value:
            return  # as it was: the record stays shared with the snapshot (writable)
        record = self.writable(kind, key)
        record[field] = value
        if not isinstance(old, int) or not isinstance(value, int) or value == old:
            return
        # threshold triggers (here, not in a function of their own: a call less deep):
        # run when a counter rises to or past ``at`` (or, with ``falls``, drops from
        # ``at`` or more to below it)
        falling = value < old
        for trigger in self.rules.get("triggers", ()):
            on = trigger.get("on", "player")
            if trigger["counter"] != field or on != kind or \
                    trigger.get("falls", False) != falling:
                continue
            saved = self._bind_holder(kind, key, record)
            at = evaluate(self, trigger["at"])
            if value < at <= old if falling else old < at <= value:
                effects.deeper(self)
                self.run(effects.kept(self, trigger.get("effects")))
                self.depth -= 1
            self.binding = saved

    def _stat(self, record, field):
        """Whether a piece's field is a stat (its own, or every piece's): a change writes it."""
        return field in record["stats"] or field in self.rules.get("pieces", EMPTY).get(
            "stats", EMPTY)

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

    def order_players(self, spec):
        from arbiter.game.order import order_players

        self.state["order"] = order_players(self, spec)
        let_go("game", "order")  # a round's start: not held through its actions

    # -- phases, turns and the end ---------------------------------------------------

    def next_phase(self, leave=True):
        """Moves on: the next player's turn, else the next phase. ``leave=False`` when
        the player whose turn it is just went out (its checks no longer apply)."""
        phase, state = self.phase(), self.state
        if "turn_used" in state:  # what an action's limit counted this turn
            state["turn_used"] = {}
        if leave and "leave" in phase:  # checks before a turn or the phase ends: a require refuses
            self.run(effects.of_phase(self, phase, "leave"), "p", self.active_player())
        count = len(self.players_in_order())
        if self.per_player(phase) and count:
            until = phase.get("repeat_until")
            if until is None and state["turn"] < count - 1 or \
                    until is not None and not evaluate(self, until):
                state["turn"] = (state["turn"] + 1) % count  # a repeating phase goes round
                self.run(effects.of_phase(self, phase, "turn"), "p", self.active_player())
                self._check_end("turn_start")
                return
        self.run(effects.of_phase(self, phase, "exit"))
        self._advance()

    def _advance(self, enter=False):
        """On to the next phase (``enter``: into the one that stands, as round 1
        begins). A skipped phase has no turns and no exit; a round skipping every
        phase stops."""
        state, phases = self.state, self.rules.get("phases", ())
        skipped = 0
        while True:
            if not enter:
                if state["phase"] + 1 >= len(phases):
                    # the round's end is checked while the last phase still stands, so
                    # the checks see a real phase; a game that ends here stays in it
                    self._check_end("round_end")
                    if state["result"]:
                        return
                    state["phase"] = -1
                    state["round"] += 1
                state["phase"] += 1
                state["turn"] = 0
            enter = False
            phase = self.phase()
            skip = phase.get("skip_if")
            if skip is None or skipped > len(phases) or not evaluate(self, skip):
                break
            self.log.append({"event": "phase", "name": phase["name"], "skipped": True})
            skipped += 1
        self.log.append({"event": "phase", "round": state["round"], "name": phase["name"]})
        at = state["round"], state["phase"]
        self.run(effects.of_phase(self, phase, "enter"))
        if self.per_player(phase):
            self.run(effects.of_phase(self, phase, "turn"), "p", self.active_player())
            self._check_end("turn_start")
        if self.rules.get("secrets") and (state["round"], state["phase"]) == at and \
                not state["result"]:  # the phase's own secrets, if any, are picked now
            from arbiter.game.picks import open_picks

            open_picks(self, phase["name"])
            let_go("game", "picks")

    def _check_end(self, moment):
        # At the start of a turn only the player whose turn it is is checked.
        players = [self.active_player()] if moment == "turn_start" else self.players_in_order()
        for rule in self.rules.get("end", ()):
            if rule.get("at", "always") != moment:
                continue
            why = rule.get("why")
            for player in players:
                won = "win_if" in rule and self.bound_eval("p", player, rule["win_if"])
                lost = "lose_if" in rule and self.bound_eval("p", player, rule["lose_if"])
                if won:
                    self.pending_win.append(player)
                if lost:
                    self.pending_lose.append(player)
                if why and (won or lost):  # the first rule that ended it says why
                    self.why.setdefault(player, why)
        self._resolve()

    def _settle(self):
        self._check_end("always")

    def _resolve(self):
        if not (self.pending_win or self.pending_lose or self.pending_tie):
            return  # nobody won or lost: the end's code stays on flash
        from arbiter.game.order import resolve_end

        resolve_end(self)
        let_go("game", "order")


def _reason(exc):
    """Why an action failed, for the players: a ruleset's own words, else what went
    wrong in a few plain ones."""
    if isinstance(exc, MemoryError):
        return "not enough memory"
    if isinstance(exc, RuntimeError):  # (MicroPython's recursion limit: a Pico's C stack)
        return "the rules nest too deep for the device"
    return str(exc) or type(exc).__name__


def _device_limit(exc):
    """Whether an error is the device's limits (its heap, its C stack), not the game's."""
    return isinstance(exc, MemoryError) or isinstance(exc, RuntimeError)
