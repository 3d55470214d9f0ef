"""Power cuts where a Pico runs (issue 42): each bundled game's recorded session cut
at seeded random moments, a new chip on the same flash each time.

A whole session is too long to play on the chip for each cut, so the emulated device
(CPython) plays the recording up to a press, fast; the chip boots on the flash it
left (a resume) and plays that press and the next few as recorded, and the power
goes at a moment among them: during the k-th flash program or erase after one of
them, part of its bytes done (a write cut in the middle), or after a number of CPU
cycles (a pass cut anywhere). A new chip on that flash must resume the game.

The truth is the emulated device booted on the same flash with the same seed and
the same presses, every version of the journal it wrote kept with the game's undo
reach then. Checked for each cut:

- the journal the power left is byte for byte one the emulated device wrote, and
  no older than the last one it wrote in the pass that said what the chip last said
  on its serial console (an action is said in the pass that journals it): an event
  said is never lost; the event being written may be, only if it was not said;
- the new chip resumes: "Game restored", the same page and serial line as the
  emulated device resuming the same flash;
- undo's reach is kept: the game the emulated device resumes from that flash
  undoes as far back as the game did when that journal was written.
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.paths import use_firmware_path

SEED = 42  # the cut points' dice
PER_GAME = 10
SEGMENT = 6  # the recorded presses the chip plays after its boot; the cut among them
BOOT_SEED, CUT_SEED = 3, 4  # the entropy of the chip's boot and of the one after the cut
JOURNAL = "game.jnl"
RESTORED = "Game restored"

use_firmware_path()  # the firmware's modules, importable here (the emulated device's)


@dataclass
class Cut:
    game: str
    number: int  # 0 to PER_GAME - 1, in the session's order
    press: int  # the recorded press the chip starts at (0: the session's first)
    after: int  # the segment's press (0 to SEGMENT - 1) after which the power goes
    op: int | None  # the k-th flash program or erase after it (None: after cycles)
    part: float  # of that op's bytes done
    cycles: int  # else: this many CPU cycles after it


@dataclass
class Outcome:
    cut: Cut
    how: str = ""  # "mid-write", "mid-pass", "asleep" (the segment's end)
    said_before: int = 0  # serial lines the chip said before the power went
    journal: str = ""  # "version V of N", or what was wrong with it
    journal_version: int | None = None  # the emulated device's version the power left
    lost: int = 0  # events said before the cut and missing from the journal
    resumed: bool = False
    same_resume: bool = False  # the page and serial line the emulated device shows
    # the game's events and undo's reach: (as the journal left was written, resumed)
    events: tuple[int | None, int | None] = (None, None)
    reach: tuple[int | None, int | None] = (None, None)
    resume_cycles: int = 0  # CPU from the new chip's power-on to the game restored
    troubles: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.troubles

    def as_dict(self) -> dict:
        out = asdict(self)
        out["ok"] = self.ok
        return out


# ---- the recorded session, fast on the emulated device ----

def presses(keys: str) -> list[tuple[int, int, int]]:
    """Each press of a button script: (down ms, up ms, button), no chatter."""
    import vscript

    out, down = [], {}
    for at, button, level in vscript.edges(keys):
        if button < 0:
            break
        if level == 0:
            down[button] = at
        elif button in down:
            out.append((down.pop(button), at, button))
    return sorted(out)


def _boot(seed: int, script: str, flash_dir: Path):
    """The emulated device on ``flash_dir``: (board, device, serial lines said)."""
    from arbiter.device import Device
    from arbiter.log import Log
    from vboard import VirtualBoard

    said: list[str] = []
    board = VirtualBoard(seed, script, str(flash_dir) + "/")
    with contextlib.redirect_stdout(io.StringIO()):
        return board, Device(board, Log(said.append)), said


def _step(board, device) -> bool:
    import vsession

    with contextlib.redirect_stdout(io.StringIO()):
        return vsession.step(board, device)


def _files(flash: Path) -> dict[str, bytes]:
    return {path.relative_to(flash).as_posix(): path.read_bytes()
            for path in sorted(flash.rglob("*")) if path.is_file()}


class Session:
    """A game's recorded session on the emulated device, its flash noted as it is
    when each press comes (the passes before it done, not its own)."""

    def __init__(self, game):
        from arbiter.hw.flash import Flash
        from arbiter.store import saved

        self.game = game
        self.marks = presses(game.keys)
        self.changed: list[dict[str, bytes]] = []  # the files not as the factory's
        self.playing: list[bool] = []  # an unfinished game on flash
        with tempfile.TemporaryDirectory() as folder:
            flash = Path(folder)
            factory_flash(flash)
            factory = _files(flash)
            board, device, _ = _boot(game.device_seed, game.keys, flash)

            def note():
                self.changed.append({name: data for name, data in _files(flash).items()
                                     if factory.get(name) != data})
                self.playing.append(saved.unfinished(Flash(folder + "/")))

            while _step(board, device):
                while len(self.changed) < len(self.marks) and \
                        board.elapsed >= self.marks[len(self.changed)][0]:
                    note()
            while len(self.changed) <= len(self.marks):
                note()

    def journaled(self, press: int) -> bool:
        """Whether the passes after ``press`` (to the next) wrote the journal."""
        return self.changed[press + 1].get(JOURNAL) != self.changed[press].get(JOURNAL)

    def flash(self, press: int, folder: Path) -> Path:
        """``folder`` made the flash as it was when ``press`` came."""
        factory_flash(folder)
        for name, data in self.changed[press].items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return folder


def plan(session: Session, per_game: int = PER_GAME, seed: int = SEED) -> list[Cut]:
    """``per_game`` cuts spread over the game: the session's presses that come on an
    unfinished game right after one that journaled, in as many equal stretches; in
    each, one drawn whose segment journals on the emulated device (after a resume the
    screens may differ from the recording's), and a moment among the segment's
    presses, mostly in one of its writes."""
    game = session.game
    rng = random.Random(f"{seed}/{game.name}")
    starts = [i for i in range(1, len(session.marks) - SEGMENT)
              if session.journaled(i - 1) and session.playing[i]]
    cuts = []
    for number in range(per_game):
        stretch = starts[number * len(starts) // per_game:
                         (number + 1) * len(starts) // per_game]
        middle = stretch[len(stretch) // 2]
        others = sorted(set(starts) - set(stretch), key=lambda i: abs(i - middle))
        for press in rng.sample(stretch, len(stretch)) + others:  # the nearest, if none
            writes = _writes_after(session, press)
            if writes:
                break
        else:
            raise ValueError(f"{game.name}: no segment journals")
        # mostly in a write, where a cut hurts: an event's append is one program (its
        # page and the commit), a rewrite several; a later op, a later write's
        op = None if rng.random() < 0.25 else 1 if rng.random() < 0.6 else rng.randint(2, 4)
        after = rng.choice(writes) if op is not None else rng.randrange(SEGMENT)
        cuts.append(Cut(game.name, number, press, after, op, round(rng.random(), 3),
                        rng.randrange(1, 40_000_000)))
    return cuts


def _writes_after(session: Session, press: int) -> list[int]:
    """The segment's presses (0 to SEGMENT - 1) after which the emulated device
    writes its journal, when the chip starts at ``press``."""
    script = segment_script(session.game, press)
    with tempfile.TemporaryDirectory() as folder:
        versions, _, _ = truth(BOOT_SEED, script, session.flash(press, Path(folder)))
    downs = [down for down, _, _ in presses(script)]
    out = set()
    for _, _, elapsed in versions[1:]:
        pressed = sum(1 for down in downs if down <= elapsed)
        if pressed > 1:  # not B's: it only leaves the resumed game's page
            out.add(pressed - 2)
    return sorted(out)


def segment_script(game, press: int) -> str:
    """B to leave the resumed game's page, then the recorded presses from ``press``,
    at their recorded spacing."""
    from vscript import NAMES

    marks = presses(game.keys)[press:press + SEGMENT]
    words = ["gap=0", "wait=1500", "b:hold=80"]
    last = marks[0][0] - 300
    for down, up, button in marks:
        words += [f"wait={down - last}", f"{NAMES[button]}:hold={up - down}"]
        last = up
    return " ".join(words)


def truth(seed: int, script: str, flash: Path):
    """The emulated device on ``flash`` playing ``script``: every version of the journal
    it wrote, in order, each with the game's events and undo reach then (_undo) and
    the ms it was written at; what it said on its serial console; for each line, the
    last version written by the end of the pass that said it."""
    from arbiter.device import Device
    from arbiter.hw.flash import Flash
    from arbiter.log import Log
    from vboard import VirtualBoard

    path = flash / JOURNAL
    versions: list[tuple[bytes, tuple[int, int] | None, int]] = [
        (path.read_bytes() if path.exists() else b"", None, 0)]
    said: list[str] = []
    passes = [0, []]  # the pass under way; each line's pass
    written = [-1]  # each version's pass
    device = None

    def say(line):
        said.append(line[len("arbiter: "):])
        passes[1].append(passes[0])

    def wrote(original):
        def write(name, *args):
            original(name, *args)
            if name == JOURNAL:
                versions.append((path.read_bytes(), device and _undo(device),
                                 board.elapsed))
                written.append(passes[0])
        return write

    board = VirtualBoard(seed, script, str(flash) + "/")
    for name in ("write", "append"):  # on the instance: the firmware's own calls
        setattr(board.flash, name, wrote(getattr(Flash, name).__get__(board.flash)))
    device = Device(board, Log(say))
    while _step(board, device):
        passes[0] += 1
        if len(versions) == 1 and versions[0][1] is None:  # the game as resumed
            versions[0] = (versions[0][0], _undo(device), 0)
    # a line's version: the last written by the end of its pass (an action is said in
    # the pass that journals it, before or after the write: the order is not taken
    # on trust)
    at_line = [max(v for v, when in enumerate(written) if when <= line_pass)
               for line_pass in passes[1]]
    return versions, said, at_line


def _undo(device) -> tuple[int, int] | None:
    """The game the device plays: its events, and how many of them undo reaches back
    (None: no game)."""
    from arbiter.screens.play import PlayScreen

    app = device.app
    for screen in app.stack if app else ():
        if isinstance(screen, PlayScreen):
            history = screen.game.history
            return history.count(), history.count() - history.dropped
    return None


def resumed_by_emulator(flash: Path, seed: int):
    """The emulated device booted on a copy of ``flash``: (its page, its "resumed" serial
    lines, its game's events and undo reach)."""
    from arbiter_referee.emulator.rig import Rig

    with tempfile.TemporaryDirectory() as folder:
        copy = shutil.copytree(flash, Path(folder) / "flash")
        said: list[str] = []
        with contextlib.redirect_stdout(io.StringIO()) as out:
            rig = Rig(copy, seed=seed, factory=False)
            rig.settle()
        said = [line for line in out.getvalue().splitlines() if "resumed" in line]
        return rig.lines, said, _undo(rig.device)


# ---- on the chip ----

def cut_on_chip(pico, game, cut: Cut, start: Path, folder: Path) -> Outcome:
    """One cut: the chip on ``start`` (the emulated device's flash when the cut's press
    came), its segment played, the power gone, a new chip."""
    import vscript
    from arbiter_referee.chip.session import CPU_HZ, WORK_MS, Chip

    outcome = Outcome(cut)
    script = segment_script(game, cut.press)
    versions, truth_said, at_line = truth(BOOT_SEED, script,
                                          shutil.copytree(start, folder / "truth"))
    chip_flash = shutil.copytree(start, folder / "chip")
    with Chip(chip_flash, BOOT_SEED, "script", pico) as chip:
        pressed = -2  # B first, then the segment's presses
        for at, button, level in vscript.edges(script):
            chip.run_to(at)
            if chip.off or button < 0:
                break
            chip.set_pin(button, level)
            if level == 0:
                pressed += 1
                if pressed == cut.after:
                    if cut.op is None:
                        chip.lose_power_after(cut.cycles)
                    else:
                        chip.lose_power_at_write(cut.op, cut.part)
        if not chip.off:
            chip.settle()
        outcome.how = ("mid-write" if cut.op is not None else "mid-pass") if chip.off \
            else "asleep"
        said = [line[len("arbiter: "):] for line in chip.serial_lines()
                if line.startswith("arbiter: ")]
        outcome.said_before = len(said)
        if said != truth_said[:len(said)]:
            outcome.troubles.append(f"the chip said {said[-3:]} where the emulated device "
                                    f"said {truth_said[max(0, len(said) - 3):len(said)]}")
        cut_flash = folder / "cut"
        chip.save_flash(cut_flash)
        spoke = min(len(said), len(at_line))
        _check_journal(outcome, cut_flash, versions, at_line[spoke - 1] if spoke else 0)
        serial_before = len(chip.serial)
        power_on = chip.cycles
        for button in range(6):  # the player's thumb lets go: no button held at the boot
            chip.set_pin(button, 1)
        chip.power_cycle(CUT_SEED)
        chip.run(1500)
        chip.settle()
        work = WORK_MS * CPU_HZ // 1000
        worked = [total for _at, cycles, total in chip.passes
                  if total > power_on and cycles > work]
        outcome.resume_cycles = (worked[-1] if worked else power_on) - power_on
        page = read_lines(chip.board.oled.ram)
        after = chip.serial[serial_before:].decode(errors="replace").splitlines()
    resumed = [line[len("arbiter: "):] for line in after if "resumed" in line]
    outcome.resumed = page[:1] == [RESTORED] and len(resumed) == 1
    if not outcome.resumed:
        outcome.troubles.append(f"not resumed: the page says {page}, the serial {after[-4:]}")
    their_page, their_said, theirs = resumed_by_emulator(cut_flash, CUT_SEED)
    outcome.same_resume = page == their_page and resumed == [
        line[len("arbiter: "):] for line in their_said]
    if not outcome.same_resume:
        outcome.troubles.append(f"the emulated device resumes the same flash as {their_page} "
                                f"{their_said}, the chip as {page} {resumed}")
    version = outcome.journal_version
    before = versions[version][1] if version is not None else None
    said_count = [int(line.split()[-2]) for line in resumed]  # "resumed G after N events"
    outcome.events = (before and before[0], said_count[0] if said_count else None)
    outcome.reach = (before and before[1], theirs and theirs[1])
    if before is not None and outcome.events[1] != before[0]:
        outcome.troubles.append(f"the journal holds a game of {before[0]} events, the chip "
                                f"resumed {outcome.events[1]}")
    if before is not None and outcome.reach[1] != before[1]:
        outcome.troubles.append(f"undo reached {before[1]} events back before the cut, "
                                f"{outcome.reach[1]} after")
    return outcome


def _check_journal(outcome: Outcome, flash: Path, versions, least: int) -> None:
    """The journal the power left, against the emulated device's versions: one of them,
    no older than ``least`` (the last written in the pass of the chip's last line)."""
    outcome.journal_version = None
    path = flash / JOURNAL
    left = path.read_bytes() if path.exists() else b""
    found = [i for i, version in enumerate(versions) if version[0] == left]
    found = [i for i in found if i >= least] or found  # the same bytes again: the later
    if not found:
        outcome.journal = "none the emulated device wrote"
        outcome.troubles.append(f"the journal after the cut ({len(left)} bytes) is none "
                                f"the emulated device wrote")
        return
    version = min(found)
    outcome.journal_version = version
    outcome.journal = f"version {version} of {len(versions) - 1}"
    if version < least:
        # each later version an append (an event) or a rewrite (the same game)
        outcome.lost = sum(1 for i in range(version + 1, least + 1)
                           if versions[i][0].startswith(versions[i - 1][0]))
        outcome.troubles.append(f"journal version {version} left, {least} written in the "
                                f"pass of the chip's last line: {outcome.lost} events lost")


# ---- the bench's figures ----

def run(pico, games, per_game: int = PER_GAME, only=None, progress=None) -> list[Outcome]:
    """Each game's planned cuts on the chip (``only(cut)``: which to make; all by
    default); ``progress(what)`` before each."""
    out = []
    for game in games:
        session = Session(game)
        for cut in plan(session, per_game):
            if only and not only(cut):
                continue
            if progress:
                progress(f"{game.name}: power cut {cut.number + 1} of {per_game} on the chip")
            with tempfile.TemporaryDirectory() as folder:
                start = session.flash(cut.press, Path(folder) / "start")
                out.append(cut_on_chip(pico, game, cut, start, Path(folder)))
    return out


def figures(outcomes: list[Outcome]) -> dict:
    """Per game: cuts made (how many in a write), events lost, games not resumed, cuts
    with any trouble, and the new chip's CPU from power-on to the game restored."""
    from arbiter_referee.chip.session import CPU_HZ

    games: dict[str, dict] = {}
    for o in outcomes:
        g = games.setdefault(o.cut.game, {"cuts": 0, "mid_write": 0, "events_lost": 0,
                                          "not_resumed": 0, "troubles": [],
                                          "resume_ms": []})
        g["cuts"] += 1
        g["mid_write"] += o.how == "mid-write"
        g["events_lost"] += o.lost
        g["not_resumed"] += not o.resumed
        g["troubles"] += [f"cut {o.cut.number}: {t}" for t in o.troubles]
        g["resume_ms"].append(round(o.resume_cycles * 1000 / CPU_HZ))
    for g in games.values():
        ms = sorted(g.pop("resume_ms"))
        g["resume_ms"] = {"median": ms[len(ms) // 2], "worst": ms[-1]}
    return games


def shortfall(result: dict) -> str | None:
    """What broke the cuts' budget (no event lost, every game resumed, nothing else
    wrong), in a line; None when it holds."""
    lost = sum(g["events_lost"] for g in result.values())
    lame = sum(g["not_resumed"] for g in result.values())
    troubled = sum(len(g["troubles"]) for g in result.values())
    if not (lost or lame or troubled):
        return None
    return (f"the power cuts' budget is not met: {lost} events lost, {lame} games not "
            f"resumed, {troubled} troubles")


def lines(result: dict) -> list[str]:
    out = ["== power cuts on the chip: each game cut at seeded moments of its recorded "
           "session, a new chip on the same flash"]
    for name, g in result.items():
        out.append(f"  {name:12} {g['cuts']} cuts ({g['mid_write']} in a flash write): "
                   f"{g['events_lost']} events lost, {g['not_resumed']} not resumed; "
                   f"resumed in {g['resume_ms']['median']} ms of CPU median, "
                   f"{g['resume_ms']['worst']} worst")
        out += [f"  {'':12} {trouble}" for trouble in g["troubles"]]
    return out
