"""The dice are fair and replayable.

Statistical tests use a fixed seed and a stated significance level (alpha =
0.001): with a correct generator each fails by chance once in a thousand
seeds, and the seeds are fixed, so the suite is deterministic.
"""

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arbiter.game.rng import DICE, Rng
from arbiter_referee.emulator import wasm as mpwasm
from arbiter_referee.paths import FIRMWARE

ALPHA = 0.001


def chi_square_critical(df, alpha=ALPHA):
    """Upper critical value of chi-square (Wilson-Hilferty approximation)."""
    z = {0.001: 3.090232}[alpha]
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_pcg32_matches_the_reference_implementation():
    # pcg32-demo (pcg-c-basic) with initstate 42, initseq 54 prints these first values.
    rng = Rng(42, 54)
    assert [rng.next32() for _ in range(6)] == [
        0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_same_seed_same_rolls_different_seed_different_rolls():
    a, b, c = Rng(99), Rng(99), Rng(100)
    rolls_a = [a.roll(20) for _ in range(50)]
    assert rolls_a == [b.roll(20) for _ in range(50)]
    assert rolls_a != [c.roll(20) for _ in range(50)]


@pytest.mark.parametrize("faces", DICE)
def test_each_die_is_uniform_chi_square(faces):
    rng = Rng(20261122 + faces)
    n = 6000 * faces
    counts = Counter(rng.roll(faces) for _ in range(n))
    assert set(counts) == set(range(1, faces + 1))
    expected = n / faces
    stat = sum((counts[f] - expected) ** 2 / expected for f in range(1, faces + 1))
    assert stat < chi_square_critical(faces - 1)


def reference_pcg32(seed, stream, count):
    """pcg32_random_r of pcg-c-basic in 64-bit integers, as the firmware once was."""
    mult, mask = 6364136223846793005, (1 << 64) - 1
    inc = ((stream << 1) | 1) & mask
    state, out = 0, []
    for step in range(count + 2):
        old = state
        state = (old * mult + inc) & mask
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        value = ((xorshifted >> rot) | (xorshifted << ((32 - rot) & 31))) & 0xFFFFFFFF
        if step == 0:
            state = (state + (seed & mask)) & mask  # seeding: step, add the seed, step
        elif step > 1:
            out.append(value)
    return out


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.integers(0, (1 << 64) - 1), st.integers(0, (1 << 63) - 1))
def test_the_small_integer_generator_is_exactly_pcg32(seed, stream):
    rng = Rng(seed, stream)
    assert [rng.next32() for _ in range(40)] == reference_pcg32(seed, stream, 40)


def reference_below(draws, n):
    """Rejection sampling on whole 32-bit draws: the largest multiple of n below 2^32."""
    limit = (1 << 32) - (1 << 32) % n
    for used, draw in enumerate(draws, 1):
        if draw < limit:
            return draw % n, used
    raise AssertionError("ran out of draws")


class FixedDraws(Rng):
    """A generator that gives the listed 32-bit draws: lets us count exactly."""

    def __init__(self, values):
        self.values = list(values)
        self.used = 0

    def _advance(self):
        value = self.values[self.used]
        self.used += 1
        self._hi, self._lo = value >> 16, value & 0xFFFF


def test_rejection_sampling_throws_away_exactly_the_top_draws_that_would_bias():
    # 2^32 = 6 * 715827882 + 4: modulo 6 would fold the top 4 draws onto faces 1 to 4,
    # giving them one chance more than 5 and 6. Those 4 are thrown away, no others.
    top = (1 << 32) - 1
    source = FixedDraws([top, top - 1, top - 2, top - 3, top - 4, 0])
    assert source.below(6) == (top - 4) % 6 and source.used == 5
    assert source.below(6) == 0 and source.used == 6


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, (1 << 32) - 1), min_size=8, max_size=8),
       st.integers(1, 1 << 20))
def test_below_on_halves_is_the_same_as_on_whole_draws(draws, n):
    top = (1 << 32) - 1
    draws = [top - d % 3 if i < 2 else d for i, d in enumerate(draws)]  # near the top too
    source = FixedDraws(draws)
    expected, used = reference_below(draws, n)
    assert source.below(n) == expected and source.used == used


def test_below_rejects_empty_range():
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_micropython_rolls_the_same_dice():
    code = ("import sys\nsys.path.insert(0, '/fw')\nfrom arbiter.game.rng import Rng\n"
            "r = Rng(123456789)\nprint([r.roll(f) for f in (4, 6, 8, 10, 12, 20) * 20])\n")
    result = mpwasm.run(code, {"/fw": (FIRMWARE, False)})
    expected = Rng(123456789)
    assert result.stdout.strip() == str([expected.roll(f) for f in DICE * 20])


def test_the_dice_come_from_the_hash_of_the_devices_seed_and_the_players_part():
    # rule: "the game's dice come from the hash of both"
    import hashlib

    from arbiter.game.rng import dice_seed

    digest = hashlib.sha256((77).to_bytes(8, "big") + b"1350.1550").digest()
    assert dice_seed(77, "1350.1550") == int.from_bytes(digest[:8], "big")
    assert dice_seed(77, "1350.1551") != dice_seed(77, "1350.1550")
    assert dice_seed(77, None) == 77  # no players' part: the seed alone (host tools)


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_arbiter_run_takes_the_players_part_as_entropy(runtime, capsys):
    # headless, the players' part is an option: the same dice as the device would roll
    import json

    from arbiter.game.rng import dice_seed
    from arbiter_referee.cli import main as arbiter

    rolled = []
    for extra in ([], ["--entropy", "17 4 99"]):
        assert arbiter(["run", "kaiju", "--seed", "5", "--do", "roll d20 3", "--json",
                        "--runtime", runtime, *extra]) == 0
        log = json.loads(capsys.readouterr().out)["log"]
        rolled.append(next(e["rolls"] for e in log if e["event"] == "roll"))
    rng = Rng(dice_seed(5, "17 4 99"))
    assert rolled[1] == [rng.roll(20) for _ in range(3)] != rolled[0]
