"""What players may see of a game: the public state (no unrevealed secret, no seed
and no face-down value before the end). What an action would say before it is
done: preview.py."""

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
        "game": face_up(game),
        "lost": list(state["lost"]),
        "winner": state["winner"],
        "result": state["result"],
        "message": state["message"],
        "commitment": commitment(game.seed),
        "events": game.count(),
        "log": list(game.log),
    }
    hidden = game.rules.get("face_down")
    if hidden and not state["result"]:  # how many cards, not which
        out["face_down"] = {name: _size(state["game"].get(name)) for name in hidden}
    if state["result"]:
        out["seed"] = game.seed  # revealed with the result, so the dice can be audited
        if "why" in state:  # why it ended, as the winner's screen says it
            out["why"] = state["why"]
        if game.mix is not None:
            out["mix"] = game.mix
    return out


def face_up(game):
    """The game values everyone may see: all but the ``face_down`` ones, until the
    game is over (then all, as the seed is)."""
    values = dict(game.state["game"])
    if not game.state["result"]:
        for name in game.rules.get("face_down", ()):
            values.pop(name, None)
    return values


def _size(value):
    return len(value) if isinstance(value, list) else None


def _piece(game, record):
    out = dict(record)
    shared = game.rules.get("pieces", EMPTY).get("stats")
    if shared:  # the stats every piece shares, under the piece's own
        out["stats"] = dict(shared)
        out["stats"].update(record["stats"])
    return out
