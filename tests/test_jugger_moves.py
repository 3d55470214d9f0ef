"""Jugger TTG's movement (issue 23): the players move the figures on the field; the
device takes each movement's declared type and its cost, once an activation, and holds
an exhausted jugger to a walk. Quotes from ../shared/seeds/002_3f7d8541c1733e1c.txt
(Tabla 3: Límites de Movimiento y su Coste). Both runtimes, as tests/test_jugger_rules.py.
Juggers by name: Falcons Ana (Qwik), Bo, Cyd, Dag, Eli (chain) against Ravens Fen (Qwik),
Gus, Hal, Ivo, Jo (chain)."""

import pytest
from helpers.game import piece_state, player
from helpers.jugger import script
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
