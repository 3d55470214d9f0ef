"""``arbiter audit`` on forged and broken journals: the one-line refusal or its report
with a fault, never a traceback or a hang; marker lines only where the device writes
them. First the shapes an attacker's report found, then a seeded fuzz of hundreds of
journals derived from real ones."""

import functools
import json
import random
import time

import pytest
from helpers.game import PROBE

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter.game.rng import commitment
from arbiter.hw.flash import Flash
from arbiter.store import journal as jnl
from arbiter_referee import compiled
from arbiter_referee.cli import main as arbiter
from arbiter_referee.commands.audit import AuditError, audit
from arbiter_referee.rulesets import bundled

MIX = "UULR.DDDD.LRLR"  # the players' part: the arrows each chose (screens/seal.py)
# Actions that keep a Jugger game going as long as wanted (as tests/test_journal.py).
LONG = ["next", "dispute", "out P1.j1", "next", "hit P2.j2 crouch=1", "next", "dispute n=2",
        "next"]
class Recorded:
    """A journal as a device wrote it, and what the device showed: its commitment at the
    start and, once left, its head at End game."""

    def __init__(self, text, seed, head=None, ruleset_file=None):
        self.text, self.commitment, self.head = text, commitment(seed), head
        self.ruleset_file = ruleset_file


def _played(folder, game, script, close=True):
    """``script`` played on ``game`` and journaled in ``folder`` as the device does,
    refused actions' spent dice included."""
    flash = Flash(str(folder) + "/")
    journal = jnl.Journal(flash)
    journal.start(game)
    for action in script:
        try:
            journal.record(game, game.apply(action))
        except Illegal as exc:
            if getattr(exc, "spent", None):
                journal.record(game, exc.spent)
    if close:
        journal.close()
    return (folder / jnl.JOURNAL).read_text(), journal.head.hex() if close else None


def recorded_games(folder):
    """Three real journals: a Kaiju game left with End game (an undone and a redone
    roll); a Jugger game played as the device keeps it (keep=DEVICE_KEEP), compacted
    past CHECKPOINT_EVERY events; a game with refused actions' spent dice, unfinished."""
    games = {}
    for name, seed, game, script, close in (
            ("kaiju", 5, Game(compiled.loaded(bundled()["kaiju"].read_text()), players=3,
                              seed=5, mix=MIX),
             ["next", "add P1.energy 3", "next", "roll d20 2", "undo agreed", "roll d6",
              "redo", "next", "glory P2 4", "next", "roll d8", "undo agreed", "redo"], True),
            ("jugger", 77, Game(compiled.loaded(bundled()["jugger"].read_text()), players=2,
                                seed=77, keep=jnl.DEVICE_KEEP, mix=MIX),
             LONG * (jnl.CHECKPOINT_EVERY // len(LONG) + 1) +
             ["dispute", "undo agreed", "next", "dispute"], True),
            ("probe", 1, Game(compiled.loaded(json.dumps(PROBE)), players=2, seed=1),
             ["probe P1"] * 12 + ["attack P1", "next"], False)):
        (folder / name).mkdir()
        text, head = _played(folder / name, game, script, close)
        rules = None
        if name == "probe":
            rules = folder / "probe.json"
            rules.write_text(json.dumps(PROBE))
            rules = str(rules)
        games[name] = Recorded(text, seed, head, rules)
    assert jnl.CHECKPOINT in games["jugger"].text and "\n!probe P1|" in games["probe"].text
    return games


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    return recorded_games(tmp_path_factory.mktemp("games"))


def audited(tmp_path, text, *args):
    """``arbiter audit`` of a journal holding ``text``, in-process: (its exit status,
    the journal's path)."""
    log = tmp_path / "game.jnl"
    log.write_bytes(text if isinstance(text, bytes) else text.encode())
    status = arbiter(["audit", str(log), *args])
    return status, log


def refusal(capsys):
    """The one line ``arbiter audit`` wrote on stderr, nothing on stdout."""
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err and len(err.splitlines()) == 1, err
    return err.strip()


def header_with(text, **values):
    lines = text.split("\n")
    header = json.loads(lines[0])
    header.update(values)
    return "\n".join([json.dumps(header)] + lines[1:])


# -- what the attacker's report found --------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2 ** 70, 2 ** 64, True, 2.5, "5", None])
def test_a_seed_no_device_makes_is_refused_in_one_line(games, tmp_path, capsys, seed):
    # docs/rulesets.md: "A file that is no device's journal is refused with one line
    # (`arbiter audit: ...`, exit 1): ... a header without a seed from 0 to `2**64-1`".
    # The device's seed is ``int.from_bytes(os.urandom(8), "big")`` (board.entropy_seed),
    # shown as 16 hex digits at End game: a whole number from 0 to 2**64-1
    status, log = audited(tmp_path, header_with(games["kaiju"].text, seed=seed))
    assert status == 1
    assert refusal(capsys) == f"arbiter audit: {log}: the header's seed is " \
                              f"{json.dumps(seed)}, not a device's: a whole number from 0 " \
                              f"to 2**64-1"


@pytest.mark.parametrize("key, value, want", [
    ("players", "3", "a number of players"), ("players", [1, 2], "a number of players"),
    ("options", [1], "a game's options (a JSON object)"),
    ("options", "short", "a game's options (a JSON object)"),
    ("mix", [1], "the players' part (text)"), ("mix", 12, "the players' part (text)"),
    ("ruleset", 5, "a ruleset's name"), ("ruleset", ["kaiju"], "a ruleset's name")])
def test_a_header_value_of_the_wrong_type_is_refused_in_one_line(games, tmp_path, capsys,
                                                                 key, value, want):
    # docs/rulesets.md: refused with one line, "a header without ... a ruleset's name
    # ..., a number of players, options and a players' part of text"
    status, log = audited(tmp_path, header_with(games["kaiju"].text, **{key: value}))
    assert status == 1
    assert refusal(capsys) == f"arbiter audit: {log}: the header's {key} is " \
                              f"{json.dumps(value)}, not {want}"


def test_a_header_naming_a_file_for_its_ruleset_is_refused(games, tmp_path, capsys):
    # docs/rulesets.md: "`--ruleset FILE` when it is not a bundled ruleset": a journal
    # does not choose which file of the auditor's the audit reads
    status, _ = audited(tmp_path, header_with(games["kaiju"].text,
                                              ruleset=str(bundled()["kaiju"])))
    assert status == 1
    line = refusal(capsys)
    assert line.startswith("arbiter audit: the journal's ruleset ") and \
        line.endswith(": give its file with --ruleset")


@pytest.mark.parametrize("checkpoint, reason", [
    ("5", "its checkpoint (line 2) is 5, not a JSON object"),
    ("[1, 2]", "its checkpoint (line 2) is [1, 2], not a JSON object"),
    ("null", "its checkpoint (line 2) is null, not a JSON object"),
    ("[" * 100000, "its checkpoint (line 2) nests too deep to be a device's"),
    ("[" * 100000 + "]" * 100000, "its checkpoint (line 2) nests too deep to be a device's"),
    ('{"n": 3', "its checkpoint (line 2) is not JSON"),
    ("{}", "its checkpoint's n is null, not a count of events")])
def test_a_checkpoint_not_of_the_devices_shape_is_refused_in_one_line(
        games, tmp_path, capsys, checkpoint, reason):
    # docs/rulesets.md: refused with one line, "a checkpoint not of the device's shape"
    # (journal.py: "a checkpoint line (state, dice, log count)", a JSON object)
    lines = games["jugger"].text.split("\n")
    assert lines[1].startswith(jnl.CHECKPOINT)
    lines[1] = jnl.CHECKPOINT + checkpoint
    status, log = audited(tmp_path, "\n".join(lines))
    assert status == 1 and refusal(capsys) == f"arbiter audit: {log}: {reason}"


@pytest.mark.parametrize("key, value", [("rng", -1), ("rng", 2 ** 64), ("rng", "7"),
                                        ("n", -1), ("n", 1.5), ("logged", None),
                                        ("state", [1]), ("starts", [[1, 2]])])
def test_a_checkpoint_value_of_the_wrong_type_is_refused_in_one_line(
        games, tmp_path, capsys, key, value):
    lines = games["jugger"].text.split("\n")
    mark = json.loads(lines[1][len(jnl.CHECKPOINT):])
    mark[key] = value
    lines[1] = jnl.CHECKPOINT + json.dumps(mark)
    status, log = audited(tmp_path, "\n".join(lines))
    assert status == 1
    line = refusal(capsys)
    assert line.startswith(f"arbiter audit: {log}: its checkpoint's {key} is "
                           f"{json.dumps(value)}, not ")


MARKER_RULES = {
    "#end": "(it is only the journal's last line)",
    "#head": "(it is only the line before the #end that ends the journal)",
    "#ckpt": "(a checkpoint is only the line right after the header)",
}


@pytest.mark.parametrize("game", ["kaiju", "jugger"])
@pytest.mark.parametrize("marker", ["#end", "#head"])
def test_a_marker_line_in_the_middle_fails_the_audit_against_the_head_shown(
        games, tmp_path, capsys, game, marker):
    # docs/rulesets.md: "The hash chain leaves out `#head` and `#end`, so where the
    # marker lines stand is checked": the head shown cannot catch one added elsewhere
    honest = games[game]
    lines = honest.text.split("\n")
    line = "#end" if marker == "#end" else jnl.HEAD + honest.head
    lines.insert(4, line)
    status, _ = audited(tmp_path, "\n".join(lines), "--commitment", honest.commitment,
                        "--head", honest.head)
    out = capsys.readouterr().out.splitlines()
    assert status == 1
    assert f"a {marker} line in the middle of the journal: line 5 {MARKER_RULES[marker]}" \
        in out
    assert "all rolls match the seed" not in out


def test_the_honest_journals_pass_against_what_the_device_showed(games, tmp_path, capsys):
    for game in ("kaiju", "jugger"):
        honest = games[game]
        status, _ = audited(tmp_path, honest.text, "--commitment", honest.commitment,
                            "--head", honest.head)
        out = capsys.readouterr().out.splitlines()
        assert status == 0 and out[-1] == "all rolls match the seed", out
    probe = games["probe"]
    status, _ = audited(tmp_path, probe.text, "--ruleset", probe.ruleset_file)
    out = capsys.readouterr().out.splitlines()
    assert status == 0 and "refused action(s) with dice, checked as drawn" in out[-2], out


@pytest.mark.parametrize("edit, fault", [
    pytest.param(lambda ls: ls[:3] + ["#end", "#end"] + ls[3:],
                 "2 #end lines in the middle of the journal: lines 4, 5 " +
                 MARKER_RULES["#end"], id="two #end in the middle"),
    pytest.param(lambda ls: ls + ["#end"], "a #end line in the middle of the journal: line ",
                 id="#end twice at the end"),
    pytest.param(lambda ls: ls[:-1], "a #head line at the end of the journal: line ",
                 id="#head without #end"),
    pytest.param(lambda ls: ls[:3] + [ls[1]] + ls[3:],
                 "a #ckpt line in the middle of the journal: line 4 " + MARKER_RULES["#ckpt"],
                 id="a second checkpoint"),
    pytest.param(lambda ls: ls[:3] + ["#ckpt " + "[" * 50000] + ls[3:],
                 "a #ckpt line in the middle of the journal: line 4 " + MARKER_RULES["#ckpt"],
                 id="a nested checkpoint in the middle"),
    pytest.param(lambda ls: ls[:3] + ["#note"] + ls[3:],
                 "a line starting with # that is no marker in the middle of the journal: "
                 "line 4 (the journal's only marker lines are #ckpt, #head and #end)",
                 id="another # line")])
def test_every_marker_out_of_place_is_a_fault_line(games, tmp_path, capsys, edit, fault):
    # docs/rulesets.md: "a `#ckpt` line anywhere but right after the header, a `#head`
    # anywhere but just before the `#end` that ends the journal, an `#end` anywhere but
    # last, or another line starting with `#`, fails the audit with a line saying which"
    lines = games["jugger"].text.split("\n")[:-1]  # (without the last newline's "")
    status, _ = audited(tmp_path, "\n".join(edit(lines)) + "\n")
    out = capsys.readouterr().out.splitlines()
    assert status == 1 and any(line.startswith(fault) for line in out), out


@pytest.mark.parametrize("content, says", [
    (b"", "is not a game journal (no header with a seed and a ruleset)"),
    (b"#ckpt {}\n#head 00\n#end\n", "is not a game journal (no header with a seed and a ruleset)"),
    (b"#end\n", "is not a game journal (no header with a seed and a ruleset)"),
    (b'{"ruleset": "kaiju", "seed": 5, "players": 3, "options": {}}\n\xff\xfe\n',
     "is not a game journal (not text)"),
    (b"[" * 100000 + b"\n", "is not a game journal (no header with a seed and a ruleset)")])
def test_what_is_no_journal_at_all_is_refused_in_one_line(tmp_path, capsys, content, says):
    # docs/rulesets.md: "A file that is no device's journal is refused with one line"
    status, log = audited(tmp_path, content)
    assert status == 1 and refusal(capsys) == f"arbiter audit: {log} {says}"


def test_a_forged_event_line_is_a_fault_on_one_printable_line(games, tmp_path, capsys):
    # a line of a megabyte, and a terminal's escapes that would erase the line before
    lines = games["kaiju"].text.split("\n")
    for forged, fault in (
            ("x" * 1_000_000, "the events do not replay: unknown action xxxx"),
            ("\x1b[1A\x1b[2Kall rolls match the seed",
             "the events do not replay: unknown action \\x1b[1a\\x1b[2kall")):
        started = time.monotonic()
        status, _ = audited(tmp_path, "\n".join(lines[:3] + [forged] + lines[3:]))
        out = capsys.readouterr().out.splitlines()
        assert status == 1 and time.monotonic() - started < 10
        assert any(line.startswith(fault) for line in out), out
        assert all(line.isprintable() and len(line) < 600 for line in out)


def test_a_forged_checkpoint_position_is_found_unreachable_at_once(games, tmp_path, capsys):
    # docs/rulesets.md: the audit "checks that the checkpoint's generator position is
    # reachable from the seed within 1,000,000 draws"; stepping there took seconds
    lines = games["jugger"].text.split("\n")
    mark = json.loads(lines[1][len(jnl.CHECKPOINT):])
    honest = mark["rng"]
    for position, said in ((honest, "the checkpoint's dice are draw "),
                           (honest ^ 1 << 40, "the checkpoint's dice are not within "
                                              "1,000,000 draws of the seed")):
        mark["rng"] = position
        lines[1] = jnl.CHECKPOINT + json.dumps(mark, separators=(",", ":"))
        started = time.monotonic()
        audited(tmp_path, "\n".join(lines))
        assert time.monotonic() - started < 3
        assert any(line.startswith(said) for line in capsys.readouterr().out.splitlines())


def test_the_checkpoints_draw_is_the_count_of_draws_from_the_seed(games, tmp_path, capsys):
    # "the checkpoint's dice are draw D of the seed": D draws of the generator the game
    # started with reach the checkpoint's position
    from arbiter.game.rng import Rng, dice_seed

    lines = games["jugger"].text.split("\n")
    position = json.loads(lines[1][len(jnl.CHECKPOINT):])["rng"]
    rng, draws = Rng(dice_seed(77, MIX)), 0
    while rng.snapshot() != position:
        rng.next32()
        draws += 1
    audited(tmp_path, games["jugger"].text)
    assert f"the checkpoint's dice are draw {draws:,} of the seed" in \
        capsys.readouterr().out.splitlines()


# -- the fuzz ----------------------------------------------------------------------------

FUZZ_SEED = 20260529
FUZZED = 600
ODD_VALUES = [-1, -2 ** 63, 2 ** 64, 2 ** 70, 10 ** 40, 0, 0.5, -0.0, 1e308, "5", "", None,
              True, False, [], [1, [2, [3]]], {}, {"a": {"b": [None]}}, "x" * 5000,
              "\u202e\x1b[2K\r", "é\x00", [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]
MARKERS = ["#end", "#head ", "#ckpt ", "#ckpt {}", "#ckpt 5", "#ckpt null", "#", "#foo",
           "#end ", "#head", "#ckpt"]
ODD_EVENTS = ["", "|", "next|", "!", "!!next", "!next|1", "undo agreed", "undo", "redo",
              "redo redo", "roll d20 2|a,b", "roll d20 2|" + "9" * 60, "next|1;2;3",
              "roll d20 999999999999999999999", "roll d0", "roll d-1", "roll d6 -3",
              "add P1.energy 99999999999999999999", "add P9.energy 1", "\x00", "\ufeffnext",
              "\x1b[2Kall rolls match the seed", "é" * 40, "next " * 2000,
              "x" * 1_000_000, "glory P2 4|1", "dispute n=999", "dispute n=-1",
              "hit P2.j2 crouch=1e9", "out P1.j1 P1.j1 P1.j1", "!probe P1|6", "!probe P1|",
              "probe P1|6", "attack P1|9", "attack P1|1;1", "pick P1 x", "next|;"]


def _nested(depth):
    return "[" * depth + "]" * depth


def _odd_json(rng):
    """JSON text of an odd value: one of ODD_VALUES, or lists nested deep."""
    if rng.random() < 0.2:
        return _nested(rng.choice([50, 500, 5000, 100000]))
    return json.dumps(rng.choice(ODD_VALUES))


def _with_field(line, key, value_text):
    """A JSON object line with ``key`` set to the JSON text ``value_text`` (as it is:
    nested deep or not)."""
    data = json.loads(line)
    data[key] = "@@"
    return json.dumps(data).replace('"@@"', value_text, 1)


def _into_state(state, rng):
    """``state`` with a value somewhere in it replaced by an odd one."""
    where = state
    for _ in range(rng.randrange(1, 5)):
        if isinstance(where, dict) and where:
            key = rng.choice(sorted(where))
        elif isinstance(where, list) and where:
            key = rng.randrange(len(where))
        else:
            break
        if rng.random() < 0.4 or not isinstance(where[key], (dict, list)):
            where[key] = rng.choice(ODD_VALUES)
            break
        where = where[key]
    return state


def mutate(text, games, rng):
    """One random change of a journal's text: a line deleted, doubled, moved, replaced;
    a marker inserted; a header or checkpoint value made odd; the bytes cut, flipped or
    made not UTF-8."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines) + 1)
    kind = rng.randrange(16)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(j, lines[i])
    elif kind == 2:
        k = rng.randrange(len(lines))
        lines[i], lines[k] = lines[k], lines[i]
    elif kind == 3:
        marker = rng.choice(MARKERS)
        if marker == "#head ":
            marker += rng.choice([g.head for g in games.values() if g.head] + ["00" * 32])
        elif marker == "#ckpt ":
            marker = next((line for g in games.values() for line in g.text.split("\n")
                           if line.startswith(jnl.CHECKPOINT)))
        lines.insert(j, marker)
    elif kind in (4, 5):  # a header value
        try:
            key = rng.choice(["seed", "seed", "ruleset", "players", "options", "mix",
                              "format", "extra"])
            lines[0] = _with_field(lines[0], key, _odd_json(rng))
        except (ValueError, AttributeError, TypeError):
            lines[0] = _odd_json(rng)
    elif kind == 6:  # the header replaced whole
        lines[0] = _odd_json(rng)
    elif kind in (7, 8):  # a checkpoint value, or one deep in its state
        at = [n for n, line in enumerate(lines) if line.startswith(jnl.CHECKPOINT)]
        if at:
            try:
                mark = json.loads(lines[at[0]][len(jnl.CHECKPOINT):])
                if kind == 7 or not isinstance(mark.get("state"), dict):
                    key = rng.choice(["n", "state", "rng", "logged", "starts", "head"])
                    lines[at[0]] = jnl.CHECKPOINT + _with_field(json.dumps(mark), key,
                                                                _odd_json(rng))
                else:
                    mark["state"] = _into_state(mark["state"], rng)
                    lines[at[0]] = jnl.CHECKPOINT + json.dumps(mark)
            except (ValueError, AttributeError, TypeError, RecursionError):
                lines[at[0]] = jnl.CHECKPOINT + _odd_json(rng)
        else:
            lines.insert(1, jnl.CHECKPOINT + _odd_json(rng))
    elif kind in (9, 10):  # an event line replaced or added
        odd = rng.choice(ODD_EVENTS)
        if kind == 9 and i:
            lines[i] = odd
        else:
            lines.insert(max(j, 1), odd)
    elif kind == 11:  # a line from another game
        other = rng.choice(list(games.values())).text.split("\n")
        lines.insert(j, rng.choice(other))
    elif kind == 12:  # the ending cut, or line ends of another system
        return rng.choice(["\n".join(lines[:j]), text.rstrip("\n"), text.replace("\n", "\r\n"),
                           text.replace("\n", "\r")])
    else:  # bytes
        data = bytearray(text.encode())
        at = rng.randrange(len(data) + 1)
        if kind == 13 and data:
            data[min(at, len(data) - 1)] ^= rng.randrange(1, 256)
        elif kind == 14:
            data[at:at] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\r"])
        else:
            del data[at:]
        return bytes(data)
    return "\n".join(lines)


def misplaced_marker(text):
    """Whether a whole line of ``text`` is a marker where the device writes none: a
    checkpoint anywhere but right after the header, a #head anywhere but just before
    the #end that ends the journal, a #end anywhere but last, or another # line."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # as read as text
    cut = lines.pop() != ""
    last = len(lines) - 1 + cut
    for i, line in enumerate(lines[1:], 1):
        if line[:1] == "#" and not (
                line.startswith(jnl.CHECKPOINT) and i == 1 or
                line == "#end" and i == last or
                line.startswith(jnl.HEAD) and i == last - 1 and lines[-1] == "#end" and
                not cut):
            return True
    return False


def fuzzed(games, count=FUZZED, seed=FUZZ_SEED):
    """``count`` hostile journals derived from ``games``: (its bytes or text, the game it
    came from)."""
    rng = random.Random(seed)
    names = sorted(games)
    for n in range(count):
        if n % 50 == 0:  # the shapes of no journal at all, now and then
            yield rng.choice([b"", b"\n", b"#end\n", b"#head 00\n#end\n", b"\xff\xfe\x00",
                              b"x" * 1_000_000, b"\n" * 1000, b"#ckpt {}\n" * 50]), \
                games[names[0]]
            continue
        game = games[rng.choice(names)]
        text = game.text
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            text = mutate(text if isinstance(text, str) else
                          text.decode("utf-8", "replace"), games, rng)
        yield text, game


def fuzz(games, folder, count=FUZZED, seed=FUZZ_SEED):
    """Audit every fuzzed journal in-process; the counts of each outcome (refused, with
    a fault, passed) and the longest audit in seconds. Fails on any exception other than
    AuditError, a refusal of more than one line, a line with a newline or a control
    character, a verdict its last line does not say, and a marker out of place that
    passed."""
    counts = {"refused": 0, "faulted": 0, "passed": 0}
    longest = 0.0
    log = folder / "fuzzed.jnl"
    rng = random.Random(seed + 1)
    for n, (text, game) in enumerate(fuzzed(games, count, seed)):
        data = text if isinstance(text, bytes) else text.encode()
        log.write_bytes(data)
        shown = rng.choice([(None, None), (game.commitment, game.head),
                            (game.commitment, None)])
        if shown[1] is None and rng.random() < 0.5 and game.head:
            shown = (None, game.head[:16])
        started = time.perf_counter()
        try:
            ok, lines = audit(log, game.ruleset_file, *shown)
        except AuditError as exc:
            assert str(exc) and str(exc).isprintable(), (n, data[:200], str(exc))
            counts["refused"] += 1
        else:
            assert isinstance(ok, bool) and lines, (n, data[:200])
            assert all(isinstance(line, str) and line.isprintable() for line in lines), \
                (n, data[:200], lines)
            assert ok == (lines[-1] == "all rolls match the seed"), (n, data[:200], lines)
            if ok:
                assert not misplaced_marker(data.decode()), (n, data[:200], lines)
            counts["passed" if ok else "faulted"] += 1
        longest = max(longest, time.perf_counter() - started)
        assert longest < 2, (n, data[:200])  # a hang: an audit takes a few ms
    return counts, longest


def test_no_fuzzed_journal_raises_or_hangs_the_audit(games, tmp_path, monkeypatch):
    # the task: "never a traceback, never a hang"; a refusal is one line, a report's
    # lines are printable text, and it passes only when it says so last. (Each ruleset
    # is loaded once here, as in one run of the command: loading it is no journal's.)
    monkeypatch.setattr(compiled, "loaded", functools.lru_cache(maxsize=8)(compiled.loaded))
    counts, _ = fuzz(games, tmp_path)
    assert sum(counts.values()) == FUZZED >= 500
    assert min(counts.values()) > 0, counts  # each outcome met: a fuzz that reaches
