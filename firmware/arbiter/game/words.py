"""A ruleset's words: the names of its effects and operators. The engine's tables
(effects.EFFECTS, expr.OPERATORS) give each name its work; the checker (ruleset.py,
shapes.py) reads the names alone, so checking a ruleset (a push, a first load)
holds none of the engine's code in a Pico's heap. tests/test_checker.py holds the
tables and the names alike."""

from arbiter.game import MAX_DICE, MAX_PIECES, NATIVE  # noqa: F401  (the checker's too)

EFFECT_NAMES = (
    "add", "set", "roll", "opposed", "require", "if", "each_player", "each_piece", "let",
    "say", "win", "lose", "tie", "make_pieces", "turn_order", "for_each", "call", "team",
    "next", "repeat", "draw", "shuffle", "append", "remove", "combat", "native", "take")
OPERATOR_NAMES = (
    "+", "-", "*", "//", "min", "max", "abs", "==", "!=", "<", "<=", ">", ">=", "in", "and",
    "or", "not", "if", "get", "opt", "val", "arg", "stat", "var", "rolls", "sum", "hits",
    "bound", "now", "count_pieces", "players_where", "max_pieces", "sum_pieces",
    "list_pieces", "others", "split", "join", "len", "unique", "lookup", "at", "slice",
    "concat", "at_least", "count", "list_players", "sum_players", "max_players",
    "min_players", "top_player", "bottom_player")
