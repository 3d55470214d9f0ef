"""A designer's own ruleset, not bundled: examples/pig.json, on the emulated device."""

from helpers import REPO

PIG = REPO / "examples" / "pig.json"
# Play a game, then pig (fifth in the list, by name, between kaiju and tactics), its
# setup's defaults, each player's part of the dice (four Lefts),
# then A rolls three times
PIG_KEYS = ("a down down down down a wait=3000 a wait=500 left left left left a "
            "left left left left a wait=500 a wait=300 a wait=300 a wait=300")
