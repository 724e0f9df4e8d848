"""index/cache.py and index/store.py: the index is built lazily, reused, rebuilt when the corpus changes
or the cache is damaged, and two processes starting on an empty cache both succeed (issue 4)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import index.build
from index import cache
from index.store import TABLES, IndexUnavailable, Store, ensure, info, store

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def empty_cache(tmp_path, monkeypatch):
    """A cache directory of the test's own, empty."""
    monkeypatch.setenv("DDREF_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def builds(monkeypatch):
    """A stand-in for the real build (seconds) that writes an empty database of the right shape
    and counts its calls: the cache's own behaviour is what these tests look at."""
    calls: list[Path] = []

    def build_into(folder: Path, progress=None):
        calls.append(folder)
        conn = sqlite3.connect(folder / index.build.DB_NAME)
        for table in TABLES:
            conn.execute(f"CREATE TABLE {table} (x)")
        conn.commit()
        conn.close()
        for done in range(3):
            if progress:
                progress(done + 1, 3, "stand-in")
        return {"hash": "test", "built_at": "now", "seconds": 0.0, "counts": {"spell": {"sfr-2012": 1}}}

    monkeypatch.setattr(index.build, "build_into", build_into)
    return calls


def test_first_use_builds_with_progress_then_reuses(empty_cache, builds):
    seen = []
    first = ensure(progress=lambda done, total, stage: seen.append((done, total, stage)))
    assert first.built_now and first.folder.parent == empty_cache
    assert seen == [(1, 3, "stand-in"), (2, 3, "stand-in"), (3, 3, "stand-in")]
    again = ensure(progress=lambda *a: seen.append(a))
    assert not again.built_now and again.folder == first.folder and len(builds) == 1 and len(seen) == 3


def test_force_rebuilds_in_place(empty_cache, builds):
    first = ensure()
    forced = ensure(force=True)
    assert forced.built_now and forced.folder == first.folder and len(builds) == 2
    assert sorted(p.name for p in empty_cache.iterdir() if p.is_dir()) == [first.folder.name]


def test_a_changed_corpus_gets_a_new_index(empty_cache, builds, monkeypatch):
    old = ensure()
    monkeypatch.setattr(cache, "corpus_hash", lambda: "another-corpus")
    new = ensure()
    assert new.built_now and new.folder != old.folder and len(builds) == 2


@pytest.mark.parametrize("damage", ["manifest-garbage", "manifest-other-key", "no-manifest"])
def test_a_partial_or_corrupt_index_is_rebuilt(empty_cache, builds, damage):
    folder = ensure().folder
    manifest = folder / cache.MANIFEST
    if damage == "manifest-garbage":
        manifest.write_text("{not json", encoding="utf-8")
    elif damage == "manifest-other-key":
        manifest.write_text(json.dumps({"key": "0" * 16}), encoding="utf-8")
    else:
        manifest.unlink()
    (empty_cache / "tmp-abandoned").mkdir()  # a build killed half way
    rebuilt = ensure()
    assert rebuilt.built_now and len(builds) == 2 and (rebuilt.folder / cache.MANIFEST).exists()


def test_an_unreadable_database_is_rebuilt_once(empty_cache, builds):
    built = ensure()
    built.db_path.write_bytes(b"this is not a database" * 100)
    db = store()
    assert isinstance(db, Store) and len(builds) == 2


def test_a_database_missing_tables_is_rebuilt(empty_cache, builds):
    built = ensure()
    conn = sqlite3.connect(built.db_path)
    conn.execute("DROP TABLE postings")
    conn.commit()
    conn.close()
    assert isinstance(store(), Store) and len(builds) == 2


def test_an_unwritable_cache_dir_falls_back_to_a_temporary_one(tmp_path, monkeypatch, builds):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DDREF_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(cache.tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    built = ensure()
    assert built.folder.parent.parent == tmp_path / "tmp"


def test_a_failing_build_is_a_clean_error(empty_cache, monkeypatch):
    def broken(folder, progress=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(index.build, "build_into", broken)
    with pytest.raises(IndexUnavailable, match="No space left on device"):
        ensure()
    assert not [p for p in empty_cache.iterdir() if p.name.startswith("tmp-")]


def test_info_before_and_after_a_build(empty_cache, builds):
    before = info()
    assert before["fresh"] is False and before["built_at"] is None
    assert before["location"].startswith(str(empty_cache))
    ensure()
    after = info()
    assert after["fresh"] is True and after["counts"] == {"spell": {"sfr-2012": 1}}
    assert after["size_bytes"] > 0 and after["corpus_hash"] == before["corpus_hash"]


def test_a_deleted_index_is_rebuilt(empty_cache, builds):
    first = store()
    cache._remove(first.built.folder)
    again = store()
    assert again is not first and again.built.folder.exists() and len(builds) == 2


def test_an_index_folder_replaced_by_a_file_is_rebuilt(empty_cache, builds):
    folder = ensure().folder
    cache._remove(folder)
    folder.write_bytes(b"\x00garbage" * 50)
    rebuilt = ensure()
    assert rebuilt.built_now and rebuilt.folder.is_dir() and len(builds) == 2
    assert sorted(p.name for p in empty_cache.iterdir()) == ["build.lock", folder.name]


def _ddref() -> list[str]:
    script = Path(sys.executable).with_name("ddref")
    return [str(script)] if script.exists() else [sys.executable, "-m", "ddref"]


def _search(env: dict, query: str = "wall of fog") -> subprocess.Popen:
    return subprocess.Popen([*_ddref(), "search", query, "--limit", "3", "--json"], cwd=ROOT, env=env,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _first_hit(proc: subprocess.Popen) -> str:
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err, err
    return json.loads(out)["hits"][0]["id"]


def test_a_truncated_database_is_rebuilt_by_the_next_search(tmp_path):
    """The real index, cut in half under a user's feet: the search that meets it rebuilds it and answers."""
    env = {**os.environ, "DDREF_CACHE_DIR": str(tmp_path / "cache")}
    assert _first_hit(_search(env)) == "wall-of-fog"
    (db,) = (tmp_path / "cache").glob("index-*/ddref.db")
    whole = db.stat().st_size
    with open(db, "r+b") as handle:
        handle.truncate(whole // 2)
    assert _first_hit(_search(env, "hailstorm")) == "hailstorm"
    assert db.stat().st_size > whole * 9 // 10     # built again, whole (to a page or two)
    info = subprocess.run([*_ddref(), "index", "info", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(info.stdout)["fresh"] is True


def test_two_searches_on_an_empty_cache_both_succeed(empty_cache):
    """Two `ddref search` started together on an empty cache: one builds under the lock, the other waits
    and reuses it; the index left behind is whole, and the next search builds nothing."""
    env = {**os.environ, "DDREF_CACHE_DIR": str(empty_cache)}
    procs = [_search(env) for _ in range(2)]
    assert [_first_hit(p) for p in procs] == ["wall-of-fog", "wall-of-fog"]
    folders = sorted(p.name for p in empty_cache.iterdir() if p.is_dir())
    assert len(folders) == 1 and folders[0].startswith("index-")
    manifest = json.loads((empty_cache / folders[0] / cache.MANIFEST).read_text(encoding="utf-8"))
    built_at = manifest["built_at"]
    assert _first_hit(_search(env, "hailstorm")) == "hailstorm"
    assert json.loads((empty_cache / folders[0] / cache.MANIFEST).read_text(encoding="utf-8"))["built_at"] == built_at


def _read_only_dirs() -> list:
    dirs = []
    if Path("/proc").is_dir():
        dirs.append(pytest.param("/proc", id="proc"))   # read-only even for root
    dirs.append(pytest.param("chmod", id="chmod-555",
                             marks=pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                                                      reason="root writes through file modes")))
    return dirs


@pytest.mark.parametrize("where", _read_only_dirs())
def test_a_read_only_cache_dir_falls_back_cleanly(tmp_path, where):
    """`ddref search` with a cache directory it cannot write: it builds under the temporary directory
    and answers, without a traceback."""
    if where == "chmod":
        read_only = tmp_path / "read-only"
        read_only.mkdir()
        read_only.chmod(0o555)
        where = str(read_only)
    env = {**os.environ, "DDREF_CACHE_DIR": where, "TMPDIR": str(tmp_path)}
    assert _first_hit(_search(env)) == "wall-of-fog"
    assert list(tmp_path.glob("ddref-cache-*/index-*/manifest.json"))


# --- issue 19: never delete what ddref did not make; a fallback no one else controls; edits detected ----------

def _age(path: Path, seconds: float) -> None:
    when = path.lstat().st_mtime - seconds
    os.utime(path, (when, when), follow_symlinks=False)


def test_the_sweep_deletes_only_what_ddref_made(tmp_path, monkeypatch, builds):
    """A cache folder the user keeps other things in (DDREF_CACHE_DIR=~/.cache): a build leaves every one of the
    user's entries alone, whatever its name, age or kind, follows no link out of the folder, and still removes
    its own leftovers (an abandoned build, another corpus's old index)."""
    home_cache = tmp_path / "dot-cache"
    outside = tmp_path / "precious"
    outside.mkdir()
    (outside / "thesis.tex").write_text("years of work")
    home_cache.mkdir()
    monkeypatch.setenv("DDREF_CACHE_DIR", str(home_cache))
    users = {"old-backup": "dir", "tmp-build": "dir", "index-2019.html": "file", "index-0123456789abcdef": "dir",
             "tmp-ddref-abcd1234": "link", "old-ddref-1-2": "link", "index-fedcba9876543210": "link"}
    for name, kind in users.items():
        entry = home_cache / name
        if kind == "dir":
            entry.mkdir()
            (entry / "keep.txt").write_text("mine")
        elif kind == "file":
            entry.write_text("<html>")
        else:
            entry.symlink_to(outside, target_is_directory=True)
        _age(entry, 30 * 24 * 3600)
    ensure()
    assert set(users) <= {p.name for p in home_cache.iterdir()}
    assert (outside / "thesis.tex").read_text() == "years of work"
    # ddref's own leftovers, made the way ddref makes them
    abandoned = home_cache / f"{cache.TMP_PREFIX}killed"
    abandoned.mkdir()
    (abandoned / cache.MARKER).write_text(cache.MARKER_TEXT)
    _age(abandoned, 2 * 3600)
    other = home_cache / "index-00000000000000ff"
    other.mkdir()
    (other / cache.MANIFEST).write_text(json.dumps({"key": "00000000000000ff"}))
    _age(other, 30 * 24 * 3600)
    ensure(force=True)
    left = {p.name for p in home_cache.iterdir()}
    assert set(users) <= left and abandoned.name not in left and other.name not in left
    assert (outside / "thesis.tex").read_text() == "years of work"
    assert all((home_cache / n / "keep.txt").read_text() == "mine" for n, k in users.items() if k == "dir")
    assert (home_cache / "index-2019.html").read_text() == "<html>"


def test_info_says_where_the_cache_lives(empty_cache, builds):
    assert info()["cache_dir"] == str(empty_cache)
    env = {**os.environ, "DDREF_CACHE_DIR": str(empty_cache), "COLUMNS": "300"}
    as_json = subprocess.run([*_ddref(), "index", "info", "--json"], env=env, capture_output=True, text=True)
    assert json.loads(as_json.stdout)["cache_dir"] == str(empty_cache)
    shown = subprocess.run([*_ddref(), "index", "info"], env=env, capture_output=True, text=True)
    assert shown.returncode == 0 and re.search(rf"^Cache folder +{re.escape(str(empty_cache))} *$", shown.stdout, re.M)


@pytest.fixture
def unwritable_root(tmp_path, monkeypatch):
    """A cache root that cannot be made (its parent is a file), and a temporary folder of the test's own."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("DDREF_CACHE_DIR", str(blocker / "cache"))
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(cache.tempfile, "tempdir", str(tmp))
    monkeypatch.setattr(cache, "_fallbacks", {})
    return tmp / f"ddref-cache-{os.getuid()}"


def test_the_temporary_fallback_is_made_private(unwritable_root, builds):
    built = ensure()
    assert built.folder.parent == unwritable_root
    mode = unwritable_root.lstat()
    assert mode.st_mode & 0o777 == 0o700 and mode.st_uid == os.getuid()


@pytest.mark.parametrize("planted", ["link-to-victim", "world-writable", "someone-elses"])
def test_a_planted_temporary_fallback_is_not_used(unwritable_root, builds, tmp_path, planted):
    """Another local user made $TMPDIR/ddref-cache-<uid> first: ddref builds in a fresh private folder instead,
    and the victim's files behind a planted link are untouched."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "old-notes").mkdir()
    (victim / "old-notes" / "a.txt").write_text("mine")
    if planted == "link-to-victim":
        unwritable_root.symlink_to(victim, target_is_directory=True)
    else:
        unwritable_root.mkdir()
        unwritable_root.chmod(0o777 if planted == "world-writable" else 0o700)
        if planted == "someone-elses":
            if os.geteuid() != 0:
                pytest.skip("only root can give a folder to another user")
            os.chown(unwritable_root, 65534, 65534)
    built = ensure()
    private = built.folder.parent
    assert private != unwritable_root and private.parent == unwritable_root.parent
    assert private.lstat().st_mode & 0o777 == 0o700 and not private.is_symlink()
    assert (victim / "old-notes" / "a.txt").read_text() == "mine" and sorted(os.listdir(victim)) == ["old-notes"]


def _stand_in_with_text(monkeypatch, calls: list):
    """The stand-in build, its database holding a name the test can edit in place."""
    def build_into(folder: Path, progress=None):
        calls.append(folder)
        conn = sqlite3.connect(folder / index.build.DB_NAME)
        for table in TABLES:
            conn.execute(f"CREATE TABLE {table} (x)")
        conn.execute("INSERT INTO names VALUES ('Wall of Fog')")
        conn.commit()
        conn.close()
        return {"hash": "test", "built_at": "now", "seconds": 0.0, "counts": {}}

    monkeypatch.setattr(index.build, "build_into", build_into)


def test_an_index_edited_in_place_is_rebuilt(empty_cache, monkeypatch):
    """A same-length edit of the database (a readable database, answering wrongly) fails the manifest's checksum
    when the index is opened: it is rebuilt, and answers what it was built with."""
    calls: list = []
    _stand_in_with_text(monkeypatch, calls)
    built = ensure()
    data = built.db_path.read_bytes()
    assert data.count(b"Wall of Fog") == 1
    built.db_path.write_bytes(data.replace(b"Wall of Fog", b"Wall of Fox"))
    db = store()
    assert len(calls) == 2 and db.query("SELECT x FROM names") == [("Wall of Fog",)]


def test_a_manifest_without_a_checksum_is_not_trusted(empty_cache, builds):
    built = ensure()
    manifest = json.loads((built.folder / cache.MANIFEST).read_text())
    del manifest["db_sha256"]
    (built.folder / cache.MANIFEST).write_text(json.dumps(manifest))
    store()
    assert len(builds) == 2


@pytest.mark.parametrize("manifest", ["[1, 2]", '"a string"', "17", "null"])
def test_a_manifest_that_is_json_but_not_an_object_is_rebuilt(empty_cache, builds, manifest):
    folder = ensure().folder
    (folder / cache.MANIFEST).write_text(manifest, encoding="utf-8")
    rebuilt = ensure()
    assert rebuilt.built_now and len(builds) == 2 and info()["fresh"] is True


def test_a_build_lock_that_is_a_folder_does_not_block_builds(empty_cache, builds):
    empty_cache.mkdir()
    (empty_cache / "build.lock").mkdir()
    (empty_cache / "build.lock" / "inside").write_text("someone's")
    first = ensure()
    assert first.built_now and isinstance(store(), Store)
    assert (empty_cache / "build.lock" / "inside").read_text() == "someone's"


def test_a_build_lock_that_is_a_link_is_not_followed(empty_cache, builds, tmp_path):
    empty_cache.mkdir()
    target = tmp_path / "elsewhere.txt"
    (empty_cache / "build.lock").symlink_to(target)
    assert ensure().built_now and not target.exists()


def test_an_index_folder_that_is_a_symlink_loop_is_rebuilt(empty_cache, builds):
    folder = ensure().folder
    cache._remove(folder)
    folder.symlink_to(folder)          # index-<key> -> itself
    rebuilt = ensure()
    assert rebuilt.built_now and rebuilt.folder.is_dir() and not rebuilt.folder.is_symlink()
    assert info()["fresh"] is True and isinstance(store(), Store)


def test_an_index_folder_that_links_elsewhere_is_replaced_not_followed(empty_cache, builds, tmp_path):
    """A link at the index's own name (to a folder with a valid-looking index) is not trusted, and replacing it
    unlinks it: the folder it pointed to keeps everything."""
    folder = ensure().folder
    elsewhere = tmp_path / "elsewhere"
    folder.rename(elsewhere)
    folder.symlink_to(elsewhere, target_is_directory=True)
    assert cache.current() is None
    rebuilt = ensure()
    assert rebuilt.built_now and not rebuilt.folder.is_symlink()
    assert (elsewhere / cache.MANIFEST).exists() and (elsewhere / index.build.DB_NAME).exists()


def test_a_real_index_edited_in_place_answers_rightly(tmp_path):
    """The issue's case, end to end: "Wall of Fog" changed to "Wall of Fox" in the built database; the next search
    rebuilds the index and answers the book's name."""
    env = {**os.environ, "DDREF_CACHE_DIR": str(tmp_path / "cache")}
    proc = _search(env)
    out, err = proc.communicate(timeout=120)
    assert json.loads(out)["hits"][0]["title"] == "Wall of Fog"
    (db,) = (tmp_path / "cache").glob("index-*/ddref.db")
    data = db.read_bytes()
    db.write_bytes(data.replace(b"Wall of Fog", b"Wall of Fox"))
    proc = _search(env)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and json.loads(out)["hits"][0]["title"] == "Wall of Fog", err


def test_index_build_rebuilds_an_index_edited_in_place(empty_cache, monkeypatch):
    """`ddref index build` (without --force) does not call an edited index fresh: ensure() checks the checksum."""
    calls: list = []
    _stand_in_with_text(monkeypatch, calls)
    built = ensure()
    built.db_path.write_bytes(built.db_path.read_bytes().replace(b"Wall of Fog", b"Wall of Fox"))
    again = ensure()
    assert again.built_now and len(calls) == 2 and b"Wall of Fog" in again.db_path.read_bytes()
