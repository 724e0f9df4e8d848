"""Where the built index lives, and keeping it fresh.

The index is built lazily into the user's cache directory, in a folder named
by a hash of the corpus content and of the index layout (``LAYOUT``), so a
changed corpus or a new ddref gets a new folder and an unchanged one reuses
it. A build writes into a private temporary folder and renames it into place
when complete, so a reader never sees half an index; a lock file makes a
second process wait for the first one's build instead of repeating it (and
without the lock the rename still lets exactly one build win). A folder that
turns out to be unreadable is removed and built again, never a crash.

The cache directory is ``$DDREF_CACHE_DIR``, else ``$XDG_CACHE_HOME/ddref``,
else ``~/.cache/ddref``; when none can be written, a folder under the
system's temporary directory.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .corpus import corpus_hash

# Bump when the database tables or the whoosh schema change shape.
LAYOUT = "10"
MANIFEST = "manifest.json"
STALE_SECONDS = 7 * 24 * 3600

Progress = Callable[[int, int, str], None]  # (done, total, stage)


@dataclass(frozen=True)
class Built:
    """A complete index on disk."""

    folder: Path
    manifest: dict[str, Any]
    built_now: bool = False

    @property
    def db_path(self) -> Path:
        from .build import DB_NAME

        return self.folder / DB_NAME

    @property
    def whoosh_path(self) -> Path:
        from .build import WHOOSH_DIR

        return self.folder / WHOOSH_DIR


class IndexUnavailable(RuntimeError):
    """The index can be neither found nor built (the message says why, for the user)."""


def cache_root() -> Path:
    """The folder that holds every built index."""
    if os.environ.get("DDREF_CACHE_DIR"):
        return Path(os.environ["DDREF_CACHE_DIR"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ddref"


def index_key() -> str:
    return hashlib.sha256(f"{corpus_hash()}:{LAYOUT}".encode()).hexdigest()[:16]


def current() -> Built | None:
    """The built index for this corpus, if a complete one is on disk (the no-op freshness check)."""
    folder = _writable_root(create=False) / f"index-{index_key()}"
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return Built(folder, manifest) if manifest.get("key") == index_key() else None


def ensure(*, force: bool = False, progress: Progress | None = None) -> Built:
    """The index for this corpus: reused when fresh, built (once, under a lock) when not.

    ``progress(done, total, stage)`` is called while building, never when the
    index is reused. Raises ``IndexUnavailable`` when it cannot be built.
    """
    found = None if force else current()
    if found is not None:
        return found
    try:
        root = _writable_root(create=True)
        with _lock(root):
            found = None if force else current()
            if found is not None:
                return found
            return _build(root, force, progress)
    except (OSError, sqlite3.Error) as exc:
        raise IndexUnavailable(f"cannot build the search index in {cache_root()}: {exc}; "
                               "set DDREF_CACHE_DIR to a writable folder") from exc


def discard(built: Built) -> None:
    """Throw away an index found unreadable, so the next ``ensure`` builds it again."""
    try:
        with _lock(built.folder.parent):
            _remove(built.folder)
    except OSError:
        _remove(built.folder)


def info() -> dict[str, Any]:
    """Where the index is, the corpus hash, whether it is fresh, when and how fast it was built, its
    size, and its document counts per kind and edition (None where it is not built yet)."""
    found = current()
    folder = found.folder if found else _writable_root(create=False) / f"index-{index_key()}"
    manifest = found.manifest if found else {}
    return {
        "location": str(folder), "corpus_hash": corpus_hash(),
        "fresh": found is not None, "built_at": manifest.get("built_at"),
        "build_seconds": manifest.get("seconds"),
        "size_bytes": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if found else None,
        "counts": manifest.get("counts"),
    }


# -- building -------------------------------------------------------------------

def _build(root: Path, force: bool, progress: Progress | None) -> Built:
    from .build import build_into

    final = root / f"index-{index_key()}"
    work = Path(tempfile.mkdtemp(prefix="tmp-", dir=root))
    try:
        manifest = build_into(work, progress)
        manifest["key"] = index_key()
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        _move_into_place(work, final, replace=force or final.exists())
    finally:
        _remove(work)
    _sweep(root, keep=final)
    built = current()
    if built is None:
        raise IndexUnavailable(f"the index built in {final} cannot be read back")
    return Built(built.folder, built.manifest, built_now=True)


def _move_into_place(work: Path, final: Path, replace: bool) -> None:
    """Rename the finished build into place; an existing folder is moved aside first when replacing."""
    if replace and final.exists():
        aside = final.with_name(f"old-{os.getpid()}-{time.time_ns()}")
        with contextlib.suppress(OSError):
            final.rename(aside)
    try:
        work.rename(final)
    except OSError:
        # another process finished the same build first: its folder is as good as ours
        if not (final / MANIFEST).exists():
            raise


def _sweep(root: Path, keep: Path) -> None:
    """Remove moved-aside folders, builds abandoned by killed processes, and old indexes."""
    now = time.time()
    for entry in root.iterdir():
        if entry == keep or not entry.name.startswith(("old-", "tmp-", "index-")):
            continue
        age = now - entry.lstat().st_mtime
        if entry.name.startswith("old-") or (entry.name.startswith("tmp-") and age > 3600) \
                or (entry.name.startswith("index-") and age > STALE_SECONDS):
            _remove(entry)


def _remove(path: Path) -> None:
    """Remove a folder, or whatever garbage stands in its place (a file, a link)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def _lock(root: Path) -> Iterator[None]:
    """An exclusive lock on ``root/build.lock`` (a no-op where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the atomic rename alone keeps builds whole
        yield
        return
    with open(root / "build.lock", "a+b") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


_fallbacks: dict[Path, Path] = {}


def _writable_root(create: bool) -> Path:
    """The cache root, or a private temporary one when the cache root cannot be written."""
    root = cache_root()
    if root in _fallbacks:
        return _fallbacks[root]
    if not create:
        return root
    try:
        root.mkdir(parents=True, exist_ok=True)
        tempfile.NamedTemporaryFile(dir=root, prefix="probe-").close()
        return root
    except OSError:
        user = os.getuid() if hasattr(os, "getuid") else "user"
        fallback = _fallbacks[root] = Path(tempfile.gettempdir()) / f"ddref-cache-{user}"
        fallback.mkdir(parents=True, exist_ok=True)
        return fallback
