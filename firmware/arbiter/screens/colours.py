"""The LEDs of a game in play: each player's colour, warnings, what just happened.

A player's colour is the ruleset's (``players.colours``) or the device's own.
Its arc of the ring warns (amber, red) when the ruleset's ``players.warn``
counter is high, and blinks in the player's colour when ``players.pulse`` is.
"""

from arbiter.game.expr import EMPTY
from arbiter.hw.ring import PLAYER_COLOURS, WHITE, rgb


def player_colour(rules, player):
    colours = rules.get("players", EMPTY).get("colours", ())
    index = int(player[1:]) - 1
    if index < len(colours):
        return rgb(colours[index])  # checked with the ruleset
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


AMBER = (255, 120, 0)
RED = (255, 0, 0)


def _reached(game, player, spec, level):
    """Whether the player's counter named in ``spec`` is at ``level`` or more."""
    value = game.state["players"][player].get(spec["counter"], 0)
    return isinstance(value, int) and value >= level


def warning(game, player):
    """AMBER / RED once the ruleset's ``players.warn`` counter reaches its ``amber`` /
    ``red`` level (Juggernauts: alert tokens, red at 2), else None."""
    warn = game.rules.get("players", EMPTY).get("warn")
    if warn and "red" in warn and _reached(game, player, warn, warn["red"]):
        return RED
    if warn and "amber" in warn and _reached(game, player, warn, warn["amber"]):
        return AMBER
    return None


def pulsing(game, player):
    """Whether the ruleset's ``players.pulse`` counter is at its ``at`` level or more
    (Kaiju: the team may Rage): that player's arc blinks in their own colour."""
    pulse = game.rules.get("players", EMPTY).get("pulse")
    return bool(pulse) and _reached(game, player, pulse, pulse.get("at", 1))


def _picker(game):
    """Who picks a secret now: the ring is theirs alone while the device is passed."""
    from arbiter.game.actions import pending_pick

    return pending_pick(game)[1]


def show_outcome(leds, game, new_entries, now, rolled, revealed):
    """The ring after an action: a win or a tie flashes, a roll spins, each arc shows
    its player (or a warning), the ruleset's own picture, a piece drawn at random, a
    reveal flashes every player's colour."""
    rules, state = game.rules, game.state
    colours = [player_colour(rules, p) for p in state["order"]]
    if state["result"] == "win":
        colour = player_colour(rules, state["winner"])
        leds.set_base(colour)
        leds.flash(colour, now, 5)
        return
    if state["result"] == "tie":
        leds.set_arcs(colours)
        leds.flash_each(colours, now, 2)
        return
    active = game.active_player() if state["round"] else _picker(game)
    if rolled:
        leds.spin(player_colour(rules, active) if active else WHITE, now)
    shown = state["order"]  # everyone's, or one player's turn and whoever pulses
    if active:
        shown = [active] + [p for p in shown if p != active and pulsing(game, p)]
    warnings = [warning(game, p) for p in shown]
    leds.set_arcs([w or player_colour(rules, p) for w, p in zip(warnings, shown)])
    # a warning blinks (never a colour); so does a pulse, in the player's colour
    leds.blink_arcs([w or pulsing(game, p) for w, p in zip(warnings, shown)])
    if "leds" in rules:  # the ruleset's own picture: an LED per piece (Jugger)
        from arbiter.screens.lights import show

        show(game, leds, new_entries, now, player_colour)
    picked = [e["items"][0] for e in new_entries if e["event"] == "draw" and
              len(e["items"]) == 1 and e["items"][0] in state["pieces"]]
    if picked:  # a piece drawn at random (the Goon to move): its place in the owner's
        owner = state["pieces"][picked[-1]]["owner"]  # pieces, as that many LEDs
        colour = player_colour(rules, owner)
        leds.set_base(colour, game.piece_keys(owner).index(picked[-1]) + 1)
        leds.flash(colour, now, 2)
    if revealed:
        leds.flash_each(colours, now)
    for e in new_entries:  # a note naming a winner (a Tactics Joker combat): its colour
        if "flash" in e:
            leds.flash(player_colour(rules, e["flash"]), now, 2)
