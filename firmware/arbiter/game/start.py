"""A game's start: its options resolved against the ruleset's, and each player's
pieces and counters set up. Loaded for it (engine.Game.restart) and let go."""

from arbiter.game import Illegal
from arbiter.game.expr import EMPTY


def resolve_options(rules, given):
    """The options ``given`` (by name) with each declared one's default filled in,
    a value matched by spelling (a command line's text); Illegal names the bad one."""
    resolved = {}
    declared = rules.get("options", EMPTY)
    for name in given:
        if name not in declared:
            raise Illegal("unknown option %s" % name)
    for name, spec in declared.items():
        value = given.get(name, spec.get("default", spec["choices"][0]))
        if value not in spec["choices"]:
            # options arrive as text from a command line: match by spelling
            match = [c for c in spec["choices"] if str(c).lower() == str(value).lower()]
            if not match:
                raise Illegal("option %s must be one of %s" % (
                    name, ", ".join(str(c) for c in spec["choices"])))
            value = match[0]
        resolved[name] = value
    return resolved


def setup_players(game):
    """Each player's pieces (or team) and counters at their start values."""
    state = game.state
    if game.rules.get("teams"):  # each player's pieces and card come from a team
        from arbiter.game.jobs import let_go
        from arbiter.game.teams import deal

        deal(game)
        let_go("game", "teams")  # used at the start and by a ``team`` effect only
        return
    pieces = game.rules.get("pieces", EMPTY)
    for player in state["order"]:
        specs = pieces.get("by_player", EMPTY).get(player, pieces.get("each", ()))
        for spec in specs:
            game.add_piece(player, spec)
    for player in state["order"]:  # after the pieces: a start may depend on them
        game.binding = {"p": player}
        record = state["players"][player]
        for name, spec in game.rules.get("counters", EMPTY).items():
            record[name] = game.start_value(spec)
    game.binding = {}
