"""Tactics Joker's board of armies, run by rulesets/tactics.json as
``{"native": "tactics.NAME"}`` and loaded only when that game is played.

``game.army`` holds the 49 squares row by row: "" or an army, its owner and a
digit per unit, the spaces that unit moved this turn ("P1012": P1, 3 units).
Text, not lists: nothing shared with an undo's snapshot, little heap. The board's
squares and cards are natives/tactics_board.py; a combat, tactics_combat.py.
"""

from arbiter.game import Illegal
from arbiter.game.natives.tactics_board import (
    CORNERS,
    RANKS,
    add,
    face_up,
    landed,
    name,
    near,
    race,
    recruit,
    room,
    square,
    terrain,
)


def deal(game):
    """The battlefield from the shuffled 54 cards, a king at each corner; the 5 not
    dealt are the leftover stack, but for a joker."""
    from arbiter.game import decks
    from arbiter.game.jobs import let_go

    g = game.state["game"]
    decks.shuffle(game, {"shuffle": ["KS", "KH", "KD", "KC"], "to": "game.board",
                         "reason": "castles"})
    kings = g["board"]
    decks.shuffle(game, {"shuffle": [r + s for s in "SHDC" for r in RANKS] + ["JK", "JK"],
                         "to": "game.leftover", "reason": "battlefield"})
    let_go("game", "decks")  # the deal's only: not held through the game
    deck = g["leftover"]
    game.change("game.board", kings[:1] + deck[:5] + kings[1:2] + deck[5:40] + kings[2:3] +
                deck[40:45] + kings[3:])
    game.change("game.leftover", [c for c in deck[45:] if c != "JK"])
    game.change("game.army", [""] * 49)
    if game.option("fog") == "on":
        game.change("game.face_up", list(CORNERS))
    game.say("battlefield dealt")


def flip(game):
    """Fog of war: a card turned up for all."""
    i = square(game.arg("at"))
    if game.option("fog") != "on":
        raise Illegal("fog of war is off: every card is face up")
    if i in game.state["game"]["face_up"]:
        raise Illegal(name(i) + " is face up")
    face_up(game, i)
    game.say("%s is %s" % (name(i), game.state["game"]["board"][i]))


def castles(game):
    """Castle control follows occupancy: who holds each corner, and each one's count."""
    army = game.state["game"]["army"]
    holders = [army[i][:2] or "-" for i in CORNERS]
    game.change("game.holders", holders)
    for p in game.state["players"]:
        game.change(p + ".castles", holders.count(p))


def place(game):
    """Starting units, from the reserve, on one of the player's own castles."""
    p = game.bound("p")
    i, n = square(game.arg("at")), game.arg("units")
    g = game.state["game"]
    at = name(i)
    if at not in g["chosen"] or g["chooser"][g["chosen"].index(at)] != p:
        raise Illegal("%s starts on its own castles, not %s" % (p, name(i)))
    here = g["army"][i]
    held = len(here) - 2 if here else 0  # an army: its owner, then a digit a unit
    if not (isinstance(n, int) and 1 <= n and held + n <= 6):
        raise Illegal("an army is 1 to 6 units; %s holds %d" % (name(i), held))
    if n > game.get(p + ".reserve"):
        raise Illegal("%s's reserve holds %d" % (p, game.get(p + ".reserve")))
    add(game, p + ".reserve", -n)
    army = list(g["army"])
    army[i] = (here or p) + "0" * n
    game.change("game.army", army)
    face_up(game, i)
    castles(game)
    game.say("%s %d at %s" % (p, len(army[i]) - 2, at))


def turn(game):
    """The start of a turn: every unit fresh; a d6 per held castle, a 6 (Kobolds 4-6)
    adds a unit from the reserve to that castle."""
    p = game.bound("p")
    army = [a[:2] + "0" * (len(a) - 2) for a in game.state["game"]["army"]]
    held = [i for i in CORNERS if army[i][:2] == p]
    got = []
    if held and game.get(p + ".reserve") > 0:
        rolls = game.roll("d6", len(held), p, "reinforcements", "r")
        need = 4 if race(game, p) == "kobolds" else 6
        for i, face in zip(held, rolls):
            if face >= need and game.get(p + ".reserve") > 0 and len(army[i]) < 8:
                army[i] += "0"
                add(game, p + ".reserve", -1)
                got.append(name(i))
        game.say("%s reinforces %s" % (p, " ".join(got)) if got else
             "%s: no reinforcements" % p)
    game.change("game.army", army)


def _spend(game, p, n):
    """A move action: 3 a turn (Undead 2), Humans' extra one for a one-unit army."""
    if n == 1 and game.get(p + ".bonus_move") == 1:
        game.change(p + ".bonus_move", 0)
        return
    if game.get(p + ".moves_left") <= 0:
        raise Illegal("the extra move is for a one-unit army"
                      if game.get(p + ".bonus_move") else "no moves left this turn")
    add(game, p + ".moves_left", -1)


def go(game):
    """``go P FROM TO [units=N] [card=C]``: N units (default all) of P's army move to
    a neighbouring square, rough terrain rolled per unit; a recruit, a joker or a
    combat follows from what is there."""
    p = game.bound("p")
    g = game.state["game"]
    if g["push"]:
        raise Illegal("first push the defeated army back")
    waiting(game)
    a, b = square(game.arg("from")), square(game.arg("to"))
    army, board = list(g["army"]), g["board"]
    src = army[a]
    if src[:2] != p:
        raise Illegal("%s has no army at %s" % (p, name(a)))
    if not near(a, b):
        raise Illegal("%s is not next to %s" % (name(b), name(a)))
    units = sorted(src[2:])  # the freshest units go first
    n = game.arg(["units", len(units)])
    if not (isinstance(n, int) and 1 <= n <= len(units)):
        raise Illegal("the army at %s has %d units" % (name(a), len(units)))
    if units[n - 1] >= "2":
        raise Illegal("no unit moves more than 2 spaces a turn: %d of %d can move" % (
            sum(1 for u in units if u < "2"), len(units)))
    dest = army[b]
    if dest[:2] == p and len(dest) - 2 + n > 6:
        raise Illegal("an army is at most 6 units: %s holds %d" % (name(b), len(dest) - 2))
    _spend(game, p, n)
    card = board[b]
    if card == "JK":  # its card named before the move: its terrain is entered
        card = _card(game, b)
    moving, stay = [chr(ord(u) + 1) for u in units[:n]], units[n:]
    into, out = terrain(card), terrain(board[a])
    if into in ("forest", "mountain") and out != into:
        who = race(game, p)
        need = 2 if (who, into) in (("elves", "forest"), ("dwarves", "mountain")) else 4
        rolls = game.roll("d6", n, p, "entering " + into, "e")
        went = [u for u, face in zip(moving, rolls) if face >= need]
        stay = stay + [u for u, face in zip(moving, rolls) if face < need]
        moving = went
        game.say("%d of %d enter %s" % (len(moving), n, into))
    army[a] = p + "".join(sorted(stay)) if stay else ""
    if moving:
        face_up(game, b)
        if board[b] == "JK":  # landed on: the joker is replaced (none landed: it stays)
            _replace(game, b, card)
        if dest and dest[:2] != p:
            from arbiter.game.natives.tactics_combat import combat

            combat(game, army, a, b, moving)
        else:
            army[b] = (dest or p) + "".join(moving)
            got = recruit(game, army, b)  # a recruit is a plain: no roll to enter it
            if into not in ("forest", "mountain") or out == into:
                game.say("%s %s to %s, %d move(s) left%s" % (
                    p, name(a), name(b), game.get(p + ".moves_left"), got))
    game.change("game.army", army)
    castles(game)


def push(game):
    """``push P TO``: the attacker sends the defeated army to a free square next to
    the battle."""
    g = game.state["game"]
    if not g["push"]:
        raise Illegal("no army to push back")
    b, loser = square(g["push"][:3]), g["push"][3:]
    i = square(game.arg("to"))
    army = list(g["army"])
    if not (near(i, b) and room(army, i, loser[:2], len(loser) - 2)):
        raise Illegal("%s cannot go to %s" % (loser[:2], name(i)))
    army[i] = (army[i] or loser[:2]) + loser[2:]
    game.change("game.push", "")
    game.change("game.ways", [])
    game.change("game.army", army)
    face_up(game, i)
    castles(game)
    game.say("%s pushed to %s%s" % (loser[:2], name(i), landed(game, i, loser[:2])))


# -- jokers: "When you land on a joker, choose a card from the leftover stack of cards,
# and replace the joker with that."


def _card(game, b):
    """The leftover card named for the joker at ``b`` (``card=``)."""
    pick, left = game.arg(["card", ""]), game.state["game"]["leftover"]
    if pick not in left:
        raise Illegal("%s is a joker: choose its card, one of %s" % (name(b), " ".join(left)))
    return pick


def _replace(game, b, card):
    g = game.state["game"]
    left = list(g["leftover"])
    left.remove(card)
    game.change("game.leftover", left)
    game.change("game.board", g["board"][:b] + [card] + g["board"][b + 1:])


def waiting(game):
    """Nothing goes on while a pushed army's joker waits for its card."""
    at = game.state["game"].get("joker", "")
    if at:
        owner = game.state["game"]["army"][square(at)][:2]
        raise Illegal("first %s chooses the card for the joker at %s" % (owner, at))


def joker(game):
    """``joker P C``: the owner of the army pushed onto a joker chooses its card."""
    g, p = game.state["game"], game.bound("p")
    at = g.get("joker", "")
    if not at:
        raise Illegal("no joker waits for its card")
    b = square(at)
    owner = g["army"][b][:2]
    if p != owner:
        raise Illegal("%s's army is on the joker at %s: %s chooses" % (owner, at, owner))
    card = _card(game, b)
    _replace(game, b, card)
    game.change("game.joker", "")
    game.say("%s: the joker at %s is %s" % (p, at, card))
