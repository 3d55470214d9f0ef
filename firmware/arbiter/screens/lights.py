"""A ruleset's ``leds`` block: an LED per piece and flashes when a phase begins.

``piece`` ($k bound) gives a piece's colour: ``"#rrggbb"``, a player (``"P1"``:
that player's colour) or nothing (no LED). ``level`` ($k bound) is its
brightness in percent. The ring is split in equal arcs, one per player in
number order; a player's lit pieces fill its arc in key order. ``flash`` maps
a phase's name to the colours the whole ring flashes in, in turn, as it begins
(Jugger: "3, 2, 1, Jugger!").
"""

from arbiter.game.expr import EMPTY
from arbiter.hw.ring import rgb

# Checked with the ruleset (rules._check_leds): here only what a game shows.


def picture(game, count, player_colour):
    """``count`` (r, g, b) colours, one per LED of the ring."""
    spec = game.rules["leds"]
    out = [(0, 0, 0)] * count
    players = sorted(game.state["players"])  # P1..P8: by name is by number
    arc = count // len(players)
    for i, player in enumerate(players):
        place, end = i * arc, i * arc + arc
        for key in game.piece_keys(player):
            if place >= end:
                break
            try:
                value = game.bound_eval("k", key, spec["piece"])
                if not value:
                    continue
                level = game.bound_eval("k", key, spec["level"]) if "level" in spec else 100
                out[place] = _dimmed(_colour(game, value, player_colour), level)
            except Exception:  # a ruleset mistake leaves the LED dark, not the game broken
                pass
            place += 1
    return out


def flashes(game, entries, player_colour):
    """The colours to flash for a phase just begun in ``entries`` (or, with no
    event yet, the phase a new game starts in), else None."""
    flash = game.rules["leds"].get("flash", EMPTY)
    names = [e["name"] for e in entries if e["event"] == "phase" and not e.get("skipped")]
    if not game.count() and game.state["round"]:
        names.append(game.phase()["name"])
    for name in names:
        if name in flash:
            return [_colour(game, c, player_colour) for c in flash[name]]
    return None


def show(game, leds, entries, now, player_colour):
    leds.set_arcs(picture(game, leds.count, player_colour))  # arcs of one LED each
    colours = flashes(game, entries, player_colour)
    if colours:
        leds.flash_each(colours, now)


def _colour(game, value, player_colour):
    if value in game.state["players"]:
        return player_colour(game.rules, value)
    return rgb(value) or (0, 0, 0)


def _dimmed(rgb, level):
    level = max(0, min(100, level))
    return (rgb[0] * level // 100, rgb[1] * level // 100, rgb[2] * level // 100)
