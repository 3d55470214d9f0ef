"""docs/designing.md stays true: each step's file passes the checker, each command
prints what the page shows, and the finished games are the ones in examples/."""

import json
import re

import pytest
from helpers import REPO
from helpers.docs import FENCE, run_command, steps

DOC = REPO / "docs" / "designing.md"
SESSIONS = [m.group(2) for m in FENCE.finditer(DOC.read_text()) if m.group(1) == "console"]


def test_the_walk_through_builds_two_games_a_step_at_a_time():
    files = [re.search(r"cat > (\w+\.json)", s).group(1) for s in SESSIONS]
    assert files == ["pig.json"] * 3 + ["raj.json"] * 3


@pytest.mark.parametrize("index", range(len(SESSIONS)))
def test_every_step_prints_what_the_page_shows(index, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    last = {"code": None, "json": None}
    for command, expected, heredoc in steps(SESSIONS[index]):
        got = run_command(command, heredoc, tmp_path, capsys, last)
        if got is not None:
            assert got == expected, f"$ {command}"


@pytest.mark.parametrize("name", ["pig", "raj"])
def test_the_last_step_is_the_example_in_the_checkout(name):
    written = [s for s in SESSIONS if f"cat > {name}.json" in s][-1]
    text = written.split("<<'EOF'\n", 1)[1].split("\nEOF\n", 1)[0]
    assert json.loads(text) == json.loads((REPO / "examples" / f"{name}.json").read_text())
