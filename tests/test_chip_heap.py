"""The heap on the MicroPython a Pico runs (issue 42): the rp2 port's GC heap made
smaller, as a board with less RAM has it. tests/test_chip.py plays each game's
recorded start and resume in the 144 KB budget (three quarters of a Pico W's 192 KB);
the whole sessions' figures (peak, live, the smallest heap each plays in) are
``arbiter bench --chip-only``'s, too slow for the suite."""

from __future__ import annotations

import pytest
from helpers.chip import firmware

from arbiter_referee.bench import heap


def test_the_heap_asked_for_is_the_heap_micropython_has(tmp_path):
    from arbiter_referee.chip.session import Chip

    (tmp_path / "main.py").write_text(
        "import gc, time\n"
        "print('heap', gc.mem_free() + gc.mem_alloc())\n"
        "junk = [bytearray(1000) for _ in range(50)]\n"
        "gc.collect()\n"
        "print('live', gc.mem_alloc())\n"
        "time.sleep_ms(10)\n")
    pico = firmware()
    assert pico.heap_bytes() == heap.BOARDS["pico"]  # the port's own: the bench's Pico
    for size in (heap.BOARDS["pico_w"], heap.BUDGET, 100_000):
        with Chip(tmp_path, 1, "script", pico, heap=size) as chip:
            chip.run_to(300)
            said = dict(line.split() for line in chip.serial_lines()
                        if line.startswith(("heap ", "live ")))
            stats = chip.stats()
        assert int(said["heap"]) == stats["heapBytes"] == size // 64 * 64
        # what a collection left alive, read from the allocation table as gc counts it
        assert stats["heapLive"] == int(said["live"]) > 50_000
        assert stats["heapPeak"] >= stats["heapLive"]


def test_a_heap_over_the_ports_or_without_the_elf_is_refused_in_a_line(tmp_path):
    from dataclasses import replace

    from arbiter_referee.chip.session import Chip

    pico = firmware()
    with pytest.raises(ValueError, match="give 16384 to 245888 bytes"):
        Chip(tmp_path, 1, "script", pico, heap=300_000)
    with pytest.raises(ValueError, match="needs the firmware's ELF"):
        Chip(tmp_path, 1, "script", replace(pico, elf=None), heap=heap.BUDGET)


def test_the_benchs_smallest_heap_is_searched_from_the_budget_a_step_at_a_time(
        monkeypatch, tmp_path):
    # a model of the chip: a session plays whole from ``needs`` bytes of heap up
    from types import SimpleNamespace

    from arbiter_referee.bench import chip

    def search(needs, live, port=245_888):
        tried = []

        def play(pico, game, expected, folder, heap=None, give_up=False):
            tried.append(heap // 1024)
            assert give_up  # a run that cannot fit ends at its first stray line
            return {"same_actions": heap >= needs, "same_screen": True}

        monkeypatch.setattr(chip, "_play", play)
        found = chip.smallest_heap(SimpleNamespace(heap_bytes=lambda: port), None, None,
                                   live, tmp_path)
        assert found["tried"] == {kb * 1024: kb * 1024 >= needs for kb in tried}
        return found["heap"] and found["heap"] // 1024, tried

    assert search(140_000, 120_000) == (140, [144, 140, 136])  # down while it plays
    assert search(150_000, 120_000) == (148, [144, 148])  # up until it plays
    assert search(130_000, 129_000) == (128, [144, 140, 136, 132, 128])  # not under live
    assert search(170_000, 150_000) == (168, [148, 152, 156, 160, 164, 168])
    assert search(300_000, 120_000, port=150_000) == (None, [144])  # not even the port's
