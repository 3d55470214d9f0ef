"""Draw docs/web.png: the page ``arbiter web`` builds, refereeing Juggernauts (the
Command roll), as headless Chromium shows it. A maintainer's tool, run from a
checkout when the device's look changes: ``python tests/web_picture.py``.

The page plays the button script of README's sim-game.png, one A more (``?seed=7&keys=``);
the picture is the device's element once the script has run."""

from __future__ import annotations

import base64
import functools
import http.server
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

from helpers import REPO, chromium

from arbiter_referee.cli import main as arbiter

SEED = 7
KEYS = "a down down a a a a a a down a a a a wait=1500"
SETTLE_S = 30  # the script's presses, in real time, and the page's start


def shoot(out: Path) -> None:
    with tempfile.TemporaryDirectory() as site:
        assert arbiter(["web", "--out", site]) == 0
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=site)
        handler.func.extensions_map = {".js": "text/javascript", ".wasm": "application/wasm",
                                       ".json": "application/json", ".py": "text/plain"}
        handler.func.log_message = lambda *args: None
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        browser = chromium.Chromium(chromium.find())
        try:
            page = browser.page()
            page.send("Emulation.setDeviceMetricsOverride", {
                "width": 800, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
            page.load(f"http://127.0.0.1:{server.server_port}/index.html?seed={SEED}"
                      f"&keys={quote(KEYS)}")
            page.eval("arbiter.ready")
            time.sleep(SETTLE_S)
            box = page.eval("(() => { const r = document.getElementById('device')"
                            ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
            shot = page.send("Page.captureScreenshot", {"format": "png", "clip": {
                "x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}})
            out.write_bytes(base64.b64decode(shot["data"]))
        finally:
            browser.close()
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "web.png"
    shoot(target)
    print(f"wrote {target}")
