"""The docs' shell sessions, run as a reader would type them: ``$`` commands and the
lines they print (docs/rulesets.md, docs/designing.md)."""

import json
import re
import shlex

import pytest

from arbiter_referee.cli import main as arbiter

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def steps(block: str):
    """(command, expected output lines, heredoc text or None) for each ``$`` line."""
    lines = block.splitlines()
    steps, i = [], 0
    while i < len(lines):
        assert lines[i].startswith("$ "), f"not a command: {lines[i]!r}"
        command = lines[i][2:]
        i += 1
        while command.endswith("\\"):
            command = command[:-1] + " " + lines[i].strip()
            i += 1
        body = []
        if "<<'EOF'" in command:
            while lines[i] != "EOF":
                body.append(lines[i])
                i += 1
            i += 1
            steps.append((command, [], "\n".join(body) + "\n"))
            continue
        while i < len(lines) and not lines[i].startswith("$ "):
            if not lines[i].startswith("# "):
                body.append(lines[i])
            i += 1
        steps.append((command, body, None))
    return steps


def run_command(command: str, heredoc, tmp_path, capsys, last: dict):
    """Run one documented command; the output lines, or None when not to compare."""
    words = shlex.split(command)
    if words[0] == "arbiter":
        last["code"] = arbiter(words[1:])
        out = capsys.readouterr()
        if "--json" in words:
            assert last["code"] == 0, out.err
            last["json"] = json.loads(out.out)
            return None
        return (out.out + out.err).splitlines()
    if words == ["echo", "$?"]:
        return [str(last["code"])]
    if words[:2] == ["cat", ">"]:
        (tmp_path / words[2]).write_text(heredoc)
        return []
    if words[:2] == ["sed", "-i"]:
        old, new = re.fullmatch(r"s/([^/]*)/([^/]*)/", words[2]).groups()
        path = tmp_path / words[3]
        assert old in path.read_text(), f"sed: {old!r} is not in {words[3]}"
        path.write_text(path.read_text().replace(old, new))
        return []
    pytest.fail(f"a console block runs a command this test cannot check: {command}")
