"""What an army can roll: an aggregate roll larger than its units' dice can show is impossible input (issue 19 §5).

Each die shows one face per roll. A six-sided unit's face shows a few icons: 002 SAI General Information names the
largest, "if a rare unit has a die face with four Cantrip icons, it counts as four points of effect"; a ten-sided
die's face "bears only one icon", which "counts as 4 points of effect" (002 Monsters), and "The SAIs on ten-sided
dice generates four results unless stated otherwise"; an ID icon counts "a number of results equal to the unit's
health" (at most 4). The corpus does not list how many icons each face of each die bears, so a unit's face is read
as worth at most ``LARGEST_FACE`` results: the largest the rules describe for any die. An aggregate roll is refused
when its results (ID health-worth and SAI points included) pass the sum of its units' largest faces, or its ID
health-worth passes the units' health. A unit rolled again (an SAI that says "roll this unit again", a group
monster's ID) adds faces with no limit the rules set, so such a roll is not bounded.
"""

from __future__ import annotations

from . import sais as sai_table
from .state import RESULT_TYPES, Army
from .trace import StepError

LARGEST_FACE = 4


def check_unit_faces(unit, faces, ruleset) -> None:
    """Refuse a face a unit's die cannot show, in a per-unit roll: the bound ``check_aggregate`` sets on an army's
    aggregate holds face by face (a per-unit roll is no way around it).

    A unit's faces are "the results this unit's roll produced" (docs/scenario-format.md, Rolls): one face per roll of
    its die, a face that rolls it again followed by the next. Each face is worth its icons' points (a monster's or an
    artifact's icon 4, a rare item's SAI 3, the Tiger-Folk's Double Strike 4, any other icon 1), and no face is worth
    more than ``LARGEST_FACE`` results: the largest face the rules describe (002 SAI General Information: "if a rare
    unit has a die face with four Cantrip icons, it counts as four points of effect"; a ten-sided die's one icon
    counting four), the reading the aggregate check traces at its bound (``_reading``), the corpus not listing each
    die's faces. An ID face bears one ID icon, worth the unit's health (at most 4): ``id 2`` is refused. 002
    Monsters: "Unlike six-sided units, each face of a monster die bears only one icon": ``melee 2`` on a monster is
    refused with those words under sfr-2012, and as worth 8 in the editions whose monster text does not say how many
    a face bears.
    Magical items' icons the die does not bear and the logo faces are left to their own checks (engine.roll
    ``_check_die``)."""
    from .rolled import REROLLED

    if unit is None:
        return
    for face in faces:
        if face.icon == "id" and face.count > 1:
            # one ID icon a face, worth the unit's health (002 Basic Terms, ID icon: "1 point per health of the die")
            raise StepError(f"{unit.id} ({_kind(unit)}, {unit.health} health) cannot show 'id {face.count}' on one "
                            f"face: a die's ID face bears one ID icon, worth the unit's health ({unit.health}); write "
                            "'id' (a unit rolled again lists each face: [id, melee])",
                            cite=ruleset.cites.get("id-icons", ""), field="roll")
        if face.icon in ("id", REROLLED) or face.icon in ruleset.id_icons:
            continue
        # the words are 002's; 000/004 ("Each normal icon on a monster unit counts as four") and 001 ("Icons on
        # monsters always count for 4 results each") do not say how many a face bears
        if unit.monster and not unit.item and face.count > 1 and ruleset.edition == "sfr-2012":
            raise StepError(f"{unit.id} is a monster: each face of its ten-sided die bears only one icon (which "
                            f"counts {ruleset.monster_icon_value}), so it cannot show '{face.icon} {face.count}'; "
                            f"write '{face.icon}'", cite=ruleset.cites.get("monsters", ""), field="roll")
        per = face_points(unit, face.icon, ruleset)
        if face.count * per > LARGEST_FACE:
            _too_many(unit, face, per, ruleset)


def face_points(unit, icon: str, ruleset) -> int:
    """Points one icon of ``unit``'s die is worth, as engine.roll counts it and this module bounds it: a monster's or
    an artifact's icon ``monster_icon_value`` (002 Monsters: "each icon on a monster die counts as 4 points of
    effect"; Artifacts alike), an SAI the unit's ``sai_points`` where it has them, any other icon (or an icon of no
    known unit) one."""
    if unit is None:
        return 1
    if icon not in RESULT_TYPES and unit.sai_points:
        return unit.sai_points
    return ruleset.monster_icon_value if unit.monster else 1


def _kind(unit) -> str:
    return ("artifact" if unit.monster else "magical item") if unit.item else "monster" if unit.monster else \
        "six-sided unit"


def _too_many(unit, face, per: int, ruleset) -> None:
    """A face worth more than a die's face can be: the unit, the number asked, the most, and the reading's basis."""
    worth = face.count * per
    what = _kind(unit)
    counted = f" (each icon counting {per})" if per > 1 else ""
    raise StepError(f"{unit.id} ({what}, {unit.health} health) cannot show '{face.icon} {face.count}' on one face: "
                    f"that is {worth} results{counted}, and a face of its die is worth at most {LARGEST_FACE} "
                    f"(at most {LARGEST_FACE // per} {face.icon} icon(s)): the largest face the rules name is a rare "
                    "unit's four Cantrip icons, a monster's one icon counting four. A unit's faces are one per roll of "
                    "its die; list each face where an SAI rolls it again ([rend, melee 2])",
                    cite=ruleset.cites.get("sai-points") or ruleset.cites.get("id-icons", ""), field="roll")


def check_aggregate(army: Army, counts: tuple[tuple[str, int], ...], kind: str, ruleset,
                    trace: list | None = None) -> None:
    """Refuse an aggregate roll that the army's dice cannot show in one roll (named rule, section cited); a roll
    at the bound exactly is traced with the reading that sets it (``trace``)."""
    ids = total = 0
    for icon, n in counts:
        total += n
        if icon == "id":
            ids += n
    units = army.units
    health = sum(u.health for u in units) if ids else 0
    if total < LARGEST_FACE * len(units) and ids <= health:
        return                      # the usual case: within what the dice show (no reroll needs looking up)
    if total == LARGEST_FACE * len(units) and ids <= health:
        if trace is not None:
            trace.append(_reading(army, total, ruleset))
        return
    if any(sai_table.rerolls(icon, kind, ruleset.sai_rerolls) for icon, _ in counts if icon != "id"):
        return                      # a unit rolled again: the rules set no bound on the chain
    if ids and any(u.group_monster for u in units):
        return                      # 002 Group Monsters: an ID rolls the die again
    faces_cite = ruleset.cites.get("sai-points") or ruleset.cites.get("id-icons", "")
    if ids > health:
        raise StepError(f"{army.id} rolls {ids} health-worth of ID icons, but its units' ID icons are worth {health} "
                        f"in all ({len(units)} unit(s)); each unit's ID icon counts as its health, one face per roll",
                        cite=ruleset.cites.get("id-icons", faces_cite), field="roll")
    most = LARGEST_FACE * len(units)
    shown = ", ".join(f"{n} {icon}" for icon, n in counts)
    raise StepError(f"{army.id}'s {len(units)} unit(s) cannot roll {total} results ({shown}) in one {kind} roll: "
                    f"each die shows one face, worth at most {LARGEST_FACE} results (a six-sided face's largest "
                    f"is four icons, a ten-sided face's one icon counts four), so at most {most}; give the roll "
                    "per unit if a face says otherwise", cite=faces_cite, field="roll")


def _reading(army: Army, total: int, ruleset):
    """The reading that bounds a face at four results, traced where a roll reaches the bound."""
    from .trace import reading

    return reading(f"{army.id} rolls {total} results, the most its {len(army.units)} unit(s) can show: a die's face "
                   f"is read as worth at most {LARGEST_FACE} results, the largest face the rules name (a rare unit's "
                   "four Cantrip icons; a monster's one icon counting four), the corpus not listing each die's faces",
                   ruleset.cites.get("sai-points", ""), ruleset.cites.get("monsters", ""))
