"""Actions as text: ``add P1.power 3``, ``next``, ``roll d6 3``, ``pick P1 d8``, and
each ruleset's own (``roar P1``, ``damage P2.k1 3 by=P1``).

An event is the canonical action text, plus ``|`` and the dice it rolled
(``4,2;6``: one group per roll) so a journal can be audited.
"""

import json

from arbiter.game import Illegal
from arbiter.game.effects import bind_args, do_action, of_action
from arbiter.game.expr import EMPTY, evaluate
from arbiter.game.state import split

GENERIC = ("next", "add", "set", "roll", "pick", "undo", "redo")


def _value(token):
    if token.lstrip("-").isdigit() and token not in ("-", ""):
        return int(token)
    return token


def parse(text):
    words = text.split()
    if not words:
        raise Illegal("empty action")
    args = {"_": []}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if eq and key:
            args[key] = _value(value)
        else:
            args["_"].append(_value(word))
    return words[0].lower(), args


def canonical(name, args):
    words = [name] + [str(v) for v in args["_"]]
    words += ["%s=%s" % (k, args[k]) for k in sorted(args) if k != "_"]
    return " ".join(words)


def record(text, rolls):
    if not rolls:
        return text
    return text + "|" + ";".join(",".join(str(r) for r in group) for group in rolls)


def unrecord(event):
    text, bar, dice = event.partition("|")
    if not bar:
        return text, []
    return text, [[int(r) for r in group.split(",") if r] for group in dice.split(";")]


def perform(game, name, args):
    state = game.state
    named = _secret_named(game, name)
    if name != "pick" and named is None and state["round"] == 0:
        secret, player = pending_pick(game)
        raise Illegal("%s must pick a %s first" % (player, secret["name"]))
    if named is not None:
        _pick(game, args, named)
    elif name == "next":
        if args["_"] or len(args) > 1:  # it would be journaled as typed
            raise Illegal("usage: next")
        game.log.append({"event": "next"})
        game.next_phase()
    elif name in ("add", "set"):
        _correct(game, name, args)
    elif name == "roll":
        _free_roll(game, args)
    elif name == "pick":
        _pick(game, args)
    elif name in game.rules.get("actions", EMPTY):
        _ruleset_action(game, name, args)
    else:
        raise Illegal("unknown action %s" % name)


def _positional(args, count, usage):
    if len(args["_"]) != count:
        raise Illegal("usage: " + usage)
    return args["_"]


def _correct(game, name, args):
    """A correction by hand: refused, not clamped, when it leaves the counter's bounds."""
    path, amount = _positional(args, 2, name + " PATH N")
    path = str(path)
    kind, key, field = split(path) if path.count(".") in (1, 2) else (None, None, None)
    if kind is None or "$" in path:
        raise Illegal("a path is like P1.power or P2.k1.damage")
    current = game.get(path)
    spec = game.counter_spec(kind, field)
    if spec is not None and "choices" in spec:
        if name == "add" or amount not in spec["choices"]:
            raise Illegal("%s is one of %s" % (field, ", ".join(spec["choices"])))
        new = amount
    elif name == "set" and spec is None and isinstance(current, str) and isinstance(amount, str):
        new = amount  # a text stat, such as a jugger's weapon
    else:
        if not isinstance(amount, int) or not isinstance(current, int):
            raise Illegal("%s takes a whole number" % path)
        new = current + amount if name == "add" else amount
        if spec is not None:
            low, high = game.bounds(spec, kind, key)
            if low is not None and new < low:
                raise Illegal("%s would be %d, below its minimum %d" % (path, new, low))
            if high is not None and new > high:
                raise Illegal("%s would be %d, above its maximum %d" % (path, new, high))
    game.log.append({"event": name, "path": path, "value": new})
    game.change(path, new)


def _free_roll(game, args):
    words = args["_"]
    if not 1 <= len(words) <= 2:
        raise Illegal("usage: roll DIE [COUNT]")
    die, count = str(words[0]), words[1] if len(words) == 2 else 1
    if not isinstance(count, int) or not 1 <= count <= 20:
        raise Illegal("roll 1 to 20 dice")
    if die not in game.rules.get("dice", EMPTY):
        faces = die[1:]
        if not (die.startswith("d") and faces.isdigit() and 2 <= int(faces) <= 1000):
            raise Illegal("unknown die %s" % die)
    who = args.get("by", game.active_player() or "all")
    game.roll(die, count, who, args.get("for", "roll"))


def pending_pick(game):
    """The secret being picked and whose turn it is to pick, or (None, None)."""
    for secret in game.rules.get("secrets", ()):
        picks = game.state["picks"].get(secret["name"], EMPTY)
        for player in game.state["order"]:
            if player not in picks:
                return secret, player
    return None, None


def _secret_named(game, name):
    """The secret whose ``action`` is ``name`` (``commander P1 d8`` picks it), or None."""
    for secret in game.rules.get("secrets", ()):
        if secret.get("action") == name:
            return secret
    return None


def _pick(game, args, named=None):
    usage = (named["action"] if named else "pick") + " PLAYER CHOICE"
    player, choice = _positional(args, 2, usage)
    secret, expected = pending_pick(game)
    if secret is None:
        raise Illegal("nothing to pick now")
    if named is not None and named is not secret:
        raise Illegal("%s must pick a %s first" % (expected, secret["name"]))
    if player != expected:
        raise Illegal("it is %s's turn to pick" % expected)
    if choice not in secret["choices"]:
        raise Illegal("%s is one of %s" % (secret["name"], ", ".join(
            str(c) for c in secret["choices"])))
    picks = game.state["picks"].setdefault(secret["name"], {})
    picks[player] = choice
    game.log.append({"event": "pick", "player": player, "secret": secret["name"]})
    if len(picks) == len(game.state["order"]):
        _reveal(game, secret, picks)


def _reveal(game, secret, picks):
    field = secret.get("field", secret["name"])
    for player, choice in picks.items():
        game.state["players"][player][field] = choice
    game.state["revealed"].append(secret["name"])
    game.log.append({"event": "reveal", "secret": secret["name"],
                     "picks": {p: picks[p] for p in sorted(picks)}})
    for player in game.state["order"]:
        game.with_binding("p", player, secret.get("on_reveal", ()))
    if pending_pick(game)[0] is None:
        game.begin_play()


def _declared(spec):
    """The arguments an action names (params, flags, then its forms' named ones)."""
    names = list(spec.get("params", ()))
    for name in list(spec.get("flags", ())) + sorted(spec.get("choices", EMPTY)):
        if name not in names:
            names.append(name)
    return names


def _takes(game, spec, key):
    """Whether an action takes the named argument ``key``: declared (params, flags,
    choices) or read by its own effects (``{"arg": ["crouch", default]}``)."""
    if key in spec.get("params", ()) or key in spec.get("flags", ()):
        return True
    if key in spec.get("choices", EMPTY):
        return True
    for part in of_action(game, spec):
        if _reads(part, key):
            return True
    return False


def _reads(node, key):
    if isinstance(node, list):
        for item in node:
            if _reads(item, key):
                return True
    elif isinstance(node, dict):
        for form in node:
            value = node[form]
            if form == "arg" and (value == key or isinstance(value, list) and value[0] == key):
                return True
            if _reads(value, key):
                return True
    return False


def _actor(game):
    """Who does the action in progress: its player ``p``, else the owner of its piece ``k``."""
    player = game.binding.get("p")
    if player is None and "k" in game.binding:
        player = game.state["pieces"][game.binding["k"]]["owner"]
    return player


def _check_turn(game, name, spec):
    """``who`` may do it (``"turn"``: the player whose turn it is; an expression: the
    player or players it gives) and not more often than its ``limit``."""
    actor, who = _actor(game), spec.get("who")
    if who == "turn":
        allowed = game.active_player()
        if allowed is not None and actor != allowed:
            raise Illegal("it is %s's turn, not %s's" % (allowed, actor))
    elif who is not None:
        allowed = evaluate(game, who)
        if actor != allowed and not (isinstance(allowed, list) and actor in allowed):
            if isinstance(allowed, list):
                allowed = " or ".join(allowed) or "nobody"
            raise Illegal("only %s may %s now" % (allowed, name))
    limit = spec.get("limit")
    if limit is None:
        return
    per, times, state = limit["per"], limit.get("times", 1), game.state
    key = limit.get("as", name) + " " + str(actor)
    if per == "turn":  # emptied as each turn ends (engine.next_phase)
        used, scope = state.setdefault("turn_used", {}), 0
    elif not isinstance(per, str):  # an expression: a new value, a new count (activation)
        used, scope = state.setdefault("used", {}), evaluate(game, per)
        per = limit.get("named", "time")
    else:  # a count from an earlier phase or round is stale
        used, scope = state.setdefault("used", {}), 0 if per == "game" else state["round"]
        if per == "phase":
            scope = scope * 100 + state["phase"]
    count = used[key][1] if key in used and used[key][0] == scope else 0
    if count >= times:
        raise Illegal("%s already took %s %s this %s" % (
            actor, "its" if times == 1 else "all %d" % times, limit.get("as", name), per))
    used[key] = [scope, count + 1]


def offered_form(choices, key):
    """An action's ``choices`` for ``key``: a list, or an expression, which a loaded
    ruleset keeps as its JSON text (ruleset.pack), parsed when a form or a check
    works the choices out (Kaiju's hold 2.5 KB less)."""
    form = choices[key]
    return json.loads(form) if isinstance(form, bytes) else form


def _within(game, name, spec, key, args):
    offered = evaluate(game, offered_form(spec["choices"], key))
    if key in args and args[key] not in offered:
        raise Illegal("%s %s=%s: it is one of %s" % (name, key, args[key], " ".join(
            str(v) for v in offered) or "none now"))


def _ruleset_action(game, name, args):
    spec = game.rules["actions"][name]
    if spec.get("private"):  # a helper other actions ``call``, never done on its own
        raise Illegal("%s is only part of other actions" % name)
    params = spec.get("params", ())
    flags = spec.get("flags", ())
    words = []
    for word in args["_"]:  # a bare flag word, such as ``neutralizing``, is flag=1
        if word in flags:
            args[word] = 1
        else:
            words.append(word)
    args["_"] = words
    if len(args["_"]) > len(params):
        raise Illegal("usage: %s %s" % (name, " ".join(params)))
    for param, value in zip(params, args["_"]):
        args[param] = value
    del args["_"]
    for key in args:  # a misspelt ``dicard=3`` must not be ignored and the full cost charged
        if not _takes(game, spec, key):
            raise Illegal("%s has no argument %s; it takes %s" % (
                name, key, " ".join(_declared(spec)) or "none"))
    phases = spec.get("phases")
    if phases and game.phase()["name"] not in phases:
        raise Illegal("%s is for the %s phase, not %s" % (
            name, " or ".join(phases), game.phase()["name"]))
    game.args = args
    bind_args(game, args)
    for key in spec.get("strict", ()):  # within what the state allows (a living piece)
        _within(game, name, spec, key, args)
    if "who" in spec or "limit" in spec:
        _check_turn(game, name, spec)
    game.log.append({"event": name, "args": {k: args[k] for k in sorted(args)}})
    do_action(game, spec)
    args["_"] = []  # canonical() lists named args after positional ones
