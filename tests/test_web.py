"""The device in a browser: ``arbiter web`` builds a static page that runs the unchanged
firmware on MicroPython's WebAssembly port. In headless Chromium it shows, frame for
frame, what the emulated device shows for the same button script and seed; its
buttons answer the keyboard and the mouse; its flash outlives a reload.

Without Chromium (or npm, for MicroPython's web port) the browser tests skip; with
ARBITER_REQUIRE_BROWSER set (CI) they fail instead.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import sys
import tarfile
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from helpers import chromium

from arbiter_referee.bench.scenarios import GAMES
from arbiter_referee.cli import main as arbiter
from arbiter_referee.commands import web
from arbiter_referee.emulator.scripts import DEMO_SCRIPT, GAME_SCRIPT
from arbiter_referee.emulator.session import SessionOutput, run_session, use_firmware_path
from arbiter_referee.paths import FIRMWARE, PACKAGE, RULESETS

use_firmware_path()
import vscript  # noqa: E402  (the virtual board's, on the path just set)

# --- the page's side of the board, in CPython: no browser needed ---


@pytest.fixture
def webdevice():
    folder = str(PACKAGE / "web")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    import webdevice

    return webdevice


@functools.cache
def bundled_compiled() -> str:
    """A folder of the bundled games as the page's build leaves them: compiled."""
    import atexit
    import shutil
    import tempfile

    from arbiter_referee.compiled import factory_flash

    folder = Path(tempfile.mkdtemp(prefix="arbiter-web-rulesets-"))
    atexit.register(shutil.rmtree, folder, True)
    factory_flash(folder)  # (the page copies only the .json files)
    return str(folder / "rulesets")


def before(end: int, frames: list[str]) -> list[str]:
    """The frames shown before ``end`` ms (the emulator also runs the pass at ``end``)."""
    return [line for line in frames if int(line.split()[1][2:]) < end]


def live_frames(webdevice, flash: Path, seed: int, script: str, presses=(), end=None):
    """A Live device with its clock stopped, as a test page drives it: ``presses`` are
    (at_ms, button) clicks of no length; it runs to ``end`` (default: the script's)."""
    webdevice.factory_flash(str(flash) + "/", bundled_compiled())
    frames: list[str] = []
    live = webdevice.Live(str(seed), script, str(flash) + "/", frames.append)
    for at, button in presses:
        live.advance(at - live.clock)
        live.press(button)
        live.release(button)
    live.advance((end or vscript.parse(script)[1]) - live.clock)
    return live, frames


def test_the_page_device_plays_a_script_as_the_emulated_device_does(webdevice, tmp_path):
    live, frames = live_frames(webdevice, tmp_path, 7, DEMO_SCRIPT)
    assert frames == before(vscript.parse(DEMO_SCRIPT)[1],
                            run_session(7, DEMO_SCRIPT, "cpython").frames)
    assert live.changes() > 0  # the game was saved: the page stores the flash after such a pass


def test_a_click_of_no_length_is_a_press_as_a_script_makes_it(webdevice, tmp_path):
    # down at 1,500 ms and a at 1,830 ms, as "down a" places them; each held 80 ms
    end = vscript.parse("down a")[1]
    _, frames = live_frames(webdevice, tmp_path, 3, "", [(1500, 1), (1830, 4)], end)
    _, scripted = live_frames(webdevice, tmp_path / "b", 3, "down a")
    assert frames == before(end, run_session(3, "down a", "cpython").frames)
    assert len(frames) > len(run_session(3, "", "cpython").frames)
    assert scripted == frames


def test_a_late_timer_still_runs_every_pass_and_sees_a_click(webdevice, tmp_path):
    webdevice.factory_flash(str(tmp_path) + "/", bundled_compiled())
    frames: list[str] = []
    live = webdevice.Live("3", "", str(tmp_path) + "/", frames.append)
    live.advance(1500)
    live.press(1)
    live.release(1)
    assert live.run(700) >= 0  # one timer, 700 ms late: 70 passes, the press among them
    assert frames == before(2200, run_session(3, "down", "cpython").frames)
    live.run(3_600_000)  # an hour in a hidden tab: one sleep, then a second pass by pass
    assert live.board.elapsed <= live.clock < live.board.elapsed + live.pause + 1
    assert frames[-1].split()[2] == "on=0"  # the display went to sleep meanwhile


def test_the_page_carries_every_firmware_module_wherever_it_lies(tmp_path):
    files = {rel for _, rel in web.device_files()}
    for path in FIRMWARE.rglob("*.py"):
        rel = path.relative_to(FIRMWARE).as_posix()
        assert (f"fw/{rel}" in files) == (rel not in ("main.py", "board.py"))
    assert {f"rulesets/{p.name}" for p in RULESETS.glob("*.json")} <= files
    assert {"board/vboard.py", "board/vsession.py", "web/webdevice.py"} <= files
    # modules moved into subpackages come along, as they are
    moved = tmp_path / "firmware"
    for rel in ("main.py", "board.py", "arbiter/__init__.py", "arbiter/hw/ssd1306.py",
                "arbiter/screens/menu.py", "arbiter/store/journal.py"):
        (moved / rel).parent.mkdir(parents=True, exist_ok=True)
        (moved / rel).write_text("")
    fw = {rel for _, rel in web.device_files(moved) if rel.startswith("fw/")}
    assert fw == {"fw/arbiter/__init__.py", "fw/arbiter/hw/ssd1306.py",
                  "fw/arbiter/screens/menu.py", "fw/arbiter/store/journal.py"}


def test_a_tarball_other_than_the_pinned_one_is_refused_in_one_line(tmp_path, capsys):
    fake = tmp_path / "fake.tgz"
    with tarfile.open(fake, "w:gz") as tar:
        tar.add(__file__, "package/micropython.mjs")
    assert arbiter(["web", "--out", str(tmp_path / "site"), "--micropython", str(fake)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("arbiter web: ") and err.count("\n") == 1 and "sha512" in err
    assert arbiter(["web", "--out", str(tmp_path / "site"), "--micropython",
                    str(tmp_path / "none.tgz")]) == 1
    assert capsys.readouterr().err.count("\n") == 1


def test_a_bad_own_ruleset_is_refused_in_one_line_before_the_page_is_built(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "name": "bad", "counters": {"x": {"start": 0, "min": 5}}}')
    assert arbiter(["web", "--out", str(tmp_path / "site"), "--ruleset", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"arbiter web: {bad}: ") and err.count("\n") == 1
    assert not (tmp_path / "site").exists()


def test_no_browser_is_a_skip_but_a_failure_when_ci_requires_one(monkeypatch):
    monkeypatch.setenv("PATH", "")
    monkeypatch.delenv(chromium.REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        chromium.find()
    monkeypatch.setenv(chromium.REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match=chromium.REQUIRE):
        chromium.find()


# --- the page in headless Chromium ---


@contextlib.contextmanager
def served(folder: Path):
    """The page in ``folder``, served on localhost: its address."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {".js": "text/javascript", ".wasm": "application/wasm",
                          ".json": "application/json", ".py": "text/plain"}

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


def built(tmp_path_factory, *options) -> Path:
    try:
        web.fetch_micropython()
    except (OSError, ValueError) as exc:
        chromium.unavailable(f"MicroPython's web port: {exc}")
    out = tmp_path_factory.mktemp("site")
    assert arbiter(["web", "--out", str(out), *options]) == 0
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built page, served on localhost."""
    with served(built(tmp_path_factory)) as url:
        yield url


@pytest.fixture(scope="module")
def browser(site):
    browser = chromium.Chromium(chromium.find())
    yield browser
    browser.close()


@pytest.fixture
def page(browser):
    page = browser.page()
    yield page
    assert page.errors() == []


def open_device(page, site, **query) -> dict:
    url = site + "index.html?" + "&".join(f"{k}={quote(str(v))}" for k, v in query.items())
    page.load(url)
    return page.eval("arbiter.ready")


def same_frames(got: list[str], want: list[str]) -> None:
    """Equal, or a short message saying where they part."""
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        assert a == b, f"frame {i} of {len(want)} differs: {a[:60]}... != {b[:60]}..."
    assert len(got) == len(want)


def played(page, seed: int, script: str) -> SessionOutput:
    return SessionOutput.parse("\n".join(page.eval(f"arbiter.play({seed}, {json.dumps(script)})")))


@pytest.mark.parametrize("seed", [7, 3])
def test_the_browser_plays_the_demo_frame_for_frame(page, site, seed):
    open_device(page, site)
    browser = played(page, seed, DEMO_SCRIPT)
    emulated = run_session(seed, DEMO_SCRIPT, "cpython")
    assert len(emulated.frames) > 50
    same_frames(browser.frames, emulated.frames)
    assert browser.serial == emulated.serial
    assert browser.counters == emulated.counters


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.name)
def test_every_bundled_game_plays_whole_in_the_browser(page, site, game):
    open_device(page, site)
    browser = played(page, game.device_seed, game.keys)
    emulated = run_session(game.device_seed, game.keys, "cpython")
    same_frames(browser.frames, emulated.frames)
    assert browser.serial == emulated.serial
    assert f"arbiter: game {game.name}:" in " ".join(browser.serial)


ALL_SIX = "down a right up left b"  # to the dice, change them, back: every button
KEYBOARD = {"up": ("ArrowUp", 38), "down": ("ArrowDown", 40), "left": ("ArrowLeft", 37),
            "right": ("ArrowRight", 39), "a": ("Enter", 13), "b": ("x", 88)}
MOUSE = {name: f'[data-button="{i}"]'
         for i, name in enumerate(("up", "down", "left", "right", "a", "b"))}


@pytest.mark.parametrize("device", ["keyboard", "mouse"])
def test_the_keyboard_and_the_mouse_press_the_six_buttons(page, site, device):
    assert open_device(page, site, seed=3, clock="manual")["restored"] is False
    timeline, end = vscript.parse(ALL_SIX)
    presses = [(at, vscript.NAMES[button]) for at, button, level in timeline if level == 0]
    for at, name in presses:
        page.eval(f"arbiter.advance({at} - arbiter.advance(0))")
        if device == "keyboard":
            key, code = KEYBOARD[name]
            page.key(key, key if len(key) > 1 else "Key" + key.upper(), code)
        else:
            page.click(MOUSE[name])
    page.eval(f"arbiter.advance({end} - arbiter.advance(0))")
    same_frames(page.eval("arbiter.frames"), before(end, run_session(3, ALL_SIX).frames))


def test_on_a_390_px_phone_the_oled_is_legible_and_every_button_on_screen(page, site):
    """"the browser page's text is small on a phone-sized (390 px) screen" (issue 48):
    there the OLED takes the page's width, each of its pixels at least 2.5 of the
    phone's (a line of text 20 px high), and nothing lies beyond the screen's edge."""
    page.send("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    open_device(page, site, seed=3, clock="manual")
    oled = page.eval("(() => { const r = document.getElementById('oled')"
                     ".getBoundingClientRect(); return [r.left, r.right]; })()")
    assert oled[1] - oled[0] - 12 >= 2.5 * 128  # (its 6 px border each side)
    assert 0 <= oled[0] and oled[1] <= 390
    assert page.eval("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    edges = page.eval("[...document.querySelectorAll('.pad button, #ring')].map(b => {"
                      " const r = b.getBoundingClientRect(); return [r.left, r.right]; })")
    assert len(edges) == 7 and all(0 <= left and right <= 390 for left, right in edges)
    page.send("Emulation.clearDeviceMetricsOverride")


def test_the_flash_outlives_a_reload(page, site, tmp_path):
    end = vscript.parse(GAME_SCRIPT)[1]
    open_device(page, site, seed=5, clock="manual", keys=GAME_SCRIPT)
    page.eval(f"arbiter.advance({end})")
    played_game = run_session(5, GAME_SCRIPT, "cpython", flash_dir=tmp_path)
    same_frames(page.eval("arbiter.frames"), before(end, played_game.frames))
    assert page.eval("localStorage.getItem('arbiter.flash').length") > 0

    # Reloaded, the device finds its game on the flash and comes back to it, as the
    # emulated device does on the flash the same game left.
    assert open_device(page, site, seed=5, clock="manual")["restored"] is True
    end = vscript.parse("")[1]
    page.eval(f"arbiter.advance({end})")
    resumed = run_session(5, "", "cpython", flash_dir=tmp_path)
    assert resumed.frames != run_session(5, "", "cpython").frames  # not a new device's
    same_frames(page.eval("arbiter.frames"), before(end, resumed.frames))


def test_the_page_runs_on_its_own_clock(page, site):
    """Unstopped, the page's timers move the device: it boots to the menu, and Enter
    opens the game list (waited for, however long the machine takes)."""
    open_device(page, site, seed=3)
    for script in ("", "a"):
        if script:  # down and up at once: held 80 ms on the device, however busy the page
            page.eval("for (const type of ['keydown', 'keyup']) "
                      "window.dispatchEvent(new KeyboardEvent(type, {key: 'Enter'}))")
        ram = run_session(3, script, "cpython").frames[-1].split(" ram=")[1]
        assert page.eval("new Promise(resolve => { const look = () => (arbiter.frame || '')"
                         f".endsWith({json.dumps(ram)}) ? resolve(true) : setTimeout(look, 20);"
                         " look(); })")


# Issue 47: "`arbiter web --ruleset FILE` (headless Chromium) play[s] a ruleset that is
# not bundled."
def test_the_page_plays_a_designers_own_ruleset_as_the_emulated_device_does(
        browser, tmp_path_factory, tmp_path):
    from helpers.examples import PIG, PIG_KEYS

    from arbiter_referee.compiled import factory_flash

    with served(built(tmp_path_factory, "--ruleset", str(PIG))) as url:
        page = browser.page()
        open_device(page, url)
        in_browser = played(page, 4, PIG_KEYS)
        assert page.errors() == []
    factory_flash(tmp_path, [("pig", PIG)])
    emulated = run_session(4, PIG_KEYS, "cpython", flash_dir=tmp_path)
    same_frames(in_browser.frames, emulated.frames)
    assert in_browser.serial == emulated.serial
    assert "arbiter: game pig: 2 players" in in_browser.serial[1]
