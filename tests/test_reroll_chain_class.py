"""Every face that rolls its unit again, last in its list, is an unfinished chain: refused, asking for the next face.

004 Double Strike A: "Continue to reroll until a Double Strike is not indicated, adding all results together"; 000
Rend: "This cycle of roll and apply continues until the unit fails to roll a rend"; 002 Rend, Tail, Stun: "roll this
unit again and apply the new result as well"; 001 Bullseye, Double Strike. The class (corpus/conformance/defects.md
entry 3): every rerolling SAI of every edition's table, in every kind of roll it rerolls in, not only Double Strike.
"""

import pytest

from engine.editions import RULESETS
from engine.roll import Face, check_rerolls
from engine.sais import CHOSEN_REROLLS, ITEM_REROLLS, REROLLS
from engine.state import Unit
from engine.trace import StepError

CASES = [(edition, sai, kind)
         for edition, rs in sorted(RULESETS.items())
         for sai, kinds in sorted((REROLLS if rs.sai_rerolls is None else rs.sai_rerolls).items())
         if sai not in ITEM_REROLLS
         for kind in kinds if kind not in CHOSEN_REROLLS.get(sai, ())]


def test_every_edition_has_rerolling_faces():
    """The three editions' tables are read (tsr-1996's Rend, sfr-v4's Bullseye, sfr-2012's Tail ...)."""
    assert {e for e, _, _ in CASES} == set(RULESETS)
    assert ("tsr-1996", "rend", "melee") in CASES and ("sfr-v4", "bullseye", "missile") in CASES


@pytest.mark.parametrize(("edition", "sai", "kind"), CASES)
def test_a_rerolling_face_last_in_its_list_is_refused(edition, sai, kind):
    rs = RULESETS[edition]
    unit = Unit(id="m", race="dwarf", health=4, monster=True)
    for faces in ((Face(sai, 1),), (Face(sai, 1), Face(sai, 1))):
        with pytest.raises(StepError, match=rf"m's roll ends on {sai}, which rolls m again .* give the face it "
                                            r"rolled next"):
            check_rerolls(unit, faces, rs, kind)
    check_rerolls(unit, (Face(sai, 1), Face("melee", 1)), rs, kind)      # a finished chain is accepted
