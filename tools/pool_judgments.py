"""Pooled relevance judgments for the relevance set (issue 23): the ranking's unlisted hits, judged.

    python -m tools.pool_judgments pool POOL.yaml               # both halves' pairs to judge, shuffled
    python -m tools.pool_judgments merge POOL.yaml JUDGED.yaml  # the judgments into the two halves

A question's writer lists the records that answer it as they found them in the books; a record
they did not list may answer it as well, and a hit on it is then an answer the figures miss. So,
as the TREC evaluations pool their systems' results, every hit the ranking puts in a question's
first three, above its first listed answer and not judged yet, is one pair to judge: the question
and the record's text, without its rank, its half or the listed answers (the two halves' pairs are
shuffled together). The tuning half is pooled as ``bench/asked_cv.py`` ranks it: each question on
an index asked only the other folds' questions, as a new question is. Every index is built in a
temporary cache directory, never the user's.

A reader answers each pair from the record's text alone (the brief: docs/relevance-judging.md):
``answers: yes`` with the words that settle the question (``quote``, checked in the record's own
text) and a reason (``why``), or ``answers: no``. Each pair should be judged by two readers, each
given the pairs alone, and by a third where they differ, the majority merged (docs/search.md,
seventeenth pass). Merging writes a yes under the question's ``also`` and a no under its
``not_answering`` (a pair judged again takes its new judgment), in place in
``corpus/questions/tuning.yaml`` or ``tests/relevance/heldout.yaml`` (comments kept), so a pair is
judged once.
"""

from __future__ import annotations

import os
import random
import re
import sys
import tempfile
from pathlib import Path

import yaml

from index.corpus import parse_yaml, read_yaml
from tools.check_relevance_set import ALSO_KEYS, HALF_FILES, ROOT, answers_to, flat, quoted_pieces, ref_text, shown

POOL_DEPTH = 3  # the figure the targets are hardest on: P@3


def _ranked(half: str) -> dict[str, list[tuple[str, list[str]]]]:
    """Question -> its first hits, each its lead ref and every ref it stands for."""
    sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "tests")]
    if half == "tuning":
        from asked_cv import cross_validated

        return cross_validated(5, min(4, os.cpu_count() or 1))
    from relevance_metrics import load, ranked_refs

    return ranked_refs(load(half), POOL_DEPTH)


def pool(out: Path) -> int:
    """Write the unjudged pairs of both halves to ``out``, shuffled together; return how many."""
    os.environ["DDREF_CACHE_DIR"] = tempfile.mkdtemp(prefix="ddref-pool-")
    pairs = []
    for half, path in HALF_FILES.items():
        questions = {q["q"]: q for q in read_yaml(path)}
        for text, hits in _ranked(half).items():
            q = questions[text]
            judged = answers_to(q) | set(q.get("not_answering", ()))
            for lead, refs in hits[:POOL_DEPTH]:
                if set(refs) & judged:
                    break  # the first listed answer: what lies below it moves no figure
                title, body = shown()[lead]
                pairs.append({"q": text, **{k: q[k] for k in ("edition", "type") if k in q},
                              "ref": lead, "title": title, "text": body})
    random.Random(23).shuffle(pairs)
    pairs = [{"pair": f"p{n}", **pair} for n, pair in enumerate(pairs, 1)]
    out.write_text(yaml.safe_dump(pairs, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return len(pairs)


def merge(pool_file: Path, judged_file: Path, files=tuple(HALF_FILES.values())) -> list[str]:
    """Write each judgment of ``judged_file`` under its question in ``files``; return the problems
    (nothing is written when there are any)."""
    pairs = {p["pair"]: p for p in read_yaml(pool_file)}
    texts = {path: path.read_text(encoding="utf-8") for path in files}
    where = {q["q"]: path for path, text in texts.items() for q in parse_yaml(text)}
    found: dict[str, dict[str, list]] = {}
    problems = []
    for j in read_yaml(judged_file):
        pair = pairs.get(str(j.get("pair")))
        answers = {True: True, "yes": True, False: False, "no": False}.get(j.get("answers"))
        if pair is None or answers is None or pair["q"] not in where:
            problems.append(f"{j!r}: needs a pair of the pool and answers: yes or no")
            continue
        said = found.setdefault(pair["q"], {"also": [], "not_answering": []})
        if answers:
            also = {"ref": pair["ref"], "why": j.get("why", ""), "quote": j.get("quote", "")}
            missing = [p for p in quoted_pieces(also["quote"]) if p not in flat(ref_text(pair["ref"]))]
            if not all(str(also[k]).strip() for k in ALSO_KEYS) or missing:
                problems.append(f"{j['pair']}: a yes needs why and a quote from {pair['ref']} ({missing})")
            said["also"].append(also)
        else:
            said["not_answering"].append(pair["ref"])
    if problems:
        return problems
    for path in files:
        lines = texts[path].splitlines()
        starts = {parse_yaml(line[2:])["q"]: i for i, line in enumerate(lines) if line.startswith("- q:")}
        # from the last entry up, so that the lines added never move an entry still to come
        for q in sorted((q for q in found if where[q] == path), key=starts.__getitem__, reverse=True):
            lines = _with_judgments(lines, starts[q], found[q])
        written = path.with_name(path.name + ".tmp")  # whole or not at all
        written.write_text("\n".join(lines) + "\n", encoding="utf-8")
        written.replace(path)
    return []


def _with_judgments(lines: list[str], start: int, said: dict[str, list]) -> list[str]:
    """The file's lines with ``said`` added to the entry beginning at line ``start`` (its own lines only)."""
    end = next((i for i in range(start + 1, len(lines))
                if not lines[i].startswith(" ") or not lines[i].strip()), len(lines))
    entry = parse_yaml("\n".join(lines[start:end]))[0]
    now = {a["ref"] for a in said["also"]} | set(said["not_answering"])  # a pair judged again: the new word
    also = [a for a in entry.get("also", []) if a["ref"] not in now] + said["also"]
    never = [r for r in entry.get("not_answering", []) if r not in now] + said["not_answering"]
    kept = _without_keys(lines[start:end], ("also", "not_answering"))
    block = yaml.dump({k: v for k, v in (("also", also), ("not_answering", never)) if v}, Dumper=_Indented,
                      sort_keys=False, allow_unicode=True, width=110)
    return lines[:start] + kept + ["  " + line for line in block.splitlines()] + lines[end:]


class _Indented(yaml.SafeDumper):
    """Lists indented under their key, as the relevance set writes them."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def _without_keys(entry: list[str], keys: tuple[str, ...]) -> list[str]:
    """An entry's lines without the blocks of ``keys`` (a key line and the lines indented under it)."""
    kept, skipping = [], False
    for line in entry:
        if re.match(r"  [a-z_]+:", line):
            skipping = line.strip().split(":", 1)[0] in keys
        if not skipping:
            kept.append(line)
    return kept


def main(argv: list[str]) -> int:
    try:
        if len(argv) == 2 and argv[0] == "pool":
            print(f"{pool(Path(argv[1]))} pairs to judge in {argv[1]}")
            return 0
        if len(argv) == 3 and argv[0] == "merge":
            problems = merge(Path(argv[1]), Path(argv[2]))
            print("\n".join(problems) or "merged")
            return 1 if problems else 0
    except (OSError, yaml.YAMLError, TypeError, KeyError) as e:  # a file missing, unreadable or not a list of pairs
        print(f"pool_judgments: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
