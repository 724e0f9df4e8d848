"""Shared fixtures: the corpus as the installed package ships it."""

from __future__ import annotations

import signal
import sys

import pytest

from ddref.cli import main

from index.corpus import records, sections, source_text
from tools.corpus.build import build_context

DOCS = ("000", "001", "002", "003", "004")

# A run started as a background job of a non-interactive shell (``.ci/run &``) ignores SIGINT, and every
# process it starts inherits that: the tests of Ctrl+C (tests/test_defects_d.py, the served fixture of
# tests/test_serve_page.py) then saw ddref shrug it off. Caught instead of ignored, it reaches the
# processes the tests start as the default, as it does from a terminal (exec resets a caught signal).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="session", autouse=True)
def index_cache(tmp_path_factory):
    """One search index for the whole run, in a folder of its own: no test reads or writes the
    user's cache (a test that needs an empty cache sets DDREF_CACHE_DIR itself)."""
    path = tmp_path_factory.mktemp("ddref-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DDREF_CACHE_DIR", str(path))
        yield path


@pytest.fixture(scope="session")
def ctx():
    """The corpus build's context (normalized texts and section trees), built once for the suite."""
    return build_context()


@pytest.fixture(scope="session")
def texts() -> dict[str, str]:
    return {d: source_text(d) for d in DOCS}


@pytest.fixture(scope="session")
def all_sections():
    return sections()


@pytest.fixture(scope="session")
def corpus_records():
    return records


class Result:
    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code, self.stdout, self.stderr = exit_code, stdout, stderr
        self.output = stdout + stderr


@pytest.fixture
def run(capsys, monkeypatch):
    """Run ``ddref ARGS`` in-process through main(), as the console script does."""
    monkeypatch.setenv("COLUMNS", "80")

    def invoke(*args: str) -> Result:
        monkeypatch.setattr(sys, "argv", ["ddref", *args])
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        captured = capsys.readouterr()
        return Result(code, captured.out, " ".join(captured.err.split()))

    return invoke
