"""Whatever a user puts in the files read at boot, the device comes up: a bad one is
reported in one line and set aside (NAME.bad), and the next boot is clean."""

import json

import pytest

HEADER = {"format": 1, "ruleset": "kaiju", "players": 2, "options": {}, "seed": 7}
BIG = b"[" + b"1," * 300000 + b"1]"  # 600 KB
DEEP = b"[" * 1000 + b"]" * 1000  # nested as deep as fits (CPython: past its limit)


def _jnl(header=HEADER, events=b""):
    head = header if isinstance(header, bytes) else json.dumps(header).encode()
    return head + b"\n" + events


# (file, its bytes, a word of the report, set aside?)
CASES = [
    ("config.json", b'{"led_count": 12\xff}', "UTF-8", True),
    ("config.json", b"\xfe\xff{}", "UTF-8", True),
    ("config.json", BIG, "over", True),
    ("config.json", DEEP, "set aside", True),
    ("config.json", b"", "JSON", True),
    ("config.json", b"{not json", "JSON", True),
    ("config.json", b"[1, 2]", "object", True),
    ("config.json", b'"led_count"', "object", True),
    ("config.json", b"null", "object", True),
    ("config.json", b'{"led_count": "12"}', "led_count", False),
    ("config.json", b'{"led_count": 1e9}', "led_count", False),
    ("config.json", b'{"buttons": [14]}', "buttons", False),
    ("config.json", b'{"buttons": {"a": "GP14"}}', "unknown pin", False),
    ("config.json", b'{"buttons": {"z": 3}}', "unknown button", False),
    ("config.json", b'{"sda": [4]}', "unknown pin", False),
    ("settings.json", b'{"sleep_s": 60\xff}', "UTF-8", True),
    ("settings.json", BIG, "over", True),
    ("settings.json", DEEP[:1000], "unreadable", True),
    ("settings.json", b"", "unreadable", True),
    ("settings.json", b"[120]", "unreadable", True),
    ("game.jnl", _jnl(b'{"format": 1, "ruleset": "kaiju\xff"}'), "unreadable", True),
    ("game.jnl", _jnl(events=b"next\nadd P1.\xff 2\n"), "resume", True),
    ("game.jnl", _jnl(b"[1, 2]"), "unreadable", True),
    ("game.jnl", _jnl(b"{broken"), "unreadable", True),
    ("game.jnl", _jnl(dict(HEADER, ruleset="nosuch")), "nosuch", False),
    ("game.jnl", _jnl(dict(HEADER, players=99)), "players", True),
    ("game.jnl", _jnl({"format": 1, "ruleset": "kaiju"}), "players", True),
    ("game.jnl", _jnl(dict(HEADER, seed="x")), "resume", True),
    ("game.jnl", _jnl(events=b"frobnicate 3\n"), "unknown action", True),
    ("game.jnl", _jnl(events=b"#ckpt {nope\n"), "resume", True),
    ("game.jnl", _jnl(events=b'#ckpt {"n": 3}\n'), "resume", True),
    ("game.jnl", _jnl(events=b"x" * 600000 + b"\n"), "resume", True),
    ("game.jnl", b"x" * 600000 + b"\n", "unreadable", True),
]


@pytest.mark.parametrize("name, data, word, aside", CASES,
                         ids=["%s-%d" % (c[0], i) for i, c in enumerate(CASES)])
def test_a_bad_boot_file_is_reported_set_aside_and_the_device_comes_up(
        make_rig, tmp_path, name, data, word, aside):
    (tmp_path / name).write_bytes(data)
    rig = make_rig()
    assert rig.device.app is not None, "crashed at boot"
    assert rig.lines[0] in ("Check setup", "Saved game")
    shown = " ".join(rig.lines)
    assert word.split()[0] in shown or any(word in line for line in rig.device.log.lines)
    assert (tmp_path / (name + ".bad")).exists() == aside
    assert (tmp_path / name).exists() != aside
    rig.keys("a")
    assert rig.lines[0] == "ARBITER"
    rig.keys("down", "a", "a")  # the dice roll: the device works
    assert any(line.startswith("roll 1d6") for line in rig.device.log.lines)
    if aside:
        again = rig.reboot()
        assert again.lines[0] == "ARBITER"  # reported once, not at every boot


def test_boot_file_cases_counted(capsys):
    with capsys.disabled():
        print("\nboot-file cases: %d" % len(CASES))


# Under real MicroPython in a Pico's heap: the cases where the runtimes differ
# (UTF-8 checks, MemoryError, recursion in the JSON parser).
MP_CASES = [0, 2, 3, 15, 16, 20, 21, 31, 32]


@pytest.mark.parametrize("case", MP_CASES)
def test_under_micropython_a_bad_boot_file_is_reported_not_fatal(tmp_path, case):
    from arbiter_referee.emulator.session import run_session
    from arbiter_referee.emulator.wasm import PICO_HEAP

    name, data, word, aside = CASES[case]
    (tmp_path / name).write_bytes(data)
    # A resume loads a ruleset and replays in one pass, which this harness cannot
    # collect inside (a Pico collects when an allocation fails): a larger heap then.
    heap = 2 * PICO_HEAP if name == "game.jnl" else PICO_HEAP
    out = run_session(1, "wait=500 a wait=500 down a a wait=800", "micropython",
                      flash_dir=tmp_path, heap=heap, preload=False)
    text = "\n".join(out.serial)
    assert "crash" not in text and "Traceback" not in text, text
    assert "set aside as %s.bad" % name in text
    assert "arbiter: roll 1d6" in text  # back at the menu, and working
    assert (tmp_path / (name + ".bad")).exists() == aside
