"""What every roll reads of a step for its SAIs, below the modules that resolve them: the roll choices a step makes
(``special_choices``), the ids its ``targets`` names for an SAI (``named_targets``), identical SAIs grouped to act as
one (``grouped``) and an SAI's section in the edition (``sai_cite``)."""

from __future__ import annotations

from ..chosen import read as chosen_read
from ..roll import Special
from ..ruleset import Ruleset
from ..steps import AttackStep


def sai_cite(ruleset: Ruleset, sai: str) -> str:
    """The SAI's section in the edition (engine.actions.sai_endings too)."""
    return ruleset.sai_sections.get(sai, ruleset.cite("sai-resolution"))


def named_targets(step: AttackStep | None, sai: str) -> tuple[str, ...] | None:
    """The ids the step's ``targets`` names for the SAI (units, or one army id), or None."""
    found = dict(step.targets).get(sai) if step is not None else None
    if found is not None:
        chosen_read("targets", sai)
    return tuple(uid for uid, _ in found) if found else None


# the choices key of the step's per-army penalty splits (engine.modifiers.split_points reads the rolling army's)
PENALTIES_OF = "penalties:by-army"


def special_choices(step) -> dict:
    """The roll choice of a "Normal or Special" SAI: its special is used when the step names its targets, or
    where it moves units (Wayfare's move_to)."""
    chosen = {sai: 1 for sai, _ in (*getattr(step, "targets", ()), *getattr(step, "move_to", ()))}
    # and each army's split of "one result" penalties over its combination roll (``penalties``; engine.modifiers)
    split = {army: dict(pairs) for army, pairs in getattr(step, "penalties", ())}
    # and the components a spell lets double a result (``doubles``, Wilding; engine.roll ``_component_doubling``)
    doubles: dict = {}
    for key, pairs in getattr(step, "doubles", ()):
        doubles.setdefault(key, {}).update(dict(pairs))
    return ({"special": chosen} if chosen else {}) | ({PENALTIES_OF: split} if split else {}) | doubles


def grouped(specials: list[Special], effects: tuple[str, ...]) -> dict[str, list[Special]]:
    """Identical SAIs rolled together are resolved as one (002 SAI Targeting: "their effects are combined")."""
    out: dict[str, list[Special]] = {}
    for s in specials:
        if s.effect in effects:
            out.setdefault(s.sai, []).append(s)
    return out
