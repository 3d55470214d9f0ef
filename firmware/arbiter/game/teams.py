"""Teams: a ruleset's ready-made sides, each a card of player counters and its pieces.

Without a choice, player N gets the Nth team (wrapping round); the ``team``
effect gives a player another team, by name or by number (1 is the first).
"""

import json

from arbiter.game import LINES, Illegal
from arbiter.game.expr import EMPTY


def _read(game, at):
    """The team on the line at byte ``at`` of the compiled ruleset, parsed: a team is
    read only when a player takes it (Jugger's four rosters parsed hold 4 KB)."""
    return json.loads(game.rules[LINES](at))


def find(game, which):
    teams = game.rules.get("teams", ())
    if isinstance(which, int) and not isinstance(which, bool):
        if 1 <= which <= len(teams):
            return _read(game, teams[which - 1])
    else:
        for team in teams:
            team = _read(game, team)
            if team["name"].lower() == str(which).lower():
                return team
    raise Illegal("no team %s; the teams are %s" % (
        which, ", ".join(_read(game, t)["name"] for t in teams) or "none"))


def give(game, player, team):
    """The player's pieces become the team's; its counters start again, from the
    team card where it gives a value (``team`` holds the team's name)."""
    state = game.state
    for key in game.piece_keys(player):
        del state["pieces"][key]
    for spec in team.get("pieces", ()):
        game.add_piece(player, spec)
    record = game.writable("player", player)
    record["team"] = team["name"]
    card = team.get("counters", EMPTY)
    saved, game.binding = game.binding, {"p": player}
    for name, spec in game.rules.get("counters", EMPTY).items():
        record[name] = card[name] if name in card else game.start_value(spec)
    game.binding = saved


def deal(game):
    """Every player gets the team in their place, in order."""
    teams = game.rules["teams"]
    for i, player in enumerate(game.state["order"]):
        give(game, player, _read(game, teams[i % len(teams)]))
