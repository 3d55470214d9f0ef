"""What players read of a game: the play screen's eight lines of 16, and each event
and log entry in a line (log page, serial console)."""

from arbiter.game.actions import pending_pick
from arbiter.game.expr import EMPTY


def _shown_counters(game):
    shown = game.rules.get("show")
    if shown is None:
        shown = sorted(game.rules.get("counters", EMPTY))[:3]
    return shown


def _label(game, name):
    default = name[:1].upper() + name[1:3]
    return game.rules.get("counters", EMPTY).get(name, EMPTY).get("label", default)


def screen_lines(game):
    """Eight lines of up to 16 characters: title, phase, players, message, keys."""
    state = game.state
    title = game.rules.get("title", game.rules["name"])
    lines = []
    if state["round"] == 0:
        secret, picker = pending_pick(game)
        lines = [title, secret.get("prompt", secret["name"]),
                 "", "Pass to " + picker, "others look away", "", "", "A:pick"]
        return lines
    mark = " %s%d" % (game.rules.get("round_label", "Round")[:1], state["round"])
    lines.append(title[:16 - len(mark)] + mark)
    phase = game.phase()
    active = game.active_player()
    lines.append(phase.get("label", phase["name"]) + (": " + active if active else ""))
    shown = _shown_counters(game)
    for player in state["order"][:5]:
        record = state["players"][player]
        parts = [player + ("x" if player in state["lost"] else "")]
        for name in shown:
            parts.append("%s%s" % (_label(game, name)[:3], record.get(name, "-")))
        lines.append(" ".join(parts))
    while len(lines) < 6:
        lines.append("")
    if state["result"] == "win":
        lines.append(state["winner"] + " wins!")
    elif state["result"] == "tie":
        lines.append("A tie!")
    else:
        lines.append(state["message"])
    lines = lines[:7]
    lines.append("B:menu" if state["result"] else "A:next B:menu")
    return [line[:16] for line in lines]


def public_text(event):
    """An event as the serial console may show it: a secret pick names no choice."""
    text = event.split("|")[0]
    if text.startswith("pick "):
        return " ".join(text.split()[:2])
    return text


def describe(entry):
    """One log entry in a line or two for the log page."""
    kind = entry["event"]
    if kind == "roll":
        return "%s%s %s: %s" % ("undone " if entry.get("undone") else "", entry["player"],
                                entry["die"], " ".join(str(r) for r in entry["rolls"]))
    if kind == "phase":
        return "-- " + entry["name"] + (" (skipped)" if entry.get("skipped") else "")
    if kind == "note":
        return entry["text"]
    if kind == "draw":  # cards or a piece drawn at random
        return "%s: %s" % (entry["reason"], " ".join(str(i) for i in entry["items"]))
    if kind == "pick":
        return entry["player"] + " picked"
    if kind == "reveal":
        return " ".join("%s:%s" % item for item in sorted(entry["picks"].items()))
    if kind in ("add", "set"):
        return "%s %s = %s" % (kind, entry["path"], entry["value"])
    args = entry.get("args")
    if args:
        return kind + " " + " ".join(str(args[k]) for k in sorted(args))
    return kind  # "start": its commitment is on the New game page, too long here
