"""The dice of a refused action, spent: never handed to the next action (a refusal
can tell them: a roll, then a ``require`` on it). Loaded for such a refusal (a few a
game) and for a resume or an audit that meets one (replay.py)."""

from arbiter.game import Illegal
from arbiter.game.actions import record


def spend(game, text):
    """The log after ``text`` was refused having rolled: its rolls stay, marked
    refused, the rest goes; the generator stays where they left it. The journal's line
    for it: "!" and the action with its dice, so a resume and an audit draw them
    again."""
    begun = game.begun
    rolled = [entry for entry in game.log_since(begun[4])
              if "rolls" in entry or "items" in entry]
    game.cut_log(begun[4])
    for entry in rolled:
        entry["refused"] = True
        game.log.append(entry)
    return "!" + record(" ".join(text.partition("|")[0].split()), game.rolls)


def refuse_again(game, line):
    """A journal's refused action (``!``, its text and dice) done again on the same
    state: refused again, its dice drawn again and spent. The line its refusal gives
    now (the audit compares their dice)."""
    try:
        game.do(line.partition("|")[0][1:])
    except Illegal as exc:
        return exc.spent or "!"
    raise Illegal("the journal's refused %s is accepted now" % line[1:].partition("|")[0])
