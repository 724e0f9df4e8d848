"""The search and reference commands (issue 4) as a user runs them: answers, --json, clean errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
import typer

from ddref.cli import app


# --- every command ---------------------------------------------------------

def _commands(group, prefix=()):
    """Every leaf command of the app, with its words ("index", "build")."""
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, prefix + (name,))
        else:
            yield prefix + (name,), command


def test_every_command_has_help_with_an_example_and_takes_json():
    commands = dict(_commands(typer.main.get_command(app)))
    assert {("search",), ("index", "build"), ("index", "info"), ("rule",), ("rules",), ("ruling",),
            ("glossary",), ("compare",), ("sources",)} <= set(commands)
    for words, command in commands.items():
        assert "Example" in (command.help or ""), f"ddref {' '.join(words)} --help shows no example"
        assert any("--json" in p.opts for p in command.params), f"ddref {' '.join(words)} has no --json"


def test_help_and_lookups_load_no_heavy_module():
    """ddref --help and ddref spell answer without whoosh, sqlite-utils, pydantic or ddref serve's web stack."""
    code = ("import sys\nfrom ddref.cli import main\n"
            "for argv in (['ddref', '--help'], ['ddref', 'spell', 'wall of fog'], ['ddref', 'rules']):\n"
            "    sys.argv = argv\n"
            "    try:\n        main()\n    except SystemExit:\n        pass\n"
            "print('HEAVY', sorted(m for m in ('whoosh', 'sqlite_utils', 'pydantic', 'fastapi', 'starlette',\n"
            "                                  'uvicorn', 'psutil') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    assert "HEAVY []" in done.stdout


# --- rules and rule ----------------------------------------------------------

def test_rules_lists_one_editions_contents(run):
    """001 and 003 are the sfr-v4 documents: 86 + 3 sections."""
    result_json = json.loads(_ok("rules", "--edition", "sfr-v4", "--json", run=run))
    assert len(result_json) == 89 and {s["edition"] for s in result_json} == {"sfr-v4"}
    assert {s["document"] for s in result_json} == {"001", "003"}


def test_rules_for_people_indents_headings_and_fits_80_columns(run):
    result = run("rules", "--edition", "sfr-v4")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    ids = [w for line in lines for w in line.split() if ":" in w and w.split(":")[0] in
           ("sfr-2012", "sfr-v4", "tsr-1996")]
    assert ids and all(i.startswith("sfr-v4:") for i in ids)
    assert "sfr-v4:marches.missile-resolution" in ids
    assert "  Missile Resolution" in result.stdout  # a level-2 heading, indented
    assert max(len(line) for line in lines) <= 80


def test_rule_by_id_prints_the_section_and_its_subsections(run):
    data = json.loads(_ok("rule", "sfr-2012:dice-modifiers", "--json", run=run))
    assert data["match"] == "id" and data["section"]["heading"] == "Dice Modifiers"
    assert "sfr-2012:dice-modifiers.applying-dice-modifiers" in [s["id"] for s in data["subsections"]]


def test_rule_with_an_unknown_id_suggests_close_ids(run):
    result = run("rule", "sfr-2012:dice-modifier")
    assert result.exit_code == 2 and "did you mean: sfr-2012:dice-modifiers" in result.stderr
    assert "Traceback" not in result.output


def test_rule_id_in_another_edition_than_asked_is_an_error(run):
    result = run("rule", "sfr-2012:dice-modifiers", "--edition", "tsr-1996")
    assert result.exit_code == 2 and "is in sfr-2012, not tsr-1996" in result.stderr


# --- rulings and the glossary -------------------------------------------------

def test_ruling_by_topic_words(run):
    """004 AMAZONS, Amazons in Reserves A: Amazons can not cast magic from reserves."""
    rows = json.loads(_ok("ruling", "amazons in reserves", "--json", run=run))
    first = rows[0]
    assert first["id"] == "tsr-1996:faq.amazons.amazons-in-reserves.a"
    assert "CAN NOT cast magic from reserves" in first["text"]
    assert first["source"] == {"edition": "tsr-1996", "document": "004",
                               "section": "tsr-1996:faq.amazons.amazons-in-reserves"}
    letters = [r["letter"] for r in rows if r["topic"] == "Amazons in Reserves"]
    assert letters == ["A", "B", "C", "D", "E"]


def test_ruling_by_id_and_by_what_it_concerns(run):
    topic = json.loads(_ok("ruling", "tsr-1996:faq.monster-special-action-icons.charm", "--json", run=run))
    assert [r["letter"] for r in topic][:4] == ["A", "B", "C", "D"]
    assert all(r["topic"] == "Charm" for r in topic)
    wall = json.loads(_ok("ruling", "Wall of Fog", "--json", run=run))
    assert wall and all("spell:wall-of-fog" in r["concerns"] for r in wall)


def test_ruling_by_words_of_its_text(run):
    """004 Monster SAIs, Charm E: during a dragon attack Charm has no effect."""
    rows = json.loads(_ok("ruling", "dragon attack charm", "--json", run=run))
    assert "tsr-1996:faq.monster-special-action-icons.charm.e-2" in [r["id"] for r in rows]


def test_ruling_for_people_shows_topic_letter_and_source(run):
    result = run("ruling", "charm")
    assert result.exit_code == 0, result.stderr
    out = " ".join(result.stdout.split())
    assert "Charm" in out and "E) During a dragon attack, Charm has no effect." in out
    assert "tsr-1996:faq.monster-special-action-icons.charm" in out and "document 004" in out


def test_unknown_ruling_is_a_clean_error(run):
    result = run("ruling", "xyzzy plugh")
    assert result.exit_code == 2 and "no FAQ ruling matches" in result.stderr
    assert "Traceback" not in result.output


def test_glossary_dua_is_the_dead_unit_area(run):
    """002 Commonly Used Abbreviations: DUA, Dead Unit Area; the glossary defines it."""
    rows = json.loads(_ok("glossary", "dua", "--json", run=run))
    assert {r["term"] for r in rows} == {"DUA", "Dead Unit Area"}
    entry = next(r for r in rows if r["term"] == "Dead Unit Area")
    assert "dead units, except Dragonkin" in entry["text"]
    result = run("glossary", "dua")
    assert result.exit_code == 0 and "Dead Unit Area" in result.stdout
    assert "Stands for: Dead Unit Area" in result.stdout


def test_glossary_abbreviation_of_a_spell_points_to_the_spell(run):
    result = run("glossary", "TRtM")
    assert result.exit_code == 0, result.stderr
    assert "Transmute Rock to Mud" in result.stdout and 'ddref spell "Transmute Rock to Mud"' in result.stdout


def test_glossary_unknown_term_suggests(run):
    result = run("glossary", "unit area")  # several terms come close (a clear misspelling is answered)
    assert result.exit_code == 2 and "did you mean: Dead Unit Area" in result.stderr


# --- compare and sources ------------------------------------------------------

def test_compare_wall_of_fog_json(run):
    data = json.loads(_ok("compare", "spell", "wall of fog", "--json", run=run))
    assert {ed: r["cost"] for ed, r in data["records"].items()} == {"tsr-1996": 4, "sfr-v4": 6, "sfr-2012": 6}
    assert "cost" in data["differing"] and "color" not in data["differing"]


def test_compare_wall_of_fog_for_people(run):
    result = run("compare", "spell", "wall of fog")
    assert result.exit_code == 0, result.stderr
    cost = next(line for line in result.stdout.splitlines() if "cost" in line)
    assert cost.replace("│", " ").split() == ["*", "cost", "6", "6", "4"]  # marked as differing
    assert "{+Subtract six missile results" in result.stdout  # no color: git-style word diff marks
    assert "[-Until-]" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


@pytest.mark.parametrize("no_color", [True, False])
def test_compare_word_diff_in_color_or_with_marks_under_no_color(run, monkeypatch, no_color):
    """On a color terminal the diff is colored; with NO_COLOR it is marked [-old-] {+new+} instead."""
    import io

    from rich.console import Console

    import ddref.output

    screen = io.StringIO()
    monkeypatch.setattr(ddref.output, "out", Console(file=screen, force_terminal=True, width=80, height=10_000,
                                                     no_color=no_color, color_system="standard"))
    assert run("compare", "spell", "wall of fog").exit_code == 0
    shown = screen.getvalue()
    assert ("{+Subtract" in shown) is no_color
    assert bool(re.search(r"\x1b\[(3[0-7]|9[0-7])m", shown)) is not no_color  # color codes


def test_compare_rule_and_unknown_names(run):
    data = json.loads(_ok("compare", "rule", "dice modifiers", "--json", run=run))
    assert data["editions"] == ["sfr-2012", "tsr-1996"]
    bad = run("compare", "spell", "wall of fgo")
    assert bad.exit_code == 2 and "did you mean: Wall of Fog" in bad.stderr
    assert run("compare", "race", "amazons").exit_code == 2  # only spell, sai or rule


def test_sources_lists_the_five_documents_and_the_corpus_hash(run):
    from index.corpus import corpus_hash

    data = json.loads(_ok("sources", "--json", run=run))
    assert data["corpus_hash"] == corpus_hash()
    docs = {d["id"]: d for d in data["documents"]}
    assert list(docs) == ["000", "001", "002", "003", "004"]
    assert docs["004"]["edition"] == "tsr-1996" and docs["004"]["counts"]["ruling"] == 91
    assert docs["002"]["counts"]["glossary"] == 157 and docs["002"]["counts"]["section"] == 476
    result = run("sources")
    assert result.exit_code == 0 and corpus_hash() in result.stdout


@pytest.mark.parametrize("args", [
    ("rules", "-e", "all"), ("rule", "tsr-1996:faq"), ("ruling", "amazons"), ("glossary", "acting army"),
    ("compare", "sai", "charm"), ("compare", "rule", "the eighth face"), ("compare", "spell", "stoneskin"),
])
def test_every_reference_command_renders_for_people(run, args):
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() and "Traceback" not in result.output


def _ok(*args: str, run) -> str:
    """stdout of a command that must succeed."""
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


# --- search and the index (the backend is index/search.py and index/store.py) ----------

def test_search_json_gives_ranked_hits_with_ids_editions_and_highlights(run):
    data = json.loads(_ok("search", "wall of fog", "--json", run=run))
    assert data["query"] == "wall of fog" and data["warnings"] == []
    top = data["hits"][0]  # one hit for the spell in every edition it is in
    assert (top["kind"], top["id"]) == ("spell", "wall-of-fog")
    assert {tuple(m) for m in top["members"]} == {(e, "wall-of-fog") for e in ("sfr-2012", "sfr-v4", "tsr-1996")}
    assert sorted(top["editions"]) == ["sfr-2012", "sfr-v4", "tsr-1996"] and top["edition"] == top["editions"][0]
    for hit in data["hits"]:
        assert all(0 <= start < end <= len(hit["snippet"]) for start, end in hit["highlights"])


def test_search_options_narrow_the_hits(run):
    tsr = json.loads(_ok("search", "halve missile", "--edition", "tsr-1996", "--limit", "3", "--json", run=run))
    assert 0 < len(tsr["hits"]) <= 3 and {h["edition"] for h in tsr["hits"]} == {"tsr-1996"}
    glossary = json.loads(_ok("search", "dua", "--type", "glossary", "--json", run=run))
    assert glossary["hits"][0]["id"] == "dead-unit-area"  # 002: DUA, Dead Unit Area
    assert {h["kind"] for h in glossary["hits"]} == {"glossary"}


def test_search_for_people_shows_each_hit_and_how_to_open_it(run):
    result = run("search", "lightening strik", "--edition", "sfr-2012", "--type", "spell")
    assert result.exit_code == 0, result.stderr
    assert "Lightning Strike" in result.stdout and "spell · sfr-2012" in result.stdout
    assert "ddref spell lightning-strike -e sfr-2012" in result.stdout
    assert max(len(line.rstrip()) for line in result.stdout.splitlines()) <= 80


def test_a_malformed_query_warns_on_stderr_and_still_answers(run):
    result = run("search", "wall cost<=abc foo:bar")
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "warning:" in result.stderr and "cost<=abc" in result.stderr and "foo" in result.stderr
    assert "Wall of" in result.stdout
    data = json.loads(_ok("search", "wall foo:bar", "--json", run=run))
    assert any("foo" in w for w in data["warnings"])


def test_rule_by_words_is_the_best_matching_section(run):
    data = json.loads(_ok("rule", "applying dice modifiers", "--json", run=run))
    assert data["match"] == "best"
    assert data["section"]["id"] == "sfr-2012:dice-modifiers.applying-dice-modifiers"
    result = run("rule", "applying dice modifiers")
    assert "Best match for 'applying dice modifiers'" in result.stdout
    tsr = json.loads(_ok("rule", "reserve magic", "--edition", "tsr-1996", "--json", run=run))
    assert tsr["section"]["edition"] == "tsr-1996" and "Reserve" in tsr["section"]["heading"]


def test_index_info_says_where_and_what(run):
    _ok("search", "wall of fog", run=run)  # the session's index is built by now
    info = json.loads(_ok("index", "info", "--json", run=run))
    assert info["fresh"] is True and info["location"].startswith(os.environ["DDREF_CACHE_DIR"])
    assert info["counts"]["spell"]["tsr-1996"] == 25 and info["counts"]["ruling"]["tsr-1996"] == 91
    from index.corpus import corpus_hash

    assert info["corpus_hash"] == corpus_hash()
    result = run("index", "info")
    assert result.exit_code == 0 and "Location" in result.stdout and "Fresh" in result.stdout


def test_the_first_search_on_an_empty_cache_builds_the_index_with_a_progress_bar(run, monkeypatch, tmp_path):
    """On a TTY stderr shows the bar; index build then finds the index fresh, and rebuilds it with --force."""
    import io

    from rich.console import Console

    import ddref.output

    monkeypatch.setenv("DDREF_CACHE_DIR", str(tmp_path))
    screen = io.StringIO()
    monkeypatch.setattr(ddref.output, "err", Console(file=screen, force_terminal=True, width=80))
    before = json.loads(_ok("index", "info", "--json", run=run))
    assert before["fresh"] is False and before["built_at"] is None
    result = run("search", "wall of fog", "--limit", "1")
    assert result.exit_code == 0 and "Wall of Fog" in result.stdout
    assert "Building the index" in screen.getvalue() and "Built the search index" in screen.getvalue()
    after = json.loads(_ok("index", "info", "--json", run=run))
    assert after["fresh"] is True and after["location"].startswith(str(tmp_path))
    screen.seek(0)
    screen.truncate(0)
    again = json.loads(_ok("index", "build", "--json", run=run))
    assert again["built_at"] == after["built_at"] and "Building" not in screen.getvalue()
    forced = json.loads(_ok("index", "build", "--force", "--json", run=run))
    assert forced["fresh"] is True and forced["built_at"] >= after["built_at"]
    assert "Building the index" in screen.getvalue()


def test_no_progress_bar_when_stderr_is_not_a_terminal(capsys):
    from ddref.output import build_progress, err

    assert not err.is_terminal  # pytest captures stderr
    with build_progress() as progress:
        assert progress is None
    assert capsys.readouterr().err == ""
