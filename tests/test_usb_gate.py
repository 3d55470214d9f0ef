"""The table controls the USB port during a game (issue 19, item 4): "While a game is
in progress the device does not hand its files to a computer ... until someone at the
table chooses "Connect to PC" on it, which everyone sees; with a secret still
unrevealed the device says so and asks again."

The port is closed when the firmware refuses the Ctrl-C a PC sends
(``micropython.kbd_intr(-1)``, ``board.usb_open``); the virtual board keeps what
the firmware last asked for in ``board.usb``."""

import time

import pytest
from helpers import REPO
from helpers.device import game_of, open_menu_item, pick, start_game
from helpers.emulator import boots, logged_emulator

from arbiter.hw.buttons import DOWN, UP, A, B

# The serial device's tests are one table's evening, in order, on one test worker
# (pyproject: --dist loadgroup): each starts where the one before left the device.
pytestmark = pytest.mark.xdist_group("usb-gate")


def connect(rig):
    open_menu_item(rig, "Connect to PC")
    assert rig.lines[0] == "Connect to PC?"
    assert "All agree?" in rig.lines
    rig.keys("a")


def test_the_port_is_open_in_the_menus_and_closed_once_a_game_starts(rig):
    assert rig.board.usb
    rig.keys("down", "a")  # dice: no game
    assert rig.lines[0] != "ARBITER" and rig.board.usb
    rig.keys("b", "up")
    start_game(rig, "kaiju")
    assert not rig.board.usb


def test_connect_to_pc_opens_the_port_on_screen_and_b_closes_it(rig, tmp_path):
    start_game(rig, "kaiju")
    events = game_of(rig).count()
    connect(rig)
    assert rig.lines[0] == "Connect to PC" and "A PC may connect" in rig.lines
    assert rig.board.usb and (tmp_path / "usb.open").exists()
    rig.keys("a", "up", "down")  # only B leaves: a stray press keeps the screen
    assert rig.lines[0] == "Connect to PC" and rig.board.usb
    rig.keys("b")
    assert not rig.board.usb and not (tmp_path / "usb.open").exists()
    assert rig.app.screen.closes_usb  # back on the play screen, the game as it was
    assert game_of(rig).count() == events


def test_saying_no_keeps_the_port_closed(rig):
    start_game(rig, "kaiju")
    open_menu_item(rig, "Connect to PC")
    rig.keys("b")
    assert rig.lines[0] == "Game" and not rig.board.usb


def test_a_secret_still_unrevealed_is_named_and_asked_again(rig):
    start_game(rig, "juggernauts")
    pick(rig, 1)  # P1 picks; P2 has not
    connect(rig)
    assert rig.lines[0] == "Still secret"
    assert " ".join(rig.lines[1:4]) == "P1's pick is still secret: connect anyway?"
    assert not rig.board.usb
    rig.keys("b")  # not now
    assert rig.lines[0] == "Game" and not rig.board.usb
    rig.keys("b")
    connect(rig)
    rig.keys("a")  # anyway
    assert rig.lines[0] == "Connect to PC" and rig.board.usb


def test_once_revealed_nothing_is_secret_but_the_seed(rig):
    start_game(rig, "juggernauts")
    pick(rig, 1)
    pick(rig, 2)
    rig.keys("a")  # the reveal page
    connect(rig)
    assert rig.lines[0] == "Connect to PC" and rig.board.usb


def test_a_reset_while_connected_comes_back_to_the_open_port(rig, tmp_path, monkeypatch):
    # a PC's command ends with a reset: the port stays open until B
    from vboard import VirtualBoard

    start_game(rig, "kaiju")
    connect(rig)
    calls = []
    opener = VirtualBoard.usb_open

    def recorded(board, allowed):
        calls.append(allowed)
        opener(board, allowed)

    monkeypatch.setattr(VirtualBoard, "usb_open", recorded)
    again = rig.reboot()
    assert again.lines[0] == "Connect to PC" and again.board.usb
    assert False not in calls  # never closed on the way: a PC's command just after the reset
    again.keys("b")
    assert again.lines[0] == "Game restored" and not again.board.usb
    assert not (tmp_path / "usb.open").exists()
    third = again.reboot()
    assert third.lines[0] == "Game restored" and not third.board.usb  # closed, resumed


def test_a_game_resumed_at_boot_closes_the_port_and_the_main_menu_keeps_it(rig):
    start_game(rig, "kaiju")
    again = rig.reboot()
    assert again.lines[0] == "Game restored" and not again.board.usb
    again.keys("a")
    open_menu_item(again, "Main menu")
    assert again.lines[0] == "ARBITER" and not again.board.usb  # the game stays saved


def test_end_game_opens_the_port(rig):
    start_game(rig, "kaiju")
    open_menu_item(rig, "End game")
    rig.keys("a")
    assert rig.lines[0] == "Game over" and rig.board.usb
    assert rig.reboot().board.usb


def test_a_crash_in_a_game_keeps_the_port_shut_and_its_error_screen_offers_it(
        rig, monkeypatch, tmp_path):
    # issue 45: "Any crash opens the port with the game's seed and picks on flash";
    # the port "opens only by a choice on the device ... never by a crash: the error
    # screen offers Connect to PC"
    from arbiter.screens.play import PlayScreen

    start_game(rig, "kaiju")

    def broken(self, app, button, kind, now):
        raise RuntimeError("bug")

    monkeypatch.setattr(PlayScreen, "key", broken)
    rig.keys("a")
    assert rig.lines[0] == "Error" and not rig.board.usb
    assert rig.lines[7].strip() == "A:restart B:to PC"
    rig.run(60000)  # the error stays up a while, then the game is back, the port shut
    assert rig.lines[0] == "Game restored" and not rig.board.usb
    rig.keys("a", "a")  # past the page, then the same bug again
    assert rig.lines[0] == "Error" and not rig.board.usb
    rig.keys("b")  # the table's choice, on screen
    assert rig.board.usb and "A PC may connect" in rig.lines
    assert (tmp_path / "usb.open").exists()
    monkeypatch.undo()
    rig.keys("a")  # restart: the game back, the port still open until B
    assert rig.lines[0] == "Connect to PC" and rig.board.usb
    rig.keys("b")
    assert rig.lines[0] == "Game restored" and not rig.board.usb


def test_main_py_shuts_the_port_first_and_opens_it_only_with_no_game_on_flash(
        rig, monkeypatch):
    # "From main.py's first line, whenever a game is on flash ... the port is shut";
    # "A device with no game keeps today's open port for makers". Shut before its first
    # import: on the chip a PC's Ctrl-C landed in the import that would decide.
    import micropython

    source = (REPO / "firmware" / "main.py").read_text()
    first_statement = next(line for line in source.splitlines()
                           if line and not line.startswith(("#", '"', "import micropython")))
    assert first_statement == "micropython.kbd_intr(-1)"
    monkeypatch.chdir(rig.flash_dir)
    asked = []
    monkeypatch.setattr(micropython, "kbd_intr", asked.append)
    boot = compile(source[:source.index("import gc")], "main.py", "exec")
    exec(boot, {"__name__": "main"})
    assert asked == [-1, 3]  # no game: open for makers
    start_game(rig, "kaiju")
    asked.clear()
    exec(boot, {"__name__": "main"})
    assert asked == [-1]


def test_holding_b_at_power_on_opens_the_port_on_screen(rig, tmp_path):
    # "it opens only by a choice on the device ... or by a recovery gesture at
    # power-on (a button held)"
    start_game(rig, "kaiju")
    again = rig.reboot(held="b")
    assert again.lines[0] == "Connect to PC" and again.board.usb
    again.keys("b")
    assert again.lines[0] == "Game restored" and not again.board.usb


def test_connect_to_pc_from_the_main_menu_asks_over_a_saved_game(rig, tmp_path):
    start_game(rig, "kaiju")
    open_menu_item(rig, "Main menu")
    assert rig.lines[0] == "ARBITER" and not rig.board.usb
    labels = [item[0] for item in rig.app.screen.items]
    rig.keys(*["down"] * labels.index("Connect to PC"), "a")
    assert rig.lines[0] == "Connect to PC?" and not rig.board.usb
    rig.keys("a")
    assert rig.lines[0] == "Connect to PC" and rig.board.usb
    assert "B: back" in rig.lines[7]
    rig.keys("b")
    assert rig.lines[0] == "ARBITER" and not rig.board.usb


def test_the_open_port_with_no_game_to_go_back_to_is_just_open(rig, tmp_path):
    (tmp_path / "usb.open").write_text("")
    again = rig.reboot()
    assert again.lines[0] == "ARBITER" and again.board.usb
    assert not (tmp_path / "usb.open").exists()


def test_buttons_constants_are_the_firmwares():
    from arbiter_referee.emulator.serial.buttons import NAMES

    assert [NAMES.index(n) for n in ("up", "down", "a", "b")] == [UP, DOWN, A, B]


# -- against the emulated Pico on a serial line (``arbiter emulate``) -------------------

ADVICE = ("the device is refereeing a game: choose Connect to PC in its game menu, "
          "then try again")


@pytest.fixture(scope="module")
def serial_device(tmp_path_factory):
    emulator = logged_emulator(tmp_path_factory.mktemp("usbgate"))
    emulator.arbiter("deploy", "--no-rulesets")
    emulator.arbiter("push", "juggernauts")
    yield emulator
    emulator.stop()


def cat_journal(device):
    from helpers.emulator import MPREMOTE, run

    return run([*MPREMOTE, "connect", device.port, "fs", "cat", ":game.jnl"], timeout=120)


def test_a_pc_reads_the_journal_only_once_the_table_chooses_connect_to_pc(serial_device):
    device = serial_device
    device.wait_screen("Play a game")
    for press, then in [("a", "Juggernauts"), ("a", "A:start"), ("a", "Dice sealed"),
                        ("up down left right", "P2: 4 arrows"),  # each player's part
                        ("up up down down", "Photo, then A"),
                        ("a", "Pass to P1"), ("a down a", "Pass to P2")]:
        device.press(press)
        device.wait_screen(then)
    journal = (device.flash / "game.jnl").read_bytes()
    assert b"pick P1" in journal and b'"seed"' in journal  # what a PC must not read

    booted = boots(device)
    done = cat_journal(device)
    assert done.returncode != 0 and b"pick" not in done.stdout and b"seed" not in done.stdout
    rulesets = sorted(p.name for p in (device.flash / "rulesets").iterdir())
    assert "juggernauts.json" in rulesets
    for command in (["ls"], ["pull-log", "--unfinished"], ["push", "kaiju"],
                    ["rm", "juggernauts"], ["deploy", "--no-rulesets"]):
        started = time.monotonic()
        refused = device.arbiter(*command, check=False)
        assert refused.returncode == 1 and not refused.stdout
        assert refused.stderr.splitlines() == [f"arbiter {command[0]}: {ADVICE}"]
        assert time.monotonic() - started < 60  # given up in bounded time, not hung
    # nothing pushed, nothing removed (the .ok beside it: the device's own check record)
    assert sorted(p.name for p in (device.flash / "rulesets").iterdir()) == rulesets
    # the game went on all along: fed, the watchdog never bit
    assert boots(device) == booted
    device.wait_screen("Pass to P2")

    device.press("b up a")  # the game menu's last item
    device.wait_screen("All agree?")
    device.press("a")
    assert "still secret:" in device.wait_screen("P1's pick is")
    device.press("a")
    device.wait_screen("A PC may connect")
    assert device.mpremote("fs", "cat", ":game.jnl") == journal
    # a command's reset brings the device back to the open port, so the next one works
    assert "juggernauts\t" in device.arbiter("ls").stdout
    pulled = device.arbiter("pull-log", "--unfinished")
    assert pulled.stdout.encode() == journal
    device.wait_screen("A PC may connect")

    device.press("b")  # back to the game: closed again
    device.wait_screen("Game restored")
    done = cat_journal(device)
    assert done.returncode != 0 and b"pick" not in done.stdout


def test_after_end_game_the_port_is_open(serial_device):
    device = serial_device
    device.press("a")  # the restored game's page
    device.wait_screen("Pass to P2")
    device.press("b up up a")  # End game
    device.wait_screen("End game?")
    device.press("a")
    device.wait_screen("Game over")
    assert device.mpremote("fs", "cat", ":game.jnl").endswith(b"#end\n")
    assert "juggernauts\t" in device.arbiter("ls").stdout
