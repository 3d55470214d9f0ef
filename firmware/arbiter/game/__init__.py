"""The generic referee: rulesets as data, an event-sourced engine, the journal.

A ruleset (JSON) describes a game in blocks: players, options, dice, counters,
pieces, secrets, phases, turn order, triggers, end conditions and actions.
Nothing in it is executed as code: expressions and effects are small JSON
forms that ``expr`` and ``effects`` interpret.
"""

FORMAT = 1  # the ruleset format this firmware understands

# A loaded ruleset's key for the one reader of its compiled file's lines (the text
# of the line at a byte offset, ruleset.LINES_HEAD): its actions, their effects,
# its teams and its phases' effects are read through it when wanted, not held in a
# Pico's heap.
LINES = "~lines"

# What a ruleset may run of a game's own module in firmware/arbiter/game/: these
# names only, so a ruleset stays data that cannot reach any other code.
NATIVE = ("tactics.deal", "tactics.flip", "tactics.go", "tactics.joker", "tactics.place",
          "tactics.push", "tactics.turn", "tactics.waiting")
MAX_DICE = 100  # dice in one roll, cards in one draw
MAX_PIECES = 256  # pieces in a game
NUMBERS = (0, 30)  # a number an action takes, unless its ``range`` says (the device's forms')


# The two ways a game says no: to the players, and to the ruleset's author.


class Illegal(Exception):
    """An action the rules do not allow now; the reason is for the players."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class Lost(Illegal):
    """A refused action whose rewind failed too (a full heap, a stack too deep): the
    game in memory is not the game any more. The journal on flash still is: it is
    read back from there (the refused action was never journaled)."""


class RuleError(Exception):
    """An expression or effect the engine cannot evaluate (a ruleset bug)."""
