"""What happened in a game, in players' words: the game menu's Log page, and what an
undo, a redo and a game restored at boot say of an action. Loaded to write them, let
go once written (jobs.LET_GO): no press of the play screen carries this code.

An action is said by its ``label`` and its values as its form shows them: pieces by
name, fields by the action's ``labels`` (forms.WORDS else), a flag by its name when
set ("Damage: Kraken, amount 4, by P1")."""

from arbiter.game.actions import parse
from arbiter.game.expr import EMPTY
from arbiter.screens.view import describe

WORDS = {"p": "player", "k": "piece", "t": "target", "n": "amount"}  # forms.WORDS


def log_lines(game):
    """The last 20 log entries, a line (or two) each."""
    return [log_line(entry, game) for entry in game.log[-20:]]


def log_line(entry, game):
    """A log entry in words."""
    kind = entry["event"]
    if kind == "win" or kind == "lose" or kind == "tie":  # "P2 wins: P1 is out"
        return ending(entry)
    if kind == "tiebreak" or kind == "order":  # the turn order, and a tie's draw
        return ("Tie-break: " if kind == "tiebreak" else "Order: ") + " ".join(entry["order"])
    if kind == "seed":  # revealed at the end: it must hash to the commitment
        return "Dice seed: %d" % entry["seed"]
    if kind == "roll":
        return describe(entry)
    if kind == "phase":
        return "-- " + phase_label(game, entry["name"]) + (
            " (skipped)" if entry.get("skipped") else "")
    if kind == "note":
        return entry["text"]
    if kind == "draw":  # cards or a piece drawn at random
        return "%s: %s" % (entry["reason"], " ".join(str(i) for i in entry["items"]))
    if kind == "shuffle":
        return "Shuffled: %s" % entry["reason"]
    if kind == "pick":
        return entry["player"] + " picked"
    if kind == "reveal":
        return " ".join("%s:%s" % item for item in sorted(entry["picks"].items()))
    if kind == "add" or kind == "set":  # a correction by hand: the value it left
        who, _, what = entry["path"].rpartition(".")
        return "Corrected: %s %s, now %s" % (holder(game, who), what, entry["value"])
    if kind == "undo" or kind == "redo":
        return ("Undone: " if kind == "undo" else "Redone: ") + said(game, entry["action"])
    if kind == "next":
        return "Next phase"
    if kind == "start":
        return "New game: " + game.rules.get("title", entry["ruleset"])
    if "args" in entry:
        return action_words(game, kind, entry["args"])
    return kind[:1].upper() + kind[1:]


def ending(entry):
    """"P2 wins: P1 is out", "P1 is out: has 3 alert tokens", "A tie"."""
    kind = entry["event"]
    player = entry.get("player")
    said = "A tie" if kind == "tie" or player is None else \
        player + (" wins" if kind == "win" else " is out")
    why = entry.get("why", "")
    if player and why.startswith(player + " "):
        why = why[len(player) + 1:]  # "P2 wins: scored the points to win"
    return said + ": " + why if why else said


def phase_label(game, name):
    for phase in game.rules.get("phases", ()):
        if phase["name"] == name:
            return phase.get("label", name)
    return name


def holder(game, key):
    """A player as such, a piece by its name (``P2.k1``: Kraken)."""
    piece = game.state["pieces"].get(key)
    if piece is not None:
        return piece.get("name", key)
    return key.rpartition(".")[2] if "." in key else key


def said(game, event):
    """An action as journaled (``damage by=P1 k=P2.k1 n=4|3``) in words; the dice
    are not said (the log has them), nor a secret's choice."""
    name, args = parse(event.partition("|")[0])
    words = args.pop("_")
    if name == "next":
        return "Next phase"
    if name == "add" and len(words) == 2:  # the Correct form's
        who, _, what = str(words[0]).rpartition(".")
        return "Correction: %s %s %s%s" % (holder(game, who), what,
                                           "+" if int(words[1]) >= 0 else "", words[1])
    if name == "set" and len(words) == 2:
        who, _, what = str(words[0]).rpartition(".")
        return "Correction: %s %s to %s" % (holder(game, who), what, words[1])
    if name == "roll" and words:  # Roll dice's: "roll d6 3"
        return "Dice: %s%s" % ("%s " % words[1] if len(words) > 1 else "", words[0])
    if name == "pick" or any(s.get("action") == name for s in game.rules.get("secrets", ())):
        return "%s's pick" % words[0] if words else "a pick"
    from arbiter.game.effects import action

    spec = action(game, name) or EMPTY
    for param, value in zip(spec.get("params", ()), words):  # typed by hand, in order
        args[param] = value
    return action_words(game, name, args, spec)


def action_words(game, name, args, spec=None):
    """A ruleset action with ``args`` (its log entry's, or parsed): its label, then
    each value, in its form's order."""
    if spec is None:
        from arbiter.game.effects import action

        spec = action(game, name) or EMPTY
    labels = spec.get("labels", EMPTY)
    flags = spec.get("flags", ())
    params = list(spec.get("params", ()))
    parts = []
    for key in params + sorted(k for k in args if k not in params):
        if key not in args:
            continue
        value = shown(game, args[key], args.get("p"))
        if key in flags:  # a flag: its name when set, else nothing
            if value not in ("0", ""):
                parts.append(labels.get(key, key))
        elif key in ("p", "k", "t") and key not in labels:  # a player or piece: its name
            parts.append(value)
        else:
            parts.append("%s %s" % (labels.get(key) or WORDS.get(key, key), value))
    label = spec.get("label", name[:1].upper() + name[1:])
    return label + ": " + ", ".join(parts) if parts else label


def shown(game, value, player=None):
    """A value as forms show it: a piece by its name (Kaiju's ``k1`` of the player
    named too), anything else as it is."""
    pieces = game.state["pieces"]
    text = str(value)
    if player is not None and text not in pieces and "%s.%s" % (player, text) in pieces:
        text = "%s.%s" % (player, text)
    if text in pieces:
        return pieces[text].get("name", text)
    if "." in text and text[:1] == "P" and text[1:2].isdigit():  # a piece gone since
        return text.partition(".")[2]
    return text
