"""Build corpus/ from corpus/raw/: normalized sources, section trees, records.

Run from the repository root:  python -m tools.corpus.build  [--check]

``--check`` rebuilds in memory and fails if any committed corpus file differs,
so a change to an extractor cannot land without its regenerated data.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from engine.records import Record

from .context import Context
from .documents import DOCUMENTS
from .normalize import normalize
from .sections import split_sections

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "corpus"

# record file -> extractor module (each has ``extract(ctx) -> list[Record]``)
EXTRACTORS = {
    "spells": "spells",
    "sais": "sais",
    "races": "races",
    "units": "units",
    "terrains": "terrains",
    "eighth_faces": "terrains",
    "dragons": "dragons",
    "rulings": "rulings",
    "glossary": "glossary",
}


def build_context() -> Context:
    texts, sections, starts = {}, {}, {}
    for doc in DOCUMENTS:
        raw = (CORPUS / "raw" / doc.file).read_text(encoding="utf-8")
        texts[doc.id] = normalize(doc.id, raw)
        spans = split_sections(doc, texts[doc.id])
        sections[doc.id] = [s for s, _ in spans]
        starts[doc.id] = [start for _, start in spans]
    return Context(texts=texts, sections=sections, starts=starts)


def _dump(records: list[Record]) -> str:
    rows = [r.model_dump(mode="json") for r in records]
    return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"


def render(ctx: Context, only: str | None = None) -> dict[Path, str]:
    """Every corpus file, path -> content (with ``only``: that record file alone)."""
    out: dict[Path, str] = {}
    for doc in DOCUMENTS if only is None else ():
        out[CORPUS / "sources" / f"{doc.id}.txt"] = ctx.texts[doc.id]
        out[CORPUS / "sections" / f"{doc.id}.json"] = _dump(ctx.sections[doc.id])
    if only is None:
        out[CORPUS / "records" / "documents.json"] = _dump(list(DOCUMENTS))
    for name, module in EXTRACTORS.items():
        if only not in (None, name):
            continue
        mod = importlib.import_module(f"tools.corpus.{module}")
        extract = getattr(mod, "extract" if name != "eighth_faces" else "extract_eighth_faces")
        records = ctx.extracted[name] = extract(ctx)
        _check_unique(name, records)
        out[CORPUS / "records" / f"{name}.json"] = _dump(records)
    return out


def _check_unique(name: str, records: list[Record]) -> None:
    seen = set()
    for r in records:
        key = (getattr(r, "edition", None), r.id)
        if key in seen:
            raise ValueError(f"{name}: duplicate id {key}")
        seen.add(key)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if corpus/ is out of date")
    ap.add_argument("--only", choices=sorted(EXTRACTORS), help="extract and write one record file only")
    args = ap.parse_args(argv)
    files = render(build_context(), only=args.only)
    stale = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if args.check:
        for p in stale:
            print(f"out of date: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if stale else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(files[p], encoding="utf-8")
    print(f"corpus: {len(files)} files, {len(stale)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
