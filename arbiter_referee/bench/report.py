"""``arbiter bench``: run every measurement and print tables or one JSON object."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable

from arbiter_referee.bench import bus, chip, growth, heap, journal_wear, presses, scenarios
from arbiter_referee.bench.boot import boot
from arbiter_referee.bench.device_run import key_presses
from arbiter_referee.bench.idle import idle
from arbiter_referee.emulator.session import run_session


def device_scenarios():
    """(name, device seed, keys, the Game or None for the menus)."""
    yield "menus", 7, scenarios.MENUS, None
    for game in scenarios.GAMES:
        if game.keys:
            yield game.name, game.device_seed, game.keys, game


class Progress:
    """``arbiter bench`` says what it measures, n of m, with the time so far (it takes
    minutes), to ``say`` (stderr, so ``--json`` output stays one object)."""

    def __init__(self, total: int, say: Callable[[str], None] | None = None):
        self.total, self.done, self.say = total, 0, say or (lambda _line: None)
        self.start = time.monotonic()

    def step(self, what: str) -> None:
        self.done += 1
        elapsed = int(time.monotonic() - self.start)
        width = len(str(self.total))
        self.say(f"[{self.done:{width}}/{self.total}] {elapsed // 60}:{elapsed % 60:02d} {what}")


def press_figures(seed: int, keys: str) -> dict:
    figures = presses.figures(seed, keys)
    figures["budget_ok"] = figures["median"] <= presses.BUDGET and \
        figures["p90"] <= presses.P90_BUDGET
    return figures


def collector_figures(micropython32: str, seed: int, keys: str, budgeted: bool) -> dict:
    """The heap a session needs with a Pico's collector (calibrate.py: a 32-bit
    MicroPython that collects when an allocation fails), its budget and each board's
    headroom."""
    from arbiter_referee.bench import calibrate

    found = calibrate.figures(micropython32, seed, keys)
    found["budget"] = heap.BUDGET if budgeted else None
    found["budget_ok"] = None if not budgeted or found["heap"] is None else \
        found["heap"] <= heap.BUDGET
    found["boards"] = heap.boards(found["heap"])
    return found


def collect(skip_heap: bool = False, skip_scale: bool = False,
            say: Callable[[str], None] | None = None, micropython32: str | None = None,
            pico=None) -> dict:
    """``micropython32``: a 32-bit MicroPython (calibrate.py) for the heap each session
    needs with a Pico's collector (``heap_collector``), beside the bench's own;
    ``pico``: the Pico's MicroPython (chip.runtime.PicoFirmware), each game's whole
    session on the chip (``chip``)."""
    scenarios_run = list(device_scenarios())
    total = 1 + len(scenarios_run) * (1 if skip_heap else 4 + bool(micropython32)) + \
        len(scenarios.GAMES) + 2 + (0 if skip_scale else 1 + len(growth.CYCLES)) + \
        (len(scenarios.GAMES) * chip.STEPS if pico else 0)
    progress = Progress(total, say)
    progress.step("compiling the firmware to .mpy and a ROMFS image")
    device = heap.device_firmware()  # the heap as installed: .mpy, loaded when needed
    rom = heap.device_rom()  # the same .mpy in a ROMFS partition, run in place
    result = {"device": {}, "flash": {}, "code_bytes": heap.code_bytes(device),
              "code_bytes_romfs": heap.code_bytes(rom)}
    for name, seed, keys, game in scenarios_run:
        progress.step(f"{name}: bus and CPU per key press, under MicroPython")
        presses = key_presses(seed, keys, "micropython", firmware=device)  # as the heap runs
        row = {"bus": bus.summarize(presses), "cpu": bus.cpu(presses),
               "complete_game": bool(game and game.complete),
               "winner": game.winner if game else None}
        if game is not None:  # the players' effort: presses per refereed action
            row["presses"] = press_figures(seed, keys)
        if not skip_heap:
            progress.step(f"{name}: the frames under CPython, to compare")
            reference = run_session(seed, keys, "cpython")
            for key, firmware in (("heap", device), ("heap_romfs", rom)):
                where = "firmware as .mpy files" if key == "heap" else \
                    "firmware in ROMFS (a custom build)"
                progress.step(f"{name}: the smallest heap it plays in, {where}")
                found = heap.smallest_heap(seed, keys, preload=False, firmware=firmware,
                                           reference=reference)
                # the budget is for stock MicroPython: .mpy files, no ROMFS
                budgeted = game is not None and key == "heap"
                found["budget"] = heap.BUDGET if budgeted else None
                # "runs in" is not monotonic in the heap's size: a game the search
                # puts just over the budget may still play whole in it
                found["budget_ok"] = None if not budgeted or found["heap"] is None \
                    else found["heap"] <= heap.BUDGET or heap.attempt(
                        seed, keys, heap.BUDGET, reference, False, firmware) is not None
                found["boards"] = heap.boards(found["heap"])
                row[key] = found
            if micropython32:
                progress.step(f"{name}: the smallest heap it plays in with a Pico's collector")
                row["heap_collector"] = collector_figures(micropython32, seed, keys,
                                                          game is not None)
        result["device"][name] = row
    for game in scenarios.GAMES:
        progress.step(f"{game.name}: flash written per game event")
        result["flash"][game.name] = journal_wear.flash_per_event(
            game.name, game.players, game.seed, game.actions, game.options)
    progress.step("boot to the first menu")
    result["boot"] = boot()
    progress.step("idle on the menu")
    result["idle"] = idle()
    if not skip_scale:
        result["growth"] = {}
        for ruleset in growth.CYCLES:
            progress.step(f"a {growth.EVENTS:,}-event game of {ruleset}: the heap it needs")
            result["growth"][ruleset] = growth.growth(ruleset)
        progress.step(f"a {scenarios.SCALE_EVENTS:,}-event game of {scenarios.SCALE_RULESET}")
        result["scale"] = {"ruleset": scenarios.SCALE_RULESET, "marks": journal_wear.scale(
            scenarios.SCALE_RULESET, scenarios.SCALE_PLAYERS, scenarios.SCALE_CYCLE,
            scenarios.SCALE_EVENTS)}
    if pico:
        result["chip"] = chip.figures(pico, scenarios.GAMES, progress.step)
    return result


def _ok(flag) -> str:
    return "-" if flag is None else ("PASS" if flag else "OVER")


def _kb(n) -> str:
    return "-" if n is None else f"{n / 1024:.1f} KB"


def _boards(figures: dict) -> str:
    """Each board's heap and what the game leaves of it."""
    parts = []
    for board, f in figures.items():
        name = f"{heap.BOARD_NAMES[board]} {_kb(f['heap'])}"
        if f["headroom"] is None:
            parts.append(f"{name}: -")
        elif f["fits"]:
            parts.append(f"{name}: {_kb(f['headroom'])} spare ({f['headroom_pct']:.0f}%)")
        else:
            parts.append(f"{name}: OVER by {_kb(-f['headroom'])}")
    return "; ".join(parts)


def table(result: dict) -> str:
    out = []
    out.append(f"== firmware modules in the heap, all imported: {_kb(result['code_bytes'])} "
               f"as .mpy files, {_kb(result['code_bytes_romfs'])} in ROMFS (run in place)*")
    for name, row in result["device"].items():
        b, c = row["bus"], row["cpu"]
        what = "a whole game, %s wins" % row["winner"] if row["complete_game"] else \
            "menus and dice" if name == "menus" else "part of a game"
        out.append(f"== {name} (device, real MicroPython: {what})")
        for key, label in (("heap_collector", "heap Pico "), ("heap", "heap .mpy "),
                           ("heap_romfs", "heap ROMFS*")):
            if key not in row:
                continue
            h = row[key]
            budget = f"  budget {_kb(h['budget'])} {_ok(h['budget_ok'])}" if h["budget"] else ""
            out.append(f"  {label} smallest {_kb(h['heap'])}{budget}; peak in use "
                       f"{_kb(h['heap_high'])}, peak live {_kb(h['heap_live'])}")
            if "boards" in h:
                out.append("  " + " " * len(label) + " " + _boards(h["boards"]))
        out.append(f"  bus/press  median {b['median_bytes']} B ({b['median_ms']} ms), p95 "
                   f"{b['p95_bytes']} B ({b['p95_ms']} ms) over {b['presses']} presses")
        out.append(f"  full-frame median {b['full_median_bytes']} B ({b['full_median_ms']} ms),"
                   f" p95 {b['full_p95_bytes']} B ({b['full_p95_ms']} ms); ratio {b['ratio']}"
                   f"  budget 0.25 {_ok(b['budget_ok'])}")
        out.append(f"  cpu/press  median {c['median_fuel']:,.0f} fuel, worst "
                   f"{c['worst_fuel']:,} ({c['flushed']} presses flushed a frame)")
        if "presses" in row:
            p = row["presses"]
            out.append(f"  presses/action median {p['median']:g}, p90 {p['p90']:g}, most "
                       f"{p['most']} over {p['actions']} refereed actions ({p['presses']} "
                       f"presses)  budget median {presses.BUDGET}, p90 "
                       f"{presses.P90_BUDGET} {_ok(p['budget_ok'])}")
    out.append("== flash per game event (headless journal vs whole state as JSON; on littlefs "
               "as a Pico mounts it: 4 KB blocks erased, bytes programmed)")
    for name, f in result["flash"].items():
        refused = f", {len(f['refused'])} actions refused" if f["refused"] else ""
        end = f"{f['result']} {f['winner'] or ''}".strip() if f["result"] else "unfinished"
        out.append(f"  {name:12} {f['per_event']:6} B/event vs {f['naive_per_event']:8} "
                   f"ratio {f['ratio']}  budget 64 {_ok(f['budget_ok'])}  "
                   f"({f['events']} events, {end}{refused})")
        out.append(f"  {'':12} littlefs: {f['littlefs_erases_per_event']} erases and "
                   f"{f['littlefs_programmed_per_event']} B programmed per event; the most "
                   f"erased block {f['littlefs_most_erased_block']} times")
    out.append("  (Pico: .mpy files, collected when an allocation fails, as a Pico's MicroPython "
               "does; .mpy: the same, collected between passes only: an upper bound)")
    out.append("  (* ROMFS: a custom MicroPython build; no stock Pico firmware has a partition)")
    out.append("== boot to the first menu      .py            .mpy          ROMFS")
    kinds = [result["boot"][kind] for kind in ("py", "mpy", "romfs")]
    out.append("  fuel                 " + " ".join(f"{k['fuel']:>14,}" for k in kinds))
    out.append("  heap live            " + " ".join(f"{_kb(k['heap_live']):>14}" for k in kinds))
    out.append("  smallest heap        " + " ".join(f"{_kb(k['smallest_heap']):>14}"
                                                   for k in kinds))
    i = result["idle"]
    out.append("== idle on the menu, no input")
    out.append(f"  {i['seconds']:.0f} s: {i['wakeups_per_s']} wake-ups/s, "
               f"{i['allocating_passes']} allocating passes (heap locked), "
               f"{i['alloc_bytes_with_harness']} B allocated incl. emulator loop")
    out.append(f"  display off at {i['display_off_at_s']} s (timeout {i['sleep_timeout_s']} s);"
               f" asleep: {i['asleep_wakeups_per_s']} wake-ups/s, "
               f"{i['allocating_passes_asleep']} allocating passes")
    if "growth" in result:
        out.append("== long games as the device plays them, under MicroPython (.mpy, every "
                   "module loaded; collected after each action): heap needed / live")
        for ruleset, g in result["growth"].items():
            out.append(f"  {ruleset:12} first {g['first_events']} events "
                       f"{_kb(g['first']['heap_high'])} / {_kb(g['first']['heap_live'])}; all "
                       f"{g['events']:,} {_kb(g['whole']['heap_high'])} / "
                       f"{_kb(g['whole']['heap_live'])}: {g['growth']:+.1%}  budget +5% "
                       f"{_ok(g['budget_ok'])}")
    if "scale" in result:
        out += journal_wear.scale_lines(result["scale"])
    if "chip" in result:
        out += chip.lines(result["chip"])
    return "\n".join(out)


def _mutants(args, say) -> int:
    """``--mutants N``: the checker against N seeded slips (bench/mutants.py)."""
    from arbiter_referee.bench import mutants
    from arbiter_referee.emulator.session import use_firmware_path

    use_firmware_path()
    progress = Progress(-(-args.mutants // mutants.EVERY), say)
    result = mutants.run(args.mutants, progress=progress.step)
    print(json.dumps({"mutants": result}, sort_keys=True) if args.json else
          mutants.line(result))
    for name, what, trouble in result["failed"]:
        say(f"{name}: {what}: {trouble}")
    if result["failed"]:
        say("the checker's budget is not met: " + mutants.line(result))
    return 1 if result["failed"] else 0


def main(args) -> int:
    def say(line: str) -> None:
        print(f"arbiter bench {line}", file=sys.stderr, flush=True)

    if getattr(args, "mutants", None) is not None:
        return _mutants(args, say)
    pico = None
    if args.firmware or args.chip_only or args.power_cuts:
        from arbiter_referee.chip.runtime import pico_firmware

        try:
            pico = pico_firmware(args.firmware)
        except ValueError as exc:
            print(f"arbiter bench: {exc}", file=sys.stderr)
            return 2
    if args.power_cuts:
        from arbiter_referee.bench import cuts

        progress = Progress(len(scenarios.GAMES) * cuts.PER_GAME, say)
        result = {"chip_cuts": cuts.figures(cuts.run(pico, scenarios.GAMES,
                                                     progress=progress.step))}
        print(json.dumps(result, sort_keys=True) if args.json else
              "\n".join(cuts.lines(result["chip_cuts"])))
        broken = cuts.shortfall(result["chip_cuts"])
        if broken:
            say(broken)
        return 1 if broken else 0
    if args.chip_only:
        progress = Progress(len(scenarios.GAMES) * chip.STEPS, say)
        result = {"chip": chip.figures(pico, scenarios.GAMES, progress.step)}
        print(json.dumps(result, sort_keys=True) if args.json else
              "\n".join(chip.lines(result["chip"])))
        return 0
    result = collect(args.skip_heap, args.skip_scale, say, args.micropython32, pico)
    print(json.dumps(result, sort_keys=True) if args.json else table(result))
    return 0
