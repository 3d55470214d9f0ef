"""Power cuts where a Pico runs (issue 42): the power goes in the middle of a flash
write or of a pass on MicroPython's rp2 port in an emulated RP2040, and a new chip
on the same flash resumes the game with no event lost and undo's reach kept
(arbiter_referee.bench.cuts says how each cut is made and checked).

Each cut costs two resumes on the chip (20 to 50 s of host time a cut), so the suite
makes one cut in a recorded game: Juggernauts' last planned in a flash write, where
its journal has been compacted twice. ``arbiter bench --power-cuts`` makes all 50
(about 30 minutes) and fails when one loses an event or a game (a test below holds
that); ARBITER_CHIP_CUTS=all makes them here too."""

from __future__ import annotations

import functools
import os

import pytest
from helpers.chip import firmware

from arbiter_referee.bench import cuts, scenarios

pytestmark = pytest.mark.slow  # whole games on the chip, a fourth of a Pico's speed

# the last cut in a write of the longest game: late, where its journal has been
# compacted twice and a resume replays the most
SUITE = [("juggernauts", 8)]
CUTS = [(name, number) for name in scenarios.NAMES for number in range(cuts.PER_GAME)] \
    if os.environ.get("ARBITER_CHIP_CUTS") == "all" else SUITE


def test_the_power_goes_in_the_middle_of_a_flash_write_and_a_new_chip_mounts_the_flash(
        tmp_path):
    from arbiter_referee.chip.session import Chip

    (tmp_path / "main.py").write_text(
        "import os, time\n"
        "try:\n"
        "    n = int(open('count').read()[:4])\n"
        "except OSError:\n"
        "    n = 0\n"
        "print('boot', n)\n"
        "while True:\n"
        "    n += 1\n"
        "    with open('count.tmp', 'w') as f:\n"
        "        f.write('%04d' % n * 200)\n"  # 800 bytes: several pages programmed
        "    os.rename('count.tmp', 'count')\n"
        "    print('wrote', n)\n"
        "    time.sleep_ms(20)\n")
    with Chip(tmp_path, 1, "script", firmware()) as chip:
        chip.run(300)
        ops = chip.stats()["flashOps"]
        chip.lose_power_at_write(5, 0.5)  # half of the fifth program or erase from now
        chip.run(1000)
        assert chip.off, "the power did not go"
        assert chip.stats()["flashOps"] == ops + 5  # and the CPU stopped in it
        wrote = [int(line.split()[1]) for line in chip.serial_lines() if
                 line.startswith("wrote")]
        chip.save_flash()
        on_flash = (tmp_path / "count").read_text()
        assert on_flash in ("%04d" % wrote[-1] * 200, "%04d" % (wrote[-1] + 1) * 200)
        chip.power_cycle()
        chip.run(300)
        assert chip.serial_lines().count(f"boot {on_flash[:4].lstrip('0')}") == 1
        before = chip.cycles
        chip.lose_power_after(1000)  # a pass cut anywhere
        chip.run(1000)
        assert chip.off and 1000 <= chip.cycles - before < 1000 + 100_000


@functools.lru_cache(maxsize=None)
def _planned(name):
    session = cuts.Session(scenarios.load(name))
    return session, cuts.plan(session)


@pytest.mark.parametrize(("name", "number"), CUTS)
def test_a_power_cut_in_a_recorded_game_loses_no_event_and_the_game_resumes(
        name, number, tmp_path):
    session, planned = _planned(name)
    cut = planned[number]
    outcome = cuts.cut_on_chip(firmware(), session.game, cut,
                               session.flash(cut.press, tmp_path / "start"), tmp_path)
    # every event the chip said (journaled first) is on flash, the journal one the
    # emulated device wrote; the game resumes as the emulated device resumes that flash,
    # undo reaching as far back as before the cut
    assert outcome.ok, outcome.as_dict()
    assert outcome.lost == 0 and outcome.resumed and outcome.same_resume
    assert outcome.reach[0] is not None and outcome.reach[0] == outcome.reach[1]
    if (name, number) in SUITE:  # in the middle of a write
        assert outcome.how == "mid-write", outcome.as_dict()


def test_the_benchs_power_cuts_fail_when_an_event_is_lost_or_a_game_not_resumed(
        monkeypatch, capsys):
    # the bench's 50 cuts hold the budget on their output: a cut that lost an event or
    # left a game unresumed makes ``arbiter bench --power-cuts`` fail, saying so
    from arbiter_referee.cli import main as arbiter

    pico = firmware()
    made = []

    def run(_pico, games, per_game=cuts.PER_GAME, only=None, progress=None):
        return made

    monkeypatch.setattr(cuts, "run", run)
    cut = cuts.Cut("kaiju", 3, 120, 2, 1, 0.5, 0)
    made[:] = [cuts.Outcome(cut, how="mid-write", resumed=True, same_resume=True)]
    assert arbiter(["bench", "--power-cuts", "--firmware", str(pico.uf2)]) == 0
    assert "0 events lost, 0 not resumed" in capsys.readouterr().out
    made[:] = [cuts.Outcome(cut, how="mid-write", lost=1, resumed=True,
                            troubles=["an event said was not on flash"]),
               cuts.Outcome(cut, how="mid-pass", troubles=["not resumed"])]
    assert arbiter(["bench", "--power-cuts", "--firmware", str(pico.uf2)]) == 1
    said = capsys.readouterr()
    assert "1 events lost, 1 not resumed" in said.out
    assert said.err.strip().splitlines()[-1].endswith(
        "the power cuts' budget is not met: 1 events lost, 1 games not resumed, 2 troubles")
