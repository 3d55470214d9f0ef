"""What the tests share (one place, imported by name: ``from helpers import ...``)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]  # the checkout: docs, firmware, rulesets
