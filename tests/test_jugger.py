"""Jugger TTG refereed from rulesets/jugger.json: stones, crouch counts, pins,
initiative, activation, focus/stamina/synergy, combat, rosters, points, disputes.

Quotes are from the rules (../shared/seeds/002_3f7d8541c1733e1c.txt, Spanish);
numbers as in ../shared/docs/referee-spec.md section 3.

The juggers go by their names (rulesets/jugger.json's rosters): the short game's
Falcons (P1) are Ana (the Qwik), Bo, Cyd, Dag and Eli (the chain), the Ravens (P2) Fen
(the Qwik), Gus, Hal, Ivo and Jo; the long game's Wolves and Bears are Kai to Rae and
Sol to Zed. An action names them in braces: "hit {Eli}" is applied as "hit P1.j5"."""

import json

import pytest
from helpers.device import act, lit, open_menu_item, open_setup, play_screen, seal
from helpers.game import (
    apply,
    canonical,
    named,
    notes,
    piece,
    piece_state,
    refused,
    rolls,
    rules,
    seen_but_log,
)
from helpers.jugger import (
    SEED_BO_1_HAL_2_LAST,
    SEED_BO_1_HAL_5,
    SEED_BO_2_HAL_1_0_1,
    SEED_BO_2_HAL_1_LAST,
    SEED_BO_BLANKS,
    SEED_DISPUTE_TIE,
    SEED_INITIATIVE_TIE,
    SEED_P1_INITIATIVE,
    SEED_P2_INITIATIVE,
    end_stone,
    juggs,
    new,
    scores,
    to_turn,
    with_initiative,
)

from arbiter.game import Illegal
from arbiter.game.engine import Game
from arbiter.screens.view import screen_lines
from arbiter_referee.headless import play

# -- the stone sequence ---------------------------------------------------------------


def test_a_point_opens_with_the_call_and_the_first_stone_skips_maintenance():
    # "La PRIMERA PIEDRA de un Punto va directa a la Fase de Activación, saltándose los
    # pasos de Mantenimiento de Piedra y Repitiendo la Iniciativa"; "3, 2, 1, Jugger!"
    g = new(3)
    assert g.phase()["name"] == "start" and g.state["message"] == "3, 2, 1, Jugger!"
    skipped = [e["name"] for e in g.log if e.get("skipped")]
    assert skipped == []  # the point start is shown, maintenance never entered
    phases = []
    for _ in range(12):
        g.apply("next")
        phases.append(g.phase()["name"])
    assert phases[:2] == ["initiative", "activation"]
    assert "maintenance" not in phases[:11]
    assert g.state["round"] == 2 and phases[-1] == "maintenance"  # the stone is counted
    assert screen_lines(g)[0] == "Jugger TTG S2"
    g.apply("next")
    assert g.phase()["name"] == "initiative"  # re-rolled on every later stone
    assert len(rolls(g, "initiative")) >= 4


def test_initiative_dice_are_the_highest_will_among_active_juggers():
    # "Cada jugador identifica el valor más alto de Voluntad entre sus Juggers Activos
    # ... Este valor es el número de dados que el jugador lanza"
    g = new(5)
    apply(g, "hit {Eli} crouch=3")  # Will 4, crouches: Falcons roll 3 (Ana, Bo)
    g.apply("next")
    first = rolls(g, "initiative")[:2]
    assert [len(r["rolls"]) for r in first] == [3, 4]  # Ravens: Jo's Will 4
    assert [r["player"] for r in first] == ["P1", "P2"]


def test_initiative_ties_are_rolled_again():
    # "(los empates se repiten)"; "El Jugador con la mayor cantidad de Juggs GANA"
    g = new(SEED_INITIATIVE_TIE)
    g.apply("next")
    got = rolls(g, "initiative")
    assert len(got) > 2 and sum(got[0]["rolls"]) == sum(got[1]["rolls"])  # rolled again
    last = got[-2:]
    p1, p2 = sum(last[0]["rolls"]), sum(last[1]["rolls"])
    assert p1 != p2
    winner = "P1" if p1 > p2 else "P2"
    assert g.state["players"][winner]["initiative"] is True
    assert g.state["order"][0] == winner


def test_activation_counts_down_reflexes_initiative_side_first_refilling_focus():
    # "El valor del orden de activación (VOA) empieza en 5 y va en orden descendiente";
    # "TODOS los Juggers de ambos equipos cuyos Reflejos = actual VOA ... Se recuperan
    # todos los Puntos de Concentración"; "El Jugador con la Iniciativa empieza su TURNO"
    g = with_initiative("P2", SEED_P2_INITIATIVE)
    g.apply("next")
    seen = []
    for _ in range(10):
        seen.append((g.state["game"]["voa"], g.active_player(), g.state["message"]))
        if seen[-1][:2] == (5, "P1"):
            apply(g, "spend {Bo} n=3")  # Bo (Reflexes 4) spends before his slot
            assert piece_state(g, "Bo")["focus"] == 1
        if seen[-1][:2] == (4, "P2"):
            assert piece_state(g, "Bo")["focus"] == 4  # refilled at value 4
        g.apply("next")
    assert [s[:2] for s in seen] == [(v, p) for v in (5, 4, 3, 2, 1) for p in ("P2", "P1")]
    assert seen[0][2] == "R5: Fen" and seen[1][2] == "R5: Ana"
    assert seen[4][2] == "R3: Hal" and seen[5][2] == "R3: Cyd,Dag"
    assert screen_lines(to_turn(g, "P2", 5))[1] == "Act: P2"


def test_a_jugger_acts_only_at_its_reflexes_unless_delayed():
    # "Un Jugger puede retrasar su activación"; "El Jugger gasta 1 Punto de
    # Concentración para Retrasarse"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 4)
    # Eli's Reflexes is 2 (refused before the chain check)
    refused(g, "ready {Eli}", "Eli activates at Reflexes 2")
    apply(g, "delay {Bo}")
    assert piece_state(g, "Bo")["delayed"] == 14 and piece_state(g, "Bo")["focus"] == 3  # 4, S1
    to_turn(g, "P1", 2)
    apply(g, "ready {Eli}")
    apply(g, "attack {Bo} {Jo} defense=none")  # Bo acts late, delayed
    assert piece_state(g, "Bo")["focus"] == 1


# -- crouch counts and pins -------------------------------------------------------------


def test_crouch_counts_by_weapon_and_out_of_bounds():
    # Tabla 1: "Cadena 5", the other weapons 3; out of bounds 3 (spec section 3)
    g = new(2)
    apply(g, "hit {Fen} by={Eli}")  # hit by the chain
    apply(g, "hit {Gus} by={Bo}")  # sword and shield
    apply(g, "out {Hal}")
    apply(g, "hit {Ivo} crouch=4")
    assert [piece_state(g, name)["crouch"] for name in ("Fen", "Gus", "Hal", "Ivo")] == [
        5, 3, 3, 4]


def test_crouch_counts_fall_each_stone_and_say_who_stands_up():
    # "Todos los Juggers que están agachados pueden quitarse 1 Ficha de Conteo"
    g = new(2)
    apply(g, "hit {Gus} crouch=1")
    apply(g, "hit {Cyd} crouch=3")
    end_stone(g)  # the first stone had no maintenance; the second starts with it
    assert [e.get("round") for e in g.log if e.get("name") == "maintenance"] == [None, 2]
    assert g.phase()["name"] == "maintenance"
    assert piece_state(g, "Gus")["crouch"] == 0 and piece_state(g, "Cyd")["crouch"] == 2
    assert g.state["message"] == "Gus stands up"


def test_a_crouched_jugger_cannot_act():
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "hit {Ana} crouch=2")
    to_turn(g, "P1", 5)
    refused(g, "delay {Ana}", "Ana is crouched")


def pin_ready():
    """P1 to act at Reflexes 4 with Bo; Ravens' Gus crouched for 1 stone."""
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "hit {Gus} crouch=1")
    return to_turn(g, "P1", 4)


def test_a_pin_costs_one_focus_and_holds_a_jugger_down_past_zero():
    # "Un Jugger inmovilizado permanece agachado aunque su conteo llegue a 0"
    g = pin_ready()
    apply(g, "pin {Gus} by={Bo}")
    assert piece_state(g, "Gus")["pinned"] == piece(g, "Bo") and piece_state(g, "Bo")["focus"] == 3
    end_stone(g)
    gus = piece_state(g, "Gus")
    assert gus["crouch"] == 0 and gus["pinned"] == piece(g, "Bo")
    assert "Gus stands up" not in notes(g)
    g.apply("next")  # initiative: Gus, still down, gives no Will
    apply(g, "unpin {Gus}")  # the pinner declares it over
    assert piece_state(g, "Gus")["pinned"] == "" and g.state["message"] == "Gus stands up"


def test_a_jugger_freed_after_its_value_acts_in_its_sides_turn_one_freed_before_waits():
    # "Si los Reflejos del jugador son mayores que la Orden de Activación actual, los
    # jugadores se pueden activar normalmente durante el turno del Jugador."
    g = pin_ready()
    apply(g, "pin {Gus} by={Bo}")
    end_stone(g)  # Gus's count runs out; the pin holds him down
    g.apply("next")  # initiative
    g.apply("next")  # activation
    to_turn(g, "P2", 2)  # past Gus's Reflexes of 3: the pin ends now
    apply(g, "unpin {Gus}")
    assert piece_state(g, "Gus")["delayed"] == 29 and "Gus may act this stone" in notes(g)
    assert g.bound_eval("k", piece(g, "Gus"), {"val": "acts"})  # he acts now, in his side's turn
    apply(g, "attack {Gus} {Eli} defense=none")  # his turn is owed, not bought: 2 for the attack
    assert piece_state(g, "Gus")["focus"] == 2 and piece_state(g, "Gus")["acted"] == 2
    h = pin_ready()
    apply(h, "pin {Gus} by={Bo}")
    end_stone(h)
    h.apply("next")
    h.apply("next")
    apply(h, "unpin {Gus}")  # before his value (5 > 3): he acts when it comes, no more
    assert piece_state(h, "Gus")["delayed"] == 0 and "Gus may act this stone" not in notes(h)


@pytest.mark.parametrize("how", ["hit {Bo} crouch=3", "out {Bo}"])
def test_a_pin_ends_when_the_pinner_is_hit_or_leaves(how):
    g = pin_ready()
    apply(g, "pin {Gus} by={Bo}")
    apply(g, how)
    assert piece_state(g, "Gus")["pinned"] == ""
    assert "Gus is free" in notes(g)


@pytest.mark.parametrize("pinner, voa, defense, freed", [
    ("Bo", 4, "full", False),  # sword and shield: the shield defends
    ("Bo", 4, "duel", True),
    ("Cyd", 3, "full", True),  # a staff
    ("Cyd", 3, "none", False)])
def test_a_pin_ends_when_the_pinner_defends_with_its_weapon_not_its_shield(
        pinner, voa, defense, freed):
    # "Un Pineo es removido cuando el Jugador Pineador: Es atacado y el Jugador Pineador usa
    # la puntuación de defensa de su arma ... Esto no se aplica a jugadores pineados usando
    # Espada Corta y Escudo"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "hit {Gus} crouch=3")
    to_turn(g, "P1", voa)
    apply(g, "pin {Gus} by={%s}" % pinner)
    to_turn(g, "P2", 3)
    apply(g, "attack {Hal} {%s} defense=%s" % (pinner, defense))
    assert piece_state(g, pinner)["crouch"] == 0  # Hal does not hit him (that frees Gus too)
    assert (piece_state(g, "Gus")["pinned"] == "") is freed
    assert ("Gus is free" in notes(g)) is freed


def test_a_jugger_pins_one_opponent_at_a_time():
    # "Un Jugador solamente puede pinear a un jugador a la vez."
    g = pin_ready()
    apply(g, "hit {Ivo} crouch=2")
    apply(g, "pin {Gus} by={Bo}")
    refused(g, "pin {Ivo} by={Bo}", "Bo pins one jugger at a time")
    apply(g, "unpin {Gus}")  # declared over: Bo may pin another
    apply(g, "pin {Ivo} by={Bo}")
    assert piece_state(g, "Ivo")["pinned"] == piece(g, "Bo") and piece_state(g, "Bo")["focus"] == 2


def test_qwiks_and_chains_cannot_pin_and_only_crouched_opponents_are_pinned():
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "hit {Gus} crouch=3")
    to_turn(g, "P1", 5)
    refused(g, "pin {Gus} by={Ana}", "a Qwik cannot pin")
    to_turn(g, "P1", 2)
    refused(g, "pin {Gus} by={Eli}", "a chain cannot pin")
    refused(g, "pin {Hal} by={Cyd}", "Hal is not crouched")


# -- focus, stamina, synergy ----------------------------------------------------------------


def test_synergy_is_one_less_than_the_in_play_juggers_of_each_team():
    # Tabla 2: "1 Jugger* = 0  2 Juggers = 1 PSE  3 Juggers = 2 PSE ..."; "Solo se tienen
    # en cuenta ... los Juggers en Juego"
    g = new(1)
    assert g.state["players"]["P1"]["synergy"] == 3  # 3 Falken, 2 Rostock
    assert g.state["players"]["P2"]["synergy"] == 3  # 4 Keiler, 1 Leones
    long = new(1, "long")
    assert long.state["players"]["P1"]["synergy"] == 3  # in play: 3 Lobos, 2 Zerg
    assert long.state["players"]["P2"]["synergy"] == 3  # in play: 4 Osos, 1 Brau


def test_spending_names_its_pool_and_the_last_stamina_exhausts():
    # "Inmediatamente después de que la acción en la que un Jugger gasta su última Ficha
    # de PA ... sufre la condición de AGOTADO"
    g = new(1)
    apply(g, "spend {Bo} n=3 from=synergy")  # "puede gastar uno o más PSE"
    assert pools(g, "Bo") == (4, 3, 0)
    refused(g, "spend {Bo} n=8 from=stamina", "Bo cannot pay 8")  # synergy only if named
    apply(g, "spend {Bo} n=2 from=stamina")
    assert piece_state(g, "Bo")["exhausted"] == 0
    apply(g, "spend {Bo} n=1 from=stamina")
    assert piece_state(g, "Bo")["exhausted"] == 1 and g.state["message"] == "Bo is exhausted"


def test_exhaustion_takes_a_die_from_attack_and_defense_minimum_zero():
    # "Los valores ataque y defensa base del Jugger se reducen en 1 con un mínimo de 0"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "spend {Bo} n=3 from=stamina")
    apply(g, "spend {Hal} n=3 from=stamina")
    to_turn(g, "P1", 4)
    apply(g, "attack {Bo} {Hal} defense=full")
    att, dfn = rolls(g, "attack")[-1], rolls(g, "defense")[-1]
    assert len(att["rolls"]) == 0 + 1  # attack 1-1, sword and shield 1
    assert len(dfn["rolls"]) == 1 + 3  # defense 2-1, sword and shield 3


# -- combat ------------------------------------------------------------------------------


def combat(action, seed, want, player="P1", voa=4, first=()):
    """``action`` in ``player``'s turn at Reflexes ``voa`` (after ``first``), in a game of
    ``seed``: its message must end with ``want``. The game."""
    g = with_initiative(player, seed)
    to_turn(g, player, voa)
    for step in first:
        apply(g, step)
    apply(g, action)
    assert g.state["message"].endswith(want), (seed, g.state["message"])
    return g


@pytest.mark.parametrize("defense, seed, want, a_vs_d", [
    ("full", SEED_BO_2_HAL_1_LAST, "Hal hit", ">"), ("full", SEED_BO_1_HAL_5, "no hit", "<="),
    ("duel", SEED_BO_1_HAL_2_LAST, "Hal hit", ">"), ("duel", SEED_BO_1_HAL_5, "Bo hit", "<"),
    ("duel", SEED_BO_2_HAL_1_0_1, "doubles", "=="),
    ("none", SEED_BO_1_HAL_2_LAST, "Hal hit", ">="), ("none", SEED_BO_1_HAL_5, "no hit", "<"),
    ("full side=flank", SEED_BO_1_HAL_2_LAST, "Hal hit", ">"),
    ("full side=flank", SEED_BO_1_HAL_5, "no hit", "<="),
    ("duel side=flank", SEED_BO_1_HAL_2_LAST, "Hal hit", ">"),
    ("duel side=flank", SEED_BO_1_HAL_5, "Bo hit", "<"),
    ("duel side=flank", SEED_BO_2_HAL_1_0_1, "doubles", "=="),
    ("none side=flank", SEED_BO_1_HAL_5, "Hal hit", ">="),
    ("none side=back", SEED_BO_1_HAL_5, "Hal hit", ">=")])
def test_every_combat_outcome(defense, seed, want, a_vs_d):
    # "Defensa Total: ... número mayor de Juggs ... el defensor ha sido golpeado";
    # "Duelo: El Jugger que ha obtenido menos Juggs ... es golpeado ... DOBLES";
    # "No se Defiende: Si la tirada ... es igual o mayor ... impactado". From the flank Hal
    # keeps his choice without his shield (no defense: no dice, any Jugg hits); from the back
    # he cannot defend, whatever he chose.
    g = combat("attack {Bo} {Hal} defense=" + defense, seed, want)
    a, d = juggs(g)
    assert a > 0 and eval("%d %s %d" % (a, a_vs_d, d))
    assert rolls(g, "defense")[-1]["reason"] == (
        "defense none" if "back" in defense else "defense " + defense.split()[0])
    hal, bo = piece_state(g, "Hal")["crouch"], piece_state(g, "Bo")["crouch"]
    assert (hal, bo) == {"Hal hit": (3, 0), "Bo hit": (0, 3), "doubles": (3, 3),
                         "no hit": (0, 0)}[want]


def test_an_attacker_with_no_juggs_misses_outright():
    # "Si el atacante obtiene un resultado en blanco ... el ataque falla automáticamente"
    g = combat("attack {Bo} {Hal} defense=none side=back", SEED_BO_BLANKS, "miss")
    assert juggs(g) == (0, 0) and piece_state(g, "Hal")["crouch"] == 0


def test_dice_pools_come_from_stats_weapons_and_the_defense_choice():
    # "Puntos de Ataque del Jugger + Puntos de Ataque del Arma"; Defensa Total: "Puntos de
    # Defensa del Jugger + Puntos de Defensa del Arma/Escudo"; No se defiende: "Puntos de
    # Defensa del Arma/Escudo"; flank: "pierde todos los bonificadores de defensa de las
    # Armas y Escudos"; back: "Entra por defecto en la opción de defensa No se Defiende"
    cases = [("defense=full", 2, 5), ("defense=duel", 2, 2), ("defense=none", 2, 3),
             ("defense=full side=flank", 2, 2), ("defense=none side=flank", 2, 0),
             ("side=back", 2, 0), ("defense=full boost=1 dboost=1", 3, 6)]
    for extra, attack_dice, defense_dice in cases:
        g = with_initiative("P1", SEED_P1_INITIATIVE)
        to_turn(g, "P1", 4)
        apply(g, "attack {Bo} {Hal} " + extra)
        assert len(rolls(g, "attack")[-1]["rolls"]) == attack_dice, extra
        assert len(rolls(g, "defense")[-1]["rolls"]) == defense_dice, extra


def test_costs_and_boosts_are_paid_focus_first():
    # "2 PC por un Ataque Básico"; "potenciar sus dados de combate una vez por combate
    # pagando 2 PC por cada dado"; PA and PSE pay in place of PC 1:1
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 4)
    apply(g, "attack {Bo} {Hal} defense=full boost=1 dboost=1")
    assert piece_state(g, "Bo")["focus"] == 0 and piece_state(g, "Hal")["focus"] == 0
    g.apply("undo agreed")
    apply(g, "attack {Bo} {Hal} defense=none boost=2")  # 6: 4 focus, 2 stamina, no synergy
    assert pools(g, "Bo") == (0, 1, 3)
    assert piece_state(g, "Hal")["focus"] == 4  # no defense costs nothing
    g.apply("undo agreed")
    refused(g, "attack {Bo} {Hal} defense=none boost=5", "Bo cannot pay 12")
    refused(g, "attack {Bo} {Hal} side=back dboost=1",
            "a back attack gets no defense and no boost")


def pools(g, name):
    """The jugger's focus and stamina, its side's synergy."""
    record = piece_state(g, name)
    return record["focus"], record["stamina"], g.state["players"][record["owner"]]["synergy"]


def test_a_cost_is_paid_from_the_pool_the_player_names_first():
    # "En cualquier momento en el que un Jugger podría gastar un PC, este puede gastar uno o
    # más Puntos de Aguante (PA) para conseguir el mismo beneficio 1:1"; "Cuando un Jugger
    # podría gastar PC o PA, puede gastar uno o más PSE ... 1:1"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 4)
    assert pools(g, "Bo") == (4, 3, 3) and pools(g, "Hal") == (4, 3, 3)
    apply(g, "delay {Bo} from=stamina")
    assert pools(g, "Bo") == (4, 2, 3)
    to_turn(g, "P1", 3)  # the delayed activation
    apply(g, "attack {Bo} {Hal} defense=full from=synergy dfrom=stamina")
    assert pools(g, "Bo") == (4, 2, 1) and pools(g, "Hal") == (4, 1, 3)
    g.apply("undo agreed")
    apply(g, "attack {Bo} {Hal} defense=duel boost=1 from=synergy")  # 4: 3 synergy, 1 focus
    assert pools(g, "Bo") == (3, 2, 0) and pools(g, "Hal") == (2, 3, 3)
    g.apply("undo agreed")
    # 4 + 2 + 3 points in all
    refused(g, "attack {Bo} {Hal} defense=none boost=5 from=stamina", "Bo cannot pay 12")


def test_paying_with_the_last_stamina_exhausts():
    # "Inmediatamente después de que la acción en la que un Jugger gasta su última Ficha de
    # PA ... sufre la condición de AGOTADO"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 2)
    apply(g, "spend {Eli} n=2 from=stamina")
    apply(g, "ready {Eli} from=stamina")
    assert pools(g, "Eli") == (4, 0, 3) and piece_state(g, "Eli")["exhausted"] == 1
    assert notes(g)[-2:] == ["Eli is exhausted", "Eli readies the chain"]
    apply(g, "attack {Eli} {Gus} defense=none")
    assert len(rolls(g, "attack")[-1]["rolls"]) == 0 + 3  # attack 1-1, chain 3


def test_the_chain_must_be_readied_for_one_focus_and_again_after_attacking():
    # "La cadena sólo puede atacar si está preparada ... y cuesta 1 PC"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 2)
    refused(g, "attack {Eli} {Gus} defense=none", "ready the chain first")
    apply(g, "ready {Eli}")
    assert piece_state(g, "Eli")["chain_ready"] == 1 and piece_state(g, "Eli")["focus"] == 3
    apply(g, "attack {Eli} {Gus} defense=none")
    assert piece_state(g, "Eli")["chain_ready"] == 0
    assert len(rolls(g, "attack")[-1]["rolls"]) == 1 + 3


def test_a_chain_hit_crouches_for_five():
    g = combat("attack {Eli} {Gus} defense=none", SEED_P1_INITIATIVE, "Gus hit", voa=2,
               first=["ready {Eli}"])
    assert piece_state(g, "Gus")["crouch"] == 5


# -- Jugg dice and disputes ------------------------------------------------------------


def test_jugg_dice_default_to_half_and_a_ruleset_may_set_faces_worth_two():
    assert rules("jugger")["dice"]["jugg"]["faces"] == [0, 0, 0, 1, 1, 1]
    data = rules("jugger")
    data["dice"]["jugg"]["faces"] = [2]
    g = Game(data, seed=1)
    g.apply("dispute n=3")
    assert g.state["message"] == "Dispute: P1 6-6" or "Dispute" in g.state["message"]
    assert [sum(r["rolls"]) for r in rolls(g, "dispute")][:2] == [6, 6]


def test_a_dispute_is_an_opposed_jugg_roll_ties_rolled_again():
    # "Las disputas ... se resuelven con una tirada enfrentada de dados Jugg" (spec 3)
    g = new(SEED_DISPUTE_TIE)
    g.apply("dispute n=2")
    got = rolls(g, "dispute")
    assert len(got) > 2 and sum(got[0]["rolls"]) == sum(got[1]["rolls"])  # rolled again
    a, b = sum(got[-2]["rolls"]), sum(got[-1]["rolls"])
    assert a != b and g.state["message"] == "Dispute: %s %d-%d" % (
        "P1" if a > b else "P2", a, b)


# -- points, the end, rosters ----------------------------------------------------------


def test_a_short_game_ends_at_the_first_point():
    # "Si se juega una partida rápida, el ganador del punto gana el juego"
    g = with_initiative("P2", SEED_P2_INITIATIVE)
    to_turn(g, "P2", 5)
    refused(g, "pickup {Ana}", "not P1's turn")
    scores(g, "P2")
    assert (g.state["result"], g.state["winner"]) == ("win", "P2")
    assert screen_lines(g)[6] == "P2 wins: scored the points to win"


def test_a_point_clears_counts_and_statuses_but_not_exhaustion_and_rests_reserves():
    # "Se quitan todas las Fichas de Agachado ... todas las fichas de Estado ... con la
    # excepción de las Fichas de Estado Agotado"; "todos los Juggers de Reserva recuperan
    # un número de PA equivalente al valor de su Fortaleza"
    g = with_initiative("P1", SEED_P1_INITIATIVE, "long")
    apply(g, "spend {Lu} n=3 from=stamina")
    apply(g, "set {Pia}.stamina 0")  # in reserve (a correction), Fortitude 3
    apply(g, "hit {Tam} crouch=3")
    end_stone(g)
    scores(g, "P1")
    assert g.state["result"] is None and g.state["players"]["P1"]["points"] == 1
    assert g.phase()["name"] == "start" and g.state["message"] == "3, 2, 1, Jugger!"
    assert piece_state(g, "Tam")["crouch"] == 0 and piece_state(g, "Lu")["exhausted"] == 1
    assert piece_state(g, "Pia")["stamina"] == 3
    g.apply("next")
    assert g.phase()["name"] == "initiative"  # a new point: no maintenance


def test_a_long_game_is_won_at_three_points():
    g = new(4, "long")
    for point in (1, 2, 3):
        scores(g, "P1")
        assert g.state["players"]["P1"]["points"] == point
    assert g.state["winner"] == "P1"


def test_rosters_are_checked_against_the_budget_and_positions():
    # "Juego Corto: 30 puntos. Juego Largo: 50 puntos."; "1x QWIK"; "Solo puede haber una
    # Cadena por cada equipo"; "No puedes tener al mismo jugador en tu equipo ... más de
    # una vez"
    g = new(1)
    refused(g, "roster P1 team=Wolves", "a short roster has 5 juggers, not 8")
    g.apply("roster P1 team=Ravens")
    assert g.state["players"]["P1"]["team"] == "Ravens"

    def broken(change):
        data = rules("jugger", lambda data: change(data["teams"][0]["pieces"]))
        with pytest.raises(Illegal) as refusal:
            new(1, data=data)
        return refusal.value.reason

    assert broken(lambda p: p[1]["stats"].update(cost=12)) == \
        "Falcons costs 35, over the budget of 30"
    assert broken(lambda p: p[1]["stats"].update(position="qwik")) == \
        "Falcons needs exactly one Qwik"
    assert broken(lambda p: p[1]["stats"].update(weapon="chain")) == \
        "Falcons needs one Chain in play"
    assert broken(lambda p: p[1].update(name="Ana")) == "Falcons has a jugger twice"


def test_a_long_game_swaps_reserves_in_at_a_point_and_deals_synergy_again():
    # "Cada Jugador selecciona 5 Juggers de su equipo de 8 para ser los JUGGERS EN JUEGO";
    # "Una vez se han marcado uno o más puntos ... los Juggers en Juego pueden intercambiarse
    # por Juggers de la Reserva"; "Solo se tienen en cuenta para este cálculo de los PSE los
    # Juggers en Juego"
    def chain_for_zed(data):  # Zed may take Wen's place
        data["teams"][3]["pieces"][7]["stats"]["weapon"] = "chain"

    data = rules("jugger", chain_for_zed)
    g = new(4, "long", data)
    assert g.phase()["name"] == "start" and g.state["players"]["P2"]["synergy"] == 3
    apply(g, "swap {Wen} {Zed}")  # Wen (Brau, Will 4) out, Zed (Osos) in: five Osos
    assert (piece_state(g, "Wen")["in_play"], piece_state(g, "Zed")["in_play"]) == (0, 1)
    assert g.state["players"]["P2"]["synergy"] == 4 and g.state["message"] == "Zed in for Wen"
    for action, reason in [("swap {Kai} {Pia}", "a Qwik swaps only for a Qwik"),
                           ("swap {Lu} {Max}", "Max is in play"),
                           ("swap {Lu} {Xan}", "swap within a side"),
                           ("swap {Pia} {Quin}", "Pia is in reserve")]:
        refused(g, action, reason)
    g.apply("next")  # the initiative: Zed is in play, Wen is not (Bears' best Will is 3)
    assert [len(r["rolls"]) for r in rolls(g, "initiative")[:2]] == [4, 3]
    refused(g, "swap {Lu} {Pia}", "swap is for the start phase, not initiative")
    scores(g, "P1")  # the next point: swap again, Wen back in
    apply(g, "swap {Zed} {Wen}")
    assert g.state["players"]["P2"]["synergy"] == 3 and piece_state(g, "Wen")["in_play"] == 1


def test_a_short_game_has_no_reserves_to_swap():
    refused(new(1), "swap {Bo} {Cyd}", "Cyd is in play")


def test_helpers_are_no_actions_of_their_own():
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 4)
    for helper in ("pay", "begin", "check", "release", "free"):
        refused(g, helper + " {Bo} n=1", "%s is only part of other actions" % helper)


# -- undo, runtimes --------------------------------------------------------------------


def test_every_action_can_be_undone():
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    apply(g, "hit {Gus} crouch=2")
    to_turn(g, "P1", 4)
    for action in ["hit {Hal} by={Eli}", "out {Ivo}", "pin {Gus} by={Bo}",
                   "spend {Bo} n=3 from=synergy", "delay {Bo} from=stamina",
                   "attack {Bo} {Hal} defense=duel side=flank boost=1 dboost=1 from=synergy",
                   "dispute", "next", "roster P1"]:
        before = seen_but_log(g)
        try:
            apply(g, action)
        except Illegal:
            continue
        g.apply("undo agreed")
        assert seen_but_log(g) == before, action
    apply(g, "pin {Gus} by={Bo}")
    before = seen_but_log(g)
    apply(g, "unpin {Gus}")
    g.apply("undo agreed")
    assert seen_but_log(g) == before
    to_turn(g, "P1", 2)
    for action in ["ready {Eli}"]:
        before = seen_but_log(g)
        apply(g, action)
        g.apply("undo agreed")
        assert seen_but_log(g) == before, action
    long = new(2, "long")
    for action in ["roster P1 team=Bears", "swap {Max} {Pia}"]:
        before = seen_but_log(long)
        apply(long, action)
        long.apply("undo agreed")
        assert seen_but_log(long) == before, action


def full_game():
    g = new(6)
    actions = ["next", "next", named(g, "hit {Gus} crouch=1")]
    actions += ["next"] * 12 + ["dispute"]
    for a in actions:
        g.apply(a)
    while g.active_player() != "P1" or g.phase()["name"] != "activation" or \
            g.state["game"]["voa"] != 5:
        g.apply("next")
        actions.append("next")
    return actions + ["pickup P1.j1", "score P1.j1"]


def test_a_full_short_game_plays_to_its_end_the_same_in_both_runtimes():
    actions = full_game()
    cp = play("jugger", None, 6, {}, actions, "cpython")
    assert cp.refused is None and cp.state["winner"] == "P1"
    assert "P1 wins: " in " ".join(cp.state["screen"])
    mp = play("jugger", None, 6, {}, actions, "micropython")  # in a Pico's 192 KB heap
    assert canonical(mp.state) == canonical(cp.state)


# -- on the device and on arbiter sim --------------------------------------------------------

GREEN, BLUE, RED, VIOLET, WHITE = (0, 192, 0), (0, 80, 255), (255, 0, 0), (176, 0, 255), \
    (255, 255, 255)


def device_game(rig, *setup_keys):
    """A Jugger game started on the virtual device; its play screen."""
    open_setup(rig, "jugger")
    rig.keys(*setup_keys, "a")
    seal(rig)
    return play_screen(rig)


def test_on_the_device_a_point_opens_with_3_2_1_jugger_on_the_leds_then_a_led_per_jugger(rig):
    # Issue 5: "Each point starts with '3, 2, 1, Jugger!' on screen and LEDs"; "one [LED] per
    # in-play jugger (10 of the 12): the side's colour when active"
    device_game(rig)
    flashes = []
    for _ in range(50):
        rig.run(40)
        leds = rig.frame.leds
        if len(set(leds)) == 1 and leds[0] != (0, 0, 0) and (not flashes or flashes[-1][1]):
            flashes.append((leds[0], False))  # a new whole-ring flash
        elif leds[0] == (0, 0, 0) and flashes:
            flashes[-1] = (flashes[-1][0], True)  # and its dark half
    assert [c for c, _ in flashes] == [lit(rig, c) for c in (WHITE, WHITE, WHITE, GREEN, BLUE)]
    dark = (0, 0, 0)
    assert rig.frame.leds == [lit(rig, GREEN)] * 5 + [dark] + [lit(rig, BLUE)] * 5 + [dark]
    assert rig.lines[6] == "3, 2, 1, Jugger!"


def test_on_the_device_the_leds_show_who_acts_crouch_counts_running_down_and_pins(rig):
    # Issue 5: "the side's colour when active, red dimming as the crouch count runs down,
    # violet while pinned"; the juggers whose turn it is are lit, the rest dimmed
    screen = device_game(rig)
    game = screen.game

    def acted(text):
        act(rig, text)
        rig.run(1200)  # past the dice spinning
        return rig.frame.leds

    acted("hit {Gus} crouch=5")
    while not (game.phase()["name"] == "activation" and game.active_player() == "P1" and
               game.state["game"]["voa"] == 4):
        leds = acted("next")
    dim = lit(rig, GREEN, 25)
    assert leds[:5] == [dim, lit(rig, GREEN), dim, dim, dim]  # Bo acts at Reflexes 4
    assert leds[6:11] == [lit(rig, BLUE, 25), lit(rig, RED), *[lit(rig, BLUE, 25)] * 3]
    assert acted("pin {Gus} by={Bo}")[7] == lit(rig, VIOLET)
    while game.phase()["name"] != "initiative":  # the next stone's maintenance: count 4
        acted("next")
    assert acted("unpin {Gus}")[7] == lit(rig, RED, 80)


def test_on_the_device_a_swapped_in_reserve_takes_its_place_on_the_leds(rig):
    screen = device_game(rig, "right")  # Game length: long
    assert screen.game.options == {"length": "long"}
    act(rig, "hit {Vik} crouch=2")
    rig.run(2000)  # past "3, 2, 1, Jugger!"
    assert rig.frame.leds[6:12] == [lit(rig, BLUE)] * 3 + [lit(rig, RED, 40), lit(rig, BLUE),
                                                           (0, 0, 0)]
    act(rig, "swap {Vik} {Zed}")  # Vik out, Zed in: Zed's LED lit
    rig.run(100)
    assert rig.frame.leds[6:12] == [lit(rig, BLUE)] * 5 + [(0, 0, 0)]


def test_on_the_device_the_menu_offers_the_phases_actions_and_no_helpers(rig):
    device_game(rig)
    rig.keys("b")
    start = [label for label, _ in rig.app.screen.items]
    rig.keys("b", "a", "a")  # to the first activation turn
    open_menu_item(rig, "Attack (2 focus)")
    # by name; the attacker among those who may act now, the target an opponent
    assert rig.lines[1:3] == ["attacker <Ana>", "target <Fen>"]
    rig.keys("b", "b")
    rig.keys("b")
    acting = [label for label, _ in rig.app.screen.items]
    anytime = ["Dispute roll", "Hit: crouch", "Out of bounds", "Spend points", "Talent",
               "Unpin"]
    # the phase's actions first (by name), then Undo, Redo, Roll dice...
    assert start[:start.index("Undo")] == sorted(anytime + ["Arm", "Qwik choice", "Roster",
                                                            "Swap reserve"])
    assert acting[:acting.index("Undo")] == sorted(anytime + [
        "Activate", "Attack (2 focus)", "Delay (1 focus)", "Move", "Pick up Jugg (1)",
        "Pin (1 focus)", "Reaction", "Ready chain (1)", "Score (2 focus)", "Sweep Jugg",
        "Throw Jugg", "Unhold Qwik"])  # no helper: pay, begin...


# On arbiter sim (seed 7 and these players' parts of the dice: P1 has the initiative):
# Play, Jugger, start, each player's four arrows and A past the dice seal; next to the
# initiative and to P1's turn at Reflexes 5; by the fast path Ana activates and runs
# (Right, Right, Right, A), picks up the Jugg on the ground (Right, A) and, carrying it
# where she ran, scores (Right, A) in the same activation.
SIM_GAME = ("a down a a  right left left down  left up left right a  a a  right right right a  "
            "right a  right a wait=3000")


def test_a_full_short_game_runs_to_its_end_on_arbiter_sim(tmp_path):
    from PIL import Image

    from arbiter_referee.cli import main as arbiter

    shot = tmp_path / "end.png"
    assert arbiter(["sim", "--seed", "7", "--flash", str(tmp_path), "--keys", SIM_GAME,
                    "--screenshot", str(shot)]) == 0
    journal = (tmp_path / "game.jnl").read_text().splitlines()
    header = json.loads(journal[0])
    assert (header["ruleset"], header["options"]) == ("jugger", {"length": "short"})
    events = [line.split("|")[0] for line in journal[1:]]
    assert [e.split()[0] for e in events] == ["next", "next", "act", "pickup", "score"]
    assert events[-1] == "score far=0 from=focus k=P1.j1"
    g = Game(rules("jugger"), seed=header["seed"], options=header["options"],
             mix=header["mix"])
    g.history.replay(journal[1:])
    assert g.state["winner"] == "P1" and screen_lines(g)[6].startswith("P1 wins: ")
    image = Image.open(shot).convert("RGB")
    assert (0, 255, 0) in set(image.get_flattened_data())  # the ring in P1's green


# Issue 21: "the arrows pick a piece or player and the phase's common action ... forms
# that offer only what is legal now, start from what the situation implies". In Jugger's
# Act phase that is activating a jugger, then, for a Qwik by the Jugg on the ground,
# picking it up, else its attack: the attacker is the jugger in its activation, the
# target an opponent standing, the defense the cheapest the defender can pay; Right
# opens it, Down picks another target, Left/Right the defense, A does it.
def test_on_the_device_a_jugger_activates_and_attacks_by_the_knob(rig):
    play = device_game(rig)
    game = play.game
    for _ in range(10):  # next to the first activation turn
        if game.phase()["name"] == "activation":
            break
        rig.keys("a")
    side = game.active_player()
    rig.keys("right")
    rig.run(100)
    shown = " ".join(rig.lines[4:7])
    first = game.state["pieces"][rig.app.screen.values()[0]]
    assert first["owner"] == side and first["stats"]["reflexes"] == 5, shown
    assert "Activate: <%s> then <starts>" % first["name"] in shown
    rig.keys("a")
    assert "k=" + game.state["game"]["cur"] in game.history.events[-1].split()
    assert "%s activates: focus 4, stamina 3" % first["name"] in " ".join(rig.lines)
    # "Si un Qwik está en el mismo hexágono que el jugg, puede utilizar 1 PC para
    # levantarlo": the Jugg lies on the ground, the Qwik in its activation picks it up
    rig.keys("right")
    assert "Pick up Jugg (1): <%s>" % first["name"] in " ".join(rig.lines[3:7])
    rig.keys("a")
    assert game.state["game"]["jugg"] == game.state["game"]["cur"]
    rig.keys("a")  # the other side's Qwik: the Jugg is carried, so its wrestle
    rig.keys("right", "a")
    rig.keys("right")  # the Qwik's attack: only the other Qwik, standing
    form = rig.app.screen
    assert [game.state["pieces"][k]["stats"]["position"] for k in form.fields[1][1]] == ["qwik"]
    assert form.values()[4] == "full"  # the cheapest defense (2), none if it cannot pay
    rig.keys("right", "a")  # a duel
    event = game.history.events[-1]
    assert event.startswith("attack ") and "defense=duel" in event and "kind=basic" in event


def test_the_common_action_follows_the_activation():
    # "El Jugger activado debe completar TODAS las acciones que van a hacer en esa
    # Piedra": the knob offers activating one, then its attack, then the next jugger;
    # nothing once none may act
    from arbiter.screens.fast import fast_action

    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 2)
    assert fast_action(g) == "act"
    apply(g, "act {Eli}")
    assert g.state["message"] == "Eli activates: focus 4, stamina 3"
    assert fast_action(g) == "attack"
    apply(g, "ready {Eli}")  # "Si la Cadena no está preparada": from the menu
    apply(g, "attack {Eli} {Hal} defense=none")
    assert fast_action(g) is None  # Eli alone acts at 2: the piece page
    refused(g, "act {Eli}", "Eli is active")


# Issue 48: "each phase's fast action is the one a table does most there", never one
# not allowed yet: in an activation, by the moment.
def test_each_moment_of_an_activation_offers_its_own_common_action():
    from arbiter.screens.fast import fast_action

    g = new(SEED_P1_INITIATIVE)
    while g.phase()["name"] != "activation":  # the point's start, the rolls: A moves on
        assert fast_action(g) is None, g.phase()["name"]
        g.apply("next")
    assert g.state["players"]["P1"]["initiative"]
    to_turn(g, "P1", 5)
    # "Un Jugador Activa a un Jugger haciendo una declaración verbal": nothing else first
    assert fast_action(g) == "act"
    apply(g, "act {Ana}")
    # "Si un Qwik está en el mismo hexágono que el jugg, puede utilizar 1 PC para
    # levantarlo"
    assert fast_action(g) == "pickup"
    apply(g, "pickup {Ana}")
    assert fast_action(g) == "attack"  # carrying it where it stood: its wrestle
    apply(g, "move {Ana} kind=run")
    # "Si un Qwik está en el hexágono de la Portería, puede gastar 2 PC para marcar un
    # punto": carrying it, having run, the Qwik scores
    assert fast_action(g) == "score"
    to_turn(g, "P2", 5)
    assert fast_action(g) == "act"
    # "En vez de Activar, un Jugger puede Retrasar su Activación": on the same form
    apply(g, "act {Fen} then=delays")
    assert piece_state(g, "Fen")["delayed"] and g.state["game"]["cur"] == ""
    assert fast_action(g) is None  # no other jugger of P2 acts at 5
    to_turn(g, "P2", 4)
    apply(g, "act {Gus} then=runs")
    assert g.state["message"] == "Gus may run 6 hexes" and fast_action(g) == "attack"
    # "si un ataque es declarado contra el Portador, este puede hacer una Reacción y
    # Lanzar el jugg": the carrier's reaction declared, its throw
    apply(g, "react {Ana}")
    assert fast_action(g) == "throw"
    apply(g, "throw {Ana} kind=reaction")
    assert g.state["game"]["jugg"] == "" and fast_action(g) == "attack"


def test_an_activation_declares_its_move_or_its_delay_as_it_starts():
    # "El jugador declara el tipo de movimiento que hará su Jugger y paga ese
    # movimiento"; "El Jugger gasta 1 Punto de Concentración para Retrasarse"
    g = with_initiative("P1", SEED_P1_INITIATIVE)
    to_turn(g, "P1", 4)
    apply(g, "act {Bo} then=sprints")
    assert g.state["game"]["cur"] == piece(g, "Bo") and piece_state(g, "Bo")["focus"] == 2
    assert g.state["game"]["mv"] == piece(g, "Bo")
    refused(g, "move {Bo}", "Bo has moved this activation")
    refused(g, "act {Bo} then=flies", "a jugger starts, walks, runs, sprints or delays")
    to_turn(g, "P2", 4)
    apply(g, "act {Gus} then=delays")
    assert piece_state(g, "Gus")["focus"] == 3 and g.state["game"]["cur"] == ""


def test_on_the_device_the_forms_open_on_the_jugger_moving_and_on_the_carrier(rig):
    # "Como REACCIÓN, el Jugador solamente declara un Ataque Básico con su Jugger ...
    # contra un Jugger en movimiento del oponente"; "si un ataque es declarado contra el
    # Portador, este puede hacer una Reacción y Lanzar el jugg"
    from arbiter.screens.fast import FastForm

    play = device_game(rig)
    game = play.game
    for _ in range(10):
        if game.phase()["name"] == "activation":
            break
        rig.keys("a")
    first = game.active_player()
    other = "P2" if first == "P1" else "P1"
    qwik, runner = piece(game, "Ana" if first == "P1" else "Fen"), \
        piece(game, "Gus" if first == "P1" else "Bo")
    act(rig, "act %s" % qwik)
    act(rig, "pickup %s" % qwik)
    for _ in range(10):  # to the other side's turn at Reflexes 4
        if game.active_player() == other and game.state["game"]["voa"] == 4:
            break
        act(rig, "next")
    rig.keys("right")  # the activation, at its jugger; Right, Right: it runs
    assert rig.app.screen.values()[0] == runner
    rig.keys("right", "right")
    assert "<runs>" in " ".join(rig.lines)
    rig.keys("a")
    assert game.state["game"]["mv"] == runner
    open_menu_item(rig, "Attack (2 focus)")
    form = rig.app.screen
    assert form.values()[0] == runner  # the jugger in its activation first
    rig.keys("right")  # then the other side's: its attack is on the jugger moving
    values = {field[0]: field[1][field[2]] for field in form.fields}
    assert game.state["pieces"][values["k"]]["owner"] == first
    assert values["t"] == runner and values["kind"] == "opportunity"
    assert form.word("kind") == "attack"  # shown as "attack <opportunity>"
    rig.keys("b", "b")
    open_menu_item(rig, "Reaction")  # the carrier first: the side not in turn
    assert rig.app.screen.values()[0] == qwik
    rig.keys("a")
    rig.keys("right")  # its throw, as a reaction
    form = rig.app.screen
    assert isinstance(form, FastForm) and form.title == "Throw Jugg"
    assert form.values()[0] == qwik and "reaction" in form.values()
    rig.keys("a")
    assert "kind=reaction" in game.history.events[-1] and game.state["game"]["jugg"] == ""
