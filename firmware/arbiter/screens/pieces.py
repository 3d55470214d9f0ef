"""The piece page (Down on the play screen): each piece, or each player in a game
without pieces, with every number the device keeps of it, by name."""

from arbiter.game.expr import EMPTY
from arbiter.ui.menu import TextPage


def _numbers(specs, record, out):
    """``record``'s counters as words: "damage 3", a set flag (max 1) by its name
    alone, text when not empty; a counter's ``label`` names it, else its name; a
    ``hidden`` one not at all."""
    for name in sorted(specs):
        value = record.get(name)
        spec = specs[name]
        if spec.get("hidden"):  # a rule's bookkeeping, not a number players keep
            continue
        label = spec.get("label") or name.replace("_", " ")
        if isinstance(value, bool) or value is None or value == "":
            continue
        if isinstance(value, int) and spec.get("max") == 1 and spec.get("min", 0) == 0:
            if value:
                out.append(label)
        else:
            out.append("%s %s" % (label, value))
    return out


def row(game, key):
    """A piece or player and all its numbers, in words."""
    state = game.state
    record = state["pieces"].get(key)
    if record is not None:
        words = _numbers(game.rules.get("pieces", EMPTY).get("counters", EMPTY), record, [])
        for i, word in enumerate(words):  # a pin names its piece
            if word.startswith("pinned "):
                pin = state["pieces"].get(word[7:])
                words[i] = "pinned by " + (pin["name"] if pin else word[7:])
        head = "%s (%s)" % (record.get("name", key), record["owner"])
    elif key in state["players"]:
        words = _numbers(game.rules.get("counters", EMPTY), state["players"][key], [])
        head = key
    else:
        return str(key)
    return head + ": " + (", ".join(words) or "-")


def piece_page(game):
    pieces = game.piece_keys()
    if pieces:
        return TextPage("Pieces", [row(game, key) for key in pieces])
    return TextPage("Players", [row(game, p) for p in game.state["order"]])
