"""``arbiter audit LOGFILE``: re-derive every roll of a pulled game journal.

The journal's header holds the device's seed (revealed at the end; its SHA-256
was shown at the start as the commitment) and the players' part, mixed in after
it. Replaying the events from the two must give exactly the dice the journal
recorded; any edited roll shows up. The hash chain over the journal's lines
(arbiter.store.journal) must end at the head the device showed at End game:
with it, no line can be changed, added, removed or cut, a checkpoint's
included, even by whoever recomputes the chain. ``#head`` and ``#end`` are not in
the chain: a marker line anywhere but where the device writes it fails the audit.
Whatever the file holds, the audit answers with its report or one line saying why
it cannot audit it (AuditError), never a traceback.
"""

from __future__ import annotations

import json
import sys
from itertools import accumulate
from pathlib import Path

from arbiter_referee import journal_chain, journals
from arbiter_referee.journals import draws_to, read_journal
from arbiter_referee.paths import use_firmware_path
from arbiter_referee.rulesets import bundled, ruleset_path

HELP = "re-derive every roll of a pulled game journal"


def arguments(parser) -> None:
    parser.add_argument("logfile")
    parser.add_argument("--ruleset", help="ruleset file, if not the bundled one named in the log")
    parser.add_argument("--commitment", metavar="HEX",
                        help="the commitment the device showed when the game started: the "
                             "journal's seed must hash to it (a game recorded again under "
                             "another seed does not)")
    parser.add_argument("--mix", metavar="ARROWS",
                        help="the players' part the device showed before the first roll, "
                             "as photographed (\"Yours: UULR DDDD\": give \"UULR DDDD\"): "
                             "the journal's must be the same")
    parser.add_argument("--head", metavar="HEX",
                        help="the journal head the device showed at End game (at least its "
                             "first 16 hex digits): the journal's lines must hash to it")


def run(args) -> int:
    try:
        ok, lines = audit(Path(args.logfile), args.ruleset, args.commitment, args.head,
                          args.mix)
    except AuditError as exc:
        print(f"arbiter audit: {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0 if ok else 1


class AuditError(Exception):
    """A log or ruleset that cannot be audited at all, with the reason."""


def _read(log: Path):
    """(header, checkpoint, events, cut, the text, the faults of its marker lines, the
    journals before it) of the game journal the audit can take, else AuditError with
    why not. A log pulled with the journals the game's compactions replaced holds
    them first (journal_chain): those on the chain to the last one come back as
    ``saved.parse`` reads them, oldest first."""
    try:
        text = log.read_text(encoding="utf-8")
    except OSError as exc:
        raise AuditError(f"cannot read {log}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise AuditError(f"{log} is not a game journal (not text)") from None
    use_firmware_path()
    texts = journal_chain.split(text)
    found = _journal(log, texts[-1], "")
    if len(texts) == 1:
        return found + ([], 0)
    read = {len(texts) - 1: found}

    def head_of(i):
        if i not in read:
            read[i] = _journal(log, texts[i], f" (journal {i + 1} of {len(texts)})")
        mark = read[i][1]
        return mark.get("head") if mark else None

    on, off = journal_chain.chain(texts, head_of)
    past = [read[i] for i in on[:-1]]
    for i, earlier in zip(on[:-1], past, strict=True):
        if earlier[0] != found[0]:
            raise AuditError(f"{log}: journal {i + 1} of {len(texts)} is another game's "
                             f"(its header differs)")
        if earlier[5]:
            raise AuditError(f"{log}: journal {i + 1} of {len(texts)}: {earlier[5][0]}")
    return found + (past, off)


def _journal(log: Path, text: str, which: str):
    """(header, checkpoint, events, cut, text, faults of its marker lines) of one
    journal's ``text``, else AuditError with why not."""
    from arbiter.store.journal import CHECKPOINT

    lines = text.split("\n")
    tail = lines.pop()  # after the last newline: nothing, or a last line cut short
    log = f"{log}{which}"
    _header(log, lines[0] if lines else "")
    if len(lines) > 1 and lines[1].startswith(CHECKPOINT):
        _checkpoint(log, lines[1][len(CHECKPOINT):])
    faults, astray = _misplaced(lines, bool(tail))
    # a checkpoint out of place is a fault, and not read as one
    text_read = "".join(line + "\n" for i, line in enumerate(lines) if i not in astray) + \
        tail if astray else text
    found = read_journal(text_read)
    if found is None:  # (the header and the checkpoint are checked above)
        raise AuditError(f"{log} is not a game journal")
    return found + (text, faults)


SEEDS = 2 ** 64  # a device's seed: 64 bits of hardware entropy (rng.commitment: 8 bytes)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value) -> str:
    """A value from a journal as JSON, cut short when long."""
    try:
        text = json.dumps(value)
    except (ValueError, RecursionError):
        text = "(nested too deep)"
    return text if len(text) <= 40 else text[:37] + "..."


def _header(log: Path | str, line: str) -> None:
    """AuditError unless ``line`` is a header the device writes: a JSON object with the
    seed, the ruleset's name, the players, the options and the players' part (mix,
    absent or text)."""
    try:
        header = json.loads(line)
    except (ValueError, RecursionError):
        header = None
    if not isinstance(header, dict) or "seed" not in header or "ruleset" not in header:
        raise AuditError(f"{log} is not a game journal (no header with a seed and a ruleset)")
    seed = header["seed"]
    if not _is_int(seed) or not 0 <= seed < SEEDS:
        raise AuditError(f"{log}: the header's seed is {_shown(seed)}, not a device's: a "
                         f"whole number from 0 to 2**64-1")
    wrong = [(key, want) for key, want, right in (
        ("ruleset", "a ruleset's name", isinstance(header["ruleset"], str)),
        ("players", "a number of players", _is_int(header.get("players"))),
        ("options", "a game's options (a JSON object)",
         isinstance(header.get("options"), dict)),
        ("mix", "the players' part (text)", isinstance(header.get("mix", ""), (str, type(None))))
    ) if not right]
    if wrong:
        key, want = wrong[0]
        raise AuditError(f"{log}: the header's {key} is {_shown(header.get(key))}, not {want}")


def _checkpoint(log: Path | str, text: str) -> None:
    """AuditError unless ``text`` (after ``#ckpt``) is a checkpoint the device writes
    (journal.compact)."""
    try:
        mark = json.loads(text)
    except ValueError:
        raise AuditError(f"{log}: its checkpoint (line 2) is not JSON") from None
    except RecursionError:
        raise AuditError(f"{log}: its checkpoint (line 2) nests too deep to be a device's") \
            from None
    if not isinstance(mark, dict):
        raise AuditError(f"{log}: its checkpoint (line 2) is {_shown(mark)}, not a JSON "
                         f"object")
    wrong = [(key, want) for key, want, right in (
        ("n", "a count of events", _is_int(mark.get("n")) and mark["n"] >= 0),
        ("state", "a game's state (a JSON object or null)",
         isinstance(mark.get("state", 0), (dict, type(None)))),
        ("rng", "a dice position (a whole number from 0 to 2**64-1)",
         _is_int(mark.get("rng")) and 0 <= mark["rng"] < SEEDS),
        ("logged", "a count of log entries", _is_int(mark.get("logged")) and
         mark["logged"] >= 0),
        ("starts", "a list of dice positions", isinstance(mark.get("starts", []), list) and
         all(isinstance(s, list) and len(s) == 5 and all(map(_is_int, s))
             for s in mark.get("starts", []))),
        ("head", "a journal head (64 hex digits)", isinstance(mark.get("head", "0" * 64), str)
         and len(mark.get("head", "0" * 64)) == 64 and
         all(c in "0123456789abcdef" for c in mark.get("head", ""))),
    ) if not right]
    if wrong:
        key, want = wrong[0]
        raise AuditError(f"{log}: its checkpoint's {key} is {_shown(mark.get(key))}, not "
                         f"{want}")


def _misplaced(lines: list[str], cut: bool) -> tuple[list[str], set[int]]:
    """Fault lines for the marker lines among the whole ``lines`` not where the device
    writes them, and the indices of the checkpoints among them; ``cut``: a line cut
    short follows (arbiter.store.journal: the checkpoint line right after the header,
    ``#head`` then ``#end`` when the game was left, nothing after)."""
    from arbiter.store.journal import CHECKPOINT, CLOSED, HEAD

    end = CLOSED[:-1]
    last = len(lines) - 1 + cut  # the last line's index, a line cut short included
    astray: dict[str, list[int]] = {}
    for i, line in enumerate(lines[1:], 1):
        if line[:1] != "#":
            continue
        if line.startswith(CHECKPOINT):
            kind, placed = "#ckpt", i == 1
        elif line.startswith(HEAD):
            kind, placed = "#head", i == last - 1 and lines[-1] == end and not cut
        elif line == end:
            kind, placed = "#end", i == last
        else:
            kind, placed = "#", False
        if not placed:
            astray.setdefault(kind, []).append(i)
    faults = []
    for kind, rule in (("#ckpt", "a checkpoint is only the line right after the header"),
                       ("#head", "it is only the line before the #end that ends the "
                                 "journal"),
                       ("#end", "it is only the journal's last line"),
                       ("#", "the journal's only marker lines are #ckpt, #head and #end")):
        found = astray.get(kind)
        if not found:
            continue
        what = "line starting with # that is no marker" if kind == "#" else kind + " line"
        where = "at the end of the journal" if found == [last] else \
            "in the middle of the journal"
        numbers = ", ".join(str(i + 1) for i in found[:5]) + \
            (f" and {len(found) - 5} more" if len(found) > 5 else "")
        count = f"a {what}" if len(found) == 1 else f"{len(found)} {what}s"
        faults.append(f"{count} {where}: line{'s' * (len(found) > 1)} {numbers} ({rule})")
    return faults, set(astray.get("#ckpt", ()))


def _ruleset_text(name: str) -> str:
    try:
        return ruleset_path(name).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditError(f"cannot read the ruleset {name}: {exc}; give it with --ruleset") \
            from None


def _mix_lines(mix: str | None, shown: str | None, notes: list, faults: list) -> None:
    """The players' part in the journal beside what the device showed (the arrows each
    player chose, screens/seal.py)."""
    if mix is None:
        notes.append("no players' part: the dice follow the device's seed alone")
    else:
        notes.append(f"the players' part {mix} was mixed in: the dice follow "
                     f"SHA-256(seed, players' part)")
        if not all(part and set(part) <= set("UDLR") for part in mix.split(".")):
            notes.append("that players' part is not arrows the players chose (older "
                         "firmware timed their presses): the device could choose it")
    if shown is None:
        if mix is not None:
            notes.append("compare it with the one shown before the first roll (--mix)")
        return
    said = ".".join(shown.upper().replace(",", " ").replace(".", " ").split())
    if said != mix:
        faults.append(f"the players' part in the journal ({mix}) is not the one shown "
                      f"before the first roll ({said}): the device changed it")
    else:
        notes.append("the players' part is the one shown before the first roll")


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


def audit(log: Path, ruleset_file: str | None = None, shown: str | None = None,
          head: str | None = None, mix: str | None = None) -> tuple[bool, list[str]]:
    """(whether the journal ``log`` passes, the lines saying what was checked and what
    failed), or AuditError with why it cannot be audited at all: whatever the file
    holds, one line for the error and no line holds a newline or a control character."""
    try:
        ok, lines = _audit(log, ruleset_file, shown, head, mix)
    except AuditError as exc:
        raise AuditError(_one_line(str(exc))) from None
    return ok, [_one_line(line) for line in lines]


LINE_LIMIT = 500  # characters of a line the audit prints; more come only from a forgery


def _one_line(text: str) -> str:
    """``text`` printable on one line: control characters escaped (a journal's text
    may hold a terminal's escapes), and cut short when very long."""
    more = len(text) - LINE_LIMIT
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text[:LINE_LIMIT])
    return text + (f"... ({more:,} more characters)" if more > 0 else "")


def _audit(log, ruleset_file, shown, head, shown_mix=None):
    head = _shown_head(head)
    found = _read(log)
    from arbiter.game import Illegal, ruleset
    from arbiter.game.rng import commitment
    from arbiter.store.saved import rebuild
    from arbiter_referee.compiled import loaded

    header, checkpoint, events, cut, text, faults, past, off = found  # events: with undo and redo
    name = ruleset_file or header["ruleset"]
    if ruleset_file is None and name not in bundled():
        raise AuditError(f"the journal's ruleset {_shown(name)} is not a bundled one "
                         f"({', '.join(bundled())}): give its file with --ruleset")
    try:
        rules = loaded(_ruleset_text(name))
    except ruleset.RulesetError as exc:
        raise AuditError(f"the ruleset {name} is refused: {exc}") from None
    notes = []  # faults: what fails the audit besides the rolls
    if past:  # the game from its start: the first journal's events, then each's new ones
        chained = [journal[:4] for journal in past] + [found[:4]]
        events, wrong = journal_chain.whole(rules, header, chained[0], chained[1:])
        faults += wrong
        checkpoint = past[0][1]
        notes.append(f"{len(past) + 1} journals chained by their heads, each checkpoint "
                     f"checked against the game replayed from its start")
    if off:
        notes.append(f"{off} journal copy(ies) a power cut left unfinished: not on the "
                     f"chain, not read")
    found = (header, checkpoint, events, cut)
    start = checkpoint["n"] if checkpoint else 0
    problems: list[str] = []
    rolls = 0
    numbers = list(accumulate(_is_event(e) for e in events))  # each line's event number

    def check(i, recorded, rolled):
        nonlocal rolls
        rolls += sum(len(group) for group in rolled)
        if recorded != rolled:
            number = start + numbers[i]
            what = events[i].split('|')[0]
            if what[:1] == "!":
                what, number = f"refused {what[1:]}, its dice spent", f"after {number}"
            problems.append(f"event {number} ({what}): recorded "
                            f"{_dice(recorded)}, the seed gives {_dice(rolled)}")

    if shown is not None:
        if shown.strip().lower() != commitment(header["seed"]):
            faults.append("the seed does not hash to the commitment shown at the start: "
                          "not the game the device sealed")
        else:
            notes.append("the seed hashes to the commitment shown at the start")
    else:
        notes.append("compare its commitment with the one shown at the start (--commitment)")
    mix = header.get("mix")
    _mix_lines(mix, shown_mix, notes, faults)
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
    try:
        rebuild(rules, found, check=check)
    except Illegal as exc:
        faults.append(f"the events do not replay: {exc.reason}")
    except Exception as exc:  # whatever the engine meets in a forged journal
        faults.append(f"the journal does not replay: {type(exc).__name__} {exc}")
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
