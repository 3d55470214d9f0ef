"""The game menu's Table page: the game-wide values the ruleset's ``table`` names, in
its words. Loaded to write it, let go once written (jobs.LET_GO)."""

from arbiter.game.expr import EMPTY


def table_lines(game):
    """The game-wide values (hands, a queue) as text, by the words of the ruleset's
    ``table``: those it names alone (the rest are the referee's own: Kaiju's combat
    steps); without one, each by its name."""
    out = []
    grid = game.rules.get("grid", EMPTY).get("value")
    hidden = () if game.state["result"] else game.rules.get("face_down", ())
    labels = game.rules.get("table")
    pieces = game.state["pieces"]
    for name in sorted(game.state["game"] if labels is None else labels):
        if "game." + name == grid or name not in game.state["game"]:
            continue  # the grid: on its own page, where squares may be face down
        value = game.state["game"][name]
        if name in hidden:  # how many, never which
            value = ("%d face down" % len(value)) if isinstance(value, list) else "face down"
        elif isinstance(value, list):
            value = " ".join(str(v) for v in value) or "-"
        elif value in pieces:  # a piece by its name
            value = pieces[value].get("name", value)
        out.append("%s: %s" % (labels[name] if labels else name, value if value != "" else "-"))
    return out
