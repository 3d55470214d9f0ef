"""The game state: plain dicts and lists, so it copies, compares and serialises.

Paths name a value: ``P1.power`` (a player's counter or field), ``P1.k1.damage``
(a piece's), ``game.NAME`` (a game-wide value set by effects).
"""

from arbiter.game import RuleError


def clone(value):
    """Deep copy of dicts, lists and scalars (no copy module on every port).

    Each container is copied whole (``copy()``, ``[:]``: one block of its exact
    size) and only its containers are replaced: built item by item, its table
    would grow and leave the smaller ones as garbage (a snapshot every few
    actions on a Pico)."""
    if isinstance(value, dict):
        out = value.copy()
        for k in value:
            v = value[k]
            # stats: the ruleset's, shared. Two isinstance: (dict, list) is a tuple
            # built at each call
            if k != "stats" and (isinstance(v, dict) or isinstance(v, list)):
                out[k] = clone(v)
        return out
    if isinstance(value, list):
        out = value[:]
        for i in range(len(out)):
            v = out[i]
            if isinstance(v, dict) or isinstance(v, list):
                out[i] = clone(v)
        return out
    return value


def shared_copy(state, like=None):
    """A copy of ``state`` (a snapshot, a preview's) that shares its players' and
    pieces' records and its game values with it until one is changed: the game
    copies a record first (Game.writable), so a copy costs what changes after it,
    not a whole state. Its small lists and tables (the order, the actions' limits)
    are its own, or ``like``'s (the snapshot before, never changed) where equal."""
    out = state.copy()
    for k in state:
        v = state[k]
        if k == "players" or k == "pieces":
            out[k] = v.copy()
        elif k != "game" and (isinstance(v, dict) or isinstance(v, list)):
            was = like.get(k) if like is not None else None
            out[k] = was if was == v else clone(v)
    return out


def new_state(rules, players):
    keys = ["P%d" % (i + 1) for i in range(players)]
    return {
        "round": 0,  # 0 while secrets are being picked; play starts at 1
        "phase": 0,
        "turn": 0,
        "order": keys,
        "players": {key: {} for key in keys},
        "pieces": {},
        "picks": {},  # secret -> {player: choice}, never shown until revealed
        "revealed": [],
        "game": clone(rules.get("game", {})),
        "lost": [],
        "result": None,
        "winner": None,
        "message": "",
    }


def split(path):
    """``P1.k1.damage`` -> ("piece", "P1.k1", "damage"); ``P1.power`` -> ("player", ...)."""
    i = path.rfind(".")  # two slices, no list: this runs for every value read
    key = path[:i]
    if i <= 0 or key.count(".") > 1 or i == len(path) - 1:
        raise RuleError("bad path " + path)
    return kind_of(key), key, path[i + 1:]


def kind_of(key):
    """What a path's key names: "piece" (``P1.k1``), "game" or "player" (``P1``)."""
    return "piece" if "." in key else "game" if key == "game" else "player"


def holder(state, kind, key):
    """The dict that holds a path's value, or None when the player or piece is unknown."""
    if kind == "game":
        return state["game"]
    if kind == "player":
        return state["players"].get(key)
    return state["pieces"].get(key)


def own(state, kind, key, record):
    """``record`` becomes the state's own holder of a path's values (Game.writable)."""
    if kind == "game":
        state["game"] = record
    else:
        state["players" if kind == "player" else "pieces"][key] = record
