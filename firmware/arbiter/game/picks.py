"""Secret picks: each player's choice kept hidden until all have picked, then
revealed at once. Loaded for the one pick (actions._secret_pick)."""

from arbiter.game import Illegal


def pick(game, player, choice, named, secret, expected, choices):
    """``player`` picks ``choice``; ``secret`` and ``expected`` are the pick due now
    (actions.pending_pick), ``named`` the secret an action names, if any, ``choices``
    what ``player`` may pick (actions.pick_choices). True once the last player picked
    and the secret is revealed."""
    if secret is None:
        raise Illegal("nothing to pick now")
    if named is not None and named is not secret:
        raise Illegal("%s must pick a %s first" % (expected, secret["name"]))
    if player != expected:
        raise Illegal("it is %s's turn to pick" % expected)
    if choice not in choices:
        if not choices:
            raise Illegal("%s has no %s to pick" % (player, secret["name"]))
        raise Illegal("%s is one of %s" % (secret["name"], ", ".join(
            [str(c) for c in choices])))
    picks = game.state["picks"].setdefault(secret["name"], {})
    picks[player] = choice
    game.log.append({"event": "pick", "player": player, "secret": secret["name"]})
    if len(picks) < len(game.players_in_order()):
        return False
    _reveal(game, secret, picks)
    return True


def _reveal(game, secret, picks):
    field = secret.get("field", secret["name"])
    for player, choice in picks.items():
        game.writable("player", player)[field] = choice
    game.state["revealed"].append(secret["name"])
    game.log.append({"event": "reveal", "secret": secret["name"],
                     "picks": {p: picks[p] for p in sorted(picks) if picks[p] is not None}})
    if "phase" in secret:  # closed: picked anew the next time its phase begins
        del game.state["picks"][secret["name"]]
    for player in game.players_in_order():
        game.run(secret.get("on_reveal", ()), "p", player)
    game.run(secret.get("after_reveal", ()))
