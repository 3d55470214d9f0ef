"""The session log: every line goes to the serial console and a short ring in RAM."""

_KEEP = 24


class Log:
    def __init__(self, out=print):
        self.lines = []
        self._out = out

    def __call__(self, line):
        self._out("arbiter: " + line)
        self.lines.append(line)
        if len(self.lines) > _KEEP:
            self.lines.pop(0)
