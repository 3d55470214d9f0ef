"""Jugger TTG's movement, the Jugg and talents (issue 23): the players move the figures
on the field; the device takes each movement's declared type and its cost, once an
activation, and holds an exhausted jugger to a walk; it lets the carrier throw the Jugg
and a Defender sweep it, and a standing jugger use a talent, each at its cost; at each
point the players choose the Qwik and hand out the weapons. Quotes from
../shared/seeds/002_3f7d8541c1733e1c.txt
(Tabla 3: Límites de Movimiento y su Coste). Both runtimes, as tests/test_jugger_rules.py.
Juggers by name: Falcons Ana (Qwik), Bo, Cyd, Dag, Eli (chain) against Ravens Fen (Qwik),
Gus, Hal, Ivo, Jo (chain)."""

import pytest
from helpers.game import notes, piece_state, player
from helpers.jugger import SEED_P2_INITIATIVE, end_stone, script
from helpers.runtimes import RUNTIMES, replayed


@pytest.fixture(params=RUNTIMES)
def runtime(request):
    """The games a test makes, played again in MicroPython (helpers.runtimes)."""
    with replayed(request.param, "jugger", request.session):
        yield request.param


def test_a_movement_is_declared_and_paid_walk_0_run_1_sprint_2_focus(runtime):
    # "Caminar 1- 3 hexágonos 0 Puntos de Concentración / Correr Hasta 6 hexágonos 1
    # Puntos de Concentración / Sprint 7 - 9 hexágonos 2 Puntos de Concentración";
    # "El jugador declara el tipo de movimiento que hará su Jugger y paga ese movimiento
    # por adelantado como parte de su declaración."
    g = script([
        ("to P1 5", ""),
        ("move {Ana} kind=sprint", "Ana may sprint 9 hexes"),
        ("to P1 4", ""),
        ("move {Bo} kind=run", "Bo may run 6 hexes"),
        ("to P1 3", ""),
        ("move {Cyd}", "Cyd may walk 3 hexes"),  # a walk unless told
        ("to P1 2", ""),
        ("move {Eli} kind=run from=synergy", "Eli may run 6 hexes")])
    focus = {name: piece_state(g, name)["focus"] for name in ("Ana", "Bo", "Cyd", "Eli")}
    assert focus == {"Ana": 4 - 2, "Bo": 4 - 1, "Cyd": 4, "Eli": 4}
    assert player(g, "P1")["synergy"] == 3 - 1  # "puede gastar uno o más PSE"


def test_one_movement_an_activation_its_type_kept(runtime):
    # "Una vez el jugador haya hecho la declaración y pagado por esta no puede cambiar el
    # Tipo de Movimiento."; "Cada Jugger se puede mover una distancia limitada ... en cada
    # Piedra"
    g = script([
        ("to P1 4", ""),
        ("move {Bo}", "Bo may walk 3 hexes"),
        ("move {Bo} kind=run", "!Bo has moved this activation"),
        ("to P2 4", ""),
        ("to P1 4", ""),  # the next stone: a new activation
        ("move {Bo} kind=run", "Bo may run 6 hexes")])
    assert piece_state(g, "Bo")["focus"] == 4 - 1  # refilled at Reflexes 4, then the run


def test_only_the_active_jugger_of_the_side_in_turn_moves(runtime):
    # "Un Jugger Agachado: No puede llevar a cado ninguna Acción"; a jugger moves in its
    # activation: "Activando, uno por uno, a todos sus Juggers"
    script([
        ("hit {Bo} crouch=1", "Bo crouches 1"),
        ("to P1 5", ""),
        ("move {Fen}", "!not P2's turn"),
        ("move {Cyd}", "!Cyd activates at Reflexes 3"),
        ("to P1 4", ""),
        ("move {Bo}", "!Bo is crouched")])


def test_an_exhausted_jugger_only_walks_and_a_move_it_cannot_pay_is_refused(runtime):
    # "El Jugger no puede realizar un movimiento normal de más de 3 hexágonos (como
    # caminar)." (Agotado/Exhausto)
    g = script([
        ("to P1 4", ""),
        ("spend {Bo} n=7", "Bo spends 7"),  # 4 focus and 3 stamina: the last exhausts
        ("move {Bo} kind=run", "!Bo is exhausted: it walks 3 hexes at most"),
        ("move {Bo} kind=sprint", "!Bo is exhausted: it walks 3 hexes at most"),
        ("move {Bo}", "Bo may walk 3 hexes")])
    assert piece_state(g, "Bo")["exhausted"] == 1
    script([
        ("to P1 4", ""),
        ("spend {Bo} n=6", "Bo spends 6"),  # 4 focus and 2 stamina: 1 left
        ("move {Bo} kind=sprint", "!Bo cannot pay 2"),
        ("move {Bo} kind=run", "Bo may run 6 hexes")])


# -- the Jugg, talents -----------------------------------------------------------------


def test_the_carrier_throws_the_jugg_in_its_activation_or_as_a_reaction(runtime):
    # "El Portador de el jugg puede lanzarlo como una Acción Estándar durante su
    # Activación, o si un ataque es declarado contra el Portador, este puede hacer una
    # Reacción y Lanzar el jugg."; "Por cada 1 PC que un Qwik utilice puede lanzar el
    # jugg de 1 a 3 hexágonos."
    g = script([
        ("to P1 5", ""),
        ("throw {Ana}", "!Ana does not carry the Jugg"),
        ("pickup {Ana}", "Ana picks up the Jugg"),
        ("throw {Ana} n=2", "Ana throws the Jugg up to 6 hexes")])
    assert g.state["game"]["jugg"] == "" and piece_state(g, "Ana")["focus"] == 4 - 1 - 2
    g = script([
        ("to P1 5", ""),
        ("pickup {Ana}", "Ana picks up the Jugg"),
        ("to P2 5", ""),
        ("throw {Ana}", "!not P1's turn"),  # an action is the carrier's activation's
        ("throw {Ana} kind=reaction", "Ana throws the Jugg up to 3 hexes")])
    assert g.state["game"]["jugg"] == "" and piece_state(g, "Ana")["focus"] == 4 - 1 - 1


def test_a_defender_sweeps_the_jugg_on_the_ground_a_chain_cannot(runtime):
    # "Si en el mismo hexágono o en uno adyacente al Jugg hay un Defensor, este puede
    # mover el Jugg 1 hexágono por cada punto de PC que utilice para esta acción."; "Si el
    # Defensor está a dos hexágonos de distancia de el Jugg, puede moverlo 1 hexágono por
    # cada 2 puntos de PC"; "Un Defensor equipado con la cadena no puede barrer el Jugg."
    g = script([
        ("to P1 5", ""),
        ("sweep {Ana}", "!a Qwik picks the Jugg up; a Defender sweeps it"),
        ("to P1 4", ""),
        ("sweep {Bo} n=3", "Bo sweeps the Jugg 3 hexes"),
        ("to P1 3", ""),
        ("sweep {Cyd} n=2 far=1", "Cyd sweeps the Jugg 2 hexes"),
        ("to P1 2", ""),
        ("sweep {Eli}", "!a chain cannot sweep the Jugg")])
    assert (piece_state(g, "Bo")["focus"], piece_state(g, "Cyd")["focus"]) == (4 - 3, 4 - 4)
    script([
        ("to P1 5", ""),
        ("pickup {Ana}", "Ana picks up the Jugg"),
        ("to P1 4", ""),
        ("sweep {Bo}", "!the Jugg is carried")])


def test_a_talent_needs_a_standing_jugger_its_whole_cost_and_no_exhaustion(runtime):
    # "Para poder realizar Talentos es necesario que el Jugger esté Activo (es decir, no
    # puede estar Agachado)."; "Cuando se declara un Talento se debe de pagar su coste
    # total."; Agotado: "El Jugger no puede realizar Talentos."
    g = script([
        ("hit {Bo} crouch=1", "Bo crouches 1"),
        ("talent {Bo} n=1", "!Bo is crouched"),
        ("talent {Cyd} n=2", "Cyd uses a talent for 2"),
        ("talent {Cyd} n=6", "!Cyd cannot pay 6"),  # 2 focus and 3 stamina left
        ("talent {Gus}", "Gus uses a talent for 0"),  # a grey shield: no cost
        ("to P1 3", ""),
        ("spend {Dag} n=7", "Dag spends 7"),  # the last stamina: exhausted
        ("talent {Dag}", "!Dag is exhausted: no talents")])
    assert piece_state(g, "Cyd")["focus"] == 4  # refilled at Reflexes 3, after the talent


# -- each point: the Qwik and the weapons ------------------------------------------------


def test_each_point_the_players_choose_the_qwik_and_hand_out_the_weapons(runtime):
    # "Los jugadores seleccionan a uno de sus jugadores para ser el Qwik."; "Los Jugadores
    # restantes son Defensores. Las Cartas de Arma se pueden asignar a estos jugadores";
    # "Los Qwiks o Corredores no son equipados con un Arma"; "al menos: 1x Cadena (Solo
    # puede haber una Cadena por cada equipo de Jugger en el campo)"
    g = script([
        ("qwik {Ana}", "!Ana is the Qwik"),
        ("qwik {Bo}", "Bo is the Qwik, Ana takes the sword_shield"),
        ("arm {Bo} weapon=staff", "!Bo is the Qwik"),
        ("arm {Ana} weapon=staff", "Ana takes the staff"),
        ("arm {Cyd} weapon=chain", "Eli takes the staff | Cyd takes the chain"),
        ("arm {Cyd} weapon=long_sword", "!Falcons needs one Chain in play"),
        ("next", ""),  # the initiative: the point is under way
        ("arm {Dag} weapon=staff", "!arm is for the start phase, not initiative")])
    stats = {name: piece_state(g, name)["stats"] for name in ("Ana", "Bo", "Cyd", "Eli")}
    kept = {name: (s.get("position", "defender"), s["weapon"]) for name, s in stats.items()}
    assert kept == {"Ana": ("defender", "staff"), "Bo": ("qwik", "none"),
                    "Cyd": ("defender", "chain"), "Eli": ("defender", "staff")}
    # the new Qwik scores: "Los puntos se marcan consiguiendo que tu Qwik ... "
    script([
        ("qwik {Bo}", "Bo is the Qwik"),
        ("to P1 4", ""),
        ("pickup {Bo}", "Bo picks up the Jugg"),
        ("score {Bo}", "P1 scores 1-0")])


def test_the_side_without_the_initiative_deploys_first_at_each_point(runtime):
    # "1. El jugador que no tiene la iniciativa coloca todos sus jugadores en la Zona de
    # Salida"; "2. El Jugador con la Iniciativa despliega sus jugadores de la misma manera."
    g = script([("next", "Init P1 2-0 | P2 deploys first, then P1")])  # P1's initiative
    for _ in range(3):  # later stones roll the initiative again: no deployment
        end_stone(g)
    said = [text for text in notes(g) if "deploys" in text]
    assert said == ["P2 deploys first, then P1"]
    script([("next", "P1 deploys first, then P2")], seed=SEED_P2_INITIATIVE)
