"""The rolls a scenario writes, as engine values: an army's aggregate ({maneuver: 3, id: 2}) or each unit's faces
({unit-id: face}), and the icons named in them (an ID, a result icon, or an SAI of the edition). Every problem is a
located error through the builder (ddref.scenario.build)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.names import slug, typed
from engine.roll import REROLLED, Face, Roll
from engine.state import RESULT_TYPES, Army
from index.corpus import records
from index.lookup import NotFound, find

from .source import did_you_mean, show_value

MAX_FACE_DIGITS = 3
"""A face's count is a handful of icons; more digits than this is a mistake, read as nothing."""

if TYPE_CHECKING:
    from .reader import Builder as _Builder


def roll(b: _Builder, army: Army | None, raw: Any, path: tuple) -> Roll:
    """Either form of a roll: an army aggregate, or faces per unit."""
    if isinstance(raw, dict) and not raw:
        # every unit rolled a blank (or nothing the roll counts): written as an icon counted 0, as in any roll
        zero = "{save: 0}" if any("saves" in str(p) for p in path) else "{melee: 0} (any icon)"
        b.fail(path, f"a roll lists what was rolled: write a roll with no results as {zero}, not {{}}")
        return Roll()
    if not isinstance(raw, dict):
        b.fail(path, "a roll is a mapping: {maneuver: 3, id: 2} for the army, or {unit-id: face} per unit")
        return Roll()
    # a unit of the player's that joins the army during play may be named too (``_Builder.units_of``)
    unit_ids = {u.id for u in army.units} | b.units_of.get(army.player, frozenset()) if army else set()
    if "promote" in raw and "promote" not in unit_ids:
        return roll(b, army, {k: v for k, v in raw.items() if k != "promote"}, path).evolve(
            promote=promotions(b, raw["promote"], (*path, "promote")))
    if any(k in unit_ids for k in raw):
        return Roll(units=tuple((uid, faces(b, army, uid, v, (*path, uid))) for uid, v in raw.items()))
    counts = []
    for key, n in raw.items():
        icon = face_icon(b, str(key), (*path, key), extra=sorted(unit_ids))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            b.fail((*path, key), f"expected a whole number of {key} (>= 0), got {show_value(n)}")
            continue
        if icon:
            counts.append((icon, n))
    return Roll(counts=tuple(counts))


def faces(b: _Builder, army: Army, uid: str, value: Any, path: tuple) -> tuple[Face, ...]:
    """A unit's faces: one face ("melee 2": an icon and its count) or a list of them (a unit rolled more than once)."""
    if army.unit(uid) is None and uid not in b.units_of.get(army.player, ()):
        b.fail(path, f"unit {typed(uid)} is not in army {army.id}{did_you_mean(uid, [u.id for u in army.units])}")
    items = value if isinstance(value, list) else [value]
    found = []
    for j, item in enumerate(items):
        where = (*path, j) if isinstance(value, list) else path
        text = str(item).strip()
        parts = text.rsplit(" ", 1)
        count = 1
        if len(parts) == 2 and parts[1].isdigit():
            # str.isdigit() is true of any script's digits (``²``, ``٣``), which int() cannot read; and a count of
            # thousands of digits cannot be read either: only ASCII digits, a face's few
            if not parts[1].isascii() or len(parts[1]) > MAX_FACE_DIGITS:
                b.fail(where, f"the count after {show_value(parts[0])} is {show_value(parts[1], 12)}; a face count "
                              f"is a whole number written in the digits 0-9, at most {MAX_FACE_DIGITS} of them "
                              "(melee 2)")
                continue
            text, count = parts[0], int(parts[1])
        icon = REROLLED if slug(text) == REROLLED else face_icon(b, text, where)
        if icon:
            found.append(Face(icon, count))
    return tuple(found)


def face_icon(b: _Builder, name: str, path: tuple, extra: list[str] = ()) -> str | None:
    """A face icon: id, a result icon, or an SAI of the edition."""
    key = slug(name)
    if key == "id" or key in RESULT_TYPES:
        return key
    try:
        return find("sai", name, b.edition)[0].id
    except NotFound:
        known = ["id", *RESULT_TYPES, *(s.id for s in records("sai") if s.edition == b.edition), *extra]
        b.fail(path, f"unknown icon or unit {typed(name)} (expected id, {', '.join(RESULT_TYPES)}, an SAI name, "
                     f"or a unit id of the army){did_you_mean(name, known)}")
        return None


def promotions(b: _Builder, value: Any, path: tuple) -> tuple[tuple[str, str], ...]:
    """A roll's ``promote: {unit: dead unit}``: what its Wild Growth results promote."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        b.fail(path, "promote is a mapping of unit ids to the dead unit each is promoted to: {t1: d2}")
        return ()
    return tuple(value.items())
