"""``arbiter audit LOGFILE``: re-derive every roll of a pulled game journal.

The journal's header holds the device's seed (revealed at the end; its SHA-256
was shown at the start as the commitment) and the players' part, mixed in after
it. Replaying the events from the two must give exactly the dice the journal
recorded; any edited roll shows up. The hash chain over the journal's lines
(arbiter.store.journal) must end at the head the device showed at End game:
with it, no line can be changed, added, removed or cut, a checkpoint's
included, even by whoever recomputes the chain.
"""

from __future__ import annotations

import sys
from pathlib import Path

from arbiter_referee import journals
from arbiter_referee.journals import draws_to, read_journal, replay
from arbiter_referee.rulesets import ruleset_path

HELP = "re-derive every roll of a pulled game journal"


def arguments(parser) -> None:
    parser.add_argument("logfile")
    parser.add_argument("--ruleset", help="ruleset file, if not the bundled one named in the log")
    parser.add_argument("--commitment", metavar="HEX",
                        help="the commitment the device showed when the game started: the "
                             "journal's seed must hash to it (a game recorded again under "
                             "another seed does not)")
    parser.add_argument("--head", metavar="HEX",
                        help="the journal head the device showed at End game (at least its "
                             "first 16 hex digits): the journal's lines must hash to it")


def run(args) -> int:
    try:
        ok, lines = audit(Path(args.logfile), args.ruleset, args.commitment, args.head)
    except AuditError as exc:
        print(f"arbiter audit: {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0 if ok else 1


class AuditError(Exception):
    """A log or ruleset that cannot be audited at all, with the reason."""


def _read(log: Path):
    try:
        text = log.read_text(encoding="utf-8")
    except OSError as exc:
        raise AuditError(f"cannot read {log}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise AuditError(f"{log} is not a game journal (not text)") from None
    found = read_journal(text)
    if found is not None:
        found = found + (text,)
    if found is None or not isinstance(found[0], dict) or \
            not isinstance(found[0].get("seed"), int) or "ruleset" not in found[0]:
        raise AuditError(f"{log} is not a game journal (no header with a seed and a ruleset)")
    return found


def _ruleset_text(name: str) -> str:
    try:
        return ruleset_path(name).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditError(f"cannot read the ruleset {name}: {exc}; give it with --ruleset") \
            from None


def _shown_head(head: str | None) -> str | None:
    if head is None:
        return None
    head = head.strip().lower()
    if not 16 <= len(head) <= 64 or any(c not in "0123456789abcdef" for c in head):
        raise AuditError("--head takes the head shown at End game: 16 to 64 hex digits")
    return head


def _head_lines(text: str, shown: str | None, notes: list, faults: list) -> None:
    """The hash chain's head beside what the device wrote and showed."""
    head, stored = journals.journal_heads(text)
    if stored is None:
        notes.append("no head at its end (#head): not ended on the device, or by older "
                     "firmware")
    elif stored != head:
        faults.append("the journal's lines do not hash to the head the device wrote at "
                      "the end: edited since")
    if shown is None:
        notes.append(f"journal head {head}: compare it with the one shown at End game "
                     f"(--head); without it the file is checked only against itself")
    elif not head.startswith(shown):
        faults.append("the journal does not hash to the head shown at End game: lines "
                      "changed, added, removed, reordered or cut, or its checkpoint edited")
    else:
        notes.append("the journal hashes to the head shown at End game: no line changed, "
                     "added, removed or cut")


def audit(log: Path, ruleset_file: str | None = None,
          shown: str | None = None, head: str | None = None) -> tuple[bool, list[str]]:
    head = _shown_head(head)
    found = _read(log)
    from arbiter.game import Illegal, ruleset
    from arbiter.game.rng import commitment

    header, checkpoint, events, cut, text = found  # events: with undo and redo, as done
    found = found[:4]
    start = checkpoint["n"] if checkpoint else 0
    problems: list[str] = []
    rolls = 0

    def check(i, recorded, rolled):
        nonlocal rolls
        rolls += sum(len(group) for group in rolled)
        if recorded != rolled:
            number = start + sum(_is_event(e) for e in events[:i + 1])
            what = events[i].split('|')[0]
            if what[:1] == "!":
                what, number = f"refused {what[1:]}, its dice spent", f"after {number}"
            problems.append(f"event {number} ({what}): recorded "
                            f"{_dice(recorded)}, the seed gives {_dice(rolled)}")

    notes, faults = [], []  # faults: what fails the audit besides the rolls
    if shown is not None:
        if shown.strip().lower() != commitment(header["seed"]):
            faults.append("the seed does not hash to the commitment shown at the start: "
                          "not the game the device sealed")
        else:
            notes.append("the seed hashes to the commitment shown at the start")
    else:
        notes.append("compare its commitment with the one shown at the start (--commitment)")
    mix = header.get("mix")
    if mix is None:
        notes.append("no players' part: the dice follow the device's seed alone")
    else:
        notes.append(f"the players' part {mix} was mixed in: the dice follow "
                     f"SHA-256(seed, players' part)")
    _head_lines(text, head, notes, faults)
    if checkpoint:  # compacted on the device: the events before it are gone
        draws = draws_to(header["seed"], checkpoint["rng"], mix)
        notes.append(f"the device compacted events 1 to {start} into a checkpoint: "
                     f"verified from event {start + 1}; the head shown vouches for the "
                     f"checkpoint, which carries the head of the journal before it")
        if draws is None:
            faults.append(f"the checkpoint's dice are not within {journals.DRAW_LIMIT:,} draws "
                            f"of the seed")
        else:
            notes.append(f"the checkpoint's dice are draw {draws:,} of the seed")
    name = ruleset_file or str(header["ruleset"])
    text = _ruleset_text(name)
    try:
        replay(found, text, check)
    except Illegal as exc:
        faults.append(f"the events do not replay: {exc.reason}")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        faults.append(f"the journal does not replay: {type(exc).__name__} {exc}")
    except ruleset.RulesetError as exc:
        raise AuditError(f"the ruleset {name} is refused: {exc}") \
            from None
    lines = [f"ruleset {header['ruleset']}, seed {header['seed']} "
             f"(commitment {commitment(header['seed'])}), "
             f"{start + sum(_is_event(e) for e in events)} events, "
             f"{rolls} dice"] + notes
    undone = _undone_rolls(events)
    if undone:
        lines.append(f"{undone} undone event(s) with dice, checked as drawn (dice never rewind)")
    refused = sum(e[:1] == "!" for e in events)
    if refused:
        lines.append(f"{refused} refused action(s) with dice, checked as drawn (their dice "
                     f"are spent)")
    lines += faults
    if problems:
        lines += problems + [f"{len(problems)} event(s) do not match the seed"]
    elif not faults:
        lines.append("all rolls match the seed")
    return not problems and not faults, lines


def _dice(groups: list[list[int]]) -> str:
    return "; ".join(",".join(map(str, g)) for g in groups) or "no dice"


def _is_event(line: str) -> bool:
    """Whether a journal line is an event (not undo, redo or a refused action)."""
    return line not in ("undo", "redo") and line[:1] != "!"


def _undone_rolls(lines: list[str]) -> int:
    """How many undone events had dice (their rolls stay drawn and are checked)."""
    done, count = [], 0
    for line in lines:
        if line == "undo" and done:
            count += "|" in done.pop()
        elif _is_event(line):
            done.append(line)
    return count
