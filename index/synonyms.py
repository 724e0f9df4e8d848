"""Players' words for what the books call otherwise: "cancel" a spell is to negate it.

``SYNONYMS`` maps a word a player types (or its stem) to the book's words; the
search adds them as further spellings of that word, at ``WEIGHTS`` (less than
the word itself: 0.9 unless said). An entry of several words is a phrase that
must stand in the text as a whole. ``PHRASES`` does the same for two words
typed together ("shoots back"). Only pairs that mean the same in Dragon Dice
belong here; each slang pair of issue 23 is named there.
"""

from __future__ import annotations

from .analysis import stem

SYNONYMS: dict[str, tuple[str, ...]] = {
    "cancel": ("negate", "dispel"),
    "dispel": ("negate",),
    "counterspell": ("negate", "dispel"),
    "minus": ("subtract",),
    "reduce": ("subtract",),
    "decrease": ("subtract",),
    "plus": ("add",),
    "give": ("add", "gain"),
    "gives": ("add", "gain"),
    "increase": ("add",),
    "bonus": ("add",),
    "kill": ("slay",),
    "slay": ("kill",),
    "destroy": ("kill", "slay"),
    "half": ("halve",),
    "halve": ("half",),
    "twice": ("double",),
    "every": ("all",),
    "revive": ("resurrect",),
    "raise": ("resurrect",),
    "heal": ("resurrect",),
    "graveyard": ("dua", "dead"),
    "die": ("unit",),
    "dice": ("units",),
    "flee": ("retreat",),
    "attacker": ("acting",),
    "defender": ("defending",),
    # issue 23's slang: shoot/fire for missile, rez for resurrect, pay for spending points,
    # jump/teleport for moving to another terrain, ordinals in figures
    "shoot": ("missile",),
    "shot": ("missile",),
    "fire": ("missile",),
    "archer": ("missile",),
    "rez": ("resurrect", "reanimate", "return"),
    "res": ("resurrect", "reanimate", "return"),
    "resurrect": ("reanimate",),
    "pay": ("spend", "spent", "cost", "points"),
    "jump": ("move", "teleport", "other terrain"),
    "teleport": ("move", "other terrain"),
    "1st": ("first",),
    "2nd": ("second",),
    "3rd": ("third",),
    "4th": ("fourth",),
    "5th": ("fifth",),
    "6th": ("sixth",),
    "7th": ("seventh",),
    "8th": ("eighth",),
    "eighth": ("8th",),  # the players' words write "8th face": either spelling finds both
    # plain table talk
    "dmg": ("damage",),
    "hp": ("health",),
    "guy": ("unit",),
    "guys": ("units",),
    "troops": ("units",),
    # table talk measured on the eighteenth pass's questions (docs/search.md)
    "cant": ("cannot",),  # "can't" typed without its apostrophe
    "auto": ("automatic",),
    "shooter": ("missile",),
    "shooters": ("missile",),
    "opponent": ("enemy", "opposing"),
    "colour": ("color",),
    "color": ("colour",),  # the books write "color", players (and their words in corpus/words/) "colour" too
    # table talk for the books' verbs
    "last": ("until", "expire", "duration"),
    "lasts": ("until", "expire", "duration"),
    "stay": ("remain", "until"),
    "stays": ("remain", "until"),
    "hit": ("damage", "inflict"),
    "hits": ("damage", "inflict"),
    "hurt": ("damage", "inflict"),
    "extra": ("add", "additional"),
    "stop": ("prevent", "cannot", "negate"),
    "stops": ("prevent", "cannot", "negate"),
    "prevent": ("cannot",),
    "steal": ("control", "take"),
    "borrow": ("control", "add"),
    "start": ("beginning", "begin"),
    "starts": ("beginning", "begin"),
    "reroll": ("roll again", "rolled again"),
    "rerolls": ("roll again", "rolled again"),
    "rerolling": ("roll again", "rolled again"),
    "escape": ("flee", "move"),
    "escapes": ("flee", "move"),
    "stack": ("cumulative", "multiple castings"),  # "do two Palsies stack": the books' "are cumulative"
    "stacks": ("cumulative", "multiple castings"),
    "stacking": ("cumulative", "multiple castings"),
    "till": ("until",),
    "mid": ("during",),
    "swap": ("exchange", "trade"),
    "switch": ("exchange", "trade"),
    # players' shorthand for the books' terms (issue 23, sixth pass); each term is the books' own:
    # "dice modifiers", "automatic saves" (Dragonkin, dragons' bellies), "counter-attack" (Counter,
    # Surprise), "cannot be targeted" (Illusion, the reserves), "Sacrifice Dragonkin" (Eldarim),
    # "points" of a force; the missile units are the books' Bowman, Archer, Crossbowman, and a
    # terrain's missile face shows an arrow
    "mods": ("modifier",),
    "mod": ("modifier",),
    "pts": ("points",),
    "sac": ("sacrifice",),
    "autosave": ("automatic save",),
    "autosaves": ("automatic save",),
    "counterattack": ("counter attack",),
    "counterattacks": ("counter attack",),
    "untargetable": ("cannot target",),
    "untargettable": ("cannot target",),
    "bowman": ("missile",),
    "bowmen": ("missile",),
    "ranged": ("missile",),
    "arrow": ("missile",),
    "arrows": ("missile",),
    # misspellings that are English words, so the spelling corrector rightly keeps them: ask for the
    # game word too ("lightening strike" is Lightning Strike; the books never write "lightening")
    "lightening": ("lightning",),
}

# figures and number words: the books write both ("4 health", "four health-worth"); one-digit
# figures are too short to be indexed, so they are searched as their words
NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve".split()
for _n, _word in enumerate(NUMBERS):
    SYNONYMS.setdefault(str(_n), (_word,))
    if _n >= 10:  # two-digit figures are indexed: "twelve" finds "12" too
        SYNONYMS.setdefault(_word, (str(_n),))

# English verbs whose forms Porter's stemmer leaves apart: the books write "kept", "slain", "spent",
# "chosen"; a player asks with "keep", "slay", "spend", "choose" (and the other way round)
IRREGULAR = (
    "keep kept", "go went gone goes", "take took taken", "choose chose chosen", "lose lost",
    "fly flew flown flies", "give gave given", "bring brought", "fall fell fallen", "fight fought",
    "find found", "hold held", "lead led", "leave left", "make made", "run ran", "see saw seen",
    "slay slew slain", "strike struck stricken", "throw threw thrown", "win won", "draw drew drawn",
    "rise rose risen", "deal dealt", "spend spent", "send sent", "flee fled", "die dead died",
    "shoot shot", "get got gotten", "pay paid", "begin began begun", "become became",
)
for _forms in IRREGULAR:
    _all = _forms.split()
    for _form in _all:
        SYNONYMS[_form] = tuple(dict.fromkeys((*SYNONYMS.get(_form, ()), *(f for f in _all if f != _form))))

# the weight of a synonym where 0.9 would say too much: "fire" is as often the element as shooting
WEIGHTS: dict[tuple[str, str], float] = {
    ("fire", "missile"): 0.6,
    ("rez", "return"): 0.5,
    ("res", "return"): 0.5,
    ("jump", "move"): 0.7,
    ("pay", "points"): 0.6,
    ("teleport", "move"): 0.7,
    ("8th", "eighth"): 1.0, ("1st", "first"): 1.0, ("2nd", "second"): 1.0, ("3rd", "third"): 1.0,
    ("eighth", "8th"): 1.0, ("4th", "fourth"): 1.0, ("5th", "fifth"): 1.0, ("6th", "sixth"): 1.0, ("7th", "seventh"): 1.0,
    ("dmg", "damage"): 1.0, ("colour", "color"): 1.0, ("lightening", "lightning"): 1.0, ("color", "colour"): 1.0,
    ("die", "dead"): 0.6, ("die", "died"): 0.9, ("dead", "die"): 0.6, ("dead", "died"): 0.6,
    ("died", "dead"): 0.9, ("die", "unit"): 0.9,
}
DEFAULT_WEIGHT = 0.9

# two words typed together -> the book's word for them; a pair is matched by its words' stems, so
# every form of the verb counts ("shoots back", "shooting back", "knocked out", "knocks out")
PHRASES: dict[tuple[str, str], tuple[str, ...]] = {
    ("run", "away"): ("flee", "retreat", "rout"),
    ("wear", "off"): ("expire",),
    ("bring", "back"): ("return", "resurrect"),
    ("come", "back"): ("return",),
    ("go", "back"): ("return",),
    ("shoot", "back"): ("volley",),
    ("fire", "back"): ("volley",),
    ("hit", "back"): ("counter",),
    ("strike", "back"): ("counter",),
    # English phrasal verbs whose meaning is none of their words' (issue 23, ninth pass)
    ("wipe", "out"): ("eliminated",),
    ("knock", "out"): ("eliminated",),
    ("shut", "down"): ("negate", "dispel"),
    ("pull", "back"): ("retreat",),
    ("dead", "pile"): ("dead unit area",),
}
_PHRASE_STEMS: dict[tuple[str, str], tuple[str, ...]] = {}
_FORMS = {_forms.split()[0]: _forms.split() for _forms in IRREGULAR}
for (_first, _second), _meant in PHRASES.items():
    for _form in _FORMS.get(_first, (_first,)):  # irregular forms too: "ran away", "went back"
        _PHRASE_STEMS[stem(_form), stem(_second)] = _meant


def phrase(word: str, following: str) -> tuple[str, ...]:
    """The book's words for ``word following`` typed together, or nothing."""
    return _PHRASE_STEMS.get((stem(word), stem(following)), ()) if following else ()


def synonyms_of(word: str) -> tuple[str, ...]:
    """The book's words for ``word``, looked up as typed and by its stem ("shoots" as "shoot")."""
    return SYNONYMS.get(word) or SYNONYMS.get(stem(word), ())


def weight(word: str, synonym: str) -> float:
    if word.isdigit() or synonym.isdigit():
        return 1.0  # "4" is "four"
    return WEIGHTS.get((word, synonym), DEFAULT_WEIGHT)
