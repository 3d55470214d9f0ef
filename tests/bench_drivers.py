"""Whole games played by keys on a Rig, for the recorder (record.py).

Where the test suite has a whole game on the device for the bundled ruleset,
that test is the driver, asserts and all: the bench replays what the tests
hold. Jugger's (SIM_GAME in tests/test_jugger.py) is a run, a pick-up and a score,
so its whole stone is here, in the tests' style: choices read from the screen and
the game, each action checked, loops bounded.
"""

from __future__ import annotations

from helpers.device import RECORDED_PARTS, do, game_of, open_setup, seal
from helpers.game import piece


def kaiju(rig):
    from test_kaiju import test_a_complete_five_player_game_on_the_device

    test_a_complete_five_player_game_on_the_device(rig)


def impactics(rig):
    from test_impactics import test_a_whole_game_on_the_device

    test_a_whole_game_on_the_device(rig)


def tactics(rig):
    from test_tactics import test_a_whole_game_on_the_device_moved_on_the_board

    test_a_whole_game_on_the_device_moved_on_the_board(rig)


def from_menu(rig, label, values):
    """A game-menu item's form filled in and done; it must be applied."""
    recorded = len(rig.journal)  # the RecordingRig's: a game in RAM may drop old events
    do(rig, label, values)  # by the fast path when it applies, as players would
    if len(rig.journal) != recorded + 1:
        raise AssertionError(f"{label} {values} not applied: {rig.lines}")


def press_next_until(rig, done, limit=40):
    """A (next) until ``done(game)``: bounded, a state never reached fails."""
    game = game_of(rig)
    for _ in range(limit):
        if done(game):
            return game
        rig.keys("a")
    raise AssertionError(f"never reached: {rig.lines}")


def juggernauts(rig):
    from test_juggernauts import whole_game

    whole_game(rig)


def jugger(rig):
    """A short game (the first point wins) as a table plays it, by the fast path: in
    each side's turn its juggers activate (Right, A; a run or a delay declared with it,
    Left/Right) and attack (Right, Down to the target, Left/Right the defense, A), and A
    passes. At Reflexes 5 the first Qwik picks up the Jugg (Right, A) and wrestles the
    other, who delays; at 4 a jugger running past an opponent takes its attack of
    opportunity and a dispute follows; the first of that side to attack goes for the
    carrier, who reacts (the game menu) and throws the Jugg (Right, A); at 3 the delayed
    Qwik runs, picks up the Jugg and scores (Right, A each). The rest from the game
    menu, its forms opening where the game is: the reactor's attack on the jugger
    moving."""
    open_setup(rig, "jugger")
    rig.keys("a")  # start (a short game)
    # the dice commitment, each player's four arrows: these give the dice the stone
    # below is written for
    seal(rig, RECORDED_PARTS["jugger"])
    game = game_of(rig)
    pieces = game.state["pieces"]
    acts = [0]

    def key(name):
        return piece(game, name)

    def standing(name):
        record = game.state["pieces"][key(name)]  # as it is now (an undo's state is new)
        return record["in_play"] and not record["crouch"] and not record["pinned"]

    def done(label, values):
        from_menu(rig, label, values)
        acts[0] += 1

    def activate(name, then="starts"):
        done("Activate", [key(name), "focus", then])  # its fields: jugger, pays from, and
        if then != "delays":
            assert game.state["game"]["cur"] == key(name), rig.lines

    def attack(names, defense=None):
        # the first standing of the opponents named, else of the others but the Qwik
        foes = [pieces[k]["name"] for k in pieces if pieces[k]["owner"] !=
                pieces[game.state["game"]["cur"]]["owner"]]
        target = next(n for n in names + foes if standing(n) and (
            n in names or pieces[key(n)]["stats"].get("position") != "qwik"))
        values = [game.state["game"]["cur"], key(target)]  # the form's k, t, boost, ...
        if defense:
            values += [0, 0, defense]
        done("Attack (2 focus)", values)
        assert game.history.events[-1].startswith("attack "), rig.lines

    def activation(name, targets):
        """``name`` activates and makes its Basic Attack, a chain readied first."""
        if not standing(name):
            return
        activate(name)
        if pieces[key(name)]["stats"].get("weapon") == "chain":
            done("Ready chain (1)", [key(name)])
        attack(targets)

    def next_turn():
        was = (game.state["round"], game.state["turn"], game.state["phase"])
        rig.keys("a")
        assert (game.state["round"], game.state["turn"], game.state["phase"]) != was

    press_next_until(rig, lambda g: g.phase()["name"] == "activation")
    first = game.active_player()
    # who activates at each value (the point is scored at 3)
    sides = {"P1": {5: ["Ana"], 4: ["Bo"], 3: ["Cyd", "Dag"]},
             "P2": {5: ["Fen"], 4: ["Gus"], 3: ["Hal"]}}
    us, them = sides[first], sides["P2" if first == "P1" else "P1"]
    (ours,), (theirs,) = us[5], them[5]  # the Qwiks
    # the stone, value by value: the side with the initiative, then the other
    for voa in (5, 4, 3):
        assert game.state["game"]["voa"] == voa and game.active_player() == first
        if voa == 5:  # the Jugg, then the wrestle: Qwik on Qwik, the other in a duel
            activate(ours)
            done("Pick up Jugg (1)", [key(ours)])
            attack([theirs], "duel")
        for name in us[voa] if voa < 5 else ():
            activation(name, them[3] + them[4])
        next_turn()
        if voa == 5:
            activate(theirs, "delays")  # to a lower value
        for name in them[voa] if voa < 5 else ():
            if not standing(name):
                continue
            activate(name, "runs" if voa == 4 else "starts")
            if voa == 4:  # it runs (1 focus) past an opponent, who reacts
                assert game.state["game"]["mv"] == key(name), rig.lines
                reactor = next((n for n in us[3] + us[4] if standing(n)), None)
                if reactor:  # the form opens on the jugger moving, as an opportunity
                    done("Attack (2 focus)", [key(reactor)])
                    assert "kind=opportunity" in game.history.events[-1]
                    assert "t=" + key(name) in game.history.events[-1]
                    done("Dispute roll", [])  # was it in the reactor's range? 1 die
            if not standing(name):
                continue
            if pieces[key(name)]["stats"].get("weapon") == "chain":
                done("Ready chain (1)", [key(name)])
            if game.state["game"]["jugg"] == key(ours) and standing(ours):
                # an attack declared on the carrier: it reacts, throwing the Jugg (both
                # forms open on the carrier, the throw as a reaction)
                done("Reaction", [])
                assert "k=" + key(ours) in game.history.events[-1]
                done("Throw Jugg", [])
                assert "kind=reaction" in game.history.events[-1]
                assert game.state["game"]["jugg"] == "", rig.lines
                attack([ours])
            else:
                attack(us[4] + us[3])
        if voa == 3:  # the delayed Qwik's activation: it picks up the Jugg and runs
            activate(theirs, "runs")  # to the goal, where it scores: the point ends it
            done("Pick up Jugg (1)", [key(theirs)])
            done("Score (2 focus)", [key(theirs)])
            break
        next_turn()
    assert game.state["winner"] == pieces[key(theirs)]["owner"] and \
        f"{game.state['winner']} wins: " in " ".join(rig.lines), rig.lines
    assert acts[0] >= 14


PLAYERS = {"juggernauts": juggernauts, "impactics": impactics, "jugger": jugger,
           "tactics": tactics, "kaiju": kaiju}
