"""Files on the device's flash, written atomically.

A write goes to ``NAME.tmp`` first and is renamed over ``NAME`` only when
complete, so a reset or a pulled battery mid-write leaves the old file whole.
``root`` is "" on the Pico and a folder in the emulator; ``fs`` is the
filesystem (``os`` and ``open`` by default; the bench hands in littlefs).
"""

import os


class Flash:
    def __init__(self, root="", fs=None):
        self.root = root
        self._os = fs or os
        self._open = fs.open if fs else open

    def path(self, name):
        return self.root + name

    def open(self, name, mode="r"):
        """The file, open (to stream it: a ruleset or a journal is not read whole)."""
        return self._open(self.path(name), mode)

    def lines(self, name):
        """A function giving the text of the line at a byte offset of file ``name``,
        a compiled ruleset's (its length in 5 digits, then the text, as
        game.ruleset.LINES_HEAD says): an action, its effects, a team, read when
        wanted. Two reads of known size: a ``readline`` reads a byte at a time."""
        path, opener = self.path(name), self._open

        def line(at):
            with opener(path) as f:
                f.seek(at)
                return f.read(int(f.read(5)))
        return line

    def rename(self, name, new):
        self._os.rename(self.path(name), self.path(new))

    def read(self, name):
        """The file's text, or None when it does not exist or cannot be read."""
        try:
            with self._open(self.path(name)) as f:
                return f.read()
        except OSError:
            return None

    def boot_text(self, name, limit, errors):
        """A file read at boot: its text, or None when absent. One over ``limit``
        bytes or not UTF-8 is set aside (``set_aside``) and said in ``errors``:
        what a user put on the flash must not stop the boot."""
        size = self.size(name)
        if size is None:
            return None
        if size > limit:
            errors.append(self.set_aside(name, "over %d bytes" % limit))
            return None
        try:
            with self._open(self.path(name), "rb") as f:
                return f.read().decode()
        except OSError:
            return None
        except ValueError:  # UnicodeError
            errors.append(self.set_aside(name, "not UTF-8 text"))
            return None

    def set_aside(self, name, reason):
        """Renames a bad file to NAME.bad (the next boot reads the defaults instead,
        a PC can still fetch it); returns the one-line report."""
        self.remove(name + ".bad")
        try:
            self.rename(name, name + ".bad")
        except OSError:
            self.remove(name)
        return "%s: %s; set aside as %s.bad" % (name, reason, name)

    def write(self, name, text):
        """``text``: a string, or a list of strings and of functions that write to
        the open file (what is written as it is made is never whole in the heap)."""
        tmp = self.path(name + ".tmp")
        with self._open(tmp, "w") as f:
            if isinstance(text, str):
                f.write(text)
            else:
                for part in text:
                    if isinstance(part, str):
                        f.write(part)
                    else:
                        part(f)
            count = f.tell()
        self.wrote(count)
        self._os.rename(tmp, self.path(name))

    def append(self, name, text):
        """Add to the end of a file; a cut mid-write leaves a partial last line,
        which readers ignore."""
        with self._open(self.path(name), "a") as f:
            f.write(text)
        self.wrote(len(text))

    def names(self, folder):
        """The files in ``folder``, sorted; none when it does not exist."""
        try:
            return sorted(self._os.listdir(self.path(folder)))
        except OSError:
            return []

    def ends_with(self, name, tail):
        """Whether file ``name`` ends with ``tail`` (bytes); read from its end only."""
        try:
            with self._open(self.path(name), "rb") as f:
                size = f.seek(0, 2)
                if size < len(tail):
                    return False
                f.seek(size - len(tail))
                return f.read() == tail
        except OSError:
            return False

    def free(self):
        """Bytes free on the filesystem, or None where it cannot say."""
        try:
            found = self._os.statvfs(self.root or "/")
        except (AttributeError, OSError):
            return None
        return found[0] * found[4]  # f_bsize * f_bavail

    def is_folder(self, name):
        return bool(self._os.stat(self.path(name))[0] & 0x4000)

    def exists(self, name):
        return self.size(name) is not None

    def size(self, name):
        """The file's size in bytes, or None when it does not exist."""
        try:
            return self._os.stat(self.path(name))[6]
        except OSError:
            return None

    def remove(self, name):
        try:
            self._os.remove(self.path(name))
        except OSError:
            pass

    def wrote(self, count):
        """Hook for the emulator's flash-wear counter."""
