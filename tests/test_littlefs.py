"""The journal on littlefs as a Pico mounts it: power cut at every erase and program
of a game, and the flash traffic the bench reports."""

import json

import pytest

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter.hw.flash import Flash
from arbiter.store import journal as jnl
from arbiter.store import saved
from arbiter_referee.bench import journal_wear, littlefs
from arbiter_referee.compiled import loaded
from arbiter_referee.rulesets import bundled

# A Kaiju game with undo and redo in it, long enough to compact its journal (a
# checkpoint every 8 events here) three times.
SCRIPT = (["next", "roll d6 3", "next", "roll d20", "add P1.energy 2", "undo", "redo",
           "add P2.energy 1", "next", "add P3.glory 2", "set P1.glory 4", "next"]
          + ["next", "add P1.energy 1"] * 10 + ["undo", "undo", "redo", "next"])


class Logged(littlefs.Device):
    """A device that keeps every erase and program, to rebuild the flash as it was
    before any one of them."""

    def __init__(self, blocks):
        super().__init__(blocks)
        self.log = []

    def prog(self, cfg, block, off, data):
        self.log.append((block * littlefs.BLOCK + off, bytes(data)))
        return super().prog(cfg, block, off, data)

    def erase(self, cfg, block):
        self.log.append((block * littlefs.BLOCK, b"\xff" * littlefs.BLOCK))
        return super().erase(cfg, block)


def flash_on(device):
    return Flash("", littlefs.Filesystem(littlefs.mount(device)))


@pytest.fixture
def rules():
    return loaded(bundled()["kaiju"].read_text())


@pytest.mark.parametrize("keep", [None, jnl.DEVICE_KEEP])
def test_a_power_cut_at_any_erase_or_program_loses_no_recorded_event(rules, monkeypatch, keep):
    monkeypatch.setattr(jnl, "CHECKPOINT_EVERY", 8)
    device = Logged(64)
    littlefs.mount(device, format=True)
    base, start = device.image(), len(device.log)
    flash = flash_on(device)
    game = Game(rules, players=3, seed=5, keep=keep)
    journal = jnl.Journal(flash)
    journal.start(game)
    recorded = [(len(device.log), json.dumps(game.state))]  # ops done when each was whole
    for action in SCRIPT:
        try:
            event = game.apply(action)
        except Illegal:
            continue
        journal.record(game, event)
        recorded.append((len(device.log), json.dumps(game.state)))
    ops = device.log[start:]
    erases = sum(1 for _, data in ops if len(data) == littlefs.BLOCK)
    assert len(ops) >= len(recorded) and erases >= (12 if keep else 3)  # compactions erase
    image = bytearray(base)
    for cut in range(len(ops) + 1):  # the power goes before op ``cut`` (0: before any)
        if cut:
            where, data = ops[cut - 1]
            image[where:where + len(data)] = data
        done = start + cut
        after = littlefs.Device(image=bytes(image))
        resumed = saved.resume(jnl.Journal(flash_on(after)), rules, keep=keep)
        if done < recorded[0][0]:  # cut while the game was starting
            continue
        whole = [state for ops_done, state in recorded if ops_done <= done]
        could = whole[-1:] + [state for ops_done, state in recorded if ops_done > done][:1]
        assert resumed is not None, f"the game is gone after a cut at op {cut}"
        assert json.dumps(resumed.state) in could, f"cut at op {cut} of {len(ops)}"
        # played on after the reset, the journal holds the next event too
        on = flash_on(after)
        jnl.Journal(on).record(resumed, resumed.apply("add P1.energy 1"))
        again = saved.resume(jnl.Journal(flash_on(after)), rules, keep=keep)
        assert again.state == resumed.state, f"played on after a cut at op {cut}"


def test_the_bench_reports_what_a_game_erases_and_programs_on_littlefs():
    # Juggernauts' first 40 actions of the bench's recorded game
    from arbiter_referee.bench import scenarios

    game = next(g for g in scenarios.GAMES if g.name == "juggernauts")
    figures = journal_wear.flash_per_event(game.name, game.players, game.seed,
                                           game.actions[:40], game.options)
    # littlefs programs 256-byte pages and commits metadata: far more than the bytes
    # the journal appends, and what docs/figures.md must say
    assert figures["littlefs_programmed_per_event"] > 8 * figures["per_event"]
    assert 0 < figures["littlefs_erases_per_event"] < 2
    assert figures["littlefs_most_erased_block"] < figures["events"]


def test_a_chips_flash_written_back_changes_only_what_changed_each_file_whole(tmp_path):
    # `arbiter emulate --runtime chip` writes the chip's files into its folder at each
    # restart, while a test may be copying that folder: a file is never seen half written
    from arbiter_referee.chip.runtime import filesystem_image, read_filesystem

    (tmp_path / "before").mkdir()
    (tmp_path / "before" / "game.jnl").write_bytes(b"#seed 5\n")
    (tmp_path / "before" / "same.txt").write_bytes(b"unchanged")
    image = filesystem_image(tmp_path / "before", with_firmware=False)
    folder = tmp_path / "flash"
    folder.mkdir()
    (folder / "same.txt").write_bytes(b"unchanged")
    (folder / "game.jnl").write_bytes(b"#seed 4\n")
    (folder / "gone.txt").write_bytes(b"removed on the chip")
    same, changed = (folder / "same.txt").stat().st_ino, (folder / "game.jnl").stat().st_ino
    read_filesystem(image, folder, with_firmware=False)
    assert sorted(p.name for p in folder.iterdir()) == ["game.jnl", "same.txt"]
    assert (folder / "game.jnl").read_bytes() == b"#seed 5\n"
    assert (folder / "same.txt").stat().st_ino == same  # not rewritten
    assert (folder / "game.jnl").stat().st_ino != changed  # a new file, renamed in place
