"""A ruleset's words: the names of its effects and operators, the natives it may run
and the bounds on what one action makes. The engine's tables (effects.EFFECTS,
expr.OPERATORS) give each name its work; the checker (ruleset.py, shapes.py) reads
the names alone, so checking a ruleset (a push, a first load) holds none of the
engine's code in a Pico's heap. tests/test_checker.py holds the tables and the
names alike."""

EFFECT_NAMES = (
    "add", "set", "roll", "opposed", "require", "if", "each_player", "each_piece", "let",
    "say", "win", "lose", "tie", "make_pieces", "turn_order", "for_each", "call", "team",
    "next", "repeat", "draw", "shuffle", "append", "remove", "combat", "native")
OPERATOR_NAMES = (
    "+", "-", "*", "//", "min", "max", "abs", "==", "!=", "<", "<=", ">", ">=", "in", "and",
    "or", "not", "if", "get", "opt", "val", "arg", "stat", "var", "rolls", "sum", "hits",
    "bound", "now", "count_pieces", "players_where", "max_pieces", "sum_pieces",
    "list_pieces", "others", "split", "join", "len", "unique", "lookup", "at", "slice",
    "concat", "at_least")
# what a ruleset may run of a game's own module in firmware/arbiter/game/: these
# names only, so a ruleset stays data that cannot reach any other code
NATIVE = ("tactics.deal", "tactics.flip", "tactics.go", "tactics.place", "tactics.push",
          "tactics.turn")
MAX_DICE = 100  # dice in one roll, cards in one draw
MAX_PIECES = 256  # pieces in a game
