"""Playing a ruleset on the device itself: choosing it from flash, setting it up,
secret picks, the play screen, the game menu, the journal across a reset."""

from __future__ import annotations

import pytest
from helpers.device import (
    BUNDLED,
    fill_form,
    game_of,
    open_menu_item,
    open_setup,
    pick,
    said,
    seal,
    start_game,
)
from helpers.game import canonical

from arbiter_referee.compiled import compiled
from arbiter_referee.emulator.rig import Rig
from arbiter_referee.paths import RULESETS


def test_the_play_menu_lists_the_games_on_flash_by_their_titles(rig, tmp_path):
    import json

    rig.keys("a")
    titles = [json.loads((RULESETS / f"{name}.json").read_text())["title"] for name in BUNDLED]
    # "Play a game" lists file names (jugger beside juggernauts), not the games' names
    # (issue 48)
    shown = " / ".join(rig.lines[1:7])  # a title longer than a row wraps onto the next
    assert shown.startswith(" / ".join(titles).replace("Kaiju Combat", "Kaiju / Combat")[:40])
    assert "Jugger TTG" in titles and "Juggernauts" in titles
    house = compiled((RULESETS / "kaiju.json").read_bytes())
    (tmp_path / "rulesets" / "house.json").write_bytes(house)
    untitled = json.loads((RULESETS / "kaiju.json").read_text())
    del untitled["title"]  # a game without a title: its file's name
    (tmp_path / "rulesets" / "nameless.json").write_bytes(compiled(json.dumps(untitled)))
    rig.keys("b", "a")
    assert rig.lines[1:3] == ["Colossal Kaiju", "Combat"]  # house.json: its title
    rig.keys(*["down"] * 5)
    assert "nameless" in rig.lines


def test_no_rulesets_on_flash_says_how_to_add_one(make_rig):
    rig = make_rig(factory=False)
    rig.keys("a")
    assert rig.lines[0] == "Play"
    assert "arbiter push" in " ".join(rig.lines)


def test_a_broken_ruleset_on_flash_is_refused_with_its_reason(make_rig, tmp_path):
    rig = make_rig()
    data = compiled((RULESETS / "kaiju.json").read_bytes())
    (tmp_path / "rulesets" / "broken.json").write_bytes(data[: len(data) // 2])
    rig.keys("a", "a")  # "broken" sorts first
    assert rig.lines[0] == "Can't load"
    assert "not valid JSON" in " ".join(rig.lines)
    rig.keys("a")  # back to the list, nothing lost
    assert rig.lines[0] == "Play"
    # a source copied by hand (mpremote cp): the device reads only what a PC compiled
    (tmp_path / "rulesets" / "broken.json").write_bytes((RULESETS / "kaiju.json").read_bytes())
    rig.keys("a")
    assert rig.lines[0] == "Can't load"
    assert "send it with arbiter push" in " ".join(rig.lines)
    rig.keys("a")
    assert rig.lines[0] == "Play"


def test_setup_sets_player_count_and_options(rig):
    open_setup(rig, "kaiju")
    assert rig.lines[1] == "Players  <2>"
    rig.keys("right", "right")
    assert rig.lines[1] == "Players  <4>"
    rig.keys("a")
    seal(rig)
    assert game_of(rig).players == 4
    # four rows: the round and phase in the bar, each player's row under it
    assert rig.lines[0] == "T1 Start"
    assert sorted(line.split()[0] for line in rig.lines[1:5]) == ["P1", "P2", "P3", "P4"]


def test_an_option_chosen_in_setup_reaches_the_game(rig):
    open_setup(rig, "jugger")
    assert rig.lines[1] == "Game length   <short>"
    rig.keys("right")
    assert rig.lines[1].endswith("<long>")
    rig.keys("a")
    seal(rig)
    assert game_of(rig).options == {"length": "long"}


def test_a_secret_pick_leaves_no_trace_until_all_have_picked(make_rig, tmp_path):
    seen = []
    for steps in (0, 5):  # P1 picks d4, then (another device) d20
        folder = tmp_path / str(steps)
        folder.mkdir()
        rig = Rig(folder, seed=3)
        start_game(rig, "juggernauts")
        assert rig.lines[3] == "Pass to P1"
        pick(rig, steps)
        rig.run(2000)
        assert rig.lines[3] == "Pass to P2"
        seen.append((rig.frame.ram, rig.frame.leds, list(rig.app.log.lines)))
    assert seen[0] == seen[1]  # screen, LEDs and serial log identical for d4 and d20


def test_all_picks_are_revealed_at_once_with_each_players_colour(rig):
    start_game(rig, "juggernauts")
    pick(rig, 1)  # P1: d6
    rig.keys("a", "b")  # P2 opens the list, backs out: nothing picked
    assert rig.lines[3] == "Pass to P2"
    pick(rig, 2)  # P2: d8
    assert rig.lines[0] == "Revealed"
    assert rig.lines[1:3] == ["P1: d6", "P2: d8"]
    assert "draw 9" in " ".join(rig.lines)  # faces + 3 for P1's d6
    whole_ring = set()  # colours the whole ring flashed in
    for _ in range(40):
        rig.run(40)
        leds = rig.frame.leds
        if len(set(leds)) == 1:
            whole_ring.add(leds[0])
    assert any(r and not b for r, g, b in whole_ring)  # P1 red
    assert any(b and not r for r, g, b in whole_ring)  # P2 blue
    rig.keys("a")
    assert rig.lines[1] == "Energize"


def test_a_advances_long_b_undoes_long_a_redoes(rig):
    start_game(rig, "kaiju")
    assert rig.lines[1] == "T1 Start"
    rig.keys("a")
    assert rig.lines[1] == "T1 Planning draw"
    rig.keys("b:long")
    assert rig.lines[1] == "T1 Start"
    rig.keys("a:long")
    assert rig.lines[1] == "T1 Planning draw"
    assert game_of(rig).history.events == ["next"]


# Issue 21: "No feedback after undo, redo [...] or a correction: the old message stays
# and reads like a new event." Each now says what it changed, in a line.
def test_a_correction_its_undo_and_its_redo_each_say_what_changed(rig):
    start_game(rig, "kaiju")
    rig.keys("a")  # Planning draw: a message of its own
    open_menu_item(rig, "Correct")
    fill_form(rig, ["P2", "glory", 3])
    assert game_of(rig).state["players"]["P2"]["glory"] == 3
    assert "Corrected: P2 glory +3, now 3" in said(rig)
    rig.keys("b:long")
    assert game_of(rig).state["players"]["P2"]["glory"] == 0
    assert "Undone: Correction: P2 glory +3" in said(rig)
    assert "Corrected" not in said(rig)
    rig.keys("a:long")
    assert "Redone: Correction: P2 glory +3" in said(rig)
    assert game_of(rig).state["players"]["P2"]["glory"] == 3


def test_a_ruleset_action_from_the_menu(rig):
    start_game(rig, "kaiju")
    for _ in range(40):  # bounded: a phase that never comes fails, not hangs
        if rig.lines[1].startswith("T1 Action"):
            break
        if rig.lines[1].startswith("T1 Planning:"):  # Kaiju's planning ends when all pass
            open_menu_item(rig, "Pass")
        elif rig.lines[1].startswith("T1 Select:"):  # a team with no active kaiju sits out
            open_menu_item(rig, "Active kaiju")
        rig.keys("a")
    else:
        pytest.fail("the Action phase never came: " + rig.lines[1])
    energy = game_of(rig).state["players"]["P1"]["energy"]
    open_menu_item(rig, "Roar: +2 Energy")
    assert rig.lines[1].startswith("player <P1>")
    rig.keys("a")
    assert game_of(rig).state["players"]["P1"]["energy"] == energy + 2
    assert f"E{energy + 2}" in rig.lines[2]


def test_the_game_menu_opens_with_its_actions_read_while_nobody_waited(rig):
    # A compiled ruleset keeps each action on flash: the game menu's lists are worked
    # out in a pass of their own once the play screen is drawn, so the press that
    # opens the menu reads no action from flash, and the menu lists the phase's own
    from arbiter.game import LINES

    start_game(rig, "kaiju")
    rig.settle()
    game = game_of(rig)
    reads = []
    read = game.rules[LINES]
    game.rules[LINES] = lambda at: reads.append(at) or read(at)
    rig.keys("b")
    assert rig.lines[0] == "Game" and not reads
    items = [label for label, _ in rig.app.screen.items]
    assert items.index("Team (setup)") < items.index("Undo")  # Kaiju's start: the teams


def test_an_illegal_correction_is_refused_with_the_reason_and_changes_nothing(rig):
    start_game(rig, "kaiju")
    before = canonical(game_of(rig).state)
    open_menu_item(rig, "Correct")
    assert rig.lines[1] == "who <P1>"
    rig.keys("down", "down", *["left"] * 25)  # by -20: numbers stop at their ends
    rig.keys("up")
    while "<energy " not in rig.lines[2]:
        rig.keys("right")
    rig.keys("a")
    assert rig.lines[3] == "by <-20>"
    assert "below its minimum" in " ".join(rig.lines[4:7])
    assert canonical(game_of(rig).state) == before
    assert game_of(rig).history.events == []


def test_a_refused_action_leaves_its_form_and_the_menu_as_they_were(rig):
    # the menu is closed while its form is open, and the action runs once the form
    # is closed (their code out of a Pico's heap): refused, both come back as they were
    start_game(rig, "kaiju")
    open_menu_item(rig, "Correct")
    rig.keys("down", "down", *["left"] * 25, "up")
    while "<energy " not in rig.lines[2]:
        rig.keys("right")
    shown = rig.lines[1:4]
    rig.keys("a")
    assert rig.lines[1:4] == shown
    assert "below its minimum" in " ".join(rig.lines[4:7])
    assert rig.app.screen.cursor == 1  # on "what", where it was
    rig.keys("b")
    assert rig.lines[0] == "Game"
    menu = rig.app.screen
    assert menu.items[menu.cursor][0] == "Correct"


def test_the_journal_compacts_on_the_device_once_the_action_is_done(rig, tmp_path,
                                                                    monkeypatch):
    # a compaction runs in a pass after its action's (a Pico's heap): still before the
    # next key, and the game resumes from it
    from arbiter.store import journal as jnl

    monkeypatch.setattr(jnl, "CHECKPOINT_EVERY", 4)
    start_game(rig, "kaiju")
    game = game_of(rig)
    while game.count() < 4:
        rig.keys("a")  # next
    lines = (tmp_path / jnl.JOURNAL).read_text().splitlines()
    assert lines[1].startswith(jnl.CHECKPOINT)
    state = canonical(game.state)
    rig.reboot()
    assert canonical(game_of(rig).state) == state


def test_dice_rolled_from_the_game_menu_are_in_the_log(rig):
    start_game(rig, "kaiju")
    open_menu_item(rig, "Roll dice")
    rig.keys("a")
    game = game_of(rig)
    assert game.history.events[-1].startswith("roll d")
    rolls = [e for e in game.log if e["event"] == "roll"]
    assert rolls and rolls[-1]["rolls"]
    open_menu_item(rig, "Log")
    assert any(line.startswith("P1 ") or line.startswith("all ") for line in rig.lines)


def test_undo_of_a_roll_asks_the_table_naming_the_rolls_that_stay(rig):
    # rule: "the device names what goes ("Undo P2's defense? Its rolls 3 1 5 stay in the
    # log") and asks them"
    start_game(rig, "kaiju")
    open_menu_item(rig, "Roll dice")
    rig.keys("a")
    game = game_of(rig)
    event = game.history.events[-1]
    rig.keys("b:long")
    rolls = event.split("|")[1].replace(",", " ").replace(";", " ")
    assert rig.lines[0] == "Undo?" and "Its rolls " + rolls in rig.lines
    rig.keys("b")  # no: nothing undone
    assert game.history.events[-1] == event
    rig.keys("b:long", "a")  # everyone agrees
    assert game.history.events == [] and game.history.undone[-1][0] == event
    assert [e for e in game.log if e["event"] == "roll"][-1]["undone"] is True
    open_menu_item(rig, "Log")
    assert any(line.startswith("undone ") for line in rig.lines)


def test_undo_stops_at_a_reveal_with_the_reason_on_screen(rig):
    start_game(rig, "juggernauts")
    pick(rig, 3)
    pick(rig, 0)
    rig.keys("a")  # the reveal page
    rig.keys("b:long")
    assert "no undo past a" in " ".join(rig.lines)
    assert game_of(rig).state["revealed"] == ["commander"]


def test_a_reset_mid_game_resumes_where_it_was(rig):
    start_game(rig, "juggernauts")
    pick(rig, 3)
    pick(rig, 0)
    rig.keys("a", "a", "a")  # past the reveal, two phases on
    screen_before = rig.lines
    journal = (rig.flash_dir / "game.jnl").read_text()
    after = rig.reboot()
    after.run(1500)
    assert after.lines[0] == "Game restored"
    assert "3 events" in after.lines or "4 events" in after.lines
    after.keys("a")
    assert after.lines == screen_before
    assert (rig.flash_dir / "game.jnl").read_text() == journal  # resuming writes nothing


def test_a_game_the_heap_cannot_resume_stays_on_flash_to_resume_later(rig, monkeypatch):
    """A referee "must never lose a game": a resume that runs out of heap (a Pico's
    heap a crash left in pieces) is not the game's fault, so it is not set aside."""
    import arbiter.store.saved

    start_game(rig, "kaiju")
    rig.keys("a")
    journal = (rig.flash_dir / "game.jnl").read_text()

    def out_of_heap(*args, **kwargs):
        raise MemoryError("memory allocation failed, allocating 397 bytes")

    monkeypatch.setattr(arbiter.store.saved, "resume", out_of_heap)
    after = rig.reboot()
    after.settle()
    assert after.lines[:3] == ["Saved game", "Could not resume", "kaiju:"]
    assert "not enough memory" in after.lines
    assert (rig.flash_dir / "game.jnl").read_text() == journal
    assert not (rig.flash_dir / "game.jnl.bad").exists()
    monkeypatch.undo()
    after.keys("a", "a")  # the page, then Play a game
    assert after.lines[1] == "Resume game"
    after.keys("a")
    after.settle()
    assert after.lines[0] == "Game restored"


def test_ending_a_game_reveals_the_seed_and_it_is_not_resumed(rig):
    from arbiter.game.rng import commitment

    shown = start_game(rig, "kaiju")
    open_menu_item(rig, "End game")
    rig.keys("a")  # yes
    assert rig.lines[0] == "Game over"
    seed = int(rig.lines[2], 16)
    assert commitment(seed) == shown
    after = rig.reboot()
    after.run(1500)
    assert after.lines[0] == "ARBITER"
    assert (rig.flash_dir / "game.jnl").exists()  # kept for pull-log and audit


def test_leaving_for_the_main_menu_keeps_the_game_to_resume(rig):
    start_game(rig, "kaiju")
    rig.keys("a")
    open_menu_item(rig, "Main menu")
    assert rig.lines[0] == "ARBITER"
    rig.keys("a")
    assert rig.lines[1] == "Resume game"
    rig.keys("a")
    assert rig.lines[0] == "Game restored"
    rig.keys("a")
    assert rig.lines[1] == "T1 Planning draw"


def test_a_new_game_asks_before_replacing_a_saved_one(rig):
    start_game(rig, "kaiju")
    rig.keys("a")
    open_menu_item(rig, "Main menu")
    open_setup(rig, "tactics")
    rig.keys("a")
    assert rig.lines[0] == "Saved game"
    rig.keys("b")
    assert rig.lines[0] == "Tactics Joker"
    rig.keys("a", "a")  # start anyway
    assert rig.lines[0] == "New game"
    seal(rig)
    assert game_of(rig).rules["name"] == "tactics"


def test_a_saved_game_whose_ruleset_is_gone_is_kept_and_explained(rig):
    start_game(rig, "kaiju")
    rig.keys("a")
    (rig.flash_dir / "rulesets" / "kaiju.json").unlink()
    journal = (rig.flash_dir / "game.jnl").read_text()
    after = rig.reboot()
    after.run(1500)
    assert after.lines[0] == "Saved game"
    assert "kaiju" in " ".join(after.lines)
    after.keys("a")
    assert after.lines[0] == "ARBITER"
    assert (rig.flash_dir / "game.jnl").read_text() == journal


def test_a_number_held_speeds_up_and_a_tap_moves_it_by_one(rig):
    # Spending Energy in Kaiju: holding Right runs the amount up to its end in two
    # seconds (one a press would take 29 taps); a tap then fine-tunes it.
    start_game(rig, "kaiju")
    open_menu_item(rig, "Spend Energy")
    rig.keys("down")  # to the amount, at 1
    assert rig.lines[2] == "Energy <1>"
    rig.press("right", hold=2000)
    assert rig.lines[2] == "Energy <30>"
    rig.keys("left")
    assert rig.lines[2] == "Energy <29>"
    rig.keys("left")
    assert rig.lines[2] == "Energy <28>"


def test_dice_rolled_from_the_game_menu_show_their_result(rig):
    start_game(rig, "kaiju")
    open_menu_item(rig, "Roll dice")
    fill_form(rig, ["d10", 1])
    (roll,) = [e for e in game_of(rig).log if e["event"] == "roll" and e["die"] == "d10"]
    assert rig.lines[6] == "all d10: %d" % roll["rolls"][0]


@pytest.mark.parametrize("name", ["juggernauts", "tactics"])
def test_no_serial_line_of_a_whole_game_tells_a_roll_before_the_end(name):
    # rule: "No serial line of a whole scripted game, boot included, carries anything from
    # which a roll can be computed"
    from arbiter_referee.bench import scenarios
    from arbiter_referee.emulator.session import run_session

    game = scenarios.load(name)
    serial = run_session(game.device_seed, game.keys, "cpython").serial
    assert len(serial) > 10  # the game was played, its actions logged
    before_end = serial[:next((i for i, line in enumerate(serial) if "game over" in line),
                              len(serial))]
    secrets = {"%016x" % game.seed, str(game.seed), "%016x" % game.device_seed,
               "%x" % game.seed}
    for line in before_end:
        assert "|" not in line, line  # no event's dice
        assert not any(secret in line.lower() for secret in secrets), line
        assert "seed" not in line, line


def test_the_device_commits_to_its_seed_before_each_player_seals_the_dice(make_rig, tmp_path):
    # rule: "The device shows a commitment of at least 128 bits (the SHA-256 of its seed)
    # *before* the players add their own entropy (for example the timing of a press each
    # player makes ...); the game's dice come from the hash of both."
    import hashlib
    import json

    from arbiter.game.rng import Rng, commitment

    rig = make_rig(seed=7)
    open_setup(rig, "kaiju")
    rig.keys("a")  # start: the commitment, no game yet
    assert rig.lines[:2] == ["New game", "Dice sealed:"]
    shown = "".join(rig.lines[2:6])
    assert len(shown) == 64 and rig.lines[7].strip() == "P1: 4 arrows"
    assert rig.lines[6].startswith("FW ")  # the firmware that referees, in the same photo
    assert game_of(rig) is None and not (tmp_path / "game.jnl").exists()
    assert shown != commitment(7)  # a fresh seed, not the boot generator's
    # issue 45: "The players' part is the players'. Each player chooses it (for example
    # a few arrow presses or digits), it is on the screen before the first roll"
    rig.run(333)  # when they like: the time is no part of it
    rig.keys("up", "up", "left", "right")
    assert rig.lines[1] == "Yours: UULR" and rig.lines[7].strip() == "P2: 4 arrows"
    rig.keys("down", "down", "down", "right", "b")  # P2 changes their mind
    assert rig.lines[0] == "New game" and rig.lines[7].strip() == "P2: 4 arrows DDD"
    rig.keys("down")
    assert rig.lines[0] == "Photo, then A" and rig.lines[1] == "Yours: UULR DDDD"
    assert "".join(rig.lines[2:6]) == shown and rig.lines[6].startswith("FW ")
    assert game_of(rig) is None  # not before the photo
    rig.keys("a")
    game = game_of(rig)
    assert commitment(game.seed) == shown
    assert game.mix == "UULR.DDDD"
    open_menu_item(rig, "Roll dice")
    fill_form(rig, ["d20", 1])
    digest = hashlib.sha256(game.seed.to_bytes(8, "big") + game.mix.encode()).digest()
    first = Rng(int.from_bytes(digest[:8], "big")).roll(20)
    assert [e["rolls"] for e in game.log if e["event"] == "roll"] == [[first]]
    header = json.loads((tmp_path / "game.jnl").read_text().splitlines()[0])
    assert header["mix"] == game.mix  # journaled: a resumed game rolls the same dice
    again = rig.reboot()
    again.run(1500)
    assert game_of(again).mix == game.mix and game_of(again).state == game.state
    # the same emulator seed seals the same way (a recorded game replays); another does not
    (tmp_path / "twin").mkdir()
    twin = Rig(tmp_path / "twin", seed=7)
    open_setup(twin, "kaiju")
    twin.keys("a")
    assert "".join(twin.lines[2:6]) == shown
    (tmp_path / "other").mkdir()
    other = Rig(tmp_path / "other", seed=8)
    open_setup(other, "kaiju")
    other.keys("a")
    assert "".join(other.lines[2:6]) not in (shown, "")


def test_ending_a_game_shows_the_head_and_the_journal_audits_against_it(rig, capsys):
    # rule: "`arbiter audit` proves that the device committed first, that the players'
    # part was mixed in, and that every roll, undone ones included, follows"
    from arbiter_referee.cli import main as arbiter

    shown = start_game(rig, "kaiju")
    open_menu_item(rig, "Roll dice")
    fill_form(rig, ["d20", 1])
    open_menu_item(rig, "End game")
    rig.keys("a")  # yes
    assert rig.lines[0] == "Game over"
    rig.keys(*["down"] * 6)
    assert rig.lines[2] == "journal head:"
    head = "".join(rig.lines[3:7])
    capsys.readouterr()
    log = str(rig.flash_dir / "game.jnl")
    assert arbiter(["audit", log, "--commitment", shown, "--head", head]) == 0
    out = capsys.readouterr().out
    assert "the players' part" in out and "hashes to the head shown at End game" in out
