"""The ``arbiter`` command itself: its version, its help, and bad input answered in one
line, never a traceback."""

import os
import signal
import subprocess
import sys

import pytest
from helpers import REPO
from helpers.terminal import drain, start_sim

import arbiter_referee
from arbiter_referee import commands
from arbiter_referee.cli import main as arbiter


def run(*args, **kwargs):
    return subprocess.run([sys.executable, "-m", "arbiter_referee", *args], capture_output=True,
                          text=True, timeout=300, **kwargs)


def one_line_error(done, status=None):
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    assert done.returncode == (status if status is not None else done.returncode) != 0
    return lines[0]


def test_version_is_the_packages_and_the_firmwares():
    done = run("--version")
    assert done.returncode == 0 and done.stdout == f"arbiter {arbiter_referee.__version__}\n"
    firmware = (REPO / "firmware" / "arbiter" / "__init__.py").read_text()
    assert f'VERSION = "{arbiter_referee.__version__}"' in firmware


@pytest.mark.parametrize("name", commands.NAMES)
def test_every_command_has_help(name, capsys):
    with pytest.raises(SystemExit) as exit_:
        arbiter([name, "--help"])
    assert exit_.value.code == 0
    assert commands.module(name).HELP in capsys.readouterr().out.replace("\n", " ")


def test_audit_of_a_missing_log_says_so(tmp_path):
    line = one_line_error(run("audit", str(tmp_path / "nowhere.jnl")), 1)
    assert line == f"arbiter audit: cannot read {tmp_path / 'nowhere.jnl'}: No such file or " \
                   "directory"


@pytest.mark.parametrize("content", [b"", b"not a journal\n", b"\xff\xfe\x00\x01",
                                     b'{"ruleset": "kaiju"}\n', b"[1, 2]\nroll d6\n",
                                     b'{"ruleset": "nope", "seed": 3}\nnext\n'])
def test_audit_of_a_malformed_log_says_what_is_wrong(tmp_path, content):
    log = tmp_path / "bad.jnl"
    log.write_bytes(content)
    assert one_line_error(run("audit", str(log)), 1).startswith("arbiter audit: ")


def test_layout_to_a_path_it_cannot_write_says_so(tmp_path):
    line = one_line_error(run("layout", "--png", str(tmp_path / "no" / "such" / "b.png")), 1)
    assert line.startswith(f"arbiter layout: cannot write {tmp_path}/no/such/b.png: ")


def test_sim_with_an_unknown_key_names_it(tmp_path):
    line = one_line_error(run("sim", "--keys", "down jump a", "--screenshot",
                              str(tmp_path / "x.png")), 2)
    assert line.startswith("arbiter sim: --keys: Invalid script word jump; the words are up ")


def test_ctrl_c_in_sim_quits_cleanly(tmp_path):
    proc, main = start_sim(tmp_path)
    try:
        seen = drain(main, lambda out: b"Enter/z: A" in out)  # the device is on screen
        proc.send_signal(signal.SIGINT)
        seen += drain(main, lambda out: proc.poll() is not None)
        assert proc.wait(timeout=300) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)
    tail = seen.split(b"Enter/z: A")[-1]
    assert b"Traceback" not in tail and b"\x1b[?25h" in tail  # the cursor is back


def test_an_unknown_ruleset_is_one_line_everywhere():
    for args in (["validate", "nope"], ["run", "nope"]):
        assert "no ruleset 'nope'" in one_line_error(run(*args))


def last_roll(capsys, *actions):
    assert arbiter(["run", "tactics", "--seed", "3", "--json",
                    *[w for a in actions for w in ("--do", a)]]) == 0
    import json

    log = json.loads(capsys.readouterr().out)["log"]
    return [e["rolls"] for e in log if e["event"] == "roll"][-1]


def test_run_dice_never_rewind_and_undo_of_a_roll_needs_agreement(capsys):
    # rule: "`undo` of such an action is refused (exit 2, with the reason) and `undo
    # agreed` does it"; "Every roll takes the next numbers of the game's generator".
    second = last_roll(capsys, "roll d20", "roll d20")
    assert last_roll(capsys, "roll d20", "undo agreed", "roll d20") == second
    assert arbiter(["run", "tactics", "--seed", "3", "--do", "roll d20", "--do", "undo"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("arbiter run: action 2 ('undo') refused: undo needs everyone's "
                          "agreement (undo agreed): its rolls ") and len(err.splitlines()) == 1


def test_a_command_whose_reset_drops_the_port_under_mpremote_still_succeeds(monkeypatch):
    """On a loaded PC the device may reset and drop its port while mpremote is still
    closing it: the steps were all done, so the command succeeded (and a failure
    before they were done is still reported)."""
    from arbiter_referee import transfer

    real = subprocess.Popen

    def fake_mpremote(output, returncode):
        script = f"import sys\nsys.stdout.write({output!r})\n" \
                 f"sys.stderr.write('OSError: [Errno 5] Input/output error\\n')\n" \
                 f"sys.exit({returncode})\n"

        def popen(args, **kwargs):
            return real([sys.executable, "-c", script], **kwargs)

        monkeypatch.setattr(transfer.subprocess, "Popen", popen)

    restarts = []
    monkeypatch.setattr(transfer, "wait_for_restart", lambda port, before: restarts.append(port))
    fake_mpremote(f"juggernauts\t16751\nOK\r\n{transfer.STEPS_DONE}\r\n", 1)
    assert transfer.mpremote("/dev/null", ["exec", "listing()"]) == "juggernauts\t16751\nOK\n"
    assert restarts == ["/dev/null"]
    fake_mpremote("juggernauts\t167", 1)
    with pytest.raises(transfer.DeviceError, match="Input/output error"):
        transfer.mpremote("/dev/null", ["exec", "listing()"])


def test_the_demo_reads_in_an_80_column_terminal(capsys):
    """The Quick start's demo: each new screen's words, 80 columns at most, the
    referee's moments in order: the secret picks revealed, the Command roll, a card
    undone, dice rolled from the main menu."""
    assert arbiter(["demo", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    screens = [line for line in out.splitlines() if not line.startswith("serial:")]
    assert max(len(line) for line in screens) <= 80
    text = "\n".join(screens)
    moments = ["Pass to P1", "Revealed", "P1 rolled 8", "Undone:", "3 x d10", "4  9  4"]
    at = [text.find(moment) for moment in moments]
    assert -1 not in at and at == sorted(at), dict(zip(moments, at, strict=True))
