"""Turn order (fixed, rolled, or by a value with ties broken at random once) and
deciding the end (wins, losses, ties and tie-breaks)."""

from arbiter.game import Illegal
from arbiter.game.expr import evaluate


def order_players(game, spec):
    players = game.players_in_order()
    by = spec.get("by", "fixed")
    if by == "fixed":
        return list(game.state["order"])
    if by == "roll":
        scores = {}
        tied = players
        while tied:
            rolls = {p: game.roll(spec.get("die", "d6"), 1, p, "turn order")[0] for p in tied}
            for p in tied:
                scores[p] = scores.get(p, ()) + (rolls[p],)
            tied = [p for p in tied
                    if sum(1 for q in tied if scores[q] == scores[p]) > 1]
        keys = scores
    elif by == "value":
        keys = {}
        for p in players:  # (a loop, not a comprehension: a call less deep on a Pico)
            keys[p] = (game.bound_eval("p", p, spec["key"]),)
    else:
        raise Illegal("unknown turn order %s" % by)
    high = spec.get("high_first", True)
    shuffle = players
    if by == "value" and len(set(keys.values())) < len(players):
        shuffle = _tiebreak_order(game)
    rank = {p: shuffle.index(p) for p in players}

    def sort_key(p):
        key = tuple(-v if high else v for v in keys[p])
        return key + (rank[p],)

    order = sorted(players, key=sort_key)
    game.log.append({"event": "order", "order": order})
    return order + [p for p in game.state["order"] if p not in order]


def _tiebreak_order(game):
    """Ties broken at random once for the game (Kaiju: "Once decided, that
    initiative order is in effect for the rest of the game"): every player's place
    shuffled, the first time a tie needs it, from the game's dice. It is the action's
    roll (journaled, audited; undoing it needs the table's agreement), and kept in the
    state, so a later order (a team picked again) and a redo give the same one."""
    state = game.state
    shuffle = state.get("tiebreak")
    if shuffle is not None:
        return shuffle
    shuffle, picks = list(state["order"]), []
    for i in range(len(shuffle) - 1, 0, -1):
        j = game.rng.below(i + 1)
        picks.append(j)
        shuffle[i], shuffle[j] = shuffle[j], shuffle[i]
    game.rolls.append(picks)
    state["tiebreak"] = shuffle
    game.log.append({"event": "tiebreak", "order": list(shuffle), "items": list(shuffle)})
    return shuffle


def resolve_end(game):
    state = game.state
    winners = _unique(game.pending_win)
    losers = _unique(game.pending_lose)
    tie = game.pending_tie
    game.pending_win, game.pending_lose, game.pending_tie = [], [], False
    if state["result"]:
        return
    if winners:
        if len(winners) > 1:
            winners = _tiebreak(game, winners)
        if len(winners) == 1:
            _finish(game, "win", winners[0], _said(game, winners[0]))
        else:
            _finish(game, "tie", None, "tied on every tie-break: " + " ".join(winners))
        return
    if tie:
        _finish(game, "tie", None, None)
        return
    if not losers:
        return
    alive = [p for p in game.players_in_order() if p not in losers]
    passing = False
    for p in losers:
        if p not in state["lost"]:
            passing = _keep_turn(game, p) or passing
            state["lost"].append(p)
            entry = {"event": "lose", "player": p}
            if p in game.why:
                entry["why"] = game.why[p]
            game.log.append(entry)
    if not alive:
        _finish(game, "tie", None, "everyone left lost at once")
    elif len(alive) == 1:
        _finish(game, "win", alive[0], _said(game, losers[0]) or losers[0] + " is out")
    elif passing:
        game.next_phase(leave=False)  # the next player's turn starts, with its effects


def _keep_turn(game, player):
    """The turn is a place in the order of those still in, which just got shorter. A
    player out before the one whose turn it is: the turn stays with that player. The
    player whose turn it is: the place goes back one, and True, so the turn passes on
    as after ``next`` (nobody's turn is skipped or starts without its effects)."""
    active = game.active_player()
    order = game.players_in_order()
    if not active or player not in order:
        return False
    if player == active or order.index(player) < order.index(active):
        game.state["turn"] -= 1
    return player == active


def _unique(players):
    out = []
    for p in players:
        if p not in out:
            out.append(p)
    return out


def _tiebreak(game, players):
    for form in game.rules.get("tiebreak", ()):
        scores = {p: game.bound_eval("p", p, form) for p in players}
        best = max(scores.values())
        players = [p for p in players if scores[p] == best]
        if len(players) == 1:
            break
    return players


def _said(game, player):
    """Why ``player`` won or lost, as a sentence ("P2 reached the target"), or None."""
    why = game.why.get(player)
    return player + " " + why if why else None


def _finish(game, result, winner, why):
    """The end: its result, and why (a sentence, or None) in the state and the log."""
    state = game.state
    state["result"], state["winner"] = result, winner
    entry = {"event": result, "player": winner} if winner else {"event": result}
    if why:
        state["why"] = entry["why"] = why
    game.log.append(entry)
    game.log.append({"event": "seed", "seed": game.seed} if game.mix is None else
                    {"event": "seed", "seed": game.seed, "mix": game.mix})


__all__ = ["order_players", "resolve_end", "evaluate"]
