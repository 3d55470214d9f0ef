"""Power cuts where a Pico runs (issue 42): the power goes in the middle of a flash
write or of a pass on MicroPython's rp2 port in an emulated RP2040."""

from __future__ import annotations

from helpers.chip import firmware


def test_the_power_goes_in_the_middle_of_a_flash_write_and_a_new_chip_mounts_the_flash(
        tmp_path):
    from arbiter_referee.chip.session import Chip

    (tmp_path / "main.py").write_text(
        "import os, time\n"
        "try:\n"
        "    n = int(open('count').read()[:4])\n"
        "except OSError:\n"
        "    n = 0\n"
        "print('boot', n)\n"
        "while True:\n"
        "    n += 1\n"
        "    with open('count.tmp', 'w') as f:\n"
        "        f.write('%04d' % n * 200)\n"  # 800 bytes: several pages programmed
        "    os.rename('count.tmp', 'count')\n"
        "    print('wrote', n)\n"
        "    time.sleep_ms(20)\n")
    with Chip(tmp_path, 1, "script", firmware()) as chip:
        chip.run(300)
        ops = chip.stats()["flashOps"]
        chip.lose_power_at_write(5, 0.5)  # half of the fifth program or erase from now
        chip.run(1000)
        assert chip.off, "the power did not go"
        assert chip.stats()["flashOps"] == ops + 5  # and the CPU stopped in it
        wrote = [int(line.split()[1]) for line in chip.serial_lines() if
                 line.startswith("wrote")]
        chip.save_flash()
        on_flash = (tmp_path / "count").read_text()
        assert on_flash in ("%04d" % wrote[-1] * 200, "%04d" % (wrote[-1] + 1) * 200)
        chip.power_cycle()
        chip.run(300)
        assert chip.serial_lines().count(f"boot {on_flash[:4].lstrip('0')}") == 1
        before = chip.cycles
        chip.lose_power_after(1000)  # a pass cut anywhere
        chip.run(1000)
        assert chip.off and 1000 <= chip.cycles - before < 1000 + 100_000
