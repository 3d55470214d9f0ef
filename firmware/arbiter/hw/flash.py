"""Files on the device's flash, written atomically.

A write goes to ``NAME.tmp`` first and is renamed over ``NAME`` only when
complete, so a reset or a pulled battery mid-write leaves the old file whole.
``root`` is "" on the Pico and a folder in the emulator.
"""

import os


class Flash:
    def __init__(self, root=""):
        self.root = root

    def path(self, name):
        return self.root + name

    def read(self, name):
        """The file's text, or None when it does not exist or cannot be read."""
        try:
            with open(self.path(name)) as f:
                return f.read()
        except OSError:
            return None

    def write(self, name, text):
        tmp = self.path(name + ".tmp")
        with open(tmp, "w") as f:
            f.write(text)
        self.wrote(len(text))
        os.rename(tmp, self.path(name))

    def append(self, name, text):
        """Add to the end of a file; a cut mid-write leaves a partial last line,
        which readers ignore."""
        with open(self.path(name), "a") as f:
            f.write(text)
        self.wrote(len(text))

    def names(self, folder):
        """The files in ``folder``, sorted; none when it does not exist."""
        try:
            return sorted(os.listdir(self.path(folder)))
        except OSError:
            return []

    def exists(self, name):
        return self.size(name) is not None

    def size(self, name):
        """The file's size in bytes, or None when it does not exist."""
        try:
            return os.stat(self.path(name))[6]
        except OSError:
            return None

    def remove(self, name):
        try:
            os.remove(self.path(name))
        except OSError:
            pass

    def wrote(self, count):
        """Hook for the emulator's flash-wear counter."""
