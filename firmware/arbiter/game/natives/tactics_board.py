"""Tactics Joker's board: its squares and cards, and what landing on a card does (a
recruit, a joker under a pushed army): what natives/tactics.py (the actions) and
natives/tactics_combat.py (a combat) share. Fog of war's looks are here too: the
device's Board asks ``lookers`` who may peek.

``game.army`` holds the 49 squares row by row: "" or an army, its owner and a
digit per unit, the spaces that unit moved this turn ("P1012": P1, 3 units).
"""

from arbiter.game import Illegal

CORNERS = (0, 6, 42, 48)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q")


def square(text):
    """``ROW,COL`` as 0..48."""
    text = str(text)
    if len(text) != 3 or text[1] != "," or text[0] not in "1234567" or \
            text[2] not in "1234567":
        raise Illegal("a square is ROW,COL from 1,1 to 7,7, not " + text)
    return (int(text[0]) - 1) * 7 + int(text[2]) - 1


def name(i):
    return "%d,%d" % (i // 7 + 1, i % 7 + 1)


def dist(a, b):
    """Squares between ``a`` and ``b``, diagonals counting one (a king's moves)."""
    return max(abs(a // 7 - b // 7), abs(a % 7 - b % 7))


def near(a, b):
    return a != b and dist(a, b) <= 1


def terrain(card):
    """plain, forest, mountain (kings and face cards count as plains), or joker."""
    if card == "JK":
        return "joker"
    if card[0] in "JQK":
        return "plain"
    return "mountain" if card[-1] == "S" else "forest" if card[-1] == "C" else "plain"


def value(card):
    r = card[:-1]
    return 1 if r == "A" else 13 if r == "K" else 10 if r in ("J", "Q") else \
        0 if card == "JK" else int(r)


def race(game, p):
    return game.state["players"][p].get("race", "none")


def add(game, path, n):
    game.change(path, game.get(path) + n)


def face_up(game, i):
    g = game.state["game"]
    if game.option("fog") == "on" and i not in g["face_up"]:
        game.change("game.face_up", g["face_up"] + [i])


def lookers(game, i):
    """Fog of war: the players who may look at the card at ``i``, P1 first. "At any
    time you can look at a card adjacent to a card you occupy. On a mountain top, you
    can look two cards away, due to your higher vantage point." (7.2)"""
    g = game.state["game"]
    army, board, out = g["army"], g["board"], []
    for j in range(49):
        p, d = army[j][:2], dist(i, j)
        if p and p not in out and (d == 1 or d == 2 and terrain(board[j]) == "mountain"):
            out.append(p)
    return sorted(out)


def recruit(game, army, b):
    """A jack or queen landed on adds a unit to the army, once; the recruit has used a
    move ("being recruited also counts against that limit"). An army of 6, or a
    player with no token left, gains none: the card stays to recruit later. What
    the table does, said after the move's own words ("" for none)."""
    g, here = game.state["game"], army[b]
    p, at, card = here[:2], name(b), g["board"][b]
    if card[0] not in "JQ" or card == "JK" or at in g["flipped"]:
        return ""
    if len(here) >= 8:
        return "; %s stays a recruit: an army is at most 6" % card
    if game.get(p + ".reserve") <= 0:
        return "; %s stays a recruit: %s has no token left" % (card, p)
    game.change("game.flipped", g["flipped"] + [at])
    army[b] = here + "1"
    add(game, p + ".reserve", -1)
    return "; recruited: add a %s token, turn %s over" % (p, card)


def room(army, i, owner, n):
    return army[i] == "" or army[i][:2] == owner and len(army[i]) - 2 + n <= 6


def landed(game, i, owner):
    """A pushed army landed on a joker: its owner chooses the card (``joker``)."""
    if game.state["game"]["board"][i] != "JK":
        return ""
    game.change("game.joker", name(i))
    return ", on a joker: %s chooses its card" % owner
