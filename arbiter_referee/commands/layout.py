"""``arbiter layout --seed N [--png FILE] [--journal FILE]``: the Tactics Joker
battlefield the device deals for seed N (the same engine and ruleset), as text and as
a picture; with a game's journal (pulled off the device), its armies where they stand
now."""

from __future__ import annotations

import sys

from arbiter_referee.rulesets import bundled

HELP = "the Tactics Joker battlefield dealt for a seed"

SUITS = {"S": "mountain", "C": "forest", "H": "plain", "D": "plain"}


def board(seed: int, players: int = 2) -> list[str]:
    from arbiter_referee.emulator.session import use_firmware_path

    use_firmware_path()
    from arbiter.game.engine import Game
    from arbiter_referee.compiled import loaded

    game = Game(loaded(bundled()["tactics"].read_bytes()), players=players, seed=seed)
    game.apply("layout")  # a game's first action deals the battlefield
    return list(game.state["game"]["board"])


def terrain(card: str) -> str:
    """Kings are castles, jacks and queens recruits (plains), jokers wild."""
    if card == "JK":
        return "joker"
    if card[:-1] == "K":
        return "castle"
    if card[:-1] in ("J", "Q"):
        return "recruit"
    return SUITS[card[-1]]


def from_journal(path: str) -> tuple[list[str], list[str]]:
    """(cards, armies) of the game a journal records, replayed."""
    from arbiter_referee.journals import replay_journal

    with open(path, encoding="utf-8") as f:
        game = replay_journal(f.read(), bundled()["tactics"].read_text())
    state = game.state["game"]
    if len(state.get("board", ())) != 49:
        raise ValueError("the journal's game has no battlefield dealt")
    return list(state["board"]), list(state["army"])


def army_text(army: str) -> str:
    """``P1x3`` for ``P1000``."""
    return "%sx%d" % (army[:2], len(army) - 2) if army else ""


def text(cards: list[str], armies: list[str] | None = None) -> str:
    rows = [" ".join("%3s" % c for c in cards[r * 7:r * 7 + 7]) for r in range(7)]
    if armies:
        rows = [row + "   " + " ".join("%4s" % (army_text(a) or ".")
                                      for a in armies[r * 7:r * 7 + 7])
                for r, row in enumerate(rows)]
    return "\n".join(rows)


COLOURS = {"plain": (236, 220, 160), "forest": (70, 140, 60), "mountain": (150, 140, 130),
           "castle": (200, 60, 60), "recruit": (240, 200, 90), "joker": (160, 90, 200)}


OWNERS = {"P1": (30, 80, 220), "P2": (220, 40, 40), "P3": (30, 160, 60), "P4": (230, 150, 0)}


def png(cards: list[str], path: str, cell: int = 48, armies: list[str] | None = None) -> None:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (cell * 7 + 1, cell * 7 + 1), "white")
    draw = ImageDraw.Draw(image)
    for i, card in enumerate(cards):
        x, y = (i % 7) * cell, (i // 7) * cell
        draw.rectangle([x, y, x + cell, y + cell], fill=COLOURS[terrain(card)], outline="black")
        red = card[-1] in "HD"
        draw.text((x + 6, y + 6), card, fill=(150, 0, 0) if red else "black")
        draw.text((x + 6, y + cell - 16), terrain(card)[:4], fill="black")
        army = armies[i] if armies else ""
        if army:  # a disc in the owner's colour with the units
            draw.ellipse([x + cell - 24, y + 4, x + cell - 4, y + 24],
                         fill=OWNERS.get(army[:2], "grey"), outline="black")
            draw.text((x + cell - 17, y + 8), str(len(army) - 2), fill="white")
    image.save(path)


def arguments(parser) -> None:
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--png", metavar="FILE", help="also draw it to a PNG file")
    parser.add_argument("--journal", metavar="FILE",
                        help="a Tactics Joker game's journal: its battlefield and armies now")


def run(args) -> int:
    armies = None
    if args.journal:
        try:
            cards, armies = from_journal(args.journal)
        except (OSError, ValueError, KeyError) as exc:
            print(f"arbiter layout: cannot read {args.journal}: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 1
    else:
        cards = board(args.seed)
    print(text(cards, armies))
    if args.png:
        try:
            png(cards, args.png, armies=armies)
        except (OSError, ValueError) as exc:
            print(f"arbiter layout: cannot write {args.png}: "
                  f"{getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 1
        print(f"wrote {args.png}")
    return 0
