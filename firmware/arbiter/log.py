"""The session log: every line goes to the serial console and a short ring in RAM, the
main menu's Log page (players read it: an action as the engine writes it goes to the
console alone, the game menu's Log says it in words)."""

_KEEP = 24


class Log:
    def __init__(self, out=print):
        self.lines = []
        self._out = out

    def __call__(self, line, shown=True):
        self._out("arbiter: " + line)
        if not shown:
            return
        self.lines.append(line)
        if len(self.lines) > _KEEP:
            self.lines.pop(0)
