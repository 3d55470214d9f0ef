"""Tactics Joker's combat (rule 3), run by natives/tactics.py's ``go`` when units
enter a square holding another player's army: loaded at the first combat.

"Each player rolls a 6 sided die for each of the units in his army. Add the value on
the card as a terrain bonus ... Add 1 for each supporting unit." The loser loses a
unit plus one per 5 points; a beaten defender is pushed back, a beaten attacker
returns; a tie costs each a unit and both roll again.
"""

from arbiter.game.natives.tactics_board import (
    add,
    face_up,
    landed,
    name,
    near,
    race,
    recruit,
    room,
    terrain,
    value,
)


def _support(army, b, p):
    return sum(len(army[i]) - 2 for i in range(49) if army[i][:2] == p and near(i, b))


def _dice(game, p, n, reason):
    return sum(game.roll("kobold_d6" if race(game, p) == "kobolds" else "d6", n, p, reason))


def _raise(game, p, killed, left):
    """Undead: a d6 per unit killed, 4-6 joins the army, never past 6."""
    if race(game, p) != "undead" or not killed:
        return 0
    rolls = game.roll("d6", killed, p, "undead raise the slain", "u")
    return min(sum(1 for f in rolls if f >= 4), 6 - left)


def combat(game, army, a, b, att):
    """The attackers ``att`` (digits) from ``a`` meet the army at ``b``."""
    board = game.state["game"]["board"]
    p, d = game.bound("p"), army[b][:2]
    de = army[b][2:]
    t_att, t_def = terrain(board[a]), terrain(board[b])
    a_bonus = 0 if t_def == "forest" and t_att != "forest" else value(board[a])
    d_bonus = 0 if t_att == "mountain" and t_def != "mountain" else value(board[b])
    a_sup, d_sup = _support(army, b, p), _support(army, b, d)
    a_n, d_n, a_lost, d_lost = len(att), len(de), 0, 0
    for _ in range(100):
        a_t = _dice(game, p, a_n, "attack") + a_bonus + a_sup
        d_t = _dice(game, d, d_n, "defence") + d_bonus + d_sup
        if a_t != d_t:
            break
        a_n, d_n, a_lost, d_lost = a_n - 1, d_n - 1, a_lost + 1, d_lost + 1
        if not (a_n and d_n):
            break
    loss = 1 + abs(a_t - d_t) // 5
    if a_t > d_t:
        k = min(loss, d_n)
        d_n, d_lost = d_n - k, d_lost + k
    elif a_t < d_t:
        k = min(loss, a_n)
        a_n, a_lost = a_n - k, a_lost + k
    a_up = _raise(game, p, d_lost, a_n)
    d_up = _raise(game, d, a_lost, d_n)
    add(game, p + ".units_lost", a_lost)
    add(game, d + ".units_lost", d_lost)
    # the most-moved units die first; the raised have no move left this turn
    att = "".join(sorted(att)[:a_n]) + "2" * a_up
    de = "".join(sorted(de)[:d_n]) + "2" * d_up
    a_n, d_n = a_n + a_up, d_n + d_up
    game.change("game.att_total", a_t)
    game.change("game.def_total", d_t)
    text = "%s %d:%d %s" % (p, a_t, d_t, d)
    if a_t > d_t or d_n == 0 and a_n:
        army[b] = p + att
        text += ", %s wins %s" % (p, name(b))
        got = recruit(game, army, b)
        if d_n:
            text += _push(game, army, a, b, d + de)
        text += got
    elif a_n:  # the attacker lost (or both are left after a tie): back to where it was
        army[a] = p + "".join(sorted(army[a][2:] + att))
        text += ", %s holds, %s back to %s" % (d, p, name(a))
    elif d_n:
        text += ", %s holds" % d
    else:
        army[b] = ""
        text += ", both armies die"
    losses = " (-%d -%d)" % (a_lost, d_lost)
    i = text.find("; ")  # the losses with the combat's words, before what the table does
    game.say(text + losses if i < 0 else text[:i] + losses + text[i:])
    if a_t != d_t:  # the ring flashes the winner's colour (screens/colours.py)
        game.log[-1]["flash"] = p if a_t > d_t else d


def _push(game, army, a, b, loser):
    """The defeated army moves straight back; if it cannot, the attacker chooses where
    (``push``); with nowhere to go it is lost."""
    owner, n = loser[:2], len(loser) - 2
    r, c = 2 * (b // 7) - a // 7, 2 * (b % 7) - a % 7
    back = r * 7 + c if 0 <= r < 7 and 0 <= c < 7 else -1
    if back >= 0 and room(army, back, owner, n):
        army[back] = (army[back] or owner) + loser[2:]
        face_up(game, back)  # "when a card becomes occupied, flip it over"
        return ", %s pushed to %s%s" % (owner, name(back), landed(game, back, owner))
    ways = [i for i in range(49) if near(i, b) and room(army, i, owner, n)]
    if not ways:
        add(game, owner + ".units_lost", n)
        return ", %s has nowhere to go: lost" % owner
    game.change("game.push", name(b) + loser)
    game.change("game.ways", [name(i) for i in ways])  # what the push's form offers
    return ", %s chooses where %s goes" % (game.bound("p"), owner)
