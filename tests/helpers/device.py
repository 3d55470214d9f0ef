"""A game on the emulated device (a ``Rig``, see conftest.py), played as players do:
by keys, reading the screen, and where a test needs it, straight through the play
screen as the game menu would."""

from arbiter_referee.paths import RULESETS
from helpers.game import named

BUNDLED = sorted(path.stem for path in RULESETS.glob("*.json"))  # Play's list, in order


def open_setup(rig, name):
    """From the main menu, the setup page of the bundled ruleset ``name``."""
    rig.keys("a")  # Play a game
    offset = 1 if rig.lines[1] == "Resume game" else 0
    rig.keys(*["down"] * (BUNDLED.index(name) + offset))
    rig.keys("a")


def start_game(rig, name, *setup_keys):
    """A new game of ``name`` (``setup_keys`` pressed on its setup page), past the dice
    commitment; the commitment shown."""
    open_setup(rig, name)
    rig.keys(*setup_keys)
    rig.keys("a")  # start
    assert rig.lines[0] == "New game"
    commitment = "".join(rig.lines[2:6])  # 64 hex digits, wrapped
    seal(rig)
    return commitment


def seal(rig):
    """Past the dice commitment: each player presses A once, in turn."""
    while rig.lines[0] == "New game":
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
    for _ in range(len(rig.app.screen.items)):
        if rig.app.screen.items[rig.app.screen.cursor][0] == label:
            rig.keys("a")
            return
        rig.keys("down")
    raise AssertionError(f"no {label} in the game menu")


def fill_form(rig, values):
    """Set a game-menu form's fields by value (Left/Right, Down), then A."""
    form = rig.app.screen
    for value in values:
        field = form.fields[form.cursor]
        diff = field[1].index(str(value)) - field[2]
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
    not hold (``^:more`` on its key line: Up shows it all on a page, read with Down)."""
    from arbiter.ui.menu import TextPage

    lines = rig.lines
    text = " ".join(line for line in lines[1:7] if line)
    if "^:more" not in lines[7]:
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
    """The game-menu item ``label`` done with ``values`` (its form's fields in order, or
    a dict by field name) by the play screen's fast path, as players would, when the
    phase's common action is that one and the fields it leaves alone already hold
    those values: Right opens it, Up/Down pick the piece or player, Left/Right the
    amount, A does it: the screen just before A. False, no key pressed, when the fast
    path cannot do it."""
    from arbiter.screens.fast import FastForm, fast_action
    from arbiter.screens.forms import action_form

    play = play_screen(rig)
    if rig.app.screen is not play or not play.game.state["round"]:
        return False
    game = play.game
    name = fast_action(game)
    spec = game.rules.get("actions", {}).get(name) if name else None
    if spec is None or spec.get("label", name) != label:
        return False
    form = action_form(play, name, FastForm)  # what Right would open, not shown
    fields = form.fields
    want = values if isinstance(values, dict) else \
        {fields[i][0]: values[i] for i in range(len(values))}
    want = {k: str(v) for k, v in want.items()}
    for index in (form.who, form.amount):  # as the keys will set them, then the rest
        if index >= 0 and fields[index][0] in want:
            if want[fields[index][0]] not in fields[index][1]:
                return False
            fields[index][2] = fields[index][1].index(want[fields[index][0]])
            form.on_change(index)
    if any(choices[at] != want[field] for field, choices, at in fields if field in want):
        return False
    rig.keys("right")
    fields = (form := rig.app.screen).fields
    assert isinstance(form, FastForm), rig.lines
    for index, up, down in ((form.who, "up", "down"), (form.amount, "left", "right")):
        if index < 0 or fields[index][0] not in want:
            continue
        field = form.fields[index]
        diff = field[1].index(want[field[0]]) - field[2]
        if index == form.who and abs(diff) * 2 > len(field[1]):  # the list wraps round
            diff -= len(field[1]) if diff > 0 else -len(field[1])
        rig.keys(*[down if diff > 0 else up] * abs(diff))
    shown = {field: choices[at] if choices else "" for field, choices, at in form.fields}
    if any(shown[k] != v for k, v in want.items()):  # a choice moved the rest: the menu
        rig.keys("b")
        return False
    rig.run(100)  # the preview, worked out in a pass of its own, read before A
    shown = rig.lines
    rig.keys("a")
    return shown


def do(rig, label, values):
    """The game-menu item ``label`` with ``values`` (as ``fill_form`` takes them, or a
    dict by field name for the fast path): by the fast path when it can, else the
    game menu's form, field by field."""
    if by_fast_path(rig, label, values):
        return
    open_menu_item(rig, label)
    fill_form(rig, values)
