"""The game menu's Log page in words: loaded to write it, let go once written (the
end's and the turn order's words are needed nowhere else)."""

from arbiter.screens.view import describe


def log_lines(game):
    """The last 20 log entries, a line (or two) each."""
    return [log_line(entry, game) for entry in game.log[-20:]]


def log_line(entry, game):
    """A log entry in words: the end and the turn order here, the rest describe's."""
    kind = entry["event"]
    if kind == "win" or kind == "lose" or kind == "tie":  # "P2 wins: P1 is out"
        said = {"win": "%s wins", "lose": "%s is out", "tie": "A tie"}[kind]
        said = said % entry["player"] if "player" in entry else said
        why = entry.get("why", "")
        if kind == "win" and why.startswith(entry["player"] + " "):
            why = why[len(entry["player"]) + 1:]  # "P2 wins: scored the points to win"
        return said + ": " + why if why else said
    if kind == "tiebreak" or kind == "order":  # the turn order, and a tie's draw
        return ("Tie-break: " if kind == "tiebreak" else "Order: ") + " ".join(entry["order"])
    if kind == "seed":  # revealed at the end: it must hash to the commitment
        return "seed %d" % entry["seed"]
    return describe(entry, game)
