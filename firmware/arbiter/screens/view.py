"""What players read of a game: the play screen's eight lines of 21, and each event
and log entry in a line (log page, serial console)."""

from arbiter import ui
from arbiter.game.actions import pending_pick
from arbiter.game.expr import EMPTY


def _shown_counters(game):
    shown = game.rules.get("show")
    if shown is None:
        shown = sorted(game.rules.get("counters", EMPTY))[:3]
    return shown


def _label(game, name):
    label = game.rules.get("counters", EMPTY).get(name, EMPTY).get("label")
    return label if label is not None else name[:1].upper() + name[1:3]


def _mark(game):
    return "%s%d" % (game.rules.get("round_label", "Round")[:1], game.state["round"])


def screen_lines(game, keys=None):
    """The play screen's lines, not yet fitted to its width: title, phase, a line a
    player (at least up to line 5), the message, keys (``keys``: key_line's words)."""
    state = game.state
    title = game.rules.get("title", game.rules["name"])
    lines = []
    mark = _mark(game)
    secret, picker = pending_pick(game)
    if secret is not None:  # in play too: a round's bids
        from arbiter.game.picks import pick_prompt

        if state["round"] and len(title) + 1 + len(mark) <= ui.COLS:
            title += " " + mark
        return [title, pick_prompt(game, secret, picker),
                "", "Pass to " + picker, "others look away", "", "", "A:pick"]
    phase = game.phase()
    active = game.active_player()
    phase = phase.get("label", phase["name"]) + (": " + active if active else "")
    if len(title) + 1 + len(mark) <= ui.COLS:
        lines.append(title + " " + mark)
        lines.append(phase)
    else:  # a long title keeps its words: the round goes before the phase
        lines.append(title)
        lines.append(mark + " " + phase)
    # A new string costs a Pico about 0.2 ms (MicroPython looks for it among every
    # name the firmware's modules brought): a line of counters is made in one piece
    shown = _shown_counters(game)
    labels = [_label(game, name)[:3] if isinstance(name, str) else None for name in shown]
    plain = None not in labels
    line = "%s%s" + " %s%s" * len(shown) if plain else None
    for player in state["order"]:
        record = state["players"][player]
        out = "x" if player in state["lost"] else ""
        if plain:
            values = [player, out]
            for k in range(len(shown)):
                values.append(labels[k])
                values.append(record.get(shown[k], "-"))
            lines.append(line % tuple(values))
            continue
        parts = [player + out]
        for k in range(len(shown)):
            if labels[k] is not None:
                parts.append("%s%s" % (labels[k], record.get(shown[k], "-")))
            else:  # an expression: its text, if any (Impactics' HP of each piece)
                text = str(game.bound_eval("p", player, shown[k]))
                if text:
                    parts.append(text)
        lines.append(" ".join(parts))
    while len(lines) < 6:
        lines.append("")
    if state["result"]:
        lines.append(ending(state))
    else:
        lines.append(state["message"])
    lines.append(key_line(game, keys))
    return lines


def ending(state):
    """Who won and why, in a line: "P2 wins: scored the points to win", "A tie!"."""
    winner, why = state["winner"], state.get("why")
    said = winner + " wins" if state["result"] == "win" else "A tie"
    if not why:
        return said + "!"
    if winner and why.startswith(winner + " "):  # "P1 has 20 Glory": P1 wins, has...
        why = why[len(winner) + 1:]
    return said + ": " + why


def key_line(game, keys=None, more=False):
    """What the keys do, in 21 columns: A's step, the fast path's action (Left/Right:
    ``<>:damage``), ``^:more`` when the screen holds less than it says (a bare ``^`` if
    short of room), then Down's page and B's menu while they fit (B is always the
    menu). ``keys``: the fast path's word and Down's page's (PlayScreen.key_words)."""
    if game.state["result"]:
        return "B:menu ^:more" if more else "B:menu"
    phase = game.phase()
    line = "A:" + phase.get("key_a", phase.get("on_a", "next"))  # Kaiju's Planning: played
    fast = keys[0] if keys else ""
    if fast and len(line) + 4 + len(fast) <= ui.COLS:
        line += " <>:" + fast
    if more:
        more = " ^:more" if len(line) + 7 <= ui.COLS else " ^"
        if len(line) + len(more) > ui.COLS:  # a long A's word: the fast path goes unsaid
            line = line[:line.find(" <>:")]
        line += more
    down = keys[1] if keys else ""
    if down and len(line) + 3 + len(down) <= ui.COLS:
        line += " v:" + down
    return line + " B:menu" if len(line) + 7 <= ui.COLS else line


def play_lines(game, notes=(), notice="", keys=None):
    """The play screen in eight lines of at most ``ui.COLS``: long lines wrapped into
    the lines below. What does not fit is not cut: the key line says so (``^:more``)
    and the second value is all the screen says, for a page (else None)."""
    lines = screen_lines(game, keys)
    state = game.state
    many = len(state["order"]) > 2 and lines[-1] != "A:pick"
    if many:  # rows are many: the round and phase in the bar, not the game's title
        phase = lines.pop(1)
        mark = _mark(game)
        lines[0] = phase if phase.startswith(mark + " ") else mark + " " + phase
        if state["result"]:  # the winner in the bar, every row under it (and why)
            fits = len(lines[-2]) <= ui.COLS
            lines[0] = lines[-2] if fits else lines[-2].split(":")[0] + "!"
            if fits:
                lines[-2] = ""
    head = ui.wrap(lines[0])  # a title too long for the bar goes on below it
    lines[0] = head.pop(0)
    if lines[-1] == "A:pick":  # who picks: a few short lines, with blanks to spare
        for text in lines[1:-1]:
            head.extend(ui.wrap(text))
        if notice:  # a pick refused: why, in the lines the blanks leave
            head[-2:] = ui.wrap(notice)
        while len(head) > 6 and "" in head:
            head.remove("")
        return [lines[0]] + head[:6] + [""] * (6 - len(head)) + [lines[-1]], None
    for text in lines[1:-2]:
        if text:
            head.extend(ui.wrap(text))
    if state["result"]:  # the winner and why last: under what the action said
        notes = list(notes) + ([notice] if notice else [])
        if lines[-2]:
            notes.append(lines[-2])  # no press takes the winner off the screen
    else:
        if not notes:
            notes = [lines[-2]] if lines[-2] else []
        if notice:
            notes = list(notes[:-1]) + [notice]
    newest = ui.wrap(notes[-1]) if notes else []
    # every player's row first (up to 6: the phase goes in the bar when they are
    # many): the newest of what was said has the lines they leave, the rest is paged
    said = newest[:max(0, 6 - len(head))]
    body = head[:6 - len(said)]
    more = len(body) < len(head) or len(said) < len(newest)
    free = 6 - len(body) - len(said)
    for text in reversed(notes[:-1]):  # earlier notes above, newest first, if whole
        wrapped = ui.wrap(text)
        if len(wrapped) > free:
            more = True
            break
        said = wrapped + said
        free -= len(wrapped)
    out = [lines[0]] + body + [""] * free + said + [lines[-1]]
    if not more:
        return out, None
    out[7] = key_line(game, keys, True)
    return out, ([lines[0]] if many else []) + [t for t in lines[1:-2] if t] + list(notes)


def public_text(event):
    """An event as the serial console may show it: a secret pick names no choice."""
    text = event.split("|")[0]
    if text.startswith("pick "):
        return " ".join(text.split()[:2])
    return text


def describe(entry):
    """A roll (each die, and their total as the Roll dice screen says it) or a note in a
    line; the log's other entries in words: screens/log.py."""
    if entry["event"] != "roll":
        return entry["text"]
    rolls = entry["rolls"]
    mark = "undone " if entry.get("undone") else "refused " if entry.get("refused") else ""
    return "%s%s %s: %s%s" % (mark, entry["player"],
                              entry["die"], " ".join(str(r) for r in rolls),
                              " = %d" % sum(rolls) if len(rolls) > 1 else "")
