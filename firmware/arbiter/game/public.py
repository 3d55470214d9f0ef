"""What players may see of a game: the public state (no unrevealed secret, no seed
before the end), and what an action would say before it is done."""

from arbiter.game.actions import pending_pick
from arbiter.game.expr import EMPTY
from arbiter.game.rng import commitment


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
        if game.mix is not None:
            out["mix"] = game.mix
    return out


def _piece(game, record):
    out = dict(record)
    shared = game.rules.get("pieces", EMPTY).get("stats")
    if shared:  # the stats every piece shares, under the piece's own
        out["stats"] = dict(shared)
        out["stats"].update(record["stats"])
    return out


def preview(game, text):
    """What an action would say, without doing it: its last message (such as
    "Rex 4/6 -> 7/6 KO, P1 +5 glory"), or the reason it would be refused. Nothing
    for an action that rolls dice: a preview stops at its first roll, before it.

    Only the action's effects run (not the end checks, which say nothing), on one
    copy of the state, dropped after: the game's own state stays where it lies in a
    Pico's heap (restoring the copy scattered the live state and the heap with it)."""
    from arbiter.game import Illegal, RuleError
    from arbiter.game.actions import parse, perform
    from arbiter.game.state import clone

    name, args = parse(text)
    if name in ("undo", "redo"):
        return ""
    if game.state["result"]:
        return "the game is over"
    state, rng, length = game.state, game.rng, len(game.log)
    game.state = clone(state)
    game.state["message"] = ""
    game.rolls = []
    game.rng = None  # a preview never rolls: it stops at its first roll, before it
    try:
        perform(game, name, args)
        said = game.state["message"]
    except AttributeError:  # the generator is away: it would roll
        said = ""
    except Illegal as exc:
        said = exc.reason
    except (RuleError, KeyError, IndexError, TypeError, ValueError) as exc:
        said = "cannot do that: %s" % exc
    finally:
        game.clear_scratch()
        game.state = state
        del game.log[length:]
        game.rng = rng
    return said
