"""A full flash loses nothing and says so (issue 45, item 5): "the device knows its free
space, warns before a game cannot be saved, and never crash-loops". On littlefs as a
Pico mounts it (bench.littlefs), with all but a few blocks taken by another file."""

from helpers.device import game_of, start_game

from arbiter.hw.flash import Flash
from arbiter.store import saved
from arbiter_referee.bench import littlefs
from arbiter_referee.compiled import factory_flash
from arbiter_referee.emulator.rig import Rig

BLOCKS = 96  # a small flash: 384 KB


def nearly_full(tmp_path, free_blocks):
    """littlefs holding the bundled rulesets and a file that leaves ``free_blocks``."""
    factory_flash(tmp_path / "factory")
    fs = littlefs.Filesystem(littlefs.mount(littlefs.Device(BLOCKS), format=True))
    fs.mkdir("rulesets")
    for path in sorted((tmp_path / "factory").rglob("*")):
        if path.is_file():
            with fs.open(path.relative_to(tmp_path / "factory").as_posix(), "wb") as f:
                f.write(path.read_bytes())
    flash = Flash("", fs=fs)
    with fs.open("photos.bin", "wb") as f:  # what else a maker keeps on it
        while flash.free() > free_blocks * littlefs.BLOCK:
            f.write(bytes(littlefs.BLOCK))
            f.flush()
    return fs


def test_a_nearly_full_flash_warns_then_stops_saving_and_loses_no_event(tmp_path):
    fs = nearly_full(tmp_path, 1)
    rig = Rig(tmp_path / "flash", fs=fs)
    start_game(rig, "kaiju")
    assert "Flash almost full" in " ".join(rig.lines)  # warned at the start
    refused = None
    for _ in range(400):
        before = game_of(rig).count()
        rig.keys("a")
        said = " ".join(line.strip() for line in rig.lines)
        assert rig.lines[0] != "Error", rig.lines  # never a crash
        if "not saved" in said:
            refused = before
            break
    assert refused is not None, "the flash never filled"
    assert "the flash is full" in said.replace("  ", " ")
    game = game_of(rig)
    assert game.count() == refused  # the action not taken: the game is what is saved
    on_flash = saved.read(Flash("", fs=fs))
    again = rig.reboot()  # and a power cycle brings it back as it was
    assert again.lines[0] == "Game restored", again.lines
    assert game_of(again).count() == refused and on_flash is not None


def test_a_full_flash_at_power_on_never_crash_loops_nor_sets_the_game_aside(tmp_path):
    fs = nearly_full(tmp_path, 6)
    rig = Rig(tmp_path / "flash", fs=fs)
    start_game(rig, "kaiju")
    rig.keys(*["a"] * 10)
    with fs.open("game.jnl", "a") as f:  # the power went mid-line: a resume rewrites it
        f.write("nex")
    with fs.open("more.bin", "wb") as f:  # and the flash is full
        while Flash("", fs=fs).free() > 0:
            f.write(bytes(littlefs.BLOCK))
            f.flush()
    again = rig.reboot()
    again.run(30000)
    assert again.device.crashes == [] and again.lines[0] == "Saved game", again.lines
    said = " ".join(line.strip() for line in again.lines)
    assert "the flash is full" in said and "It stays on flash" in said
    fs.remove("more.bin")  # space made (Connect to PC, or a ruleset removed)
    third = again.reboot()
    assert third.lines[0] == "Game restored" and game_of(third).count() == 10
