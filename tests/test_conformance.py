"""The conformance records (issue 20) cover every rule section, and every claim they make holds.

A section missing from corpus/conformance/, a section whose text changed since its statements were checked,
a 'modelled' or 'reading' statement naming a scenario step that does not exist, has no expectation or does
not pass, and docs/readings.md drifting from the reading records: each fails here.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from ddref import conformance as C
from ddref.scenario.run import load, replay
from tools.conformance import readings_markdown
from fast_yaml import load_yaml

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _fresh_cache():
    C.load.cache_clear()
    yield
    C.load.cache_clear()


def test_every_section_of_every_document_has_records():
    assert C.missing_sections() == []
    assert len(C.load()) == len(C.corpus_sections()) == 675


def test_no_section_text_changed_since_its_statements_were_checked():
    C.load(check_hashes=True)


def _claims():
    return [r for r in C.records() if r.status in C.NEEDS_SCENARIO]


def test_every_modelled_or_read_statement_names_steps_that_exist_and_pass():
    claims = _claims()
    assert claims, "no statement claims a scenario"
    files = {f for r in claims for f, _ in r.scenarios}
    replays = {}
    problems = []
    for f in sorted(files):
        path = ROOT / "scenarios" / f
        if not path.exists():
            problems.append(f"{f}: no such scenario")
            continue
        replays[f] = replay(load(path))
    for r in claims:
        for f, step in r.scenarios:
            if f not in replays:
                problems.append(f"{r.section} s{r.s}: {f} does not exist")
                continue
            result = replays[f]
            if step != "final" and step > len(result["steps"]):
                problems.append(f"{r.section} s{r.s}: {f} has no step {step}")
                continue
            checks = [c for c in result["expectations"] if c["step"] == (None if step == "final" else step)]
            if not checks:
                problems.append(f"{r.section} s{r.s}: {f}#{step} has no expect or expect_error")
            elif not all(c["ok"] for c in checks):
                problems.append(f"{r.section} s{r.s}: {f}#{step} does not pass")
    assert problems == []


def _copy(tmp_path, monkeypatch):
    dst = tmp_path / "conformance"
    shutil.copytree(C.RECORDS_DIR, dst)
    monkeypatch.setattr(C, "RECORDS_DIR", dst)
    return dst


def test_the_guard_fails_when_a_section_is_removed(tmp_path, monkeypatch):
    dst = _copy(tmp_path, monkeypatch)
    data = load_yaml((dst / "002.yaml").read_text())
    gone = data["sections"].pop(3)["id"]
    (dst / "002.yaml").write_text(yaml.safe_dump(data))
    assert C.missing_sections() == [gone]


def test_the_guard_fails_when_a_sections_text_changed(tmp_path, monkeypatch):
    dst = _copy(tmp_path, monkeypatch)
    data = load_yaml((dst / "004.yaml").read_text())
    data["sections"][1]["hash"] = "000000000000"
    (dst / "004.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(C.RecordError, match="text changed"):
        C.load(check_hashes=True)


@pytest.mark.parametrize("change, message", [
    (lambda st: st.update(status="modelled", scenarios=[]), "names the scenario step"),
    (lambda st: st.update(status="modelled", scenarios=["nowhere"]), "FILE.yaml#STEP"),
    (lambda st: st.update(status="reading", scenarios=["a.yaml#1"], cites=["sfr-2012:basic-terms"]), "both passages"),
    (lambda st: st.update(status="refused", note=""), "says why"),
    (lambda st: st.update(status="done"), "not one of"),
    (lambda st: st.update(says="something else"), "does not match sentence"),
])
def test_a_malformed_record_is_refused_with_its_place(tmp_path, monkeypatch, change, message):
    dst = _copy(tmp_path, monkeypatch)
    data = load_yaml((dst / "002.yaml").read_text())
    entry = next(e for e in data["sections"] if any(st.get("s") for st in e["statements"]))
    change(next(st for st in entry["statements"] if st.get("s")))
    (dst / "002.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(C.RecordError, match=message) as info:
        C.load()
    assert entry["id"] in str(info.value)


def test_a_step_that_does_not_pass_is_caught(tmp_path, monkeypatch):
    # the guard above, run on a record pointing past the last step of a real scenario
    dst = _copy(tmp_path, monkeypatch)
    data = load_yaml((dst / "002.yaml").read_text())
    st = next(st for e in data["sections"] for st in e["statements"] if st.get("s"))
    st["status"], st["scenarios"] = "modelled", ["sfr2012-avoidance-rolls.yaml#99"]
    (dst / "002.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(AssertionError, match="has no step 99"):
        test_every_modelled_or_read_statement_names_steps_that_exist_and_pass()


def test_every_reading_the_scenarios_trace_has_a_record():
    recorded = {(r.section, c) for r in C.records(status="reading") for c in r.cites[1:]}
    said = set()
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        for step in replay(load(path))["steps"]:
            for e in step.get("trace", []):
                if e["what"].startswith("reading: ") and e.get("cite"):
                    others = [c for c in dict.fromkeys(C.SECTION_ID.findall(e.get("also") or "") +
                                                       C.SECTION_ID.findall(e["rule"])) if c != e["cite"]]
                    said |= {(e["cite"], c) for c in others or [e["cite"]]}
    assert sorted(said - recorded) == []


def test_readings_page_is_generated_from_the_records():
    assert (ROOT / "docs" / "readings.md").read_text(encoding="utf-8") == readings_markdown(), (
        "docs/readings.md drifted from the reading records: run `python -m tools.conformance readings`")


def test_sentences_are_stable_and_split_at_sentence_ends():
    text = "Units may move. A unit (e.g. Open Grave) cannot. \"Quoted.\" Next one!\n\nExample: two."
    assert C.sentences(text) == ["Units may move.", "A unit (e.g. Open Grave) cannot.", "\"Quoted.\"", "Next one!",
                                 "Example: two."]
    assert C.rule_sentences(text) == [1, 2]


# --- ddref coverage and ddref rule ------------------------------------------------

def test_coverage_json_has_a_record_for_every_section_of_every_edition(run):
    rules = run("rules", "--edition", "all", "--json")
    coverage = run("coverage", "--json")
    assert rules.exit_code == coverage.exit_code == 0, coverage.output
    recs = json.loads(coverage.stdout)
    assert {r["id"] for r in json.loads(rules.stdout)} == {r["section"] for r in recs}
    assert all({"edition", "section", "status", "scenarios", "note"} <= set(r) for r in recs)
    assert {r["status"] for r in recs} <= set(C.STATUSES)
    tower = [r for r in recs if r["section"] == "sfr-2012:the-eighth-face.tower"]
    assert [r["status"] for r in tower] == ["modelled"] * 3
    assert {"file": "sfr2012-eighth-face-tower-and-enemies.yaml", "step": 5} in tower[2]["scenarios"]


def test_coverage_filters_by_edition_and_status_and_lists_readings_with_both_citations(run):
    result = run("coverage", "--edition", "tsr-1996", "--status", "reading", "--json")
    assert result.exit_code == 0
    recs = json.loads(result.stdout)
    assert recs and {r["edition"] for r in recs} == {"tsr-1996"} and {r["status"] for r in recs} == {"reading"}
    assert all(len(r["cites"]) >= 2 for r in recs)
    human = run("coverage", "--edition", "sfr-2012")
    assert human.exit_code == 0
    text = " ".join(human.stdout.split())
    assert "sfr-2012:the-eighth-face.tower" in text and "read with" in text


def test_rule_shows_the_sections_coverage(run):
    result = run("rule", "sfr-2012:damage.the-stoneskin-rule", "--json")
    assert result.exit_code == 0
    cov = json.loads(result.stdout)["coverage"]
    assert cov["counts"]["modelled"] == 4
    assert any(s["file"] == "sfr2012-stoneskin-rule.yaml" for r in cov["records"] for s in r["scenarios"])
    human = run("rule", "sfr-2012:damage.the-stoneskin-rule")
    assert "sfr2012-stoneskin-rule.yaml step 3" in " ".join(human.stdout.split())


def test_coverage_of_an_unknown_section_exits_2_with_a_suggestion(run):
    result = run("coverage", "--section", "sfr-2012:damage.the-stoneskin-rul")
    assert result.exit_code == 2
    assert "did you mean sfr-2012:damage.the-stoneskin-rule" in result.stderr and "Traceback" not in result.output
