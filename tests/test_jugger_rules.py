"""Jugger TTG to the letter (issue 23): activations, scoring, reactions, exhaustion,
pins, defenses that cannot be paid, disputes, the weaponless Qwik, rosters and stats.

Each test quotes the rule it enforces (../shared/seeds/002_3f7d8541c1733e1c.txt,
Spanish) and plays a script of actions on both runtimes: in this process, where each
message and refusal is read, and in MicroPython in a Pico's 192 KB heap, where each
refusal is met again and the whole script must end in the same state. A script's
step is an action and what it must say (part of a message), or ``!`` and the reason
it is refused; ``to P1 4`` passes (``next``) to P1's turn at Reflexes 4
(helpers.jugger.script). Juggers go by name (test_jugger.py): Falcons Ana (Qwik), Bo,
Cyd, Dag, Eli (chain) against Ravens Fen (Qwik), Gus, Hal, Ivo, Jo (chain)."""

import pytest
from helpers.game import new_game, notes, piece_state, rolls
from helpers.jugger import juggs, named, script
from helpers.runtimes import RUNTIMES, replayed

from arbiter.game import Illegal

# A script's game is of SEED_P1_INITIATIVE unless told: P1 wins the point's first
# initiative, and (after the pin_2 script's first stone) P2 the second stone's
SEED_ANA_HITS = 4  # P1's initiative; Ana's one die at Fen shows a Jugg
SEED_BO_FEN_EVEN = 8  # P1's initiative; Bo at Fen in a duel: as many Juggs each
SEED_ANA_STEALS = 11  # P2's initiative; Ana's one die at Fen (no defense) shows a Jugg
SEED_FEN_ESCAPES = 81  # P1's initiative; Ana's die beats Fen's, then Fen's beats Ana's
SEED_QWIKS_EVEN = 13  # P1's initiative; Ana at Fen in a duel: a Jugg each


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    """The games a test makes, played again in MicroPython (helpers.runtimes)."""
    with replayed(request.param, "jugger", request.session):
        yield request.param


# -- (1) scoring ---------------------------------------------------------------------------


def test_the_qwik_scores_in_its_activation_carrying_the_jugg_and_paying(runtime):
    # "Si un Qwik está en el hexágono de la Portería, puede gastar 2 PC para marcar un
    # punto. Si un Qwik está en el hexágono adyacente a la Portería, puede utilizar 3 PC";
    # "Si un Qwik está en el hexágono adyacente al del jugg, puede utilizar 2 PC para
    # levantarlo"; "Un Jugger Agachado: No puede llevar a cado ninguna Acción"
    g = script([
        ("to P1 5", ""),
        ("score {Bo}", "!only a Qwik scores"),
        ("score {Ana}", "!Ana does not carry the Jugg"),
        ("pickup {Fen}", "!not P2's turn"),
        ("pickup {Ana} far=1", "Ana picks up the Jugg"),  # 2 from the next hex
        ("to P2 5", ""),
        ("hit {Ana} crouch=1", "Ana drops the Jugg"),
        ("to P1 4", ""),
        ("score {Ana}", "!Ana is crouched")])
    assert g.state["game"]["jugg"] == "" and g.state["result"] is None
    g = script([
        ("to P1 5", ""),
        ("pickup {Ana}", "Ana picks up the Jugg"),  # 1 on the Jugg's hex
        ("score {Ana} far=1", "P1 scores 1-0")])  # 3 from the hex next to the goal
    ana = piece_state(g, "Ana")
    assert (ana["focus"], ana["stamina"]) == (0, 3) and g.state["winner"] == "P1"


def test_the_qwik_scores_only_in_its_own_activation(runtime):
    # "El Jugger activado debe completar TODAS las acciones que van a hacer en esa Piedra"
    script([
        ("to P1 5", ""),
        ("pickup {Ana}", "Ana picks up the Jugg"),
        ("to P1 4", ""),
        ("score {Ana}", "!Ana has had its activation this stone")])


# -- (2) one activation a stone ------------------------------------------------------------


def test_a_jugger_activates_once_a_stone_and_a_delay_moves_it_lower(runtime):
    # "En vez de Activar, un Jugger puede Retrasar su Activación posponiéndola para un Orden
    # de Activación menor"; "El Jugador puede entonces Activar el Jugger durante su Turno
    # quitando la Ficha de Demora"; "Activando, uno por uno, a todos sus Juggers"
    g = script([
        ("to P1 4", ""),
        ("delay {Bo}", "Bo delays"),
        ("attack {Bo} {Hal} defense=none", "!Bo activates at Reflexes 4"),  # not at 4 again
        ("to P1 3", ""),
        ("attack {Bo} {Hal} defense=none", "-"),  # the delayed activation, at a lower value
        ("attack {Bo} {Gus} defense=none", "!Bo has made its Basic Attack"),
        ("delay {Bo}", "!Bo has activated; it cannot delay now")])  # no act, delay, act
    assert piece_state(g, "Bo")["delayed"] == 0  # the activation ended the delay
    script([
        ("to P1 3", ""),
        ("attack {Cyd} {Ivo} defense=none", "-"),
        ("attack {Dag} {Hal} defense=none", "-"),  # Dag's activation begins: Cyd's is over
        ("attack {Cyd} {Gus} defense=none", "!Cyd has had its activation this stone"),
        ("to P1 1", ""),
        ("delay {Ana}", "!Ana activates at Reflexes 5")])  # her value passed: no delay now


def test_no_delay_past_the_last_value_and_a_new_stone_activates_again(runtime):
    # "El valor del orden de activación (VOA) empieza en 5 y va en orden descendiente"
    script([
        ("to P1 2", ""),
        ("ready {Eli}", "Eli readies the chain"),
        ("to P2 1", ""),
        ("delay {Jo}", "!no lower value to delay to"),
        ("to P1 5", ""),  # the next stone
        ("to P1 2", ""),
        ("attack {Eli} {Jo} defense=none", "-")])


# -- (3) reactions -------------------------------------------------------------------------


ON_THE_SIDE_IN_TURN = "an attack of opportunity is on the side in turn"


def test_an_attack_of_opportunity_is_the_other_sides_reaction(runtime):
    # "Como REACCIÓN, el Jugador solamente declara un Ataque Básico con su Jugger ... contra
    # un Jugger en movimiento del oponente"; "Si la Cadena no está preparada el Jugger
    # usando la Cadena debe gastar como mínimo 3 PC"
    g = script([
        ("to P1 5", ""),
        ("move {Ana} kind=run", "Ana may run 6 hexes"),
        ("attack {Jo} {Ana} kind=opportunity defense=full", "-"),  # an unready chain: 3
        ("attack {Gus} {Fen} kind=opportunity", "!" + ON_THE_SIDE_IN_TURN),
        ("attack {Bo} {Hal} kind=opportunity", "!" + ON_THE_SIDE_IN_TURN),
        ("attack {Gus} {Ana} kind=opportunity defense=full", "Ana crouches 3")])
    gus, jo = piece_state(g, "Gus"), piece_state(g, "Jo")
    assert (gus["focus"], jo["focus"]) == (2, 1)
    assert gus["acted"] == 0 and jo["acted"] == 0  # a reaction is no activation


def test_an_attack_of_opportunity_is_only_on_the_jugger_moving(runtime):
    # "Un Jugger en movimiento activará un Ataque de Oportunidad cuando se mueva 1
    # hexágono (o más) a través del Rango de Ataque de un Jugger"; "contra un Jugger en
    # movimiento del oponente"
    script([
        ("to P1 5", ""),
        ("attack {Gus} {Ana} kind=opportunity defense=none", "!Ana is not moving"),
        ("attack {Gus} {Bo} kind=opportunity defense=none", "!Bo is not moving"),
        ("act {Ana}", "Ana activates"),
        ("attack {Gus} {Ana} kind=opportunity defense=none", "!Ana is not moving"),
        ("move {Ana} kind=walk", "Ana may walk 3 hexes"),
        ("attack {Gus} {Bo} kind=opportunity defense=none", "!Bo is not moving"),
        ("to P1 4", ""),  # Ana's activation is over: she moves no more
        ("attack {Gus} {Ana} kind=opportunity defense=none", "!Ana is not moving"),
        ("act {Bo}", "Bo activates"),
        ("attack {Hal} {Bo} kind=opportunity defense=none", "!Bo is not moving"),
        ("move {Bo} kind=walk", "Bo may walk 3 hexes"),
        ("attack {Hal} {Bo} kind=opportunity defense=none", "-")])


def test_when_both_sides_declare_a_reaction_higher_reflexes_then_initiative_take_it(runtime):
    # "Si ambos Jugadores declaran la reacción al mismo tiempo ... El Jugger con mayor
    # puntuación de Reflejos toma la Reacción."; "Si ambos Juggers tienen la misma
    # puntuación de Reflejos, el Jugger que tiene la Iniciativa realiza la Reacción."
    g = script([
        ("to P1 5", ""),
        ("move {Ana} kind=walk", "Ana may walk 3 hexes"),
        ("react {Bo} vs={Cyd}", "!one jugger of each side"),
        ("react {Gus} vs={Bo}", "Bo takes the reaction"),  # Reflexes 4 each: P1's initiative
        ("attack {Gus} {Ana} kind=opportunity defense=none", "!Bo has the reaction"),
        ("talent {Bo} n=1", "Bo uses a talent for 1"),  # Bo's reaction, resolved
        ("react {Bo} vs={Fen}", "Fen takes the reaction"),  # 4 against 5
        ("throw {Fen} kind=reaction", "!Fen does not carry the Jugg"),
        ("talent {Fen} n=0", "Fen uses a talent"),
        ("react {Ana} vs={Gus}", "Ana takes the reaction")])  # 5 against 4
    assert g.state["game"]["rx"] == named(g, "{Ana}") and piece_state(g, "Bo")["focus"] == 3


def test_no_reaction_is_declared_while_another_is_being_resolved(runtime):
    # "NINGUNA PARTE DE UNA REACCIÓN PUEDE DESENCADENAR OTRA REACCIÓN"; "si una Reacción
    # es declarada, ninguna otra Reacción se puede declarar hasta que se haya completado y
    # resuelto la Reacción actual."
    script([
        ("to P1 5", ""),
        ("move {Ana} kind=run", "Ana may run 6 hexes"),  # past Gus
        ("react {Gus}", "Gus takes the reaction"),  # the first to declare it
        ("react {Hal}", "!Gus has the reaction"),
        ("talent {Bo} n=0", "!Gus has the reaction"),
        ("attack {Hal} {Ana} kind=opportunity defense=none", "!Gus has the reaction"),
        ("attack {Gus} {Ana} kind=opportunity defense=none", "-"),  # resolved
        ("react {Hal}", "Hal takes the reaction"),
        ("to P2 5", ""),  # the turn moves on: Hal's reaction was not taken
        ("talent {Bo} n=0", "Bo uses a talent"),
        ("react {Jo}", "Jo takes the reaction"),
        ("act {Fen}", "Fen activates"),  # the activation goes on: Jo's was not taken
        ("react {Bo}", "Bo takes the reaction")])


def test_a_bonus_attack_comes_with_a_talent_costs_nothing_and_takes_no_boost(runtime):
    # "Los Ataques de Bonificación son ataques especiales proporcionados por ciertos
    # Talentos"; "El atacante no tiene que gastar ningún Punto de Concentración para
    # realizar el ataque (el coste del Ataque de Bonificación está incluido en el coste de
    # realizar el Talento)"; "El Jugger realizando el Ataque de Bonificación no puede
    # Potenciar el Ataque."; "Si un Jugger declara un Talento, el efecto de éste debe de
    # completarse antes de que el Jugger realice cualquier otra acción."
    g = script([
        ("to P1 4", ""),
        ("attack {Bo} {Gus} kind=bonus defense=none", "!a bonus attack comes with Bo's talent"),
        ("talent {Bo} n=2", "Bo uses a talent for 2"),
        ("attack {Bo} {Gus} kind=bonus boost=1 defense=none", "!a bonus attack cannot be boosted"),
        ("attack {Bo} {Gus} kind=bonus defense=none", "0-1 miss"),  # free
        ("attack {Bo} {Hal} defense=none", "-"),  # his Basic Attack is still his
        ("attack {Bo} {Gus} kind=bonus defense=none", "!a bonus attack comes with Bo's talent")])
    assert piece_state(g, "Bo")["focus"] == 4 - 2 - 2
    assert [len(r["rolls"]) for r in rolls(g, "attack")] == [2, 2]  # attack 1 + sword 1


# -- (4) exhaustion ------------------------------------------------------------------------


def test_exhaustion_begins_after_the_action_that_spent_the_last_stamina(runtime):
    # "Inmediatamente después de que la acción en la que un Jugger gasta su última Ficha de
    # PA en su Carta de Estadísticas Personales sufre la condición de AGOTADO"
    g = script([
        ("to P1 4", ""),
        ("spend {Bo} n=2 from=stamina", "Bo spends 2"),
        ("spend {Bo} n=3", "Bo spends 3"),  # 1 focus and 1 stamina left
        ("attack {Bo} {Hal} defense=none", "Bo is exhausted")])  # 1 focus, the last stamina
    assert len(rolls(g, "attack")[-1]["rolls"]) == 2  # attack 1 + sword 1: not yet tired
    assert piece_state(g, "Bo")["exhausted"] == 1


# -- (5) pins ------------------------------------------------------------------------------


def test_pins_in_the_pinners_activation_and_again_before_the_pinned_sides_turn(runtime):
    # "El Jugador Activo debe estar en un hexágono adyacente ... y gastar un Punto de
    # Concentración"; "cualquier Jugador Activo puede re-establecer el Pineo ... siempre y
    # cuando el Pineo se establezca ANTES del siguiente turno del Jugador controlando al
    # Jugador Agachado"; "Si los Reflejos del jugador son mayores que la Orden de Activación
    # actual, los jugadores se pueden activar normalmente durante el turno del Jugador"
    g = script([
        ("hit {Gus} crouch=1", "Gus crouches 1"),
        ("to P1 5", ""),
        ("pin {Gus} by={Bo}", "!Bo activates at Reflexes 4"),  # not in Bo's activation
        ("to P1 4", ""),
        ("pin {Gus} by={Bo}", "Bo pins Gus"),
        ("to P2 5", ""),  # stone 2: Gus's count is 0, the pin holds; P2 has the initiative
        ("to P1 4", ""),  # after P2's turn at Gus's value
        ("unpin {Gus}", "Gus may act this stone"),
        ("pin {Gus} by={Cyd}", "!Cyd activates at Reflexes 3"),
        ("pin {Gus} by={Bo}", "Bo pins Gus"),  # again, before P2's next turn
        ("unpin {Gus}", "Gus stands up"),
        ("to P2 3", ""),
        ("attack {Gus} {Bo} defense=none", "-"),  # his activation was not lost
        ("to P1 3", ""),
        ("pin {Gus} by={Cyd}", "!Gus is not crouched")])  # too late: P2 has had its turn
    assert piece_state(g, "Gus")["acted"] == g.state["round"] == 2  # his activation's stone
    assert g.state["players"]["P2"]["initiative"]


def test_a_jugger_freed_in_its_own_sides_turn_activates_at_once(runtime):
    # "Si es el turno del Jugador que controla a ese Jugador de Jugger cuando el Pineo se
    # acaba, el Jugador puede Activarse inmediatamente."
    script([
        ("hit {Gus} crouch=1", "Gus crouches 1"),
        ("to P1 4", ""),
        ("pin {Gus} by={Bo}", "Bo pins Gus"),
        ("to P1 5", ""),  # stone 2: Gus's count is 0, the pin holds
        ("to P2 2", ""),  # past Gus's Reflexes 4
        ("hit {Bo} crouch=3", "Gus is free"),
        ("attack {Gus} {Cyd} defense=none", "-")])


def test_a_second_hit_never_shortens_a_crouch(runtime):
    # "Conteo de 5 piedras: Cadena"
    g = script([("hit {Fen} by={Eli}", "Fen crouches 5"), ("out {Fen}", "crouch 5"),
                         ("hit {Fen} by={Bo}", "Fen crouches 5")])
    assert piece_state(g, "Fen")["crouch"] == 5


# -- (6) defenses --------------------------------------------------------------------------


def test_a_defender_who_cannot_pay_does_not_defend(runtime):
    # "No se defiende: Si el Jugger no puede permitirse pagar por su defensa esta opción
    # ocurre por defecto."; por la Espalda: "Entra por defecto en la opción de defensa No se
    # Defiende; No puede potenciar la Defensa"
    g = script([
        ("to P1 4", ""),
        ("spend {Hal} n=6", "Hal spends 6"),  # all his focus, 2 of his stamina
        ("attack {Bo} {Hal} defense=duel side=back",
         "!a back attack gets no defense and no boost"),
        ("attack {Bo} {Hal} defense=full", "Hal cannot pay: no defense")])
    dfn = rolls(g, "defense")[-1]
    assert dfn["reason"] == "defense none" and len(dfn["rolls"]) == 3  # the shield's 3
    assert piece_state(g, "Hal")["stamina"] == 1


def test_a_boost_the_defender_cannot_pay_never_costs_it_the_defense_it_can(runtime):
    # "El defensor también puede potenciar sus dados de combate una vez por combate
    # pagando 2 PC por cada dado ... Se pueden comprar tantos dados adicionales como
    # puedan permitirse."; "No se defiende: Si el Jugger no puede permitirse pagar por su
    # defensa esta opción ocurre por defecto."
    g = script([
        ("to P1 4", ""),
        ("spend {Hal} n=4", "Hal spends 4"),  # 3 stamina left: a full defense, no boost
        ("attack {Bo} {Hal} defense=full dboost=1", "!Hal cannot pay 4"),
        ("attack {Bo} {Hal} defense=full", "-")])
    dfn = rolls(g, "defense")[-1]
    assert dfn["reason"] == "defense full" and len(dfn["rolls"]) == 2 + 3  # not the 3 of none
    assert piece_state(g, "Hal")["stamina"] == 1


# -- (7) disputes --------------------------------------------------------------------------


def test_a_dispute_rolls_one_die_or_more(runtime):
    # "Las disputas entre jugadores se resuelven con un tiradas enfrentadas de dados. El
    # jugador que consigue más Juggs en sus dados gana."
    g = script([("dispute n=0", "!a dispute rolls 1 die or more"),
                         ("dispute n=-2", "!dispute: n is 0 to 30, not -2"),
                         ("dispute n=3", "Dispute: ")])
    assert [len(r["rolls"]) for r in rolls(g, "dispute")[-2:]] == [3, 3]


def test_the_dispute_form_asks_the_number_of_dice(rig):
    from helpers.device import open_menu_item, open_setup, play_screen, seal

    open_setup(rig, "jugger")
    rig.keys("a")
    seal(rig)
    play_screen(rig)
    open_menu_item(rig, "Dispute roll")
    assert rig.lines[1] == "dice <1>"


# -- (8) the Qwik has no weapon ------------------------------------------------------------


def test_a_qwik_wields_no_weapon(runtime):
    # "Los Qwiks no pueden esgrimir armas"; "un Qwiker puede, como Ataque Normal, intentar
    # Forcejear o Apresar al Qwiker del oponente"
    g = script([
        ("to P1 5", ""),
        ("attack {Ana} {Gus} defense=none", "!a Qwik wrestles only the other Qwik"),
        ("attack {Ana} {Fen} defense=none", "-")], seed=SEED_ANA_HITS)
    assert juggs(g) == (1, 0) and piece_state(g, "Fen")["crouch"] == 0  # Ana won: no crouch
    g = script([("to P1 4", ""), ("attack {Bo} {Fen} defense=duel", "-")],
               seed=SEED_BO_FEN_EVEN)
    a, d = juggs(g)
    assert 0 < a == d and piece_state(g, "Bo")["crouch"] == 0  # doubles: only Fen crouches
    assert piece_state(g, "Fen")["crouch"] == 3


def test_a_qwik_is_no_hitter(runtime):
    # "Los Qwiks no pueden esgrimir armas"; "Hay 2 motivos por los que un Jugger adquiere
    # el estado AGACHADO: 1. Ha sido impactado por un Arma de Jugger 2. Está Fuera del Campo"
    g = script([
        ("hit {Gus} by={Ana}", "!Ana carries no weapon: a Qwik crouches no one"),
        ("hit {Bo} by={Fen}", "!Fen carries no weapon: a Qwik crouches no one"),
        ("hit {Gus} by={Bo}", "Gus crouches 3")])
    assert piece_state(g, "Gus")["crouch"] == 3 and piece_state(g, "Bo")["crouch"] == 0


def test_on_the_device_the_hit_form_offers_no_qwik_as_the_hitter(rig):
    # "Los Qwiks no pueden esgrimir armas"
    from helpers.device import open_menu_item, open_setup, seal

    open_setup(rig, "jugger")
    rig.keys("a")
    seal(rig)
    open_menu_item(rig, "Hit: crouch")
    hitters = [field[1] for field in rig.app.screen.fields if field[0] == "by"][0]
    assert "P1.j1" not in hitters and "P2.j1" not in hitters  # Ana, Fen
    assert len(hitters) == 8


NO_QWIK_BOOST = "a Qwik is held: no Qwik boosts its defense against a Defender"


def test_a_wrestle_won_holds_the_other_qwik_who_cannot_move_or_score(runtime):
    # "Si el Qwik atacante gana el Forcejeo éste puede elegir: ... Contener/Apresar: El
    # atacante apresa y contiene al defensor: o La Ficha de Condición "Apresado" se pone a
    # su lado. o El defensor no puede moverse (movimientos normales o Pasos Rápidos), o
    # marcar un punto. o Ninguno de los Qwikers puede potenciar su tirada de defensa contra
    # ataques de Defensores."; "Para mantener la Presa sobre el oponente, el atacante debe
    # gastar 1PC al comienzo de su Activación"; "el atacante declara que termina con la presa"
    g = script([
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=full win=hold", "Ana holds Fen: Apresado"),
        ("to P2 5", ""),
        ("move {Fen} kind=walk", "!Fen is held (Apresado)"),
        ("pickup {Fen}", "Fen picks up the Jugg"),
        ("score {Fen}", "!Fen is held (Apresado)"),
        ("to P2 4", ""),
        ("attack {Gus} {Ana} defense=full dboost=1", "!" + NO_QWIK_BOOST),
        ("to P1 5", ""),
        ("act {Ana}", "Ana keeps the hold: 1 focus"),
        ("unhold", "The hold ends")], seed=SEED_ANA_HITS)
    assert piece_state(g, "Ana")["focus"] == 3 and g.state["game"]["hold"] == ""


def test_a_wrestle_won_steals_the_jugg_or_pushes_and_a_tie_does_nothing(runtime):
    # "Robar el Jugg: El atacante roba el Jugg del defensor"; "Empujar: El defensor es
    # desplazado 1 hexágono hacia atrás"; "Si el Duelo acaba en un empate en la tirada de
    # dados de combate, el forcejeo o agarre no tiene efecto"
    g = script([
        ("to P2 5", ""),
        ("pickup {Fen}", "Fen picks up the Jugg"),
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=none", "Ana steals the Jugg")],  # what Fen carries
               seed=SEED_ANA_STEALS)
    assert g.state["game"]["jugg"] == named(g, "{Ana}")
    script([("to P1 5", ""),
            ("attack {Ana} {Fen} defense=full win=push", "Fen is pushed 1 hex back")],
           seed=SEED_ANA_HITS)
    g = script([("to P1 5", ""),
                ("attack {Ana} {Fen} defense=duel win=hold", "1-1 tie: no effect")],
               seed=SEED_QWIKS_EVEN)
    assert g.state["game"]["hold"] == "" and piece_state(g, "Fen")["crouch"] == 0


def test_the_held_qwik_escapes_by_winning_a_wrestle_in_its_activation(runtime):
    # "El Jugger Apresado puede escapar de la Presa durante su Activación ganando un
    # ataque de lucha normal contra el Jugger que lo está conteniendo"
    g = script([
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=full win=hold", "Ana holds Fen"),
        ("to P2 5", ""),
        ("attack {Fen} {Ana} defense=full", "Fen escapes the hold")], seed=SEED_FEN_ESCAPES)
    assert g.state["game"]["hold"] == ""


def test_only_the_holder_ends_the_hold_in_its_activation(runtime):
    # "Una presa también puede terminar si, durante su Activación, el atacante declara que
    # termina con la presa (es decir, libera al oponente)."
    g = script([
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=full win=hold", "Ana holds Fen"),
        ("to P2 5", ""),
        ("act {Fen}", "Fen activates"),
        ("unhold", "!only Ana ends the hold, in its activation"),  # the held side's turn
        ("to P1 4", ""),
        ("act {Bo}", "Bo activates"),
        ("unhold", "!only Ana ends the hold, in its activation"),  # Ana's is over
        ("to P1 5", ""),
        ("act {Ana}", "Ana keeps the hold: 1 focus"),
        ("unhold", "The hold ends")], seed=SEED_ANA_HITS)
    assert g.state["game"]["hold"] == ""


def test_a_holder_that_lets_its_activation_go_by_loses_the_hold(runtime):
    # "Para mantener la Presa sobre el oponente, el atacante debe gastar 1PC al comienzo de
    # su Activación"
    script([
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=full win=hold", "Ana holds Fen"),
        ("to P1 4", ""),
        ("to P1 5", ""),  # the next stone, P1's initiative again: Ana does not activate
        ("next", "The hold ends: Ana did not keep it"),
        ("move {Fen} kind=walk", "Fen may walk 3 hexes")], seed=SEED_ANA_HITS)
    g = script([
        ("to P1 5", ""),
        ("attack {Ana} {Fen} defense=full win=hold", "Ana holds Fen"),
        ("to P1 4", ""),
        ("to P1 5", ""),  # the next stone
        ("delay {Ana}", "Ana delays"),  # she may still activate, and pay, this stone
        ("next", "R5: Fen"),
        ("move {Fen} kind=walk", "!Fen is held (Apresado)"),
        ("to P1 2", ""),  # to the end of the stone, Ana never activating
        ("to P1 5", "")], seed=SEED_ANA_HITS)
    assert g.state["game"]["hold"] == ""
    assert "The hold ends: Ana did not keep it" in notes(g)


# -- (10) rosters and stats ----------------------------------------------------------------


def test_a_corrected_stat_takes_effect(runtime):
    # "Puntos de Ataque del Jugger + Puntos de Ataque del Arma"
    g = script([("set {Bo}.attack 3", ""), ("to P1 4", ""),
                         ("attack {Bo} {Hal} defense=none", "-")])
    assert len(rolls(g, "attack")[-1]["rolls"]) == 3 + 1


def test_a_long_game_keeps_one_chain_in_play(runtime):
    # "Necesitaras, al menos: 1x Cadena (Solo puede haber una Cadena por cada equipo de
    # Jugger en el campo)"
    script([("swap {Wen} {Zed}", "!Bears needs one Chain in play"),
                     ("swap {Vik} {Zed}", "Zed in for Vik")], length="long")


def test_a_qwik_carries_no_weapon():
    # "Los Qwiks o Corredores no son equipados con un Arma"
    from helpers.game import rules

    def armed_qwik(data):
        data["teams"][0]["pieces"][0]["stats"]["weapon"] = "chain"
        data["teams"][0]["pieces"][4]["stats"]["weapon"] = "staff"

    data = rules("jugger", armed_qwik)
    with pytest.raises(Illegal) as refusal:
        new_game(data, 1, options={"length": "short"})
    assert refusal.value.reason == "a Qwik carries no weapon"


MINE = {"teams": [{"name": "Mine", "pieces": [
    {"key": "j1", "name": "Mia", "stats": {"team": "Hamburg", "position": "qwik",
                                           "weapon": "none", "reflexes": 5}},
    {"key": "j2", "name": "Nils", "stats": {"team": "Hamburg", "weapon": "long_sword"}},
    {"key": "j3", "name": "Ole", "stats": {"team": "Hamburg", "weapon": "staff"}},
    {"key": "j4", "name": "Pit", "stats": {"team": "Kiel", "weapon": "qtip", "cost": 5}},
    {"key": "j5", "name": "Ute", "stats": {"team": "Kiel", "weapon": "chain", "cost": 5}}]}]}


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_the_players_own_team_is_entered_on_the_pc_and_picked_in_play(tmp_path, capsys,
                                                                       runtime):
    # "Cada jugador construye su equipo usando su colección de Jugadores de Jugger. El
    # Equipo de Jugger debe construirse teniendo en cuenta el Presupuesto de Reclutamiento"
    import json

    from arbiter_referee.cli import main as arbiter
    from arbiter_referee.rulesets import with_teams

    teams = tmp_path / "teams.json"
    teams.write_text(json.dumps(MINE))
    merged = json.loads(with_teams("jugger", str(teams), tmp_path / "out").read_text())
    assert merged["actions"]["roster"]["choices"]["team"][-1] == "Mine"  # the device's form
    assert arbiter(["run", "jugger", "--teams", str(teams), "--runtime", runtime, "--json",
                    "--do", "roster P1 team=Mine", "--do", "set P1.j2.attack 3"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["players"]["P1"]["team"] == "Mine" and state["message"] == "P1 fields Mine"
    nils = state["pieces"]["P1.j2"]
    assert (nils["name"], nils["stats"]["attack"], nils["stats"]["weapon"]) == (
        "Nils", 3, "long_sword")
    MINE["teams"][0]["pieces"][0]["stats"]["weapon"] = "chain"  # a Qwik with a weapon
    teams.write_text(json.dumps(MINE))
    MINE["teams"][0]["pieces"][0]["stats"]["weapon"] = "none"
    assert arbiter(["run", "jugger", "--teams", str(teams), "--runtime", runtime,
                    "--do", "roster P1 team=Mine"]) == 2
    assert "refused: a Qwik carries no weapon" in capsys.readouterr().err


def device_to_act(rig):
    """A short game on the device, A pressed to the first turn of the Act phase: the game."""
    from helpers.device import open_setup, play_screen, seal

    open_setup(rig, "jugger")
    rig.keys("a")
    seal(rig)
    game = play_screen(rig).game
    for _ in range(10):
        if game.phase()["name"] == "activation":
            return game
        rig.keys("a")
    raise AssertionError(rig.lines)


def test_on_the_device_an_attack_of_opportunity_waits_for_a_jugger_moving(rig):
    # "Un Jugger en movimiento activará un Ataque de Oportunidad cuando se mueva 1
    # hexágono (o más) a través del Rango de Ataque de un Jugger"
    from helpers.device import fill_form, open_menu_item, said

    game = device_to_act(rig)
    side = game.active_player()
    qwik, reactor = ("Ana", "Gus") if side == "P1" else ("Fen", "Bo")
    qwik, reactor = named(game, "{%s}" % qwik), named(game, "{%s}" % reactor)
    events = len(game.history.events)
    open_menu_item(rig, "Attack (2 focus)")  # the form the bench's game uses
    fill_form(rig, [reactor, qwik, 0, 0, "none", "focus", "focus", "opportunity"])
    shown = said(rig)
    assert "%s is not moving" % game.state["pieces"][qwik]["name"] in shown, shown
    assert len(game.history.events) == events


def bent(team, name, key, stat, value):
    """A copy of ``team`` called ``name``, the jugger ``key``'s ``stat`` set to ``value``."""
    import copy

    team = copy.deepcopy(team)
    team["name"] = name
    next(p for p in team["pieces"] if p["key"] == key)["stats"][stat] = value
    return team


# each team, a short one bent from MINE or a long one from tests/data/jugger_teams.json,
# and the one line that refuses it
BAD_TEAMS = [
    ("short", ("j4", "cost", -5), "Pit costs -5: a cost is 0 or more"),
    ("short", ("j1", "reflexes", 9), "Mia has Reflexes 9: 1 to 5"),
    ("short", ("j3", "reflexes", 0), "Ole has Reflexes 0: 1 to 5"),
    ("short", ("j2", "weapon", "laser"), "Nils wields laser, no Jugger weapon"),
    ("short", ("j3", "weapon", "none"), "Ole is a Defender and needs a weapon"),
    ("long", ("j4", "reserve", 1), "Bad has 4 juggers in play, not 5"),
    ("long", ("j6", "reserve", 0), "Bad has 6 juggers in play, not 5"),
]


@pytest.mark.parametrize("runtime", RUNTIMES)
def test_an_own_team_is_checked_card_by_card_and_fields_five(tmp_path, capsys, runtime):
    # "Cada Defensor será equipado con una sola Arma de Jugger"; "El valor del orden de
    # activación (VOA) empieza en 5 y va en orden descendiente"; "Cada Carta de
    # Estadísticas Personales tiene un COSTE DE RECLUTAMIENTO (CR)"; "Cada Jugador
    # selecciona 5 Juggers de su equipo de 8 para ser los JUGGERS EN JUEGO"
    import json

    from helpers import REPO

    from arbiter_referee.cli import main as arbiter

    harbour = json.loads((REPO / "tests" / "data" / "jugger_teams.json").read_text())[
        "teams"][0]
    teams = tmp_path / "teams.json"
    for length, (key, stat, value), reason in BAD_TEAMS:
        base = MINE["teams"][0] if length == "short" else harbour
        teams.write_text(json.dumps([bent(base, "Bad", key, stat, value)]))
        assert arbiter(["run", "jugger", "--teams", str(teams), "--runtime", runtime,
                        "--option", "length=" + length, "--do", "roster P1 team=Bad"]) == 2
        err = capsys.readouterr().err
        assert "refused: " + reason + "\n" in err, (key, stat, value, err)
    teams.write_text(json.dumps([bent(harbour, "Good", "j1", "cost", 0)]))
    assert arbiter(["run", "jugger", "--teams", str(teams), "--runtime", runtime,
                    "--option", "length=long", "--do", "roster P1 team=Good"]) == 0


def test_a_defender_is_armed_with_a_weapon(runtime):
    # "Cada Defensor será equipado con una sola Arma de Jugger"
    script([("arm {Bo} weapon=none", "!Bo is a Defender and needs a weapon"),
            ("arm {Bo} weapon=staff", "Bo takes the staff")])


def test_on_the_device_the_arm_form_offers_only_weapons(rig):
    # "Cada Defensor será equipado con una sola Arma de Jugger"
    from helpers.device import open_menu_item, open_setup, seal

    open_setup(rig, "jugger")
    rig.keys("a")
    seal(rig)
    open_menu_item(rig, "Arm")
    weapons = [field[1] for field in rig.app.screen.fields if field[0] == "weapon"][0]
    assert weapons == ["sword_shield", "long_sword", "staff", "qtip", "chain"]


def test_on_the_device_a_wrestle_ends_on_its_outcome_not_a_hit(rig):
    # "Si el Qwik atacante gana el Forcejeo éste puede elegir: ... Empujar: El defensor es
    # desplazado 1 hexágono hacia atrás"; "Los Qwiks no pueden esgrimir armas"
    from helpers.device import act, said

    game = device_to_act(rig)
    assert game.active_player() == "P1"  # the device's dice: P1's initiative
    act(rig, "attack {Ana} {Fen} defense=none boost=2 win=push")  # Ana's 3 dice: a Jugg
    rig.run(100)
    shown = said(rig)
    assert "1-0 Ana wins Fen is pushed 1 hex back" in shown and "hit" not in shown, shown
    assert game.state["message"] == "Fen is pushed 1 hex back"


def test_a_wrestle_says_who_wins_then_what_the_winner_does(runtime):
    # "Si el Qwik atacante gana el Forcejeo éste puede elegir: Robar el Jugg ...
    # Contener/Apresar ... Empujar"; "Si el Duelo acaba en un empate en la tirada de dados
    # de combate, el forcejeo o agarre no tiene efecto ni sobre el atacante ni sobre el
    # defensor."
    g = script([("to P1 5", ""),
                ("attack {Ana} {Fen} defense=full win=hold", "1-0 Ana wins")],
               seed=SEED_ANA_HITS)
    assert notes(g)[-2:] == ["1-0 Ana wins", "Ana holds Fen: Apresado"]
    g = script([("to P1 5", ""),
                ("attack {Ana} {Fen} defense=duel win=hold", "1-1 tie: no effect")],
               seed=SEED_QWIKS_EVEN)
    assert notes(g)[-1] == "1-1 tie: no effect"
