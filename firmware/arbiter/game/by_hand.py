"""What players do by hand, outside the rules' actions: a counter corrected
(``add P1.power 3``, ``set P2.k1.weapon chain``) and a free roll (``roll d6 3``).
Loaded for the one action (actions._by_hand)."""

from arbiter.game import Illegal
from arbiter.game.expr import EMPTY
from arbiter.game.state import split


def correct(game, name, path, amount):
    """A correction by hand: refused, not clamped, when it leaves the counter's bounds."""
    path = str(path)
    kind, key, field = split(path) if path.count(".") in (1, 2) else (None, None, None)
    if kind is None or "$" in path:
        raise Illegal("a path is like P1.power or P2.k1.damage")
    if kind == "game" and field in game.rules.get("face_down", ()):
        raise Illegal("%s is face down: no one may see or change it" % path)
    current = game.get(path)
    spec = game.counter_spec(kind, field)
    if spec is not None and "choices" in spec:
        if name == "add" or amount not in spec["choices"]:
            raise Illegal("%s is one of %s" % (field, ", ".join(spec["choices"])))
        new = amount
    elif name == "set" and spec is None and isinstance(current, str) and isinstance(amount, str):
        new = amount  # a text stat, such as a jugger's weapon
    else:
        if not isinstance(amount, int) or not isinstance(current, int):
            raise Illegal("%s takes a whole number" % path)
        new = current + amount if name == "add" else amount
        if spec is not None:
            low, high = game.bounds(spec, kind, key)
            if low is not None and new < low:
                raise Illegal("%s would be %d, below its minimum %d" % (path, new, low))
            if high is not None and new > high:
                raise Illegal("%s would be %d, above its maximum %d" % (path, new, high))
    game.log.append({"event": name, "path": path, "value": new})
    game.change(path, new)


def free_roll(game, args):
    words = args["_"]
    if not 1 <= len(words) <= 2:
        raise Illegal("usage: roll DIE [COUNT]")
    die, count = str(words[0]), words[1] if len(words) == 2 else 1
    if not isinstance(count, int) or not 1 <= count <= 20:
        raise Illegal("roll 1 to 20 dice")
    if die not in game.rules.get("dice", EMPTY):
        faces = die[1:]
        if not (die.startswith("d") and faces.isdigit() and 2 <= int(faces) <= 1000):
            raise Illegal("unknown die %s" % die)
    who = args.get("by", game.active_player() or "all")
    game.roll(die, count, who, args.get("for", "roll"))
