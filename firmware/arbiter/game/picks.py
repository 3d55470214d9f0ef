"""Secret picks: each player's choice kept hidden until all have picked, then
revealed at once. Loaded for the one pick (actions._secret_pick)."""

from arbiter.game import Illegal, RuleError


def pick(game, player, choice, named, secret, expected):
    """``player`` picks ``choice``; ``secret`` and ``expected`` are the pick due now
    (actions.pending_pick), ``named`` the secret an action names, if any. True once
    the last player picked and the secret is revealed."""
    if secret is None:
        raise Illegal("nothing to pick now")
    if named is not None and named is not secret:
        raise Illegal("%s must pick a %s first" % (expected, secret["name"]))
    if player != expected:
        raise Illegal("it is %s's turn to pick" % expected)
    choices = pick_choices(game, secret, player)
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


def pick_choices(game, secret, player):
    """What ``player`` may pick: the secret's list, or its expression worked out with
    ``$p`` bound (the cards a player still holds)."""
    choices = secret["choices"]
    if choices.__class__ is dict:
        choices = game.bound_eval("p", player, choices)
        if choices.__class__ is not list:
            raise RuleError("%s's choices are not a list: %r" % (secret["name"], choices))
    return choices


def pick_prompt(game, secret, player):
    """The question a player is asked: a text, or parts with ``$p`` bound (what is at
    stake: "Bid for +7")."""
    prompt = secret.get("prompt", secret["name"])
    if prompt.__class__ is str:
        return prompt
    return "".join([str(part) for part in game.bound_eval("p", player, prompt)])


def open_picks(game, phase):
    """The phase's secrets (``phase`` in a secret), as it begins: every player still
    in picks anew; one with nothing to pick (an empty hand) is passed over, their
    pick none."""
    for secret in game.rules.get("secrets", ()):
        if secret.get("phase") == phase:
            order = game.players_in_order()
            picks = {p: None for p in order if not pick_choices(game, secret, p)}
            if len(picks) < len(order):
                game.state["picks"][secret["name"]] = picks
