"""Where the built index lives, and keeping it fresh.

The index is built lazily into the user's cache directory, in a folder named
by a hash of the corpus content, of the index layout (``LAYOUT``) and of the
code that builds it (``BUILDERS``), so a changed corpus or a new ddref gets a
new folder and an unchanged one reuses it. A build writes into a private temporary folder and renames it into place
when complete, so a reader never sees half an index; a lock file makes a
second process wait for the first one's build instead of repeating it (and
without the lock the rename still lets exactly one build win). A folder that
turns out to be unreadable is removed and built again, never a crash.

The cache directory is ``$DDREF_CACHE_DIR``, else ``$XDG_CACHE_HOME/ddref``,
else ``~/.cache/ddref``; when none can be written, a private folder under the
system's temporary directory (``_private_fallback``).

The cache directory may be a folder the user keeps other things in (a user
sets ``DDREF_CACHE_DIR=~/.cache``), so ddref deletes only what it can prove it
made: a real folder (never a symbolic link, never followed) whose name is
exactly one of ddref's (``index-<16 hex>``, ``tmp-ddref-*``, ``old-ddref-*``)
and that holds ddref's marker file, or, for an index folder, a manifest naming
that same folder's key. The one exception is the exact name of the index this
ddref needs: whatever stands there (a link, a file, a damaged folder) is
replaced, a link being unlinked, never followed.

The manifest records the SHA-256 of the database; ``verified`` checks it when
the index is opened (about 6 ms for the 11 MB database), so an index edited
in place is rebuilt instead of answering wrongly.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import shutil
import sqlite3
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .corpus import corpus_hash

# Bump when the database tables or the whoosh schema change shape.
LAYOUT = "11"
# The modules whose code decides what the index holds (its documents, terms and scores): the index key
# includes a digest of their source, so a ddref whose build differs never reuses an index built by another
# (a ranking change reaches every user at once, without anyone remembering to bump LAYOUT).
BUILDERS = ("build.py", "documents.py", "analysis.py", "story.py", "spelling.py", "corpus.py", "lookup.py",
            "synonyms.py")
MANIFEST = "manifest.json"
STALE_SECONDS = 7 * 24 * 3600
# written into every folder ddref makes in the cache root, before anything else: what proves it is ddref's
MARKER = ".ddref-cache-folder"
MARKER_TEXT = "made by ddref's search index cache (index/cache.py); ddref may delete this folder\n"
TMP_PREFIX, OLD_PREFIX = "tmp-ddref-", "old-ddref-"
_INDEX_NAME = re.compile(r"index-[0-9a-f]{16}\Z")
_TMP_NAME = re.compile(re.escape(TMP_PREFIX) + r"[A-Za-z0-9_]+\Z")
_OLD_NAME = re.compile(re.escape(OLD_PREFIX) + r"[0-9]+-[0-9]+\Z")

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
    return hashlib.sha256(f"{corpus_hash()}:{LAYOUT}:{builder_digest()}".encode()).hexdigest()[:16]


def builder_digest() -> str:
    """A digest of the source of the modules that build the index (``BUILDERS``)."""
    digest = hashlib.sha256()
    here = Path(__file__).parent
    for name in BUILDERS:
        digest.update(name.encode())
        digest.update(here.joinpath(name).read_bytes())
    return digest.hexdigest()[:16]


def current() -> Built | None:
    """The built index for this corpus, if a complete one is on disk (the no-op freshness check).

    The folder must be a real folder (a link, even one looping on itself, is not an index) with a manifest
    that is a JSON object naming this key; anything else is rebuilt."""
    key = index_key()      # reads the build modules' source: once
    folder = _writable_root(create=False) / f"index-{key}"
    manifest = _manifest(folder)
    return Built(folder, manifest) if manifest is not None and manifest.get("key") == key else None


def _manifest(folder: Path) -> dict[str, Any] | None:
    """The manifest of a real folder (not a link), when it is a JSON object; else None."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return None
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def verified(built: Built) -> bool:
    """Whether the database is the one the manifest's checksum was taken of (an in-place edit is not)."""
    expected = built.manifest.get("db_sha256")
    if not isinstance(expected, str):
        return False
    try:
        return _sha256(built.db_path) == expected
    except OSError:
        return False


def _sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def ensure(*, force: bool = False, progress: Progress | None = None) -> Built:
    """The index for this corpus: reused when fresh and its database matches the manifest's checksum, built
    (once, under a lock) when not.

    ``progress(done, total, stage)`` is called while building, never when the
    index is reused. Raises ``IndexUnavailable`` when it cannot be built.
    """
    found = None if force else current()
    if found is not None and verified(found):   # an index edited in place (or planted) is not trusted: rebuilt
        return found
    try:
        root = _writable_root(create=True)
        with _lock(root):
            found = None if force else current()
            if found is not None and verified(found):
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
    root = _writable_root(create=False)
    folder = found.folder if found else root / f"index-{index_key()}"
    manifest = found.manifest if found else {}
    return {
        "location": str(folder), "cache_dir": str(root), "corpus_hash": corpus_hash(),
        "fresh": found is not None, "built_at": manifest.get("built_at"),
        "build_seconds": manifest.get("seconds"),
        "size_bytes": sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if found else None,
        "counts": manifest.get("counts"),
    }


# -- building -------------------------------------------------------------------

def _build(root: Path, force: bool, progress: Progress | None) -> Built:
    from .build import DB_NAME, build_into

    key = index_key()
    final = root / f"index-{key}"
    work = Path(tempfile.mkdtemp(prefix=TMP_PREFIX, dir=root))
    try:
        (work / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        manifest = build_into(work, progress)
        manifest["key"] = key
        manifest["db_sha256"] = _sha256(work / DB_NAME)
        (work / MANIFEST).write_text(json.dumps(manifest, indent=1), encoding="utf-8")
        _move_into_place(work, final)
    finally:
        _remove(work)
    _sweep(root, keep=final)
    built = current()
    if built is None:
        raise IndexUnavailable(f"the index built in {final} cannot be read back")
    return Built(built.folder, built.manifest, built_now=True)


def _move_into_place(work: Path, final: Path) -> None:
    """Rename the finished build into place (the lock is held). What stands at the index's own name is
    replaced: a folder is moved aside and removed, a link or file unlinked (never followed)."""
    try:
        mode = os.lstat(final).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        aside = final.with_name(f"{OLD_PREFIX}{os.getpid()}-{time.time_ns()}")
        with contextlib.suppress(OSError):
            final.rename(aside)
            _remove(aside)
    elif mode is not None:
        with contextlib.suppress(OSError):
            final.unlink()
    try:
        work.rename(final)
    except OSError:
        # another process (without the lock) finished the same build first: its folder is as good as ours
        if _manifest(final) is None:
            raise


def _sweep(root: Path, keep: Path) -> None:
    """Remove what ddref left behind: moved-aside folders, builds abandoned by killed processes (after an
    hour), indexes of other corpora (after a week) -- and only those whose being ddref's is proven
    (``_ours``); links are never followed, and nothing else in the folder is touched."""
    now = time.time()
    with os.scandir(root) as entries:
        found = list(entries)
    for entry in found:
        name = entry.name
        if name == keep.name or not entry.is_dir(follow_symlinks=False):
            continue
        try:
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        if _OLD_NAME.match(name) or (_TMP_NAME.match(name) and age > 3600) \
                or (_INDEX_NAME.match(name) and age > STALE_SECONDS):
            if _ours(Path(entry.path)):
                _remove(Path(entry.path))


def _ours(folder: Path) -> bool:
    """Whether a folder of the cache root provably is ddref's: a real folder with ddref's marker in it, or
    an index folder whose manifest names the key its name carries (indexes built before the marker)."""
    try:
        if not stat.S_ISDIR(os.lstat(folder).st_mode):
            return False
        marker = folder / MARKER
        if stat.S_ISREG(os.lstat(marker).st_mode) and marker.read_text(encoding="utf-8") == MARKER_TEXT:
            return True
    except (OSError, ValueError):
        pass
    manifest = _manifest(folder)
    return bool(manifest and _INDEX_NAME.match(folder.name) and manifest.get("key") == folder.name[6:])


def _remove(path: Path) -> None:
    """Remove a folder, or whatever garbage stands in its place (a file, a link: unlinked, not followed).
    ``shutil.rmtree`` works through file descriptors and never follows a link inside the folder."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def _lock(root: Path) -> Iterator[None]:
    """An exclusive lock on ``root/build.lock`` (a no-op where fcntl is missing).

    The lock file is opened without following a link. Should ``build.lock`` be something else (a folder,
    a link), the lock is taken on the cache folder itself: every ddref then still waits for the others,
    and nothing of the user's is touched or removed."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: the atomic rename alone keeps builds whole
        yield
        return
    try:
        fd = os.open(root / "build.lock", os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        if exc.errno not in (errno.EISDIR, errno.ELOOP, errno.ENXIO, errno.EACCES, errno.EPERM):
            raise
        fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


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
        fallback = _fallbacks[root] = _private_fallback()
        return fallback


def _private_fallback() -> Path:
    """``$TMPDIR/ddref-cache-<uid>``, made private (mode 0700) or found so: a real folder (not a link), owned
    by this user, that no one else can write or read. Anyone could have made that name first in a shared
    temporary folder (a link to the user's files, a doctored index): when it is not so, a fresh private
    folder of this process's own (``tempfile.mkdtemp``, mode 0700) is used instead."""
    tmp = Path(tempfile.gettempdir())
    uid = os.getuid() if hasattr(os, "getuid") else None
    shared = tmp / f"ddref-cache-{uid if uid is not None else 'user'}"
    with contextlib.suppress(FileExistsError):
        shared.mkdir(mode=0o700)
    try:
        info = os.lstat(shared)
        if stat.S_ISDIR(info.st_mode) and (uid is None or info.st_uid == uid) and not info.st_mode & 0o077:
            return shared
    except OSError:
        pass
    return Path(tempfile.mkdtemp(prefix=f"{shared.name}-", dir=tmp))
