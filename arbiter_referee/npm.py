"""Pinned npm packages, fetched once with ``npm pack`` into Arbiter's cache and
checked against npm's integrity hash: any other bytes are refused."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "arbiter"


@dataclass(frozen=True)
class Package:
    name: str
    version: str
    sha512: str  # npm's integrity of the version's tarball, base64

    @property
    def tarball(self) -> str:
        """The file name ``npm pack`` gives it."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"

    def check(self, path: Path) -> None:
        digest = base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()
        if digest != self.sha512:
            raise ValueError(f"{path} is not {self.name}@{self.version} (its sha512 differs)")

    def fetch(self, hint: str = "") -> Path:
        """The pinned tarball: from the cache, or fetched there with ``npm pack``.
        ``hint``: what to do instead, said when npm is missing."""
        target = cache_dir() / self.tarball
        if target.is_file():
            return target
        npm = shutil.which("npm")
        if npm is None:
            raise ValueError(f"npm not found: install Node.js{hint}")
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
            done = subprocess.run([npm, "pack", f"{self.name}@{self.version}",
                                   "--pack-destination", scratch], cwd=scratch,
                                  capture_output=True, text=True, timeout=600)
            fetched = Path(scratch) / self.tarball
            if done.returncode != 0 or not fetched.is_file():
                said = [line for line in done.stderr.splitlines() if " error " in line]
                reason = said[0] if said else f"exit status {done.returncode}"
                raise ValueError(f"npm could not fetch {self.name}@{self.version}: {reason}")
            self.check(fetched)
            fetched.replace(target)  # whole or not at all: the cache never holds a partial one
        return target
