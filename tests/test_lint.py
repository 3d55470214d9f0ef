"""Style is part of the build: ruff (line length 99) over everything we ship."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
