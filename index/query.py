"""The search query language, parsed into a plain value (no whoosh here).

    wall of fog                  free words (ranked: records matching more words first)
    "missile damage"             a phrase, required
    -terrain  -"dead unit"       excluded words and phrases ("-1" and "+2" are minus 1 and plus 2)
    type:spell  edition:v4       what kind of record, which edition (type:spell,sai for either)
    color:green  race:selumari   facets (a race by any name or alias)
    cost:3 cost<=4 cost>=5       spell cost (also < > =)
    reserve:yes  cantrip:no      spell flags
    name:fog  name:"wall of"     words of the record's name
    story:yes                    also the books' story text and front matter (left out otherwise)

Anything that cannot be understood (an unknown field, a bad value, an
unclosed quote) is left out and named in ``warnings``; parsing never fails.
"""

from __future__ import annotations

from engine.names import typed
import re
from dataclasses import dataclass, field

MAX_COST = 1_000_000
FIELDS = ("type", "edition", "color", "race", "cost", "reserve", "cantrip", "name", "story")

TYPE_NAMES = {
    "spell": "spell", "spells": "spell", "sai": "sai", "sais": "sai", "icon": "sai",
    "rule": "rule", "rules": "rule", "section": "rule", "sections": "rule",
    "ruling": "ruling", "rulings": "ruling", "faq": "ruling",
    "glossary": "glossary", "term": "glossary", "terms": "glossary",
    "race": "race", "races": "race", "unit": "unit", "units": "unit",
}
EDITION_NAMES = {
    "sfr-2012": "sfr-2012", "sfr2012": "sfr-2012", "2012": "sfr-2012",
    "sfr-v4": "sfr-v4", "sfrv4": "sfr-v4", "v4": "sfr-v4",
    "tsr-1996": "tsr-1996", "tsr1996": "tsr-1996", "1996": "tsr-1996", "tsr": "tsr-1996",
}
BOOLEANS = {"yes": "yes", "y": "yes", "true": "yes", "1": "yes", "no": "no", "n": "no", "false": "no", "0": "no"}
NUMERIC_OPS = {":": "=", "=": "=", "<=": "<=", ">=": ">=", "<": "<", ">": ">"}

TOKEN = re.compile(
    r"""(?P<neg>-)?
        (?:(?P<field>[A-Za-z_]+)(?P<op><=|>=|:|=|<|>)(?=\S))?
        (?:"(?P<quoted>[^"]*)(?P<close>")?|(?P<bare>[^\s"]+))""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Filter:
    """``field op value``: an exact facet, or a cost comparison; ``negated`` excludes it."""

    field: str
    op: str
    value: str
    negated: bool = False


@dataclass(frozen=True)
class Query:
    """What a query string asks for, once understood."""

    words: tuple[str, ...] = ()
    phrases: tuple[str, ...] = ()
    name_words: tuple[str, ...] = ()
    name_phrases: tuple[str, ...] = ()
    not_words: tuple[str, ...] = ()
    not_phrases: tuple[str, ...] = ()
    filters: tuple[Filter, ...] = ()
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def has_text(self) -> bool:
        return bool(self.words or self.phrases or self.name_words or self.name_phrases)

    def values(self, name: str, negated: bool = False) -> tuple[str, ...]:
        return tuple(f.value for f in self.filters if f.field == name and f.negated == negated)


def parse(text: str) -> Query:
    """Parse a query string; never raises."""
    parts: dict[str, list] = {k: [] for k in ("words", "phrases", "name_words", "name_phrases",
                                               "not_words", "not_phrases", "filters", "warnings")}
    for match in TOKEN.finditer(text):
        _token(match, parts)
    return Query(**{k: tuple(v) for k, v in parts.items()})


SIGNED_NUMBER = re.compile(r"[-+]\d+")


def _token(m: re.Match, parts: dict[str, list]) -> None:
    negated, name = bool(m["neg"]), (m["field"] or "").lower()
    quoted, value = m["quoted"] is not None, (m["quoted"] if m["quoted"] is not None else m["bare"])
    if not name and not quoted and SIGNED_NUMBER.fullmatch(m.group(0)):
        # "-1" and "+2" are a penalty and a bonus ("ash storm -1"), not an excluded word
        parts["words"] += ["minus" if m.group(0)[0] == "-" else "plus", m.group(0)[1:]]
        return
    if quoted and m["close"] is None:
        parts["warnings"].append(f"unclosed quote: read {typed(value.strip())} as a phrase")
    if not name:
        _text(value, quoted, negated, "", parts)
    elif name not in FIELDS:
        parts["warnings"].append(f"unknown field {typed(name)} ignored (fields: {', '.join(FIELDS)}); "
                                 f"ignored {typed(m.group(0))}")
    elif name == "name":
        _text(value, quoted, negated, "name_", parts)
    else:
        _filter(name, m["op"], value.strip(), negated, parts)


def _text(value: str, quoted: bool, negated: bool, prefix: str, parts: dict[str, list]) -> None:
    value = value.strip()
    if not value:
        return
    if negated and prefix:
        parts["warnings"].append(f"'-name:' is not supported; ignored -name:{value}")
        return
    found = re.findall(r"[A-Za-z0-9]+", value)
    if quoted and len(found) > 1:
        parts[("not_" if negated else prefix) + "phrases"].append(value)
    else:
        parts[("not_" if negated else prefix) + "words"].extend(found)


def _filter(name: str, op: str, value: str, negated: bool, parts: dict[str, list]) -> None:
    warn = parts["warnings"].append
    if name == "cost":
        if op not in NUMERIC_OPS or not (value.isascii() and value.isdigit()):
            warn(f"cost needs a number, as in cost:3, cost<=4 or cost>=5; ignored cost{op}{value}")
            return
        # no spell costs a million: a larger bound compares the same and still fits SQLite's integers
        parts["filters"].append(Filter(name, NUMERIC_OPS[op], str(min(int(value), MAX_COST)), negated))
        return
    if op not in (":", "="):
        warn(f"{name} takes ':' not {typed(op)}; ignored {name}{op}{value}")
        return
    for item in filter(None, (v.strip().lower() for v in value.split(","))):
        checked = _value(name, item)
        if checked is None:
            warn(f"unknown {name} {typed(item)} ignored{_expected(name)}")
        elif checked != "all":
            parts["filters"].append(Filter(name, ":", checked, negated))


def _value(name: str, value: str) -> str | None:
    """The canonical value of a facet, or None when it is not one (race and color are checked later)."""
    if name == "type":
        return TYPE_NAMES.get(value)
    if name == "edition":
        return "all" if value == "all" else EDITION_NAMES.get(value)
    if name in ("reserve", "cantrip", "story"):
        return BOOLEANS.get(value)
    return value


def _expected(name: str) -> str:
    choices = {"type": sorted(set(TYPE_NAMES.values())), "edition": ["sfr-2012", "sfr-v4", "tsr-1996", "all"],
               "reserve": ["yes", "no"], "cantrip": ["yes", "no"], "story": ["yes", "no"]}.get(name)
    return f" (expected one of: {', '.join(choices)})" if choices else ""
