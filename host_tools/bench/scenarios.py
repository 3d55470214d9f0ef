"""What the bench plays: each game as a scripted complete game, in two forms.

``keys`` is a button script for the emulated device (host_tools/vdevice/vscript.py
syntax) and ``actions`` the same game for the headless engine (``arbiter run
--do``). A game plugs in by filling both; ``keys=None`` means no device script
yet (its device figures are then not measured). The scripts here are
placeholders until each game's complete script lands: only Juggernauts has a
device script, the demo's start of a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from host_tools.emulator.demo import GAME_SCRIPT, MENU_SCRIPT


@dataclass(frozen=True)
class Game:
    name: str  # the bundled ruleset's name
    players: int
    seed: int
    keys: str | None
    actions: tuple[str, ...]
    complete: bool = False  # True once keys and actions play a whole game


# The device with no game: dice, settings, the log (fits a 64 KB heap today).
MENUS = MENU_SCRIPT

GAMES = (
    Game("juggernauts", 2, 5, GAME_SCRIPT,
         ("pick P1 d8", "pick P2 d6", *["next"] * 12, "add P1.power 2", "roll d6 2",
          "undo", "redo", *["next"] * 18)),
    Game("impactics", 2, 3, None,
         ("next", "set P2.gun1.hp 0", "set P1.alex.dodge 1", "next", "next",
          "set P2.gun2.hp 0", "roll d6 3", "next") * 3 + ("add P1.victory 1",)),
    Game("jugger", 2, 3, None,
         ("add P1.points 1", "set P1.j1.stamina 1", "roll d6 2", "undo", "redo",
          *["next"] * 20)),
    Game("tactics", 2, 3, None,
         ("add P1.reserve -1", "add P1.moves_left -1", "next", "add P2.units_lost 1",
          "next") * 6),
    Game("kaiju", 3, 5, None,
         ("next", "add P1.energy 3", "next", "next", "next", "glory P2 4",
          "add P2.k1.damage 3", "undo", "redo", "next", "next", "next", "roll d20 2",
          "add P1.k2.damage 9", "next", "next", "undo", "next", *["next"] * 12)),
)

# The scale run: events that keep a long game going (counters edited back and
# forth, phases advanced), applied until the game holds this many events.
SCALE_RULESET, SCALE_PLAYERS, SCALE_EVENTS = "kaiju", 3, 10_000
SCALE_CYCLE = ("next", "add P1.energy 1", "set P1.k1.damage 1", "add P2.glory 1",
               "set P1.k1.damage 0", "add P1.energy -1", "add P2.glory -1")
