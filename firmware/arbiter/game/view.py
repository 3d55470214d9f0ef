"""What players may see of a game: the public state (no unrevealed secret, no seed
before the end) and the lines of the play screen."""

from arbiter.game.actions import pending_pick
from arbiter.game.engine import commitment
from arbiter.game.expr import EMPTY


def public_state(game):
    state = game.state
    secret, picker = pending_pick(game)
    out = {
        "ruleset": game.rules["name"],
        "options": dict(game.options),
        "round": state["round"],
        "phase": game.phase()["name"] if state["round"] else "setup",
        "active": game.active_player() if state["round"] else picker,
        "order": list(state["order"]),
        "picking": {"secret": secret["name"], "player": picker} if secret else None,
        "players": {p: dict(v) for p, v in state["players"].items()},
        "pieces": {k: _piece(game, v) for k, v in state["pieces"].items()},
        "game": dict(state["game"]),
        "lost": list(state["lost"]),
        "winner": state["winner"],
        "result": state["result"],
        "message": state["message"],
        "commitment": commitment(game.seed),
        "events": game.count(),
        "log": list(game.log),
    }
    if state["result"]:
        out["seed"] = game.seed  # revealed with the result, so the dice can be audited
    return out


def _piece(game, record):
    out = dict(record)
    shared = game.rules.get("pieces", EMPTY).get("stats")
    if shared:  # the stats every piece shares, under the piece's own
        out["stats"] = dict(shared)
        out["stats"].update(record["stats"])
    return out


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


def preview(game, text):
    """What an action would say, without doing it: its last message (such as
    "Rex 4/6 -> 7/6 KO, P1 +5 glory"), or the reason it would be refused. Nothing
    for an action that rolls dice: a preview must not show a roll before it counts.

    Only the action's effects run (not the end checks, which say nothing), on the
    game itself, which one copy of the state then restores: a Pico's heap."""
    from arbiter.game.actions import parse, perform
    from arbiter.game.effects import Illegal
    from arbiter.game.expr import RuleError
    from arbiter.game.state import clone

    name, args = parse(text)
    if name in ("undo", "redo"):
        return ""
    if game.state["result"]:
        return "the game is over"
    state, rng, length = clone(game.state), game.rng.snapshot(), len(game.log)
    game.state["message"] = ""
    game._rolls = []
    try:
        perform(game, name, args)
        said = "" if game._rolls else game.state["message"]
    except Illegal as exc:
        said = exc.reason
    except (RuleError, KeyError, IndexError, TypeError, ValueError) as exc:
        said = "cannot do that: %s" % exc
    finally:
        game.clear_scratch()
        game.state = state
        del game.log[length:]
        game.rng.restore(rng)
    return said
