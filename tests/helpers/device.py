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
