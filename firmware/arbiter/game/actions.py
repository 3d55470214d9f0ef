"""Actions as text: ``add P1.power 3``, ``next``, ``roll d6 3``, ``pick P1 d8``, and
each ruleset's own (``roar P1``, ``damage P2.k1 3 by=P1``).

An event is the canonical action text, plus ``|`` and the dice it rolled
(``4,2;6``: one group per roll) so a journal can be audited.
"""


from arbiter.game import NUMBERS, Illegal
from arbiter.game.effects import action, bind_args, of_action, run
from arbiter.game.expr import EMPTY, evaluate

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
    named = _secret_named(game, name)
    if name != "pick" and named is None:
        secret, player = pending_pick(game)
        if secret is not None:
            raise Illegal("%s must pick a %s first" % (player, secret["name"]))
    if named is not None or name == "pick":
        _secret_pick(game, args, named)
    elif name == "next":
        if args["_"] or len(args) > 1:  # it would be journaled as typed
            raise Illegal("usage: next")
        game.log.append({"event": "next"})
        game.next_phase()
    elif name in ("add", "set", "roll"):
        _by_hand(game, name, args)
    elif name in game.rules.get("actions", EMPTY):
        run(game, None, spec=_ruleset_action(game, name, args))
        args["_"] = []  # canonical() lists named args after positional ones
    else:
        raise Illegal("unknown action %s" % name)


def _positional(args, count, usage):
    if len(args["_"]) != count:
        raise Illegal("usage: " + usage)
    return args["_"]


def _by_hand(game, name, args):
    """A correction or a free roll: their code is loaded for the one action (a game
    has few), not held beside every other."""
    from arbiter.game import by_hand
    from arbiter.game.jobs import let_go

    try:
        if name == "roll":
            by_hand.free_roll(game, args)
        else:
            by_hand.correct(game, name, *_positional(args, 2, name + " PATH N"))
    finally:
        let_go("game", "by_hand")


def _secret_pick(game, args, named):
    """``pick P1 d8`` (or the secret's own action): loaded for the one pick, as
    only a game with secrets needs it."""
    from arbiter.game import picks
    from arbiter.game.jobs import let_go

    player, choice = _positional(args, 2, (named["action"] if named else "pick") +
                                 " PLAYER CHOICE")
    try:
        secret, expected = pending_pick(game)
        if picks.pick(game, player, choice, named, secret, expected) and \
                game.state["round"] == 0 and pending_pick(game)[0] is None:
            game.begin_play()
    finally:
        let_go("game", "picks")


def pending_pick(game):
    """The secret being picked and whose turn it is to pick, or (None, None): before
    play, the opening secrets, one after the other; in play, a secret of the phase
    (``phase``), opened as it begins (picks.open_picks) until its reveal."""
    state = game.state
    opening = state["round"] == 0
    for secret in game.rules.get("secrets", ()):
        if ("phase" in secret) == opening:
            continue
        picks = state["picks"].get(secret["name"])
        if picks is None:
            if opening:
                return secret, state["order"][0]
            continue
        for player in game.players_in_order():
            if player not in picks:
                return secret, player
    return None, None


def _secret_named(game, name):
    """The secret whose ``action`` is ``name`` (``commander P1 d8`` picks it), or None."""
    for secret in game.rules.get("secrets", ()):
        if secret.get("action") == name:
            return secret
    return None


def _in_range(game, name, spec, args):
    """Every argument a player typed, within bounds whatever the ruleset's effects
    do with it: a whole number in its ``range`` (expressions, with $p, $k and $t
    bound), else NUMBERS; a list of names (``also=P1,P2``) naming no player or
    piece twice, unless the action's ``repeats`` lists it."""
    ranges = spec.get("range", EMPTY)
    for key in args:
        value = args[key]
        if isinstance(value, int):
            low, high = NUMBERS
            if key in ranges:
                low, high = evaluate(game, ranges[key][0]), evaluate(game, ranges[key][1])
            if not low <= value <= high:
                raise Illegal("%s: %s is %d to %d, not %d" % (name, key, low, high, value))
        elif "," in value and key not in spec.get("repeats", ()):
            seen = []
            for item in value.split(","):
                if item in seen and (item in game.state["players"] or
                                     item in game.state["pieces"]):
                    raise Illegal("%s: %s names %s twice" % (name, key, item))
                seen.append(item)


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
                if not allowed:  # (not "only nobody")
                    raise Illegal("nobody may %s now" % name)
                allowed = " or ".join(allowed)
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


def common_rank(spec, phase):
    """How common the action ``spec`` is in ``phase`` (lower: more; None: not a fast
    path's, screens/fast.py): one with a piece, then a player, those with an amount
    first, one that names the phase before one allowed in every phase."""
    if spec.get("private") or phase not in spec.get("phases", (phase,)):
        return None
    params = spec.get("params", ())
    if "k" in params:
        rank = 0
    elif "p" in params:
        rank = 2
    else:
        return None
    if len(params) + len(spec.get("choices", EMPTY)) < 2:
        rank += 1  # nothing to set but who: after those with an amount
    if "phases" not in spec:
        rank += 4
    return rank


def _within(game, name, spec, key, args):
    offered = evaluate(game, spec["choices"][key])
    if key in args and args[key] not in offered:
        raise Illegal("%s %s=%s: it is one of %s" % (name, key, args[key], " ".join(
            str(v) for v in offered) or "none now"))


def _ruleset_action(game, name, args):
    """A ruleset's action checked, its args bound: its spec, whose effects are next."""
    spec = action(game, name, game.parsed)
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
    _in_range(game, name, spec, args)
    for key in spec.get("strict", ()):  # within what the state allows (a living piece)
        _within(game, name, spec, key, args)
    if "who" in spec or "limit" in spec:
        _check_turn(game, name, spec)
    game.log.append({"event": name, "args": {k: args[k] for k in sorted(args)}})
    return spec
