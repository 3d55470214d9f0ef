"""The game menu's tools as forms: Roll dice and Correct (a counter by hand).
Loaded when one opens and let go after (game.jobs.SCREENS): the knob's and the
actions' forms (forms.py) do not carry them."""

from arbiter.screens.forms import AMOUNTS, Form


def _numbers(low, high):
    return [str(n) for n in range(low, high + 1)]


def _counts():
    return list(AMOUNTS[1:21])


def _changes():
    return _numbers(-20, -1) + list(AMOUNTS[:21])


class RollForm(Form):
    """Dice of any kind, as many as wanted: the ruleset's first."""
    stands_on = "arbiter.screens.forms"  # let go with the last screen using it

    def __init__(self, play):
        dice = sorted(play.game.rules.get("dice", {}))  # sorted: dict order differs by runtime
        dice += [d for d in ("d4", "d6", "d8", "d10", "d12", "d20") if d not in dice]
        counts = _counts()
        super().__init__(play, "Roll dice", [["die", dice, 0], ["count", counts, 0]],
                         lambda values: "roll %s %s" % (values[0], values[1]), counts)
        self.tool = 1


class CorrectForm(Form):
    """A counter by hand: whose (player or piece), which counter (with its value now),
    by how much; below, what it will do ("Kraken damage 3 -> 5")."""
    stands_on = "arbiter.screens.forms"  # let go with the last screen using it

    def __init__(self, play):
        game = play.game
        holders = game.players_in_order() + game.piece_keys()
        changes = _changes()
        self.what, self.now = None, 0
        fields = [["who", holders, 0], ["what", [], 0], ["by", changes, 21]]
        super().__init__(play, "Correct", fields,
                         lambda v: "add %s.%s %s" % (v[0], v[1], v[2]), changes)
        self.tool = 2
        self.on_change(0)

    def on_change(self, row):
        state = self.play.game.state
        fields = self.fields
        who = fields[0][1][fields[0][2]]
        record = state["pieces"][who] if "." in who else state["players"][who]
        if row == 0:
            fields[1][1] = sorted(k for k, v in record.items()
                                  if isinstance(v, int) and not isinstance(v, bool))
            fields[1][2] = 0
        self.what = fields[1][1][fields[1][2]] if fields[1][1] else None
        if self.what is None:
            self.said = ""
            return
        self.now = record[self.what]
        self.said = "%s %s %d -> %d" % (record.get("name", who) if "." in who else who,
                                        self.what, self.now,
                                        self.now + int(fields[2][1][fields[2][2]]))

    def shown(self, value):
        if value == self.what:  # the counter with its value now
            return "%s %d" % (value, self.now)
        return super().shown(value)
