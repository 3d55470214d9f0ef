"""What an action would say before it is done, worked out on a copy of the state
(a form shows it as its fields change)."""


def preview(game, text, specs=None):
    """What an action would say, without doing it: its last message (such as
    "Rex 4/6 -> 7/6 KO, P1 +5 glory"), or the reason it would be refused. Nothing
    for an action that rolls dice: a preview stops at its first roll, before it.
    ``specs``: the actions a form's previews read (effects.action: by their lines'
    offsets), the form's own among them, kept for its next previews: a knob's
    turn reads none again from flash.

    Only the action's effects run (not the end checks, which say nothing), on a copy
    of the state, dropped after: the game's own state stays where it lies in a
    Pico's heap (restoring the copy scattered the live state and the heap with it).
    The copy shares the players' and pieces' records and the game values until one
    is changed (Game.writable): Kaiju's whole state copied was its game's heap peak."""
    from arbiter.game import Illegal, RuleError
    from arbiter.game.actions import parse, perform
    from arbiter.game.state import shared_copy

    name, args = parse(text)
    if name in ("undo", "redo"):
        return ""
    if game.state["result"]:
        return "the game is over"
    state, rng, length = game.state, game.rng, len(game.log)
    game.state = shared_copy(state)
    game.shared = state
    game.state["message"] = ""
    game.rolls = []
    game.rng = None  # a preview never rolls: it stops at its first roll, before it
    if specs:
        game.parsed.update(specs)
    try:
        perform(game, name, args)
        said = game.state["message"]
    except AttributeError:  # the generator is away: it would roll
        said = ""
    except Illegal as exc:
        said = exc.reason
    except (RuleError, KeyError, IndexError, TypeError, ValueError) as exc:
        said = "cannot do that: %s" % exc
    except (MemoryError, RuntimeError):  # the device's heap or stack: no preview, the
        said = ""  # form goes on (A does the action, or says why it cannot)
    finally:
        if specs is not None:  # the actions' parses (not their effects')
            parsed, actions = game.parsed, game.rules["actions"]
            for name in actions:
                if parsed.get(actions[name]) is not None:
                    specs[actions[name]] = parsed[actions[name]]
        game.clear_scratch()
        game.state, game.shared = state, None
        del game.log[length:]
        game.rng = rng
    return said
