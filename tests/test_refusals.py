"""Issue 22's acceptance: in each bundled game an action out of turn, twice in a turn,
in the wrong phase or with a misspelt argument is refused with its reason, under
CPython and under MicroPython alike.

Each case sets its game up with the game's own test helpers (CPython), then plays what
led there plus the refused action headless on both runtimes: the refusal must come at
that last action, with that reason."""

import pytest
from helpers import impactics, jugger, juggernauts, kaiju, tactics
from helpers.game import named, to_phase

from arbiter_referee.headless import play


def juggernauts_resolve():
    """Asynchronous play at Resolve, P1's turn (fewest faces), P1 with an active card."""
    g = juggernauts.started(1, ("d6", "d8"), **{"async": True})
    g.apply("power P1 20")
    g = to_phase(g, "resolve")
    assert g.active_player() == "P1" and g.state["players"]["P1"]["active"]
    return g


def juggernauts_aimed():
    g = juggernauts_resolve()
    g.apply("attack P1 level=2")
    return g, "target P1 pos=%d" % g.state["players"]["P1"]["aim"][0]


def kaiju_action():
    g = kaiju.new(players=2)
    to_phase(g, "select", step=kaiju.passing)
    for p in g.state["order"]:
        g.apply("active %s k1" % p)
    assert g.phase()["name"] == "action"
    return g


def jugger_turn():
    g = jugger.with_initiative("P2", jugger.SEED_P2_INITIATIVE)
    return jugger.to_turn(g, "P2", 5)


# game: (options, [(what, make the game, its actions then the refused one, reason)])
CASES = {
    "juggernauts": ({"async": True}, [
        ("out of turn", juggernauts_resolve, ["attack P2 level=1"], "it is P1's turn"),
        ("twice", lambda: juggernauts_aimed()[0], [juggernauts_aimed()[1]] * 2,
         "P1 has no accurate attack to aim"),
        ("wrong phase", lambda: juggernauts.started(1, ("d6", "d8"), **{"async": True}),
         ["attack P1 level=1"], "attack is for the resolve phase, not energize"),
        ("misspelt", juggernauts_resolve, ["attack P1 level=1 dicard=3"],
         "attack has no argument dicard"),
    ]),
    "impactics": ({}, [
        ("out of turn", impactics.dodge_played, ["dodge P1.alex"], "the Dodge card is Chad's"),
        ("twice", lambda: impactics.new(1), [impactics.queue_from_hands(None)] * 2,
         "6 cards are queued already"),
        ("wrong phase", lambda: impactics.new(1), ["step"],
         "step is for the combat phase, not planning"),
        ("misspelt", lambda: impactics.new(1), ["hit P2.gun1 knd=bullet"],
         "hit has no argument knd"),
    ]),
    "kaiju": ({}, [
        ("out of turn", kaiju_action, ["roar P2"], "it is P1's turn, not P2's"),
        ("twice", kaiju_action, ["roar P1", "roar P1"], "P1 already took its action this turn"),
        ("wrong phase", lambda: kaiju.new(players=2), ["roar P1"], "roar is for the action phase"),
        ("misspelt", kaiju_action, ["roar P1 loud=1"], "roar has no argument loud"),
    ]),
    "tactics": ({}, [
        ("out of turn", tactics.started, ["go P2 7,7 6,6 units=1"], "it is P1's turn, not P2's"),
        ("twice", tactics.started, ["go P1 1,1 1,2 units=1", "go P1 1,1 2,2 units=1",
                                    "go P1 7,1 6,1 units=1", "go P1 1,1 1,2 units=1"],
         "no moves left this turn"),  # "A player gets three moves a turn."
        ("wrong phase", tactics.started, ["castle P1 1,1"],
         "castle is for the castles phase, not turn"),
        ("misspelt", tactics.started, ["go P1 1,1 1,2 unts=2"], "go has no argument unts"),
    ]),
    "jugger": ({"length": "short"}, [
        ("out of turn", jugger_turn, ["score P1.j1"], "not P1's turn"),
        # act, then delay: "one activation per stone" (issue 23)
        ("twice", jugger_turn, ["pickup P2.j1", "delay P2.j1"],
         "Fen has activated; it cannot delay now"),
        ("wrong phase", jugger_turn, ["swap {Ana} {Bo}"], "swap is for the start phase"),
        ("misspelt", jugger_turn, ["score P2.j1 points=2"], "score has no argument points"),
    ]),
}


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
@pytest.mark.parametrize("game, what", [(game, case[0]) for game, (_, cases) in CASES.items()
                                        for case in cases])
def test_an_illegal_action_is_refused_with_its_reason_on_both_runtimes(game, what, runtime):
    options, cases = CASES[game]
    _, make, tail, reason = next(case for case in cases if case[0] == what)
    g = make()
    actions = [event.split("|")[0] for event in g.history.events]
    actions += [named(g, action) for action in tail]
    outcome = play(game, len(g.state["order"]), g.seed, options, actions, runtime)
    assert outcome.refused is not None, (game, what)
    assert outcome.refused[0] == len(actions) and reason in outcome.refused[1], outcome.refused
