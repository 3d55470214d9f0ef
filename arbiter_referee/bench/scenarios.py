"""What the bench plays: a scripted complete game of each bundled ruleset, in two forms.

``keys`` is a button script for the emulated device (host_tools/vdevice/vscript.py
syntax) that plays the game to its end from a fresh device (factory flash,
entropy seed ``device_seed``); ``actions`` are that game's events, for the
headless engine (``arbiter run --do``) with the device game's own ``seed`` and
``options``. Both live in scripts/NAME.keys and scripts/NAME.json, written by
record.py from the test suite's whole games on the device (see drivers.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from arbiter_referee.emulator.scripts import MENU_SCRIPT

SCRIPTS = Path(__file__).parent / "scripts"
NAMES = ("juggernauts", "impactics", "jugger", "tactics", "kaiju")


@dataclass(frozen=True)
class Game:
    name: str  # the bundled ruleset's name
    players: int
    seed: int  # the game's dice seed (the device derives it from device_seed)
    keys: str | None  # None: no device script (no device figures)
    actions: tuple[str, ...]
    complete: bool = False  # True when keys and actions play a whole game
    device_seed: int = 1
    options: dict = field(default_factory=dict)
    winner: str | None = None  # how the recorded game ended


def load(name: str) -> Game:
    meta = json.loads((SCRIPTS / f"{name}.json").read_text())
    return Game(name, meta["players"], meta["seed"], (SCRIPTS / f"{name}.keys").read_text(),
                tuple(meta["actions"]), complete=bool(meta["result"]),
                device_seed=meta["device_seed"], options=meta["options"],
                winner=meta["winner"])


# The device with no game: dice, settings, the log (fits a 64 KB heap today).
MENUS = MENU_SCRIPT

GAMES = tuple(load(name) for name in NAMES)

# The scale run (issue 8): a long Jugger game played as the device plays it, the
# events that keep it going (stones advanced, disputes rolled, juggers crouched, an
# undo and redo) applied until it holds this many events.
SCALE_RULESET, SCALE_PLAYERS, SCALE_EVENTS = "jugger", 2, 10_000
SCALE_CYCLE = ("next", "dispute", "out P1.j1", "next", "hit P2.j2 crouch=1", "undo", "redo",
               "next", "dispute n=2", "next", "next")
