"""A combat played card by card between two sides (the ruleset's ``combat`` block and
the ``combat`` effect): the players enter what the revealed cards print, the engine
keeps the initiative, pays each card, and deals the damage. Loaded only by a ruleset
that has combats.

The state is in game values, read by the ruleset like any other: ``game.combat`` (1
while one goes on), ``game.ap``/``game.dp`` (the attacker and the defender, the player
who plays for a location), ``game.a``/``game.d`` (each side's characters, the first
plays the cards; none for a location), ``game.init`` (who has the initiative),
``game.step`` (``lead``: the initiative's card is next, ``reply``: the other's),
``game.cpass`` (passes in succession) and ``game.card`` (the lead card until the reply).
"""

from arbiter.game import Illegal
from arbiter.game.expr import EMPTY, evaluate

_START = {"combat": 0, "ap": "", "dp": "", "init": "", "step": "lead", "cpass": 0}
# the step after a clash's hits are dealt (a tuple: no ruleset can write it)
_SAID = ("said",)


def combat(game, effect):
    """``combat``: ``begin`` (fields ``a``: the attacker's character, ``d``: a list,
    ``dp``: the defending player, ``foe``: what is fought, as said; ``$p`` attacks
    and has the initiative), ``card``
    (fields ``kind``, ``cost`` {name: amount}, ``damage``, ``toughness``, ``combo``,
    ``knockdown``: the card ``$p`` reveals), ``pass`` (``$p`` plays no card), ``end``.
    When both cards are out: the effects that deal the hits and then say the clash
    (effects._combat runs them), else None. The damage a card deals goes through the
    action ``hit`` (``k``, ``n``, ``by``), or ``place`` (``n``, ``by``) when the side
    hit has no character; ``knock`` (``p``) is called for each player a knockdown
    makes discard. A combat those actions end is not ended again."""
    step, values = effect["combat"], game.writable("game", "game")
    if step is _SAID:
        _said(game, values, effect)
    elif step == "begin":
        _begin(game, effect, values)
    elif step == "end":
        _end(game, values)
    else:
        who = _to_play(values)
        if who != game.bound("p"):
            raise Illegal("no combat goes on" if who is None else "it is %s's card now" % who)
        reply = _pass(game, values) if step == "pass" else _card(game, effect, values)
        if reply is not None:  # the reply: both cards are out
            return _clash(game, values, who, reply)
    return None


def _to_play(values):
    if not values.get("combat"):
        return None
    return values["init"] if values["step"] == "lead" else _other(values, values["init"])


def _other(values, player):
    return values["dp"] if player == values["ap"] else values["ap"]


def _begin(game, effect, values):
    spec, p = game.rules["combat"], game.bound("p")
    values.update(_START)
    values.update({"combat": 1, "ap": p, "dp": evaluate(game, effect["dp"]), "init": p,
                   "a": [evaluate(game, effect["a"])], "d": list(evaluate(game, effect["d"]))})
    foe = evaluate(game, effect["foe"]) if "foe" in effect else values["dp"]
    game.say("%s fights %s: %s has the initiative%s" % (
        game.state["pieces"][values["a"][0]]["name"], foe, p,
        "" if values["d"] else ", %s plays for it" % values["dp"]))
    for player in (p, values["dp"]):  # what each side has used of this combat
        record = game.writable("player", player)
        for name in spec.get("costs", EMPTY):
            record[name] = 0
        record[spec["spent"]] = 0
        if "free" in spec:
            record[spec["free"]] = 0


def _end(game, values, at=None):
    text = "Combat over: %s and %s%s" % (values["ap"], values["dp"],
                                         game.rules["combat"].get("over", ""))
    if at is None:
        game.say(text)
    else:  # before what the knock-out said: that stays the newest, on the screen
        game.log.insert(at, {"event": "note", "text": text})
    values.update(_START)
    values["a"], values["d"] = [], []
    values.pop("card", None)


def _fighter(values, player):
    """The character who plays ``player``'s cards, None for a location."""
    side = values["a"] if player == values["ap"] else values["d"]
    return side[0] if side else None


def _pass(game, values):
    """No card: the reply's card to clash with, or None."""
    p = game.bound("p")
    if values["step"] == "reply":
        return ["none", 0, 0, 0, 0]
    values["cpass"] += 1
    values["init"] = _other(values, p)
    if values["cpass"] >= 2:
        _end(game, values)
    else:
        game.say("%s passes: %s has the initiative" % (p, values["init"]))


def _card(game, effect, values):
    """A card revealed: the reply's card to clash with, or None."""
    spec, p = game.rules["combat"], game.bound("p")
    lead = values["step"] == "lead"
    kind = evaluate(game, effect["kind"])
    status, energy = "illegal", 0
    if kind in spec["lead" if lead else "reply"]:
        status, energy = _pay(game, spec, p, _fighter(values, p), effect.get("cost", EMPTY))
    card = [status, _num(game, effect, "damage"), _num(game, effect, "toughness"),
            _num(game, effect, "combo"), _num(game, effect, "knockdown")]
    values["cpass"] = 0
    if not lead:
        return card
    values["card"], values["step"] = card, "reply"
    paid = ", %s %d" % (spec["pool"], energy) if energy else ""
    game.say("%s %s: %s%s; %s replies" % (p, kind, status, paid, _other(values, p)))


def _num(game, effect, name):
    return evaluate(game, effect[name]) if name in effect else 0


def _pay(game, spec, p, piece, cost):
    """("paid", Energy used) or ("BLUFF", 0): each cost from the stat not yet used in
    this combat, the rest from the pool (a cost not in ``costs`` only from the pool),
    the pool at most the piece's ``cap`` stat a combat unless ``free``."""
    if piece is None:  # a location's card: its numbers are its own
        return "paid", 0
    record, stats = game.writable("player", p), game.state["pieces"][piece]["stats"]
    costs, use, pool = spec.get("costs", EMPTY), {}, 0
    for name in cost:
        amount = evaluate(game, cost[name])
        if name in costs:
            left = max(0, stats.get(costs[name], 0) - record[name])
            use[name] = min(amount, left)
            amount -= use[name]
        pool += amount
    free = record.get(spec.get("free"), 0)
    if pool > record[spec["pool"]] or (
            not free and record[spec["spent"]] + pool > stats.get(spec["cap"], 0)):
        return "BLUFF", 0
    for name in use:
        record[name] += use[name]
    record[spec["pool"]] -= pool
    record[spec["spent"]] += pool
    return "paid", pool


def _clash(game, values, p, reply):
    """Both cards revealed: a bluff works only against a bluff or no card; each card
    that works deals its damage less the other's toughness; a combo keeps the
    initiative, else it goes to the side that replied."""
    lead, spec = values.pop("card"), game.rules["combat"]
    attacker = _other(values, p)
    works = lead[0] == "paid" or (lead[0] == "BLUFF" and reply[0] in ("BLUFF", "none"))
    answers = reply[0] == "paid" or (reply[0] == "BLUFF" and lead[0] != "paid")
    hit = max(0, lead[1] - (reply[2] if answers else 0)) if works else 0
    back = max(0, reply[1] - (lead[2] if works else 0)) if answers else 0
    keep = works and lead[3]
    values["step"] = "lead"
    values["init"] = attacker if keep else p
    target, source = _fighter(values, p), _fighter(values, attacker)
    # the hits, then what the clash says (run by the effects' own stack, not from
    # here: a Pico's C stack is short)
    then = []
    for piece, n, by in ((target, hit, attacker), (source, back, p)):
        if n and piece is not None:
            then.append({"call": spec["hit"], "with": {"k": piece, "n": n, "by": by}})
        elif n and "place" in spec:  # the side with no character: a location's damage
            then.append({"call": spec["place"], "with": {"n": n, "by": by}})
    text = _dealt(attacker, lead[0], hit) + ", " + _dealt(p, reply[0], back)
    for who, knocks in ((p, works and lead[4]), (attacker, answers and reply[4])):
        if knocks:
            text += ", %s discards at random" % who
            if "knock" in spec:
                then.append({"call": spec["knock"], "with": {"p": who}})
    then.append({"combat": _SAID, "text": text, "keep": keep, "at": len(game.log),
                 "pieces": (target, source)})
    return then


def _dealt(who, status, n):
    """A card's side of a clash: the damage it deals ("P1 deals 3"), not its cost."""
    if status == "paid":
        return "%s deals %d" % (who, n)
    if status == "BLUFF":
        return "%s bluffs, deals %d" % (who, n)
    return "%s: %s" % (who, "no card" if status == "none" else "illegal card")


def _said(game, values, said):
    """A clash's hits are dealt: what it says (a knock-out ends the combat)."""
    text, at = said["text"], said["at"]
    if not values.get("combat"):  # its hits ended it (a knock-out's own effects)
        game.log.insert(at, {"event": "note", "text": text})  # the knock-out said last
        return
    out, pieces = game.rules["combat"].get("out"), game.state["pieces"]
    if out and any(piece and pieces[piece].get(out) for piece in said["pieces"]):
        game.log.insert(at, {"event": "note", "text": text})  # the knock-out said last
        _end(game, values, at + 1)
        return
    game.say(text + (". Combo: %s has the initiative" if said["keep"] else
                     ". %s has the initiative") % values["init"])
