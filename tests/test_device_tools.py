"""The emulated device on a serial line, and the device commands that go through mpremote.

``arbiter emulate`` runs here as a separate process with a pseudo-terminal
for its USB serial; unmodified ``mpremote`` and ``arbiter push/ls/rm/
pull-log/deploy`` talk to it as to a Pico.
"""

import json
import os
import shutil
import signal
import subprocess
import time

import pytest
from helpers.emulator import ARBITER, MPREMOTE, Emulator, chip_emulator, run
from helpers.game import new_game

from arbiter.game import ruleset
from arbiter.hw.flash import Flash
from arbiter.store import journal as jnl
from arbiter_referee.compiled import compiled, loaded
from arbiter_referee.rulesets import bundled

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")


@pytest.fixture(scope="module")
def device(tmp_path_factory):
    emulator = Emulator(tmp_path_factory.mktemp("emulated"))
    emulator.first_deploy = emulator.arbiter("deploy")
    assert "0 up to date" in emulator.first_deploy.stdout
    yield emulator
    emulator.stop()


@pytest.fixture(scope="module")
def chip(tmp_path_factory):
    """The same on the chip: a Pico's own MicroPython, its REPL over the chip's USB."""
    emulator = chip_emulator(tmp_path_factory.mktemp("chip"))
    started = time.monotonic()
    emulator.first_deploy = emulator.arbiter("deploy")
    emulator.deploy_seconds = time.monotonic() - started
    assert "0 up to date" in emulator.first_deploy.stdout
    yield emulator
    emulator.stop()


# The chip's tests in one test worker (pyproject: --dist loadgroup): its first deploy
# takes a minute and a half of CPU, made once. The emulated device's, likewise.
ON_THE_CHIP = pytest.mark.xdist_group("chip-deployed")
ON_THE_EMULATOR = pytest.mark.xdist_group("emulator-deployed")


@pytest.fixture(params=[pytest.param("micropython", marks=ON_THE_EMULATOR),
                        pytest.param("chip", marks=ON_THE_CHIP)])
def each_device(request):
    """The emulated device, then the chip: the commands work on both alike."""
    return request.getfixturevalue("device" if request.param == "micropython" else "chip")


def copy_flash(device, target):
    """The running device's files as they are: its host folder is rewritten at each
    of its restarts, a file at a time (a ``.part`` then renamed)."""
    shutil.copytree(device.flash, target, ignore=shutil.ignore_patterns("*.part"))


def ruleset_text(name):
    """As a device keeps it: compiled (arbiter_referee/compiled.py)."""
    return compiled(bundled()[name].read_bytes())


def test_mpremote_file_commands_work_unmodified(each_device, tmp_path):
    local = tmp_path / "notes.txt"
    local.write_bytes(b"line one\nline two\r\n\x00binary\xff\n")
    each_device.mpremote("fs", "cp", str(local), ":notes.txt")
    assert "notes.txt" in each_device.mpremote("fs", "ls", ":", text=True)
    back = tmp_path / "back.txt"
    each_device.mpremote("fs", "cp", ":notes.txt", str(back))
    assert back.read_bytes() == local.read_bytes()
    assert each_device.mpremote("exec", "print(sum(range(10)) * 2)", text=True).strip() == "90"
    each_device.mpremote("fs", "rm", ":notes.txt")
    assert "notes.txt" not in each_device.mpremote("fs", "ls", ":", text=True)
    assert not (each_device.flash / "notes.txt").exists()


def test_deploy_boots_the_firmware_and_a_second_deploy_copies_nothing(each_device):
    assert (each_device.flash / "main.py").is_file()
    assert (each_device.flash / "arbiter" / "game" / "engine.mpy").is_file()
    assert not list(each_device.flash.rglob("arbiter/**/*.py")), "firmware goes as .mpy"
    again = each_device.arbiter("deploy")
    assert again.stdout.startswith("0 file(s) copied"), again.stdout
    # the boot of this deploy's own reset: an earlier test's mpremote may have stopped
    # the first one before its first frame (a deploy returns once the port is back)
    lines = each_device.wait_screen("Play a game")
    assert lines[0].strip() == "ARBITER" and "Play a game" in lines[1], lines


def test_deploy_says_what_the_device_runs_and_each_file_as_it_goes(each_device):
    err = each_device.first_deploy.stderr.splitlines()
    assert any(line.startswith("MicroPython 1.") and "loads .mpy version 6" in line
               for line in err), err
    copied = [line.split("] ", 1)[1] for line in err if line.startswith("[")]
    assert "main.py" in copied and "arbiter/game/engine.mpy" in copied
    assert [c for c in copied if c.startswith("rulesets/")] == \
        [f"rulesets/{name}.json" for name in sorted(bundled())]
    assert err[-1] == "waiting for the device to restart... back"
    # the digest to find on the New game screen: the device's own list of its files
    from arbiter_referee.build import MANIFEST, firmware_digest

    assert "firmware.sha256" in copied
    assert f"firmware FW {firmware_digest((each_device.flash / MANIFEST).read_text())}:" in \
        each_device.first_deploy.stdout


def test_deploy_installs_the_bundled_rulesets_checked_by_the_device(each_device):
    assert "5 bundled ruleset(s) installed" in each_device.first_deploy.stdout
    for name, path in bundled().items():
        assert (each_device.flash / "rulesets" / f"{name}.json").read_bytes() == \
            compiled(path.read_bytes())
    assert not list((each_device.flash / "rulesets").glob("*.part"))


def listing(device, folder):
    """``mpremote fs ls`` of ``folder``: {name: size}, a folder's name ending in /."""
    lines = device.mpremote("fs", "ls", f":{folder}", text=True).splitlines()
    assert lines[0] == f"ls :{folder}", lines
    return {name: int(size) for size, name in (line.split() for line in lines[1:])}


def test_mpremote_right_after_a_deploy_or_a_push_answers_in_full(each_device):
    # each command returns once the device is back from its reset, so a plain mpremote
    # right after it meets a device that answers, not one half-way through its boot
    from arbiter_referee.chip.runtime import firmware_files

    device = each_device
    rulesets = {f"{name}.json": len(ruleset_text(name)) for name in bundled()}
    device.arbiter("rm", "tactics")
    device.arbiter("deploy")  # puts back the bundled ruleset that went
    assert {name: size for name, size in listing(device, "rulesets").items()
            if name.endswith(".json")} == rulesets
    game = {}  # the folder's files and folders (a folder's name ends in /, size 0)
    for path, data in firmware_files().items():
        if path.startswith("arbiter/game/"):
            name, folder, _ = path[len("arbiter/game/"):].partition("/")
            game[name + folder] = 0 if folder else len(data)
    assert listing(device, "arbiter/game") == game
    assert {"arbiter/", "board.mpy", "main.py", "rulesets/"} <= set(listing(device, ""))
    device.arbiter("rm", "tactics")
    assert "tactics.json" not in listing(device, "rulesets")
    device.arbiter("push", "tactics")
    assert listing(device, "rulesets")["tactics.json"] == rulesets["tactics.json"]


@ON_THE_CHIP
def test_the_chips_port_appears_at_power_on_before_main_py_runs(chip, tmp_path):
    # A Pico's USB enumerates as MicroPython starts, before main.py: a PC sees the
    # port while the firmware is still loading, and can stop it there.
    copy_flash(chip, tmp_path / "flash")  # the deployed firmware
    log = tmp_path / "serial.log"
    second = chip_emulator(tmp_path, "--log", str(log))  # returns once the port is there
    try:
        assert b"arbiter: boot" not in log.read_bytes() and not second.screen.exists()
        assert "Play a game" in second.wait_screen("Play a game", timeout=300)[1]
        assert b"arbiter: boot" in log.read_bytes()
    finally:
        second.stop()


@ON_THE_CHIP
def test_a_pcs_ctrl_c_during_the_chips_boot_with_a_game_on_flash_gets_no_repl(
        chip, tmp_path):
    # issue 45: "At power-on the port is open until the saved game is replayed"; the
    # port is "shut from main.py's first line" whenever a game is on flash. A PC that
    # knocks from the moment the port appears (the cable that powers the Pico) gets
    # nothing: no traceback, no prompt, and the game comes back on the screen.
    from helpers.device import start_game

    from arbiter_referee.emulator.rig import Rig

    table = Rig(tmp_path / "table")  # a game begun on a device with the same rulesets
    start_game(table, "kaiju")
    copy_flash(chip, tmp_path / "flash")
    shutil.copy(tmp_path / "table" / "game.jnl", tmp_path / "flash" / "game.jnl")
    second = chip_emulator(tmp_path)  # returns once the port is there
    heard = bytearray()
    try:
        port = os.open(second.port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            deadline = time.monotonic() + second.timeout
            while time.monotonic() < deadline:
                os.write(port, b"\x03\x03\r\x01")  # mpremote's knock: Ctrl-C, raw REPL
                time.sleep(0.05)
                try:
                    heard += os.read(port, 4096)
                except BlockingIOError:
                    pass
                lines = second.screen.read_text() if second.screen.exists() else ""
                if "Game restored" in lines or b">" in heard:  # (a prompt: it failed)
                    break
        finally:
            os.close(port)
        assert b">" not in heard and b"Traceback" not in heard, bytes(heard[-300:])
        assert "Game restored" in second.wait_screen("Game restored", timeout=5)[0]
    finally:
        second.stop()


@ON_THE_CHIP
@pytest.mark.parametrize("how", [[], ["resume"]], ids=["soft-reset", "resume"])
def test_b_on_connect_to_pc_takes_the_chip_back_whatever_the_pc_is_doing(
        chip, tmp_path, how):
    # issue 45: "Connect to PC, then B while a PC command runs: the B is lost"; now "B
    # on 'A PC may connect' takes effect at once, whatever the PC is doing". A PC
    # holding the REPL (after MicroPython's soft reset, or straight after its Ctrl-C)
    # loses the device at B, which comes back to its game with the port shut.
    from helpers.device import start_game

    from arbiter_referee.emulator.rig import Rig

    table = Rig(tmp_path / "table")
    start_game(table, "kaiju")
    copy_flash(chip, tmp_path / "flash")
    shutil.copy(tmp_path / "table" / "game.jnl", tmp_path / "flash" / "game.jnl")
    (tmp_path / "flash" / "usb.open").write_text("")  # the table had let a PC connect
    log = tmp_path / "serial.log"
    second = chip_emulator(tmp_path, "--log", str(log))
    try:
        try:
            second.wait_screen("A PC may connect")
        except AssertionError as missed:
            raise AssertionError(f"{missed}; serial: {log.read_bytes()[-800:]}") from None
        pc = subprocess.Popen(
            [*MPREMOTE, "connect", second.port, *how, "exec",
             # feeding the watchdog as arbiter's commands do: only B may end it
             "import machine, time\nprint('holding')\nwhile True:\n "
             "machine.WDT(timeout=8000).feed()\n time.sleep_ms(100)"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            assert pc.stdout.readline().strip() == b"holding"
            second.press("b")
            pc.wait(second.timeout)  # the port went with the reset: the PC lost it
        finally:
            pc.kill()
            pc.wait()
        lines = second.wait_screen("Game restored")
        assert "A PC may connect" not in lines, log.read_bytes()[-800:]
        assert not (second.flash / "usb.open").exists()  # so the port is shut (main.py)
    finally:
        second.stop()


def test_the_chip_refuses_a_heap_in_one_line(tmp_path):
    done = run([*ARBITER, "emulate", "--runtime", "chip", "--heap", "196608", "--flash",
                str(tmp_path)], timeout=60)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1
    assert lines[0].startswith("arbiter emulate: --heap is not for --runtime chip")


@ON_THE_EMULATOR
def test_deploy_keeps_the_ruleset_of_a_game_in_progress(device):
    kept = device.flash / "rulesets" / "kaiju.json"
    data = json.loads(bundled()["kaiju"].read_text())
    data["title"] = "House Kaiju"
    kept.write_bytes(compiled(json.dumps(data).encode()))  # as a push leaves it
    before = kept.read_bytes()
    play_kaiju(device.flash, finish=False)
    try:
        done = device.arbiter("deploy")
        assert "arbiter deploy: kept the device's kaiju: a game of it is in progress" \
            in done.stderr
        assert kept.read_bytes() == before
        connect_to_pc(device)  # it restarted into the game: the table lets the PC back
    finally:
        (device.flash / "game.jnl").unlink()
    done = device.arbiter("deploy", "--no-rulesets")
    assert kept.read_bytes() == before and "ruleset" not in done.stdout
    assert "1 bundled ruleset(s) installed" in device.arbiter("deploy").stdout
    assert kept.read_bytes() == ruleset_text("kaiju")


def test_push_takes_several_rulesets_in_one_run(each_device):
    each_device.arbiter("rm", "jugger")
    done = each_device.arbiter("push", "jugger", "tactics", "impactics")
    assert done.stdout.splitlines() == [f"pushed {name} to /rulesets/{name}.json (checked on "
                                        "the device)" for name in ("jugger", "tactics",
                                                                   "impactics")]
    assert done.stderr.count("waiting for the device to restart") == 1
    for name in ("jugger", "tactics", "impactics"):
        assert (each_device.flash / "rulesets" / f"{name}.json").read_bytes() == ruleset_text(name)


@ON_THE_EMULATOR
def test_a_bad_ruleset_among_several_stops_the_push_before_the_device(device, tmp_path):
    device.arbiter("rm", "jugger")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "name": "bad", "dice": {"d": {"faces": []}}}')
    refused = device.arbiter("push", "jugger", str(bad), check=False)
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    assert "dice.d.faces" in refused.stderr
    assert not (device.flash / "rulesets" / "jugger.json").exists()
    device.arbiter("push", "jugger")


@ON_THE_EMULATOR
def test_the_device_refusing_one_of_several_installs_the_others(device, tmp_path):
    device.arbiter("rm", "jugger")
    changed = json.loads(bundled()["kaiju"].read_text())
    changed["title"] = "House Kaiju"
    house = tmp_path / "kaiju.json"
    house.write_text(json.dumps(changed))
    play_kaiju(device.flash, finish=False)
    try:
        done = device.arbiter("push", str(house), "jugger", check=False)
        connect_to_pc(device)
    finally:
        (device.flash / "game.jnl").unlink()
    assert done.returncode == 1
    assert "arbiter push: the device refused kaiju: a game of kaiju is in progress" in \
        done.stderr
    assert done.stdout.strip() == "pushed jugger to /rulesets/jugger.json (checked on the device)"
    assert (device.flash / "rulesets" / "jugger.json").read_bytes() == ruleset_text("jugger")


@ON_THE_EMULATOR
def test_deploy_removes_a_stale_module_that_would_shadow_the_bytecode(device):
    stale = device.flash / "arbiter" / "screens" / "dice.py"
    stale.write_text("raise ImportError('stale')\n")
    device.arbiter("deploy")
    assert not stale.exists()
    assert (device.flash / "arbiter" / "screens" / "dice.mpy").is_file()


def test_push_then_mpremote_cp_gives_the_same_bytes(each_device, tmp_path):
    # (cp, not cat: a Pico's console sends each \n as \r\n)
    each_device.arbiter("push", "juggernauts")
    back = tmp_path / "juggernauts.json"
    each_device.mpremote("fs", "cp", ":rulesets/juggernauts.json", str(back))
    assert back.read_bytes() == ruleset_text("juggernauts")
    listed = each_device.arbiter("ls").stdout
    assert f"juggernauts\t{len(ruleset_text('juggernauts'))}" in listed


@ON_THE_EMULATOR
def test_a_push_refused_on_the_host_or_on_the_device_leaves_the_old_file(device, tmp_path):
    device.arbiter("push", "kaiju")
    before = (device.flash / "rulesets" / "kaiju.json").read_bytes()
    truncated = tmp_path / "kaiju.json"
    truncated.write_bytes(before[:500])
    refused = device.arbiter("push", str(truncated), check=False)
    assert refused.returncode == 1 and "not valid JSON at line" in refused.stderr
    assert (device.flash / "rulesets" / "kaiju.json").read_bytes() == before

    from arbiter_referee import transfer as device_tools

    data = json.loads(bundled()["kaiju"].read_text())  # the source of what it keeps
    data["dice"] = {"broken": {"faces": []}}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(device_tools.DeviceError, match="the device refused: .*at least one face"):
        device_tools.push(device.port, str(bad), host_check=False)
    assert (device.flash / "rulesets" / "kaiju.json").read_bytes() == before
    assert not (device.flash / "rulesets" / "kaiju.part").exists()


@ON_THE_EMULATOR
def test_a_push_killed_half_way_leaves_the_old_ruleset_valid(device, tmp_path):
    device.arbiter("push", "tactics")
    old = (device.flash / "rulesets" / "tactics.json").read_bytes()
    source = bundled()["tactics"].read_text()  # (``old`` is its compiled form)
    data = json.loads(source)
    room = ruleset.MAX_FILE_BYTES - len(compiled(source)) - 1000
    data["notes"] = "A long house rule. "[:19] * (room // 19)  # near the cap: a slow transfer
    new = tmp_path / "tactics.json"
    new.write_text(json.dumps(data))
    assert loaded(new.read_text())
    part = device.flash / "rulesets" / "tactics.part"
    size = len(compiled(new.read_bytes()))  # what goes across
    for fraction in (0.1, 0.5, 0.9):
        # the whole command, mpremote included, dies once part of the file is across
        process = subprocess.Popen([*ARBITER, "push", str(new), "--port", device.port],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        deadline = time.monotonic() + 300
        while not (part.exists() and part.stat().st_size >= fraction * size):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.002)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        assert part.stat().st_size < size, "the kill came too late to test anything"
        on_device = (device.flash / "rulesets" / "tactics.json").read_bytes()
        assert on_device == old
        loaded(on_device.decode())
    device.arbiter("push", str(new))  # the device recovers from the dropped connections
    assert (device.flash / "rulesets" / "tactics.json").read_bytes() == \
        compiled(new.read_bytes())


def play_kaiju(flash_dir, finish):
    flash = Flash(str(flash_dir) + "/")
    game = new_game("kaiju", 11, players=2)
    journal = jnl.Journal(flash)
    journal.start(game)
    for action in ["next", "roll d6 3", "next", "roll d20", "add P1.energy 2"]:
        journal.record(game, game.apply(action))
    if finish:
        journal.close()
    return game


def connect_to_pc(device):
    """The game the device resumed at its last restart; the table lets a PC connect (a
    PC's commands are refused during a game until then, see test_usb_gate.py)."""
    device.wait_screen("Game restored")
    device.press("a b up a")  # the restored game's page, then the game menu's last item
    device.wait_screen("All agree?")
    device.press("a")
    device.wait_screen("A PC may connect")


@ON_THE_EMULATOR
def test_a_game_in_progress_keeps_its_ruleset(device):
    device.arbiter("push", "kaiju")
    play_kaiju(device.flash, finish=False)
    try:
        device.arbiter("ls")  # the device restarts into the game
        connect_to_pc(device)
        listed = device.arbiter("ls").stdout
        assert "kaiju\t" in listed and "in play" in listed
        refused = device.arbiter("rm", "kaiju", check=False)
        assert refused.returncode == 1 and "in progress" in refused.stderr
        assert (device.flash / "rulesets" / "kaiju.json").exists()
        pulled = device.arbiter("pull-log", check=False)
        assert pulled.returncode == 1 and "seed" in pulled.stderr and not pulled.stdout
    finally:
        (device.flash / "game.jnl").unlink()


def test_pull_log_gives_a_journal_that_audits_and_a_csv(each_device, tmp_path):
    each_device.arbiter("push", "kaiju")
    played = tmp_path / "played"
    played.mkdir()
    game = play_kaiju(played, finish=True)
    each_device.mpremote("fs", "cp", str(played / "game.jnl"), ":game.jnl")  # as a PC can
    out = tmp_path / "pulled.jnl"
    each_device.arbiter("pull-log", "--out", str(out))
    assert out.read_bytes() == (played / "game.jnl").read_bytes()
    audit = subprocess.run([*ARBITER, "audit", str(out)], capture_output=True, text=True)
    assert audit.returncode == 0 and "all rolls match the seed" in audit.stdout
    table = each_device.arbiter("pull-log", "--csv").stdout.splitlines()
    assert table[0].startswith("entry,event,round,phase,player,die,rolls")
    rolls = [row.split(",") for row in table if ",roll," in row]
    logged = [entry for entry in game.log if entry["event"] == "roll"]
    assert [row[6] for row in rolls] == [" ".join(map(str, e["rolls"])) for e in logged]
    assert [row[5] for row in rolls] == ["d6", "d20"]


def test_pull_log_gives_the_whole_game_with_the_journals_it_replaced(each_device, tmp_path):
    # issue 45: "Every event is kept on flash for the audit (the checkpoints only make a
    # resume quick)": pull-log brings game.old with the journal, the audit the whole game
    from arbiter.game import Illegal
    from arbiter.game.engine import Game
    from arbiter_referee.bench.scenarios import SCALE_CYCLE

    each_device.arbiter("push", "jugger")
    played = tmp_path / "played"
    played.mkdir()
    game = Game(loaded(ruleset_text("jugger")), players=2, seed=7, keep=jnl.DEVICE_KEEP)
    journal = jnl.Journal(Flash(str(played) + "/"))
    journal.start(game)
    while game.count() < 2 * jnl.CHECKPOINT_EVERY + 5:
        for action in SCALE_CYCLE:
            try:
                journal.record(game, game.apply(action))
            except Illegal:  # (the cycle's refusals, as the bench plays it)
                pass
    journal.close()
    for name in (jnl.PAST, jnl.JOURNAL):
        each_device.mpremote("fs", "cp", str(played / name), ":" + name)
    out = tmp_path / "pulled.jnl"
    each_device.arbiter("pull-log", "--out", str(out))
    assert out.read_bytes() == (played / jnl.PAST).read_bytes() + \
        (played / jnl.JOURNAL).read_bytes()
    audit = subprocess.run([*ARBITER, "audit", str(out), "--head", journal.head.hex()],
                           capture_output=True, text=True)
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "3 journals chained by their heads" in audit.stdout
    table = each_device.arbiter("pull-log", "--csv").stdout.splitlines()
    assert table[1].startswith("1,")  # from the game's first event


@ON_THE_EMULATOR
def test_device_commands_back_to_back_always_answer_in_full(device, tmp_path):
    # A command that ends with a reset returns once the device is back, so the next
    # one, even a plain mpremote, never meets a device half-way through its boot.
    device.arbiter("push", "kaiju")
    game = play_kaiju(device.flash, finish=True)
    journal = (device.flash / "game.jnl").read_bytes()
    expected = ruleset_text("juggernauts")
    try:
        for attempt in range(8):
            device.arbiter("push", "juggernauts")
            assert device.mpremote("fs", "cat", ":rulesets/juggernauts.json") == expected, \
                attempt
            listed = device.arbiter("ls").stdout
            assert f"juggernauts\t{len(expected)}" in listed and "kaiju\t" in listed, attempt
            pulled = device.arbiter("pull-log").stdout
            assert pulled.encode() == journal, attempt
            device.arbiter("rm", "juggernauts")
            assert "juggernauts" not in device.arbiter("ls").stdout, attempt
    finally:
        (device.flash / "game.jnl").unlink()
    assert game.log


def test_a_command_says_it_waits_for_the_device_to_restart(each_device):
    done = each_device.arbiter("ls")
    assert "waiting for the device to restart... back" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("heap", [196608, 245888])
def test_the_emulated_device_runs_in_a_pico_ws_and_a_picos_heap(tmp_path, heap):
    emulator = Emulator(tmp_path, "--heap", str(heap))
    try:
        emulator.arbiter("deploy")
        assert emulator.screen_lines()[0].strip() == "ARBITER"
        for name in bundled():
            emulator.arbiter("push", name)
        assert sorted(line.split("\t")[0] for line in
                      emulator.arbiter("ls").stdout.splitlines()) == sorted(bundled())
        free, used = map(int, emulator.mpremote(
            "exec", "import gc\ngc.collect()\nprint(gc.mem_free(), gc.mem_alloc())",
            text=True).split())
        assert 0.95 * heap < free + used <= heap
    finally:
        emulator.stop()


@pytest.mark.slow
def test_the_firmware_boots_in_the_smallest_heap_the_emulator_takes(tmp_path):
    from arbiter_referee.emulator.serial.vm import MIN_HEAP

    emulator = Emulator(tmp_path, "--heap", str(MIN_HEAP))
    try:
        emulator.arbiter("deploy", "--no-rulesets")  # checking a big ruleset needs more
        assert [line.strip() for line in emulator.screen_lines()[:2]] == \
            ["ARBITER", "Play a game"]
    finally:
        emulator.stop()


@pytest.mark.parametrize("heap", ["40000", "0", str(2**40)])
def test_a_heap_the_firmware_cannot_run_in_is_refused_in_one_line(tmp_path, heap):
    done = run([*ARBITER, "emulate", "--flash", str(tmp_path), "--heap", heap], timeout=60)
    lines = done.stderr.decode().strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1
    assert lines[0].startswith(f"arbiter emulate: the firmware cannot run in a heap of {heap} ")
