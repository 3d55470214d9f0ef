"""Players read player words (issue 48): every frame of every bundled game's recorded
session (arbiter_referee/bench/scripts/NAME.keys, replayed on the emulated device as
the bench plays it), and after its last press the texts a table reads next: the Log
page, an undo's question and what it says once done, a redo, the page of a game
restored at boot, the main menu's Log.

Each frame's text is read off the OLED; a line a long text wrapped onto (the line above
could not take its first word) is joined back to it, and a page scrolled down is read
whole: the patterns read whole texts.
No logical line holds:

- an argument key: ``\\w=`` (``k=P2.k1``, ``by=P1``, ``seed=``);
- a piece key: ``\\bP\\d+\\.\\w`` (``P2.k1``, Juggernauts' ``P1.2``, ``P1.power``);
- ``None`` as a word;
- an engine word, as the engine writes it, in lowercase: the name of one of the
  ruleset's actions whose ``label`` is not that name (``layout``, ``push``, ``step``),
  or one of the engine's own actions and log events (``next``, ``add``, ``set``,
  ``roll``, ``pick``, ``undo``, ``redo``, ``win``, ``lose``, ``tie``, ``seed``,
  ``start``): as the whole line (``push``, ``step?``), after ": " at its end
  (``deal the battlefield: layout``, ``Undone: damage``), or first on the line and
  followed by a space (``damage P1 Kraken 4``, ``seed 7047...``), unless it names a
  form's field (``card <location>``: what forms call fields is the forms' business).
  A value of one of the ruleset's counters' ``choices`` is a game word, not an engine
  word (Juggernauts' ``card``, the state of a space: ``P1 rolled 3: card``);
- ``-- `` and a phase's name where its ``label`` differs (the log's ``-- planning``).

Lowercase only: "Push back", "Move an army", the labels themselves, are players' words.
The seat rows are not read here (the play screen's layout is tested on its own)."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from helpers.device import play_screen

from arbiter_referee.bench.scenarios import GAMES
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.rig import Rig
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.paths import RULESETS

COLS = 21
ENGINE = ("next", "add", "set", "roll", "pick", "undo", "redo", "win", "lose", "tie", "seed",
          "start")


def patterns(name):
    rules = json.loads((RULESETS / f"{name}.json").read_text())
    values = {str(v) for counters in (rules.get("counters", {}),
                                      rules.get("pieces", {}).get("counters", {}))
              for counter in counters.values() for v in counter.get("choices", ())}
    words = sorted(set(ENGINE) | {a for a, spec in rules.get("actions", {}).items()
                                  if spec.get("label", a) != a} - values)
    phases = [p["name"] for p in rules["phases"] if p.get("label", p["name"]) != p["name"]]
    words = "|".join(re.escape(w) for w in words)
    found = [re.compile(r"\w="), re.compile(r"\bP\d+\.\w"), re.compile(r"\bNone\b"),
             re.compile(rf"^({words})\??$"), re.compile(rf": ({words})\??$"),
             re.compile(rf"^({words}) (?!<)")]
    if phases:
        found.append(re.compile(r"-- (%s)\b" % "|".join(phases)))
    return found


def logical(lines):
    """The frame's texts: each wrapped line joined back to the line it continues (not
    the key line, a screen's last)."""
    out = []
    for i, line in enumerate(lines):
        line = line.strip()
        if out and out[-1] and line and i != len(lines) - 1 and \
                len(out[-1].rsplit("\n", 1)[-1]) + 1 + len(line.split()[0]) > COLS:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return [text.replace("\n", " ") for text in out if text]


class Session(Rig):
    """A Rig whose board plays a recorded key script first, every frame kept."""

    def __init__(self, flash_dir, seed, keys):
        self.keys_script = keys
        self.frames = {}
        super().__init__(flash_dir, seed=seed)

    def _power_on(self, held=None):
        from arbiter.device import Device
        from vboard import EmulationDone, VirtualBoard

        self.board = VirtualBoard(self.seed, self.keys_script, str(self.flash_dir) + "/",
                                  on_frame=self.keep)
        self.device = Device(self.board)
        with contextlib.suppress(EmulationDone):
            while True:
                self.board.sleep_ms(self.device.tick())
        self.board.end_ms = None  # the script has run out: presses by hand from here

    def keep(self, board):
        """The frame; a page scrolled down, whole (its top line may go on from a line
        above it)."""
        from arbiter.ui.menu import TextPage

        device = getattr(self, "device", None)
        page = device.app.screen if device is not None and device.app else None
        if isinstance(page, TextPage) and page.top:
            self.frames.setdefault((page.title, *page.lines, ""), None)
        else:
            self.frames.setdefault(bytes(board.oled.ram), None)


def menu_item(rig, label):
    """The open menu's item ``label``, chosen."""
    menu = rig.app.screen
    labels = [item[0] for item in menu.items]
    assert label in labels, labels
    rig.keys(*["down"] * ((labels.index(label) - menu.cursor) % len(labels)), "a")


def read_page(rig):
    """A text page, Down to its end (each screen kept: Session.keep), then B."""
    for _ in range(len(rig.app.screen.lines)):
        rig.keys("down")
    rig.keys("b")


def undo(rig):
    """Long B: the last action undone, all agreeing if it rolled."""
    rig.keys("b:long")
    if rig.lines[0] == "Undo?":
        rig.keys("a")


def session_texts(tmp_path, game):
    """Every frame's lines of ``game``'s recorded session, then of what follows it."""
    with contextlib.redirect_stdout(io.StringIO()):
        rig = Session(tmp_path, game.device_seed, game.keys)
        play = play_screen(rig)
        assert play is not None and play.game.state["result"], "the recorded game ended"
        won = " ".join(rig.lines)
        rig.keys("b")  # the game menu: its Log page
        menu_item(rig, "Log")
        read_page(rig)
        rig.keys("b")
        rig.keys("b:long", "a")  # undo the last action: a finished game's, all agree
        undo(rig)  # and the one before
        rig.keys("a:long", "up")  # redo it (a game in play, on flash), all it said
        if rig.app.screen is not play:
            read_page(rig)
        rig.keys("b")
        menu_item(rig, "Main menu")
        menu_item(rig, "Log")  # the device's log
        read_page(rig)
        restored = rig.reboot()  # the game resumed at boot, and its page
    frames = [read_lines(ram) if isinstance(ram, bytes) else ram for ram in rig.frames]
    frames.append(restored.lines)
    return frames, won


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
def test_every_screen_of_a_recorded_game_is_in_player_words(tmp_path, game):
    factory_flash(tmp_path)
    frames, won = session_texts(tmp_path, game)
    # the winner's screen says who won and why (issue 48: "P1 wins: 20 Glory"); with
    # many rows, "P1 wins!" in the bar and why under the rows
    assert f"{game.winner} wins: " in won or \
        re.search(rf"^{game.winner} wins! .* P\d (has|began|scored) ", won), won
    found = patterns(game.name)
    bad = {}
    for lines in frames:
        for text in logical(lines):
            if any(p.search(text) for p in found):
                bad.setdefault(text, lines)
    assert not bad, "\n".join(f"{text!r} in {lines}" for text, lines in list(bad.items())[:12])
    texts = {text for lines in frames for text in logical(lines)}
    for said in ("Undone: ", "Redone: ", "last: "):  # what follows the game was reached
        assert any(said in text for text in texts), said


def test_every_ending_of_a_bundled_game_says_why():
    # issue 48: "The winner's screen says who won and why"; an end rule's ``why`` is
    # the reason, and no bundled game ends by an effect that gives none
    def effects(value, key=None):  # every dict in a list: effects are
        if isinstance(value, dict) and isinstance(key, int):
            yield value
        for k, v in value.items() if isinstance(value, dict) else enumerate(
                value if isinstance(value, list) else ()):
            yield from effects(v, k)

    for path in sorted(RULESETS.glob("*.json")):
        rules = json.loads(path.read_text())
        assert rules["end"] and all(rule.get("why") for rule in rules["end"]), path.stem
        assert not [e for e in effects(rules) if {"win", "lose", "tie"} & set(e)], path.stem


def test_the_log_calls_each_field_as_the_forms_do():
    # screens/log.py keeps its own copy: loading the forms' code to write a line would
    # cost a Pico's heap what the forms cost
    from arbiter.screens import forms, log

    assert log.WORDS == forms.WORDS


# The game menu's Table page of each bundled game, as the referee's values stand once
# its recorded game has been played: only the values its ruleset's ``table`` names, by
# those words (Kaiju's ``cs: 0 0 0 P1`` was a combat's own bookkeeping), none when it
# names none.
@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_the_table_page_says_only_what_the_ruleset_names_in_its_words(game):
    from helpers.game import new_game

    from arbiter.screens.table import table_lines

    played = new_game(game.name, seed=game.seed, players=game.players,
                      options=game.options, actions=game.actions)
    words = played.rules.get("table", {})
    lines = table_lines(played)
    assert sorted(line.split(": ")[0] for line in lines) == sorted(words.values()), lines
    for line in lines:
        assert not re.search(r"\bP\d+\.\w|\w=|None", line), line
