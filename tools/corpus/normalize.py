"""Normalize the five raw rule documents into clean UTF-8 text.

What is repaired, and why (each repair is checked by tests/test_corpus_sources.py):

* 000 (TSR 1996) went through a Mac-Roman round trip: ``Õ`` stands for an
  apostrophe, em dashes became a bare hyphen between two words
  ("terrain-the land") or a hyphen before a space ("common- provide"), a
  line-break hyphen survived in "rep-resents", and runs of no-break spaces
  are the debris of tables.
* 001 (SFR v4) carries Markdown bold (``**``), HTML italics (``<i>``) and
  tab-aligned table columns.
* 002 (SFR 2012) carries bold markers around spell and SAI names, a
  "TSR" logo caption glued to two SAI names, dash-only table rows, and
  spell headings in three layouts; the spell headings are unified to
  ``Name`` / ``Casting Cost: N`` / ``Spell List: X`` lines.
* 004 (TSR FAQ) is one line: it is split into its three parts, its topics
  and its lettered rulings, one per line.

Typographic quotes become ASCII quotes in every document, so that a search
for "can't" finds every edition's text. Copyright lines are kept as written.
"""

from __future__ import annotations

import re
import unicodedata

# 000: hyphens that were em dashes (word-word pairs that are not compounds).
_TSR_DASHED = (
    "effect-if any-on", "can-if they want-oppose", "charge-it counts",
    "charged-or could", "color-even if", "game-including armies",
    "icon-city,", "killed-if you", "killed-it's", "magic-not one",
    "melee-including a", "reserve-any spells", "results-they've",
    "rolls-such as", "swampland-each with", "terrain-the land",
    "tower-as defined", "types-coastland", "units-both the",
    "units-two uncommons", "common- provide", "reserves- except",
)

_QUOTES = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'}


def _fix_quotes(text: str) -> str:
    for bad, good in _QUOTES.items():
        text = text.replace(bad, good)
    return text


def _tidy_lines(text: str) -> str:
    """Strip trailing blanks, drop dash-only table rows, squeeze blank runs."""
    lines = []
    for line in text.split("\n"):
        line = line.rstrip()
        if re.fullmatch(r"[\s\-]*-[\s\-]*", line) and "-" in line and len(line.strip()) < 40:
            continue  # table rule such as "---\t--\t---"
        lines.append(line)
    text = "\n".join(lines)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def normalize_tsr_rules(raw: str) -> str:
    """000: repair the Mac-Roman and layout damage."""
    text = raw.replace("\u00d5", "'")  # Mac-Roman 0xD5 read as Latin-1: right single quote
    for phrase in _TSR_DASHED:
        fixed = re.sub(r"(\w)- ?(\w)", "\\1\u2014\\2", phrase, count=2)
        text = text.replace(phrase, fixed)
    text = text.replace("rep-resents", "represents")
    text = re.sub(r"[ \u00a0]*\u00a0[ \u00a0]*", lambda m: "\t" if len(m.group()) > 2 else " ", text)
    return _tidy_lines(_fix_quotes(text))


def normalize_v4_starter(raw: str) -> str:
    """001: drop Markdown bold and HTML italics, keep table columns as tabs."""
    text = raw.replace("**", "")
    text = re.sub(r"(?<=\.)\*(?=\s|$)", "", text)  # the stray closing '*' of a bold run
    text = re.sub(r"</?i>", "", text)
    text = re.sub(r"\*([A-Za-z][^*\n]{0,40}?[a-z:])\*", r"\1", text)  # *emphasis*
    return _tidy_lines(_fix_quotes(text))


_SPELL_INLINE = re.compile(
    r"^(?:- )?(?P<name>[A-Z][^\n*]*?)\*{0,2} Casting Cost: (?P<cost>\d+) Spell List: (?P<list>[^\n]+)$",
    re.M,
)


def normalize_sfr_rules(raw: str) -> str:
    """002: drop bold markers and logo captions, unify the spell headings."""
    # the "TSR" logo caption glued to the three medallion SAI names
    text = raw.replace("**TSR****", "").replace("TSR SFR/TSR Logo (Bronze", "SFR/TSR Logo (Bronze")
    text = text.replace("Gold (Earth) Spells**Stoneskin**", "Gold (Earth) Spells\n\nStoneskin")
    text = _SPELL_INLINE.sub(
        lambda m: f"{m['name'].strip()}\nCasting Cost: {m['cost']}\nSpell List: {m['list'].strip()}",
        text,
    )
    text = re.sub(r"^(?P<name>[A-Z][^\n]{2,40})\n\n(Casting Cost: \d+)\n\n(Spell List: )", r"\1\n\2\n\3", text, flags=re.M)
    text = text.replace("**", "")
    text = re.sub(r"^(The [A-Z][a-z]+(?: [A-Z][a-z]+)?: )\*", r"\1", text, flags=re.M)  # italic opener of race lore
    text = re.sub(r"^\t+$", "", text, flags=re.M)
    return _tidy_lines(_fix_quotes(text))


def normalize_v4_multiplayer(raw: str) -> str:
    """003: quotes only; the text is otherwise clean."""
    return _tidy_lines(_fix_quotes(raw))


# 004: the parts and topics, in document order, as they open in the one-line text.
FAQ_PARTS = ("AMAZONS", "MONSTERS", "MONSTER SPECIAL ACTION ICONS")
FAQ_TOPICS = (
    ("AMAZONS", "Maneuvers as Missiles"),
    ("AMAZONS", "Amazonian Magic"),
    ("AMAZONS", "Amazons in Reserves"),
    ("MONSTERS", "General Rules"),
    ("MONSTERS", "Sprite Swarm"),
    ("MONSTER SPECIAL ACTION ICONS", "General Rules"),
    *(
        ("MONSTER SPECIAL ACTION ICONS", name)
        for name in (
            "Charm", "Confuse", "Dispel Magic", "Double Strike", "Entangle", "Ferry",
            "Flame", "Illusion", "Kick", "Poison", "Regenerate", "Roar", "Screech",
            "Smother", "Stone", "Swoop", "Web",
        )
    ),
)
_FAQ_INTRO_END = "Notes on individual monster special action icons follow."


def normalize_faq(raw: str) -> str:
    """004: split the one-line FAQ into parts, topics and lettered rulings.

    Output layout: the header paragraphs, then per part a line ``*** PART``
    (the FAQ's own part divider, kept as printed),
    per topic a line ``Topic`` (an SAI topic keeps its definition on the
    following line), and each ruling ``X) text`` on its own line.
    """
    text = _fix_quotes(raw).strip()
    rule = "-" * 80
    text = text.replace(f" {rule} ", "\n\n")
    for part in FAQ_PARTS:
        text = text.replace(f" *** {part} ", f"\n\n*** {part}\n\n", 1)
    # Topics: each begins where the previous ruling ends; search from the left.
    pos = 0
    for part, topic in FAQ_TOPICS:
        start = text.index(f"*** {part}\n")
        pos = max(pos, start)
        if topic == "General Rules" or text.startswith(topic, text.index("\n\n", pos) + 2):
            anchor = text.index(f"{topic} ", pos)
        else:
            anchor = _find_topic(text, topic, pos)
        head, tail = text[:anchor].rstrip(), text[anchor + len(topic):].lstrip(" :")
        text = f"{head}\n\n{topic}\n\n{tail}"
        pos = len(head) + 2 + len(topic)
    # the MONSTER SPECIAL ACTION ICONS part's intro sentence ends its ruling D
    text = text.replace(f" {_FAQ_INTRO_END}", f"\n\n{_FAQ_INTRO_END}")
    # Lettered rulings and the numbered list inside one of them stay in text;
    # a ruling letter opens a new line when it follows sentence punctuation.
    text = re.sub(r"(?<=[.,\"!)]) (?=[A-H]\) [A-Z\"])", "\n", text)
    text = re.sub(r"(?<=\S) (?=A\) )", "\n", text)
    return _tidy_lines(text)


def _find_topic(text: str, topic: str, pos: int) -> int:
    """The topic heading follows the end of a sentence ("... hits. Charm: ...")."""
    m = re.compile(r"(?<=[.\"!?)1] )" + re.escape(topic) + r"(?=[ :])").search(text, pos)
    if not m:
        raise ValueError(f"FAQ topic {topic!r} not found after offset {pos}")
    return m.start()


NORMALIZERS = {
    "000": normalize_tsr_rules,
    "001": normalize_v4_starter,
    "002": normalize_sfr_rules,
    "003": normalize_v4_multiplayer,
    "004": normalize_faq,
}


def normalize(doc: str, raw: str) -> str:
    text = unicodedata.normalize("NFC", NORMALIZERS[doc](raw))
    return text
