"""The documentation a newcomer reads: a short README whose links resolve, and a format reference whose field
tables are the loader's own models (so they cannot drift from what ``ddref resolve`` accepts)."""

from __future__ import annotations

import re
from pathlib import Path

from ddref.scenario.reference import BEGIN, END, markdown, spliced, type_words

ROOT = Path(__file__).resolve().parents[1]


def test_the_format_reference_tables_are_the_models():
    doc = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    assert doc.count(BEGIN) == 1 and doc.count(END) == 1
    assert spliced(doc) == doc, "docs/scenario-format.md is stale: run python -m ddref.scenario.reference"


def test_every_step_kind_and_field_is_in_the_reference():
    from ddref.scenario.model import STEP_KINDS, step_models

    tables = markdown()
    for kind, model in step_models().items():
        assert f"### `{kind}` step" in tables
        for name, field in model.model_fields.items():
            assert f"| `{field.alias or name}` |" in tables, (kind, name)
    assert len(STEP_KINDS) >= 12


def test_type_words_read_as_a_reader_would():
    assert type_words(dict[str, list[str]] | None) == "{name: [text]}"
    assert type_words(int) == "integer" and type_words(bool) == "true/false"


def test_the_readme_is_short_and_its_links_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links, "the README links its documentation"
    for link in links:
        assert not link.startswith(("..", "/", "http")), f"{link}: a link outside the repository"
        assert (ROOT / link).is_file(), f"README links {link}, which does not exist"


def test_docs_link_only_inside_the_repository():
    for page in (ROOT / "docs").glob("*.md"):
        for link in re.findall(r"\]\(([^)#]+)\)", page.read_text(encoding="utf-8")):
            if link.startswith("http"):
                continue
            assert not link.startswith("../shared"), f"{page.name} links outside the repository: {link}"
            assert (page.parent / link).exists(), f"{page.name} links {link}, which does not exist"


def test_the_readmes_own_dispute_resolves_to_the_numbers_it_states():
    """The README's example of a dispute of one's own replays, and its answer is the one the README gives: 3 saves
    doubled at the held eighth face to 6, Stoneskin's +1 makes 7 (002 The Eighth Face; Stoneskin)."""
    from ddref.scenario.run import parse, replay

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (text,) = re.findall(r"```yaml\n(.+?)```", readme, re.S)
    assert "3 doubled to 6, and Stoneskin's +1 makes 7" in " ".join(readme.split())
    step = replay(parse(text, "README.md"))["steps"][0]
    assert step["results"]["elves"]["save"] == 7
    assert step["damage"]["elves"] == 1
