"""The piece page (Down on the play screen): each piece, or each player in a game
without pieces, with every number the device keeps of it, by name."""

from arbiter.game.expr import EMPTY
from arbiter.ui.menu import TextPage


def _numbers(specs, record, out, short=False):
    """``record``'s counters as words: "damage 3", a set flag (max 1) by its name
    alone, text when not empty; a counter's ``label`` names it, else its name."""
    for name in sorted(specs):
        value = record.get(name)
        spec = specs[name]
        label = spec.get("label") or name.replace("_", " ")
        if isinstance(value, bool) or value is None or value == "":
            continue
        if isinstance(value, int) and spec.get("max") == 1 and spec.get("min", 0) == 0:
            if value:
                out.append(label)
        elif short and isinstance(value, int):
            out.append(label[:3] + str(value))
        else:
            out.append("%s %s" % (label, value))
    return out


def name_of(game, key):
    """What players call a piece (its ``name``), a player or a choice: as it is."""
    record = game.state["pieces"].get(key) if isinstance(key, str) else None
    return record.get("name", key) if record else str(key)


def row(game, key, short=False):
    """A piece or player and its numbers in a line (``short``: the first few)."""
    state = game.state
    record = state["pieces"].get(key)
    if record is not None:
        words = _numbers(game.rules.get("pieces", EMPTY).get("counters", EMPTY), record, [],
                         short)
        for i, word in enumerate(words):  # a pin names its piece
            if word.startswith("pinned "):
                words[i] = "pinned by " + name_of(game, word[7:])
        head = record.get("name", key)
        if not short:
            head += " (%s)" % record["owner"]
    elif key in state["players"]:
        if short:  # as on the play screen
            from arbiter.screens.view import player_line

            return player_line(game, key)
        words = _numbers(game.rules.get("counters", EMPTY), state["players"][key], [])
        head = key
    else:
        return str(key)
    if short:
        return " ".join([head] + words[:3])
    return head + ": " + (", ".join(words) or "-")


def piece_page(game):
    pieces = game.piece_keys()
    if pieces:
        return TextPage("Pieces", [row(game, key) for key in pieces])
    return TextPage("Players", [row(game, p) for p in game.state["order"]])
