"""The records' maintenance tool (tools.conformance) never loses a classification it did not make."""

import shutil


import ddref.conformance as C
import tools.conformance as T
from fast_yaml import load_yaml


def test_harvest_adds_a_reading_and_keeps_the_sections_not_a_rule_sentences(tmp_path, monkeypatch):
    """A reading harvested into a section keeps the section's sentence-level not-a-rule records (harvest used to
    drop every not-a-rule record of a section it added a reading to, undoing other sweeps' work)."""
    shutil.copytree(C.RECORDS_DIR, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(C, "RECORDS_DIR", tmp_path)
    data = T.read_doc("002")
    entry = next(e for e in data["sections"]
                 if any(st.get("status") == "not-a-rule" and st.get("s") is not None for st in e["statements"]))
    kept = [st["s"] for st in entry["statements"] if st.get("status") == "not-a-rule"]
    other = "sfr-2012:basic-terms" if entry["id"] != "sfr-2012:basic-terms" else "sfr-2012:damage"
    event = {"what": "reading: a test reading", "rule": f"this rule read with {other}", "cite": entry["id"],
             "also": other}
    fake = {"x.yaml": {"steps": [{"trace": [event]}], "expectations": [{"step": 1, "ok": True}]}}
    monkeypatch.setattr(T, "replays", lambda fresh=False: fake)
    T.harvest(fresh=False)
    after = next(e for e in load_yaml((tmp_path / "002.yaml").read_text(encoding="utf-8"))["sections"]
                 if e["id"] == entry["id"])
    assert [st["s"] for st in after["statements"] if st.get("status") == "not-a-rule"] == kept
    assert any(st.get("status") == "reading" and st.get("cites") == [entry["id"], other] and
               st.get("scenarios") == ["x.yaml#1"] for st in after["statements"])


def test_set_keeps_the_sections_not_a_rule_sentences(tmp_path, monkeypatch):
    """Setting a new record (a section-level one, ``-``) keeps the sentences' not-a-rule records (set used to drop
    them all, as harvest did)."""
    shutil.copytree(C.RECORDS_DIR, tmp_path, dirs_exist_ok=True)
    monkeypatch.setattr(C, "RECORDS_DIR", tmp_path)
    entry = next(e for e in T.read_doc("002")["sections"]
                 if any(st.get("status") == "not-a-rule" and st.get("s") is not None for st in e["statements"]))
    before = [st for st in entry["statements"] if st.get("s") is not None]
    T.set_status(entry["id"], "-", "reading", ["x.yaml#1"], "a note", [entry["id"], "sfr-2012:damage"])
    after = next(e for e in load_yaml((tmp_path / "002.yaml").read_text(encoding="utf-8"))["sections"]
                 if e["id"] == entry["id"])
    assert [st for st in after["statements"] if st.get("s") is not None] == before
