"""``arbiter web``: build the static page that runs the device in a browser.

The page runs the unchanged firmware on MicroPython's WebAssembly port (the npm
package below, fetched once with npm into a cache and checked against its pinned
hash), with the virtual board and the bundled rulesets. Everything is copied
from where it lies, so firmware modules may move into any subfolder.
"""

from __future__ import annotations

import json
import shutil
import sys
import tarfile
from pathlib import Path

from arbiter_referee.npm import Package

HELP = "build the web page that runs the device in a browser"

MICROPYTHON = Package("@micropython/micropython-webassembly-pyscript", "1.27.0",
                      "DnXx4EqxgkeaFESrS3uKrL7mLMk4mRTd0mMzaOd3HUSiZUOAE7t11uLnjf3ftF87N2xm4knHnWEKc"
                      "VK4IYIUDA==")
NPM_PACKAGE, NPM_VERSION = MICROPYTHON.name, MICROPYTHON.version
# The port's module is saved as .js: every web server serves that as JavaScript.
PORT_FILES = {"package/micropython.mjs": "micropython.js",
              "package/micropython.wasm": "micropython.wasm"}
PAGE_FILES = ("index.html", "arbiter.js", "style.css")


def arguments(parser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write the page to")
    parser.add_argument("--micropython", metavar="FILE.tgz",
                        help=f"the npm tarball of {NPM_PACKAGE} {NPM_VERSION} (default: "
                        "fetched with npm into the cache)")
    parser.add_argument("--ruleset", action="append", default=[], metavar="FILE",
                        help="your own ruleset (repeatable): checked as arbiter validate "
                             "checks it, then on the page's device beside the bundled "
                             "games (in place of one of the same name)")


def run(args) -> int:
    from arbiter_referee.rulesets import own_rulesets

    try:
        rulesets = own_rulesets(args.ruleset)
    except ValueError as exc:
        print(f"arbiter web: {exc}", file=sys.stderr)
        return 1
    try:
        tarball = Path(args.micropython) if args.micropython else fetch_micropython()
        summary = build(Path(args.out), tarball, rulesets=rulesets)
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"arbiter web: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except ValueError as exc:
        print(f"arbiter web: {exc}", file=sys.stderr)
        return 1
    print(summary)
    print(f"serve it: python3 -m http.server -d {args.out} 8000, "
          "then open http://localhost:8000/")
    return 0


def fetch_micropython() -> Path:
    """The pinned tarball: from the cache, or fetched there with ``npm pack``."""
    return MICROPYTHON.fetch(f", or pass --micropython with the tarball of "
                             f"{NPM_PACKAGE}@{NPM_VERSION}")


def check_tarball(path: Path) -> None:
    MICROPYTHON.check(path)


def device_files(firmware: Path | None = None,
                 rulesets: list[tuple[str, Path]] = ()) -> list[tuple[Path, str]]:
    """(file, its path in the page's device/ folder) for all the page's MicroPython
    loads: every firmware module but the Pico's own entry point and hardware, the
    virtual board, the page's side of it, the bundled rulesets with ``rulesets``
    ((name, file) each, in place of a bundled one of that name) and the firmware's
    list of files."""
    from arbiter_referee.paths import FIRMWARE, GUEST_BOARD, PACKAGE, RULESETS

    firmware = firmware or FIRMWARE
    files = []
    for folder, name in ((firmware, "fw"), (GUEST_BOARD, "board"), (PACKAGE / "web", "web")):
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(folder).as_posix()
            if name == "fw" and rel in ("main.py", "board.py"):
                continue
            files.append((path, f"{name}/{rel}"))
    games = {path.stem: path for path in sorted(RULESETS.glob("*.json"))}
    games.update(rulesets)
    files += [(games[name], f"rulesets/{name}.json") for name in sorted(games)]
    from arbiter_referee.build import MANIFEST, device_firmware

    files.append((device_firmware() / MANIFEST, MANIFEST))  # (webdevice.factory_flash)
    return files


def build(out: Path, tarball: Path, firmware: Path | None = None,
          rulesets: list[tuple[str, Path]] = ()) -> str:
    """Write the page to ``out``; returns a line saying what it holds."""
    from arbiter_referee import __version__
    from arbiter_referee.compiled import compiled_copy
    from arbiter_referee.paths import PACKAGE

    check_tarball(tarball)
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        for member, name in PORT_FILES.items():
            source = tar.extractfile(member)
            if source is None:
                raise ValueError(f"{tarball} has no {member}")
            (out / name).write_bytes(source.read())
    for name in PAGE_FILES:
        shutil.copyfile(PACKAGE / "web" / name, out / name)
    device = out / "device"
    shutil.rmtree(device, ignore_errors=True)  # no module left behind from an older build
    files = device_files(firmware, rulesets)
    for source, rel in files:
        target = device / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.startswith("rulesets/"):  # as a device keeps them
            compiled_copy(source, target.parent, target.stem)
        else:
            shutil.copyfile(source, target)
    games = [Path(rel).stem for _, rel in files if rel.startswith("rulesets/")]
    manifest = {"arbiter": __version__, "micropython": NPM_VERSION,
                "files": [rel for _, rel in files], "games": games}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    firmware_count = sum(rel.startswith("fw/") for _, rel in files)
    return (f"wrote {out}: {firmware_count} firmware modules, {len(games)} games, "
            f"MicroPython {NPM_VERSION} (WebAssembly)")
