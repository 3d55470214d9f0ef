"""Issue 23: a whole long game of Jugger TTG (three points) with the players' own teams,
entered on the PC (tests/data/jugger_teams.json: Harbour and Fjord, 8 juggers each),
played on the emulated device by buttons, then the same game headless on both runtimes.

"Cada jugador construye su equipo usando su colección de Jugadores de Jugger." "Juego
Largo – El primer jugador en marcar 3 puntos gana" (../shared/seeds/002_3f7d8541c1733e1c.txt).
Harbour: Ada (the Qwik), Ben, Cleo, Dov, Emil (chain); Finn, Greta, Hugo in reserve.
Fjord: Ines (the Qwik), Jan, Kim, Lars, Mads (chain); Nora, Otto, Ruth in reserve."""


from helpers import REPO
from helpers.device import do, game_of, open_setup, seal
from helpers.game import canonical, piece

from arbiter.game.rng import dice_seed
from arbiter.store.journal import JOURNAL
from arbiter_referee.headless import play
from arbiter_referee.rulesets import with_teams

TEAMS = REPO / "tests" / "data" / "jugger_teams.json"
QWIK = {"P1": "Ada", "P2": "Ines"}
ATTACKER = {"P1": ("Ben", "Jan"), "P2": ("Jan", "Ben")}  # each side's Reflexes 4 jugger
# who scores each point: Harbour, Fjord, Harbour, Harbour (3-1)
SCORERS = ["P1", "P2", "P1", "P1"]


def device_with_teams(make_rig, tmp_path):
    """A device whose Jugger ruleset holds the teams file's teams, as ``arbiter push
    jugger --teams`` leaves it: not yet checked by the device (no NAME.ok)."""
    from arbiter_referee.compiled import compiled, factory_flash

    flash = tmp_path  # make_rig's flash
    factory_flash(flash)
    merged = with_teams("jugger", str(TEAMS), tmp_path / "merged")
    (flash / "rulesets" / "jugger.json").write_bytes(compiled(merged.read_bytes()))
    (flash / "rulesets" / "jugger.ok").unlink()
    rig = make_rig()
    rig.journal = []  # every event as the device applied it (the file is compacted)
    append = rig.board.flash.append

    def journal_append(name, text):
        if name == JOURNAL:
            rig.journal.extend(text.splitlines())
        return append(name, text)

    rig.board.flash.append = journal_append
    return rig, merged


def press_next_until(rig, done, what, limit=60):
    """A (next) on the play screen until ``done(game)``: bounded."""
    game = game_of(rig)
    for _ in range(limit):
        if done(game):
            return
        rig.keys("a")
    raise AssertionError("never reached %s: %s" % (what, rig.lines))


def test_a_long_game_with_the_players_teams_by_buttons_and_headless(make_rig, tmp_path):
    rig, merged = device_with_teams(make_rig, tmp_path)
    open_setup(rig, "jugger")
    rig.keys("right", "a")  # Game length: long
    seal(rig)
    game = game_of(rig)
    assert game.options == {"length": "long"}
    do(rig, "Roster", ["P1", "Harbour"])
    assert game.state["message"] == "P1 fields Harbour"
    do(rig, "Roster", ["P2", "Fjord"])
    in_play = sorted(v["name"] for v in game.state["pieces"].values() if v["in_play"])
    assert in_play == sorted(["Ada", "Ben", "Cleo", "Dov", "Emil",
                              "Ines", "Jan", "Kim", "Lars", "Mads"])

    def turn(side, voa):
        return lambda g: (g.phase()["name"] == "activation" and g.active_player() == side
                          and g.state["game"]["voa"] == voa)

    tally = {"P1": 0, "P2": 0}
    for side in SCORERS:
        press_next_until(rig, turn(side, 4), "%s at 4" % side)
        attacker, target = ATTACKER[side]
        events = len(rig.journal)
        # a basic attack, the defense as the form offers it
        do(rig, "Attack (2 focus)", [piece(game, attacker), piece(game, target)])
        assert rig.journal[events:] and rig.journal[events].startswith("attack "), rig.lines
        press_next_until(rig, turn(side, 5), "%s at 5" % side)  # the next stone
        do(rig, "Pick up Jugg (1)", [piece(game, QWIK[side])])
        do(rig, "Score (2 focus)", [piece(game, QWIK[side])])
        tally[side] += 1
        assert {p: game.state["players"][p]["points"] for p in tally} == tally, rig.lines
    assert (game.state["result"], game.state["winner"]) == ("win", "P1")
    assert [game.state["players"][p]["points"] for p in ("P1", "P2")] == [3, 1]

    # the same game headless, from its journal and its dice seed, on both runtimes
    actions = [line.split("|")[0] for line in rig.journal if not line.startswith("#")]
    seed = dice_seed(game.seed, game.mix)
    here = play(str(merged), 2, seed, {"length": "long"}, actions, "cpython")
    assert here.refused is None and here.state["winner"] == "P1"
    # what the table sees (the device's log in RAM is cut short; its dice commitment
    # is the device's own)
    seen = ("players", "pieces", "game", "order", "round", "phase", "message", "result",
            "winner")
    device = game.public()
    assert canonical({k: here.state[k] for k in seen}) == canonical({k: device[k] for k in seen})
    assert here.state["screen"][-3:] == rig.lines[-3:]  # the winner, and why
    assert "P1 wins: " in " ".join(rig.lines)
    pico = play(str(merged), 2, seed, {"length": "long"}, actions, "micropython")
    assert pico.refused is None and canonical(pico.state) == canonical(here.state)
