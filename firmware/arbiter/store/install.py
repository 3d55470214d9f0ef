"""Rulesets arriving from a PC (``arbiter push``, ``ls``, ``rm`` over mpremote).

The host copies a ruleset to ``rulesets/NAME.part``; ``push`` checks it with
the same checks the game menu uses and only then renames it over
``rulesets/NAME.json``, so a refused or interrupted push leaves the previous
ruleset whole. Each function prints one line starting ``OK`` or ``REFUSED``
for the host to relay. A ruleset the saved game is played with is not
replaced or removed unless forced: resuming would replay it on other rules.
"""

from arbiter.game import ruleset
from arbiter.hw.flash import Flash
from arbiter.store import checked, saved

FOLDER = "rulesets/"


def _in_play(flash):
    """The ruleset name of the unfinished game on flash, or None."""
    if not saved.unfinished(flash):
        return None
    header = saved.header(flash)
    return header.get("ruleset") if header else None


def push(name, force=False, flash=None):
    """``pushing`` run through: check ``rulesets/NAME.part`` and install it."""
    for _ in pushing(name, force, flash):
        pass


def pushing(name, force=False, flash=None):
    """``push`` a step at a time (the ruleset's parse, sharing, check): the host's
    command collects between the steps at the top level (transfer._push_steps), so
    a Pico W's heap holds only one step's garbage beside the ruleset."""
    flash = flash or Flash("")
    part = FOLDER + name + ".part"
    try:
        ruleset.check_size(flash.size(part))
        with flash.open(part) as f:  # streamed: the text is never held whole
            data = None
            # lines: each action's effects read to be checked, not kept
            for step in ruleset.steps(f, flash.lines(part)):
                data = step  # the last step gives the ruleset
                yield
        title = data.get("name")
        data = step = None
        if title != name:
            raise ruleset.RulesetError("name", "is %r, but the file is %s.json"
                                      % (title, name))
        digest = checked.record(flash, name, part)
        if not force and _in_play(flash) == name and digest != checked.record(flash, name):
            raise ruleset.RulesetError("", "a game of %s is in progress on the device; end it "
                                      "first (or push with --force)" % name)
    except (ValueError, OSError, MemoryError) as exc:
        flash.remove(part)
        print("REFUSED", exc)
        return
    flash.rename(part, FOLDER + name + ".json")
    checked.remember(flash, name, digest)  # checked whole just now
    print("OK", name)


def listing(flash=None):
    flash = flash or Flash("")
    playing = _in_play(flash)
    for file in flash.names(FOLDER[:-1]):
        if file.endswith(".json"):
            size = flash.size(FOLDER + file)
            name = file[:-5]
            print("%s\t%d%s" % (name, size, "\tin play" if name == playing else ""))
    print("OK")


def remove(name, force=False, flash=None):
    flash = flash or Flash("")
    if not flash.exists(FOLDER + name + ".json"):
        print("REFUSED no ruleset %s on the device" % name)
    elif not force and _in_play(flash) == name:
        print("REFUSED a game of %s is in progress on the device; end it first "
              "(or rm with --force)" % name)
    else:
        flash.remove(FOLDER + name + ".json")
        checked.forget(flash, name)
        print("OK", name)
