"""Cards and lists: random draws from a deck list, unbiased shuffles, list changes.

``draw``: ``count`` cards from a deck, with replacement. A deck is a list whose
entries are a card (weight 1) or ``[card, weight]``: Double Impactics' 118-card
deck list is 18 weighted entries; a list of piece keys is a uniform choice.
``shuffle``: the list in a uniformly random order (Fisher-Yates). ``take``: the top
cards of a list (a deck shuffled face down), without replacement.
Both take every index from the game's generator by rejection sampling, record
it with the action's dice (so undo, replay and audit give the same cards) and
log what came up.
"""

from arbiter.game import Illegal, RuleError
from arbiter.game.expr import evaluate

MAX_DRAW = 100  # cards in one draw (as effects.MAX_DICE: an action ends soon on a Pico)


def _list_at(game, path):
    try:
        current = game.get(path)
    except Illegal:
        return []
    return list(current) if isinstance(current, list) else []


def _deck(items):
    if not isinstance(items, list):
        raise RuleError("a deck is a list: %r" % (items,))
    cards, weights = [], []
    for entry in items:
        card, weight = (entry[0], entry[1]) if isinstance(entry, list) else (entry, 1)
        if isinstance(weight, bool) or not isinstance(weight, int) or weight < 0:
            raise RuleError("a card's weight is a whole number: %r" % (entry,))
        cards.append(card)
        weights.append(weight)
    return cards, weights


def draw(game, effect):
    """``{"draw": DECK, "count": N, "to": PATH, "as": NAME, "reason": TEXT}``."""
    cards, weights = _deck(evaluate(game, effect["draw"]))
    total = sum(weights)
    if total == 0:
        raise Illegal(game.text(effect.get("empty", "nothing to draw from")))
    count = evaluate(game, effect.get("count", 1))
    if not isinstance(count, int) or count > MAX_DRAW:
        raise RuleError("draw %r cards: at most %d" % (count, MAX_DRAW))
    drawn, picks = [], []
    for _ in range(count):
        pick = game.rng.below(total)
        picks.append(pick)
        i = 0
        while pick >= weights[i]:
            pick -= weights[i]
            i += 1
        drawn.append(cards[i])
    game.rolls.append(picks)
    game.log.append({"event": "draw", "items": drawn,
                     "reason": game.text(effect.get("reason", "draw"))})
    game.vars[effect.get("as", "drawn")] = drawn
    if "to" in effect:
        path = game.path(effect["to"])
        game.change(path, _list_at(game, path) + drawn)


def take(game, effect):
    """``{"take": PATH, "count": N, "to": PATH, "as": NAME, "empty": TEXT}``: the first
    ``count`` items off the list at PATH, appended to the list at ``to`` and set as the
    var ``as`` (default ``taken``); refused with ``empty`` when it holds fewer."""
    path = game.path(effect["take"])
    items = _list_at(game, path)
    count = evaluate(game, effect.get("count", 1))
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DRAW:
        raise RuleError("take %r cards: 0 to %d" % (count, MAX_DRAW))
    if count > len(items):
        raise Illegal(game.text(effect.get("empty", "nothing left to take")))
    taken = items[:count]
    game.change(path, items[count:])
    game.vars[effect.get("as", "taken")] = taken
    if "to" in effect:
        to = game.path(effect["to"])
        game.change(to, _list_at(game, to) + taken)


def shuffle(game, effect):
    """``{"shuffle": LIST, "to": PATH, "reason": TEXT}``: Fisher-Yates, from the last
    place down, each swap partner drawn uniformly from the places not yet fixed."""
    items = list(evaluate(game, effect["shuffle"]))
    picks = []
    for i in range(len(items) - 1, 0, -1):
        j = game.rng.below(i + 1)
        picks.append(j)
        items[i], items[j] = items[j], items[i]
    game.rolls.append(picks)
    game.log.append({"event": "shuffle", "items": len(items),
                     "reason": game.text(effect.get("reason", "shuffle"))})
    game.change(game.path(effect["to"]), items)


def change_list(game, effect):
    """``append`` an item to the list at a path, or ``remove`` one occurrence of it
    (refused with ``reason`` when it is not there)."""
    key = "append" if "append" in effect else "remove"
    path = game.path(effect[key])
    items = _list_at(game, path)
    item = evaluate(game, effect.get("item"))
    if key == "append":
        items.append(item)
    elif item in items:
        items.remove(item)
    else:
        raise Illegal(game.text(effect.get("reason", ["no ", str(item), " to remove"])))
    game.change(path, items)
