"""A game on the emulated device (a ``Rig``, see conftest.py), played as players do:
by keys, reading the screen, and where a test needs it, straight through the play
screen as the game menu would."""

from pathlib import Path

from arbiter_referee.paths import RULESETS
from helpers.game import named

BUNDLED = sorted(path.stem for path in RULESETS.glob("*.json"))  # Play's list, in order


def open_setup(rig, name):
    """From the main menu, the setup page of the ruleset ``name`` on the rig's flash
    (the list shows titles, a long one on two lines: it is walked by file names)."""
    rig.keys("a")  # Play a game
    offset = 1 if rig.lines[1] == "Resume game" else 0
    names = sorted(path.stem for path in (Path(rig.flash_dir) / "rulesets").glob("*.json"))
    names = names or BUNDLED  # (a littlefs image: the factory's)
    rig.keys(*["down"] * (names.index(name) + offset))
    rig.keys("a")
    until_loaded(rig)


def until_loaded(rig):
    """Time goes by until the ruleset chosen is loaded and what follows it drawn: it
    loads a step a pass (its check, an action a step)."""
    for _ in range(6000):
        if not getattr(rig.app.screen, "loads", False):
            break
        rig.run(10)
    rig.settle()


# each player's part of the dice (four arrows: "LLLL"), the same in every test: the
# whole games on the device are written for the dice it gives
PART = ("left", "left", "left", "left")
# the arrows of the bench's recorded Jugger game (bench_drivers.jugger): its stone is
# written for the dice they give
RECORDED_PARTS = {"jugger": ("right", "up", "right", "up")}


def start_game(rig, name, *setup_keys, part=PART):
    """A new game of ``name`` (``setup_keys`` pressed on its setup page), past the dice
    commitment; the commitment shown."""
    open_setup(rig, name)
    rig.keys(*setup_keys)
    rig.keys("a")  # start
    assert rig.lines[0] == "New game"
    commitment = "".join(rig.lines[2:6])  # 64 hex digits, wrapped
    seal(rig, part)
    return commitment


def seal(rig, part=PART):
    """Past the dice commitment: each player chooses the arrows of ``part``, in turn,
    then A on the screen to photograph."""
    while rig.lines[0] == "New game":
        rig.keys(*part)
    assert rig.lines[0] == "Photo, then A", rig.lines
    rig.keys("a")


def pick(rig, steps):
    """The player holding the device opens the list and picks the ``steps``-th choice."""
    rig.keys("a", *["down"] * steps, "a")


def play_screen(rig):
    """The play screen on the device's screen stack, or None before a game."""
    from arbiter.screens.play import PlayScreen

    for screen in rig.app.stack:
        if isinstance(screen, PlayScreen):
            return screen
    return None


def game_of(rig):
    """The game the device is refereeing, or None."""
    screen = play_screen(rig)
    return screen.game if screen else None


def open_menu_item(rig, label):
    """B from the play screen, then the game menu's item ``label``: it must be there."""
    rig.keys("b")
    assert rig.lines[0] == "Game"
    menu = rig.app.screen
    labels = [item[0] for item in menu.items]
    if label not in labels:
        raise AssertionError(f"no {label} in the game menu")
    diff = labels.index(label) - menu.cursor  # the shorter way round, as players would
    if abs(diff) * 2 > len(labels):
        diff -= len(labels) if diff > 0 else -len(labels)
    rig.keys(*["down" if diff > 0 else "up"] * abs(diff))
    assert menu.items[menu.cursor][0] == label, rig.lines
    rig.keys("a")


def fill_form(rig, values):
    """Set a game-menu form's fields by value (Left/Right, Down), then A."""
    form = rig.app.screen
    for value in values:
        field = form.fields[form.cursor]
        diff = field[1].index(str(value)) - field[2]
        if field[1] is not form.numbers and abs(diff) * 2 > len(field[1]):  # lists wrap
            diff -= len(field[1]) if diff > 0 else -len(field[1])
        rig.keys(*["right" if diff > 0 else "left"] * abs(diff))
        rig.keys("down")
    rig.keys("a")


def act(rig, action):
    """``action`` (pieces named as in helpers.game) applied through the play screen, as
    the game menu applies a form's action (no keys): it must be applied. The screen."""
    screen = play_screen(rig)
    assert screen.act(rig.app, named(screen.game, action), rig.board.elapsed), screen.notice
    return screen


def lit(rig, colour, level=100):
    """What an LED shows for ``colour`` at ``level`` percent, under the brightness cap."""
    return rig.app.leds._scaled(tuple(c * level // 100 for c in colour))


def said(rig):
    """All the play screen says, its wrapped lines joined, with what its lines could
    not hold (``^:more``, or a bare ``^`` short of room, on its key line: Up shows it
    all on a page, read with Down)."""
    from arbiter.ui.menu import TextPage

    lines = rig.lines
    text = " ".join(line for line in lines[1:7] if line)
    if "^" not in lines[7]:
        return text
    rig.keys("up")
    page = rig.app.screen
    assert isinstance(page, TextPage), "Up shows no page of what the screen says"
    seen = list(rig.lines[1:7])
    for _ in range(len(page.lines)):  # bounded: Down a line at a time to the end
        if page.top + 6 >= len(page.lines):
            break
        rig.keys("down")
        seen.append(rig.lines[6])
    rig.keys("b")
    assert rig.app.screen is play_screen(rig), "B goes back to the play screen"
    return text + " " + " ".join(line for line in seen if line)


def by_fast_path(rig, label, values):
    """The game-menu item ``label`` done with ``values`` (its form's fields in order, as
    ``fill_form`` sets them, the rest left at the form's defaults; or a dict by field
    name) by the play screen's fast path, as players would, when the phase's common
    action is that one and the fields it leaves alone already hold those values:
    Right opens it, Up/Down pick the piece or player, Left/Right the amount, A does
    it. The screen just before A; False, no key pressed, when the fast path cannot."""
    from arbiter.game.effects import action
    from arbiter.screens.fast import FastForm, fast_action
    from arbiter.screens.forms import action_form

    play = play_screen(rig)
    if rig.app.screen is not play or not play.game.state["round"]:
        return False
    game = play.game
    name = fast_action(game)
    spec = action(game, name) if name else None
    if spec is None or spec.get("label", name) != label:
        return False
    # what the menu's form would do, worked out on forms not shown
    intended = _filled(action_form(play, name), values)
    form = action_form(play, name, FastForm)  # what Right opens
    sets = form.rows or [i for i in (form.who, form.amount) if i >= 0]
    if intended is None or _filled(form, {form.fields[i][0]: intended[i] for i in
                                          sets}) != intended:
        return False
    rig.keys("right")
    form = rig.app.screen
    assert isinstance(form, FastForm), rig.lines
    if form.rows:  # a knob of more fields: Up/Down to each to set (the nearer first)
        _set_rows(rig, form, intended)
    for index, up, down in ((form.who, "up", "down"), (form.amount, "left", "right")):
        if index < 0:
            continue
        rig.keys(*_steps(form, index, intended[index], up, down))
    assert form.values() == intended, (intended, rig.lines)
    rig.run(100)  # the preview, worked out in a pass of its own, read before A
    shown = rig.lines
    rig.keys("a")
    return shown


def _steps(form, index, value, less, more):
    """The keys (``less`` back, ``more`` on) that take the field ``index`` to
    ``value``, the shorter way round."""
    field = form.fields[index]
    diff = field[1].index(value) - field[2]
    if field[1] is not form.numbers and abs(diff) * 2 > len(field[1]):  # lists wrap
        diff -= len(field[1]) if diff > 0 else -len(field[1])
    return [more if diff > 0 else less] * abs(diff)


def _set_rows(rig, form, intended):
    """A fast form's knob rows set to ``intended``: Up/Down to the nearest row not yet
    right, Left/Right to set it; a type first, as players would (another type brings
    its own numbers)."""
    rows = form.rows
    for _ in range(len(rows) + 1):  # bounded: each row set once
        wrong = [i for i in rows if form.values()[i] != intended[i]]
        wrong = [i for i in wrong if form.situational(i)] or wrong
        if not wrong:
            return
        at = rows.index(form.cursor)
        ways = [(min((rows.index(i) - at) % len(rows), (at - rows.index(i)) % len(rows)), i)
                for i in wrong]
        i = min(ways)[1]
        down, up = (rows.index(i) - at) % len(rows), (at - rows.index(i)) % len(rows)
        rig.keys(*(["down"] * down if down <= up else ["up"] * up))
        assert form.cursor == i, rig.lines
        rig.keys(*_steps(form, i, intended[i], "left", "right"))
    raise AssertionError((intended, rig.lines))


def _filled(form, values):
    """``form``'s values once ``values`` are set in it, field by field as keys would
    (a field's choices follow those above it); None if one is not offered."""
    fields = form.fields
    if not isinstance(values, dict):
        values = {fields[i][0]: values[i] for i in range(len(values))}
    for i, field in enumerate(fields):
        if field[0] in values:
            value = str(values[field[0]])
            if value not in field[1]:
                return None
            field[2] = field[1].index(value)
            form.on_change(i)
    return form.values()


def do(rig, label, values):
    """The game-menu item ``label`` with ``values`` (as ``fill_form`` takes them, or a
    dict by field name for the fast path): by the fast path when it can, else the
    game menu's form, field by field."""
    if by_fast_path(rig, label, values):
        return
    open_menu_item(rig, label)
    fill_form(rig, values)
