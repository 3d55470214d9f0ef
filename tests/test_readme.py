"""The README is for people (issue 43): short, its Quick start the two commands CI
runs, every link in it and in docs/ pointing at something that is there."""

import re

from helpers import REPO

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_short_and_links_out_for_the_rest():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert quick.count("```") == 4, "two commands, each in its own block"
    built = text.split("## How it is built", 1)[1]
    assert {"docs/internals.md", "docs/figures.md", "docs/chip.md"} <= set(LINK.findall(built))


def test_every_relative_link_in_the_readme_and_docs_is_there():
    pages = [REPO / "README.md", REPO / "hardware" / "README.md",
             *sorted((REPO / "docs").rglob("*.md"))]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert broken == []
