"""The two ways a game says no: to the players, and to the ruleset's author."""


class Illegal(Exception):
    """An action the rules do not allow now; the reason is for the players."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class RuleError(Exception):
    """An expression or effect the engine cannot evaluate (a ruleset bug)."""
