"""A designer's own ruleset, not bundled: examples/pig.json, on the emulated device."""

from helpers import REPO

PIG = REPO / "examples" / "pig.json"
# Play a game, then pig (fifth in the list, by name, between kaiju and tactics), its
# setup's defaults, each player's part of the dice (four Lefts),
# then A rolls three times
PIG_KEYS = ("a down down down down a wait=3000 a wait=500 left left left left a "
            "left left left left a wait=500 a wait=300 a wait=300 a wait=300")

RAJ = REPO / "examples" / "raj.json"
CARDS = range(1, 16)
PRIZES = [*range(-5, 0), *range(1, 11)]  # the prize deck: 15 cards


def raj_points(prizes, bids):
    """An independent Raj scorer: each round's prize and every player's bid (a dict);
    the points each player ends with. Equal bids cancel; the highest remaining bid
    takes a positive prize, the lowest a negative one; if every bid cancels, the
    prize stays, and whoever takes the next one takes all those at stake."""
    from collections import Counter

    points = dict.fromkeys(bids[0], 0)
    stake = []
    for prize, round_bids in zip(prizes, bids, strict=True):
        stake.append(prize)
        counts = Counter(round_bids.values())
        alone = {player: bid for player, bid in round_bids.items() if counts[bid] == 1}
        if alone:
            taker = (max if prize > 0 else min)(alone, key=alone.get)
            points[taker] += sum(stake)
            stake = []
    return points
