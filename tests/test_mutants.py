"""Issue 44: "A ruleset the checker accepts never reaches a Python exception on any
runtime: a fault found only at play is a refusal with its reason." Seeded mutants of
the bundled rulesets (a name misspelt, a field left out or of another kind, a number
out of place), each checked as `arbiter validate` checks it; those accepted are
started and played. `arbiter bench --mutants 2000` makes the issue's 2,000 (about 90
s); the suite plays a share of them, in two parts that run side by side."""

import pytest

from arbiter_referee.bench import mutants
from arbiter_referee.emulator.session import use_firmware_path

PART = 200  # mutants a part: the suite's share of the series the bench makes


@pytest.mark.slow
@pytest.mark.parametrize("part", [0, 1])
def test_what_the_checker_accepts_of_a_designers_slips_starts_and_plays(part, capsys):
    use_firmware_path()
    result = mutants.run(PART, first=part * PART)
    with capsys.disabled():
        print("\n" + mutants.line(result))  # the figure, in the test's output
    assert result["accepted"] > PART // 3  # slips the checker lets through are played
    assert result["failed"] == [], result["failed"][:5]


def test_the_benchs_mutants_fail_in_a_line_when_one_accepted_cannot_start(
        monkeypatch, capsys):
    from arbiter_referee.cli import main as arbiter

    assert arbiter(["bench", "--mutants", "10"]) == 0
    assert "10 mutants of the bundled rulesets: " in capsys.readouterr().out

    def broken(text, seed, actions=10):
        return True, "TypeError: made up"

    monkeypatch.setattr(mutants, "trial", broken)
    assert arbiter(["bench", "--mutants", "10"]) == 1
    err = capsys.readouterr().err
    assert "the checker's budget is not met: 10 mutants of the bundled rulesets: 10 " \
           "accepted by the checker, 10 of them failed to start or raised" in err
