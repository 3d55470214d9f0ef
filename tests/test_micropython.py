"""The real-MicroPython gate: the firmware compiles with mpy-cross, runs under the
WASI MicroPython (menus and dice in a 64 KB heap, a game in a Pico's 192 KB), and
shows exactly what it shows under CPython."""

from pathlib import Path

import pytest

from arbiter_referee.build import compile_file, compile_tree
from arbiter_referee.cli import main as arbiter
from arbiter_referee.emulator.scripts import DEMO_SCRIPT, GAME_SCRIPT, MENU_SCRIPT
from arbiter_referee.emulator.session import run_driver, run_session
from arbiter_referee.emulator.wasm import MENU_HEAP, PICO_HEAP
from arbiter_referee.paths import FIRMWARE

FIRMWARE_FILES = sorted(FIRMWARE.rglob("*.py"))


@pytest.mark.parametrize("source", FIRMWARE_FILES, ids=lambda p: str(p.relative_to(FIRMWARE)))
def test_every_firmware_file_compiles_with_mpy_cross(source, tmp_path):
    result = compile_file(source, tmp_path / "out.mpy")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"


def test_mpy_cross_rejects_what_micropython_cannot_run(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    return [x async for x in y]\n")  # not MicroPython syntax
    assert compile_file(bad, tmp_path / "bad.mpy").returncode != 0


def test_demo_dump_is_byte_identical_in_both_runtimes(tmp_path, capsys):
    a, b = tmp_path / "a", tmp_path / "b"
    assert arbiter(["demo", "--seed", "7", "--runtime", "micropython", "--dump", str(a),
                    "--quiet"]) == 0
    assert arbiter(["demo", "--seed", "7", "--runtime", "cpython", "--dump", str(b),
                    "--quiet"]) == 0
    assert a.read_bytes() == b.read_bytes()
    frames = a.read_text().splitlines()
    assert len(frames) > 50
    assert len({line.split(" ram=")[1] for line in frames}) > 20  # menus, dice, settings
    out = capsys.readouterr().out
    assert "micropython, seed 7" in out and "cpython, seed 7" in out


def test_other_seeds_roll_differently_but_identically_in_both_runtimes():
    script = "down a a wait=500 right up up up a wait=500"
    seen = set()
    for seed in (1, 2, 3):
        mp = run_session(seed, script, "micropython")
        cp = run_session(seed, script, "cpython")
        assert mp.frames == cp.frames
        rolls = [line for line in cp.serial if "roll" in line]
        assert mp.serial[:len(cp.serial)] == cp.serial
        seen.add(tuple(rolls))
    assert len(seen) == 3


def test_compiled_mpy_firmware_shows_the_same_frames(tmp_path):
    compile_tree(tmp_path / "fw")
    assert (tmp_path / "fw" / "arbiter" / "device.mpy").exists()
    # the sources, every module compiled up front, need more than a Pico's heap
    source = run_session(7, DEMO_SCRIPT, "micropython", firmware=FIRMWARE, heap=320 * 1024)
    compiled = run_session(7, DEMO_SCRIPT, "micropython", firmware=tmp_path / "fw")
    assert compiled.frames == source.frames


def test_a_game_plays_identically_in_a_picos_heap():
    mp = run_session(5, GAME_SCRIPT, "micropython", heap=PICO_HEAP)
    cp = run_session(5, GAME_SCRIPT, "cpython")
    assert mp.frames == cp.frames
    assert mp.serial == cp.serial
    assert not any("crash" in line for line in mp.serial)
    assert "arbiter: pick P2" in mp.serial  # the game really was played
    assert mp.counters["heap_high"] <= PICO_HEAP


def test_the_64k_heap_limit_is_real():
    ok = run_session(7, MENU_SCRIPT, "micropython", heap=MENU_HEAP, preload=False)
    assert ok.counters["heap_high"] <= MENU_HEAP
    assert not any("crash" in line for line in ok.serial)
    with pytest.raises(RuntimeError, match="MemoryError"):
        run_session(7, MENU_SCRIPT, "micropython", heap=24576, preload=False)


IDLE_CHECK = """
import micropython
board, dev = vsession.start(1, SCRIPT, '/flash/')
board.end_ms = None
gc.collect()  # the boot's garbage, as run_session collects it (a Pico would, when short)
while board.elapsed < UNTIL_MS:
    board.sleep_ms(dev.tick())
    if gc.mem_free() < 16384:
        gc.collect()
gc.collect()
allocating = 0
for i in range(LOCKED_PASSES):
    micropython.heap_lock()
    try:
        wait = dev.tick()
    except MemoryError:
        wait = 10
        allocating += 1
    micropython.heap_unlock()
    board.sleep_ms(wait)
    if gc.mem_free() < 16384:
        gc.collect()
print('allocating passes', allocating, 'app alive', dev.app is not None,
      'display on', board.oled.on)
"""


def idle_check(script: str, until_ms: int, passes: int = 300) -> str:
    body = IDLE_CHECK.replace("SCRIPT", repr(script)).replace(
        "UNTIL_MS", str(until_ms)).replace("LOCKED_PASSES", str(passes))
    # (the heap's size is not what this checks: a dice roll and the frames printed
    # beside it take a little more than the menu's 64 KB)
    result = run_driver("vsession", body, {"/flash": (Path(__file__).parent / "data" /
                                                      "emptyflash", False)}, MENU_HEAP * 2,
                        preload=False)
    assert result.exit_code == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_idle_main_loop_allocates_nothing_under_micropython():
    # Menu up, nothing pressed, LEDs still: 300 passes (3 s) with the heap locked.
    assert idle_check("", 3000) == "allocating passes 0 app alive True display on True"


def test_idle_with_display_asleep_allocates_nothing():
    assert idle_check("", 125_000) == "allocating passes 0 app alive True display on False"


WORKED_CHECK = """
board, dev = vsession.start(drvdata.SEED, drvdata.SCRIPT, '/flash/')
gc.collect()
live = gc.mem_alloc()
unsaid = passes = said = 0
while True:
    pause = dev.tick()
    passes += 1
    if dev.worked:
        said += 1
    elif gc.mem_alloc() != live:
        unsaid += 1
    gc.collect()
    live = gc.mem_alloc()
    if not vsession.sleep(board, pause):
        break
    gc.collect()
    live = gc.mem_alloc()
print('W %d %d %d' % (passes, said, unsaid))
"""


def test_the_main_loop_collects_after_every_pass_that_allocated(tmp_path):
    # device.run collects after a pass that says it worked, without asking the heap (a
    # Pico's gc.mem_alloc() walks its whole table): a pass that allocated and did not
    # say so would leave its garbage to pile up (the emulator's collector collects only
    # there). The demo, under MicroPython: every pass that allocated said so.
    from arbiter_referee.build import device_firmware
    from arbiter_referee.compiled import factory_flash

    factory_flash(tmp_path)
    result = run_driver("vsession", WORKED_CHECK, {"/flash": (tmp_path, True)}, 1 << 20,
                        device_firmware(), {"SEED": 7, "SCRIPT": DEMO_SCRIPT}, preload=False)
    assert result.exit_code == 0, result.stderr
    passes, said, unsaid = (int(n) for n in result.stdout.split("W ")[1].split())
    assert unsaid == 0 and 0 < said < passes / 4, (passes, said)


def test_the_main_loop_collects_a_roomy_heap_whose_collector_is_off(tmp_path):
    # device.run leaves a Pico's roomy heap to MicroPython's own collector (every
    # 96 KB allocated); the emulator's WASI build has it off (gc.disable: it cannot
    # see the C stack), so there the main loop still collects after each press, or
    # `arbiter emulate`, at a Pico's heap, ran out of it. Kaiju's first 80 presses
    # make several times this heap's worth of garbage
    from helpers.chip import first_presses

    from arbiter_referee.bench import scenarios
    from arbiter_referee.build import device_firmware
    from arbiter_referee.compiled import factory_flash

    game = scenarios.load("kaiju")
    factory_flash(tmp_path)
    body = ("gc.disable()\n"
            "board = vsession.VirtualBoard(drvdata.SEED, drvdata.SCRIPT, '/flash/',\n"
            "                              on_frame=lambda board: None)\n"
            "try:\n"
            "    vsession.device.run(board)\n"
            "except vsession.EmulationDone:\n"
            "    pass\n"
            "from arbiter.game.jobs import roomy\n"
            "print('R roomy %s presses done at %d ms' % (roomy(), board.elapsed))\n")
    result = run_driver("vsession", body, {"/flash": (tmp_path, True)}, 245888,
                        device_firmware(), {"SEED": game.device_seed,
                                            "SCRIPT": first_presses(game.keys, 80)},
                        preload=False)
    assert result.exit_code == 0, result.stderr[-2000:]
    said = result.stdout.split("R ")[-1]
    assert said.startswith("roomy True presses done at"), result.stdout[-2000:]
    assert "MemoryError" not in result.stdout + result.stderr, said


def test_heap_lock_check_catches_allocation():
    # Control: the locked passes include a dice roll (new list, new text): it must show.
    line = idle_check("down a wait=300 a", 1500 + 250 + 380, passes=60)
    assert not line.startswith("allocating passes 0 ")


def test_the_micropython_runtime_exits_cleanly_every_time():
    # wasmtime called Python back from its own threads while Python was shutting down,
    # and the process aborted ("panic in a function that cannot unwind"), in 8 runs of 8
    import subprocess
    import sys

    for seed in (1, 2, 3):
        done = subprocess.run([sys.executable, "-m", "arbiter_referee", "demo", "--runtime",
                               "micropython", "--seed", str(seed), "--quiet"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]


# Issue 21: "the firmware draws a line by copying glyph columns into the display
# buffer when text rows are page-aligned [...] and allocates nothing".
def test_a_line_of_text_is_drawn_with_the_heap_locked():
    body = """
import micropython
from arbiter import ui
board, dev = vsession.start(1, '', '/flash/')
fb = dev.display
text = 'Kraken knocked out: P2 +5 Glory'
ui.text(fb, text, 0, 8)  # once unlocked: each character's str is interned
short = text[:21]
gc.collect()
micropython.heap_lock()
try:
    ui.text(fb, text, 0, 16)
    ui.line(fb, 3, short, True)  # the play screen's lines come wrapped
    ui.title(fb, 'Colossal Kaiju Combat')
    ok = 'allocates nothing'
except MemoryError:
    ok = 'allocated'
micropython.heap_unlock()
print(ok)
"""
    result = run_driver("vsession", body, {"/flash": (Path(__file__).parent / "data" /
                                                      "emptyflash", False)}, MENU_HEAP * 2,
                        preload=False)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "allocates nothing"
