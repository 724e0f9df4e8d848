"""Maintain the conformance records of corpus/conformance/ (issue 20).

    python -m tools.conformance seed          # add the sections and rule sentences not yet recorded (status open)
    python -m tools.conformance harvest       # a 'reading' record for every reading the scenarios' traces say
    python -m tools.conformance show ID...    # a section's sentences, records, and the scenario steps citing it
    python -m tools.conformance set ID S STATUS [REF...] [--note TEXT]   # one statement's classification
    python -m tools.conformance readings      # write docs/readings.md from the reading records
    python -m tools.conformance rehash ID     # after re-checking a changed section: store its new hash

Nothing here runs at ddref's run time; ddref.conformance reads what this writes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import yaml

from ddref import conformance as C

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = REPO / "scenarios"
READINGS_MD = REPO / "docs" / "readings.md"
REPLAYS_CACHE = Path("/tmp/ddref-conformance-replays.json")


# --- reading and writing the files ------------------------------------------

def read_doc(doc: str) -> dict:
    path = C.RECORDS_DIR / f"{doc}.yaml"
    if not path.exists():
        return {"document": doc, "edition": None, "sections": []}
    return yaml.safe_load(path.read_text(encoding="utf-8"))


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper, value: str):
    style = ">" if len(value) > 100 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


HEADER = """\
# Conformance records of document {doc} ({edition}): every section, its text's hash, and each normative
# statement with its status (modelled, reading, refused, not-a-rule, open), the scenario steps that exercise
# it (FILE#STEP under scenarios/), a note, and for readings both citations. See ddref/conformance.py;
# `python -m tools.conformance` maintains it, `ddref coverage` prints it, tests/test_conformance.py guards it.
"""


def write_doc(doc: str, data: dict) -> None:
    order = {sid: row["order"] for sid, row in C.corpus_sections().items()}
    data["sections"].sort(key=lambda e: order[e["id"]])
    for entry in data["sections"]:
        entry["statements"].sort(key=lambda st: (st.get("s") is None, st.get("s") or 0))
        for st in entry["statements"]:
            for key in [k for k, v in st.items() if v in (None, "", [])]:
                del st[key]
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=110)
    (C.RECORDS_DIR / f"{doc}.yaml").write_text(HEADER.format(doc=doc, edition=data["edition"]) + text,
                                              encoding="utf-8")


def _ordered(st: dict) -> dict:
    keys = ("s", "says", "status", "scenarios", "cites", "note")
    return {k: st.get(k) for k in keys}


# --- seed -------------------------------------------------------------------

def seed() -> None:
    C.RECORDS_DIR.mkdir(parents=True, exist_ok=True)
    table = C.corpus_sections()
    for doc in C.DOCUMENTS:
        data = read_doc(doc)
        known = {e["id"]: e for e in data["sections"]}
        for sid, row in table.items():
            if row["document"] != doc:
                continue
            data["edition"] = row["edition"]
            said = C.sentences(row["text"])
            entry = known.get(sid)
            if entry is None:
                entry = {"id": sid, "hash": C.text_hash(row["text"]), "statements": []}
                data["sections"].append(entry)
            have = {st.get("s") for st in entry["statements"]}
            for i in C.rule_sentences(row["text"]):
                if i not in have:
                    entry["statements"].append(_ordered({"s": i, "says": said[i - 1], "status": "open"}))
            if not entry["statements"]:
                entry["statements"].append(_ordered({
                    "status": "not-a-rule",
                    "note": "heading only" if not row["text"].strip() else "no normative statement: "
                            "description, definition or flavour"}))
            entry["statements"] = [_ordered(st) for st in entry["statements"]]
        write_doc(doc, data)


# --- replays ----------------------------------------------------------------

def replays(fresh: bool = False) -> dict:
    if REPLAYS_CACHE.exists() and not fresh:
        return json.loads(REPLAYS_CACHE.read_text())
    from ddref.scenario.run import load, replay

    out = {}
    for path in sorted(SCENARIOS.glob("*.yaml")):
        try:
            out[path.name] = replay(load(path))
        except Exception as exc:  # noqa: BLE001 - a tool: report and go on
            print(f"{path.name}: {exc}", file=sys.stderr)
    REPLAYS_CACHE.write_text(json.dumps(out))
    return out


def step_checks(result: dict) -> dict:
    by = defaultdict(list)
    for c in result["expectations"]:
        by[c["step"] if c["step"] is not None else "final"].append(c)
    return by


# --- harvest the readings the traces say --------------------------------------

def add_statement(entry: dict, statement: dict) -> None:
    """A new record in a section: it replaces the section-wide "no rule here" record (not-a-rule, no sentence
    index) if there is one; every sentence's own record stays (dropping those lost other sweeps' work)."""
    entry["statements"] = [st for st in entry["statements"]
                           if not (st.get("status") == "not-a-rule" and st.get("s") is None)]
    entry["statements"].append(statement)


def harvest(fresh: bool) -> None:
    found: dict[tuple[str, tuple[str, ...]], dict] = {}
    for name, result in replays(fresh).items():
        checks = step_checks(result)
        for i, step in enumerate(result["steps"], 1):
            for e in step.get("trace", []):
                if not e["what"].startswith("reading: ") or not e.get("cite"):
                    continue
                # the second citation is the line's ``also`` (the passage it is read with), else one its rule names
                others = [c for c in dict.fromkeys(C.SECTION_ID.findall(e.get("also") or "") + C.SECTION_ID.findall(e["rule"]))
                          if c != e["cite"]]
                cites = (e["cite"], *(others or [e["cite"]]))
                rec = found.setdefault((e["cite"], cites), {"what": e["what"][len("reading: "):], "refs": []})
                if checks.get(i) and all(c["ok"] for c in checks[i]) and len(rec["refs"]) < 3:
                    ref = f"{name}#{i}"
                    if ref not in rec["refs"]:
                        rec["refs"].append(ref)
    docs = {doc: read_doc(doc) for doc in C.DOCUMENTS}
    table = C.corpus_sections()
    for (cite, cites), rec in sorted(found.items()):
        if not rec["refs"]:
            print(f"no passing step with an expectation says the reading of {cite}: {rec['what'][:80]}")
            continue
        data = docs[table[cite]["document"]]
        entry = next(e for e in data["sections"] if e["id"] == cite)
        same = [st for st in entry["statements"] if st.get("status") == "reading" and tuple(st.get("cites") or ()) == cites]
        if same:
            st = same[0]
            st["scenarios"] = list(dict.fromkeys([*st.get("scenarios", []), *rec["refs"]]))[:3]
        else:
            add_statement(entry, _ordered({"status": "reading", "scenarios": rec["refs"], "cites": list(cites),
                                           "note": "traced reading, e.g.: " + " ".join(rec["what"].split())}))
    for doc, data in docs.items():
        write_doc(doc, data)


# --- show and set -------------------------------------------------------------

def show(ids: list[str], fresh: bool) -> None:
    table = C.corpus_sections()
    results = replays(fresh)
    for sid in ids:
        row = table[sid]
        data = read_doc(row["document"])
        entry = next(e for e in data["sections"] if e["id"] == sid)
        by_s = defaultdict(list)
        for st in entry["statements"]:
            by_s[st.get("s")].append(st)
        print(f"=== {sid}  ({row['heading']})")
        for i, sentence in enumerate(C.sentences(row["text"]), 1):
            marks = ",".join(st["status"] for st in by_s.get(i, [])) or "-"
            print(f"  [{i}] {marks:10} {sentence}")
        for st in by_s.get(None, []):
            print(f"  [-] {st['status']:10} {st.get('note', '')[:150]}")
        print("  steps citing it, by the rule the trace states:")
        groups: dict[str, list[str]] = defaultdict(list)
        for name, result in results.items():
            checks = step_checks(result)
            for i, step in enumerate(result["steps"], 1):
                c = checks.get(i, [])
                state = "" if c and all(x["ok"] for x in c) else ("?" if not c else "!")
                if step.get("rejected") and step.get("cite") == sid:
                    groups["REFUSED: " + step["rejected"][:150]].append(f"{name}#{i}{state}")
                for rule in dict.fromkeys(f"{e.get('rule', '')[:110]} || {e['what'][:70]}"
                                          for e in step.get("trace", []) if e.get("cite") == sid):
                    groups[rule.split(" || ")[0]].append(f"{name}#{i}{state} ({rule.split(' || ')[1]})")
        for rule, refs in groups.items():
            print(f"    * {rule}  [{len(refs)}]")
            for ref in refs[:2]:
                print(f"        {ref}")


def set_status(sid: str, s: str, status: str, refs: list[str], note: str | None, cites: list[str]) -> None:
    table = C.corpus_sections()
    row = table[sid]
    data = read_doc(row["document"])
    entry = next(e for e in data["sections"] if e["id"] == sid)
    said = C.sentences(row["text"])
    key = None if s == "-" else int(s)
    same = [st for st in entry["statements"] if st.get("s") == key and (key is not None or st["status"] == status)]
    if same:
        st = same[0]
    else:
        st = {"s": key, "says": said[key - 1] if key else None}
        add_statement(entry, st)
    st["status"] = status
    if refs:
        st["scenarios"] = refs
    if note is not None:
        st["note"] = note
    if cites:
        st["cites"] = cites
    entry["statements"] = [_ordered(x) for x in entry["statements"]]
    write_doc(row["document"], data)


LETTERS = {"m": "modelled", "n": "not-a-rule", "o": "open", "x": "refused", "r": "reading"}


def apply(path: str) -> None:
    """Decisions in a compact text form, one section then its sentences::

        = sfr-2012:basic-terms
        3 m file.yaml#2 file.yaml#4 | what the step shows
        4-9 n | definitions
        * n | flavour          (every statement of the section still open)
    """
    sid = None
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("="):
            sid = line[1:].strip()
            continue
        head, _, note = line.partition("|")
        which, letter, *refs = head.split()
        status = LETTERS[letter]
        row = C.corpus_sections()[sid]
        if which == "*":
            data = read_doc(row["document"])
            entry = next(e for e in data["sections"] if e["id"] == sid)
            idx = [st["s"] for st in entry["statements"] if st.get("status") == "open" and st.get("s")]
        elif "-" in which and which != "-":
            a, b = which.split("-")
            idx = list(range(int(a), int(b) + 1))
        else:
            idx = [int(x) if x != "-" else "-" for x in which.split(",")]
        for i in idx:
            set_status(sid, str(i), status, refs, note.strip() or None, [])


def rehash(sid: str) -> None:
    row = C.corpus_sections()[sid]
    data = read_doc(row["document"])
    next(e for e in data["sections"] if e["id"] == sid)["hash"] = C.text_hash(row["text"])
    write_doc(row["document"], data)


# --- docs/readings.md ---------------------------------------------------------

def readings_markdown() -> str:
    """The readings page, generated from the 'reading' records only (tests compare it with the file)."""
    table = C.corpus_sections()
    lines = ["# The readings ddref has chosen",
             "",
             "Where a rule is ambiguous, or two passages or documents disagree, ddref applies one reading, says",
             "so in the trace (`reading: ...`, with both passages cited) and pins it with a scenario. This page",
             "lists every such reading, by edition and section, generated from the `reading` records of",
             "`corpus/conformance/` (`python -m tools.conformance readings`; a test fails when it drifts).",
             "`ddref coverage --status reading` prints the same list; `ddref rule ID` shows a section's records.",
             ""]
    editions = {"tsr-1996": "tsr-1996 (documents 000 and 004)", "sfr-v4": "sfr-v4 (documents 001 and 003)",
                "sfr-2012": "sfr-2012 (document 002)"}
    recs = C.records(status="reading")
    for edition, title in editions.items():
        mine = [r for r in recs if r.edition == edition]
        if not mine:
            continue
        lines += [f"## {title}", ""]
        for r in mine:
            heading = table[r.section]["heading"]
            cites = " read with ".join(f"`{c}`" for c in r.cites)
            lines.append(f"- **{heading}** (`{r.section}`"
                         + (f", sentence {r.s}" if r.s else "") + f"): {r.note}")
            if r.says:
                lines.append(f"  - The rule: \"{r.says}\"")
            lines.append(f"  - Citations: {cites}")
            lines.append("  - Scenario: " + ", ".join(f"`scenarios/{f}` step {s}" for f, s in r.scenarios))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m tools.conformance", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["seed", "harvest", "show", "set", "readings", "rehash", "apply", "spells", "sais"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--note")
    ap.add_argument("--cites", nargs="*", default=[])
    ap.add_argument("--fresh", action="store_true", help="replay the scenarios again (else a cache in /tmp)")
    a = ap.parse_args(argv)
    if a.command == "seed":
        seed()
    elif a.command == "harvest":
        harvest(a.fresh)
    elif a.command == "show":
        show(a.args, a.fresh)
    elif a.command == "set":
        sid, s, status, *refs = a.args
        set_status(sid, s, status, refs, a.note, a.cites)
    elif a.command == "sais":
        sais_pass(a.args)
    elif a.command == "spells":
        spells_pass(a.args)
    elif a.command == "apply":
        for path in a.args:
            apply(path)
    elif a.command == "rehash":
        for sid in a.args:
            rehash(sid)
    elif a.command == "readings":
        READINGS_MD.parent.mkdir(exist_ok=True)
        READINGS_MD.write_text(readings_markdown(), encoding="utf-8")


# --- a first pass for the spell entries, by trace citation -------------------------

CAST_ONLY = re.compile(r"^(magic\.(unspent|points|cast\b.*)|trace\..*)$")


def checked_steps(results: dict):
    """(scenario, step number, step) of every step whose expectations all hold and check more than the casting."""
    for name, result in results.items():
        checks = step_checks(result)
        for i, step in enumerate(result["steps"], 1):
            c = checks.get(i, [])
            if c and all(x["ok"] for x in c) and not all(CAST_ONLY.match(str(x["key"])) for x in c):
                yield name, i, step


def citing_steps(sid: str, results: dict) -> list[str]:
    """Passing steps whose trace cites ``sid`` and which check more than the casting (what the effect did)."""
    out = []
    for name, i, step in checked_steps(results):
        if any(e.get("cite") == sid for e in step.get("trace", [])) or step.get("cite") == sid:
            out.append(f"{name}#{i}")
    return out


def spells_pass(prefixes: list[str]) -> None:
    """Mark the target and effect sentences of each spell entry modelled by the steps citing the entry,
    leaving the multiplicity and once-per-action sentences open (a step must cast it twice to pin them)."""
    results = replays()
    table = C.corpus_sections()
    for sid, row in table.items():
        if not any(sid.startswith(p) for p in prefixes):
            continue
        refs = citing_steps(sid, results)
        data = read_doc(row["document"])
        entry = next(e for e in data["sections"] if e["id"] == sid)
        for st in entry["statements"]:
            if st.get("status") != "open" or not st.get("s"):
                continue
            says = st["says"]
            if re.search(r"Multiple castings|only once per|can be cast only once", says):
                st["note"] = "multiplicity: not pinned by a step casting it twice"
                continue
            if refs:
                st["status"] = "modelled"
                st["scenarios"] = refs[:2]
                st["note"] = ("first pass by trace citation: these steps cite this spell and check its effect; "
                              "its duration's end is pinned only where a step says so (review: tools/conformance.py "
                              "spells_pass)")
        write_doc(row["document"], data)



KINDS = ("maneuver", "melee", "missile", "magic", "save", "dragon")


def sais_pass(prefixes: list[str]) -> None:
    """For each SAI entry, a sentence saying what the SAI does in some kind of roll ("During a melee attack
    ...") is marked modelled by the passing steps whose trace cites the entry in that kind of roll."""
    results = replays()
    table = C.corpus_sections()
    for sid, row in table.items():
        if not any(sid.startswith(p) for p in prefixes):
            continue
        events = []
        for name, i, step in checked_steps(results):
            said = " ".join(f"{e['what']} {e.get('rule', '')}" for e in step.get("trace", []) if e.get("cite") == sid)
            if said:
                if step.get("kind") == "dragon_attack":
                    events.append((f"{name}#{i}", {"dragon"}))
                    continue
                seen = f"{said} {step.get('kind', '')} {json.dumps(step.get('results', {}))}".lower()
                events.append((f"{name}#{i}", {k for k in KINDS if k in seen and k != "dragon"}))
        data = read_doc(row["document"])
        entry = next(e for e in data["sections"] if e["id"] == sid)
        for st in entry["statements"]:
            if str(st.get("note", "")).startswith("first pass by trace citation: these steps cite this SAI"):
                st["status"], st["scenarios"], st["note"] = "open", [], None
            if st.get("status") != "open" or not st.get("s"):
                continue
            m = re.search(r"\b(?:During|When rolled during|Whenever) ([^,;.]+)", st["says"])
            if not m:
                continue
            wanted = {k for k in KINDS if k in m.group(1).lower()}
            refs = [ref for ref, kinds in events if wanted & kinds][:2]
            if refs:
                st["status"] = "modelled"
                st["scenarios"] = refs
                st["note"] = ("first pass by trace citation: these steps cite this SAI in a "
                              f"{'/'.join(sorted(wanted))} roll and their expectations hold (review: tools/conformance.py sais_pass)")
        write_doc(row["document"], data)


if __name__ == "__main__":
    main()
