"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe):
no driver, no websocket, nothing but the browser.

Chromium reads commands, JSON each ending in a NUL byte, on its fd 3 and writes
replies and events on its fd 4. A page is a target; ``Page`` speaks to one.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import threading

import pytest

REQUIRE = "ARBITER_REQUIRE_BROWSER"  # set by .ci/run: no browser is a failure, not a skip
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-pipe")
TIMEOUT = 300  # s: only a hung browser takes this long


def unavailable(reason: str):
    """Skip, or fail when the environment says a browser must be there."""
    if os.environ.get(REQUIRE):
        pytest.fail(f"{reason} (and {REQUIRE} is set)")
    pytest.skip(reason)


def find() -> str:
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    unavailable("no Chromium (Debian: apt-get install chromium)")


class BrowserError(RuntimeError):
    pass


class Chromium:
    def __init__(self, executable: str):
        self.profile = tempfile.TemporaryDirectory()
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()
        # Out of the way of 3 and 4, where the child must find them.
        child_in, child_out = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
                               for fd in (to_browser, from_browser))

        def fds():
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4, child_in, child_out))
        for fd in (to_browser, from_browser, child_in, child_out):
            os.close(fd)
        self._next = 0
        self._replies: dict[int, dict] = {}
        self.events: list[dict] = []
        self._changed = threading.Condition()
        self._closed = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        while True:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._changed:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        self.events.append(message)
                self._changed.notify_all()
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def wait(self, condition, what: str, timeout: float = TIMEOUT):
        """``condition()``'s first true value, checked each time the browser says something."""
        found = []

        def done():
            value = condition()
            if value:
                found.append(value)
            return value or self._closed

        with self._changed:
            if not self._changed.wait_for(done, timeout):
                raise BrowserError(f"{what}: nothing in {timeout} s")
        if not found:
            raise BrowserError(f"{what}: the browser went away")
        return found[0]

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = TIMEOUT) -> dict:
        with self._changed:
            self._next += 1
            ident = self._next
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        reply = self.wait(lambda: self._replies.pop(ident, None), method, timeout)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error'].get('message')}")
        return reply["result"]

    def page(self) -> Page:
        """A new tab in a context of its own: its storage starts empty."""
        context = self.send("Target.createBrowserContext")["browserContextId"]
        target = self.send("Target.createTarget", {"url": "about:blank",
                                                   "browserContextId": context})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})
        return Page(self, session["sessionId"])

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=30)
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)
        os.close(self._to_browser)
        self.profile.cleanup()


class Page:
    def __init__(self, browser: Chromium, session: str):
        self.browser, self.session = browser, session
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def load(self, url: str) -> None:
        """Open ``url`` and wait for its load event."""
        seen = len(self.browser.events)
        self.send("Page.navigate", {"url": url})
        self.browser.wait(lambda: any(
            event.get("method") == "Page.loadEventFired" and event.get("sessionId") == self.session
            for event in self.browser.events[seen:]), f"loading {url}")

    def eval(self, expression: str):
        """The value of a JavaScript expression (awaited when it is a promise)."""
        reply = self.send("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                               "returnByValue": True})
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            raise BrowserError(details.get("exception", {}).get("description")
                               or details.get("text"))
        return reply["result"].get("value")

    def errors(self) -> list[str]:
        """What the page threw or logged as an error so far."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            params = event.get("params", {})
            if event.get("method") == "Runtime.exceptionThrown":
                found.append(params["exceptionDetails"].get("text", "exception"))
            elif event.get("method") == "Runtime.consoleAPICalled" and \
                    params.get("type") == "error":
                found.append(" ".join(str(arg.get("value")) for arg in params.get("args", [])))
        return found

    def key(self, key: str, code: str, keycode: int) -> None:
        """Press and release a key, as a keyboard does."""
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": code,
                                                 "windowsVirtualKeyCode": keycode})

    def click(self, selector: str) -> None:
        """Press and release the mouse's button on the middle of an element."""
        box = self.eval("(() => { const e = document.querySelector(%s); "
                        "e.scrollIntoView({block: 'center'}); "
                        "const r = e.getBoundingClientRect(); "
                        "return [r.x + r.width / 2, r.y + r.height / 2]; })()"
                        % json.dumps(selector))
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": box[0], "y": box[1],
                                                   "button": "left", "clickCount": 1})
