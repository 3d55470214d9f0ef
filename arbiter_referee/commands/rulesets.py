"""``arbiter rulesets``: the bundled rulesets, one ``NAME<TAB>PATH`` a line."""

HELP = "the bundled rulesets: NAME<TAB>PATH"


def arguments(parser) -> None:
    pass


def run(args) -> int:
    from arbiter_referee.rulesets import bundled

    for name, path in bundled().items():
        print(f"{name}\t{path}")
    return 0
