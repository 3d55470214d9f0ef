"""Which rulesets this firmware has checked whole: ``rulesets/NAME.ok`` beside
``NAME.json`` holds the SHA-256 of the exact bytes checked (after the firmware's
version, so a new checker looks again). Starting a game then skips the deep check
(the dearest press a game has) when the bytes match; a file changed any other way
(mpremote cp, a transfer cut short) no longer matches and is checked whole again."""

from arbiter import VERSION

FOLDER = "rulesets/"
_CHUNK = 512


def record(flash, name, path=None):
    """What ``NAME.ok`` holds once the ruleset as it is now has passed: its digest,
    or None when it cannot be read. ``path``: the same bytes elsewhere (a push's
    ``NAME.part``)."""
    import hashlib

    h = hashlib.sha256(VERSION.encode())
    buf = bytearray(_CHUNK)
    try:
        with flash.open(path or FOLDER + name + ".json", "rb") as f:
            n = f.readinto(buf)
            while n:
                h.update(buf if n == _CHUNK else memoryview(buf)[:n])
                n = f.readinto(buf)
    except OSError:
        return None
    return h.digest().hex()


def passed(flash, name, digest):
    """Whether the bytes of ``digest`` (``record``) have passed the checks here before."""
    return digest is not None and flash.read(FOLDER + name + ".ok") == digest


def remember(flash, name, digest):
    if digest is not None:
        flash.write(FOLDER + name + ".ok", digest)


def forget(flash, name):
    flash.remove(FOLDER + name + ".ok")
