"""Magic points by color (002 First March, Magic; Doubling Magic), checked against the book's examples."""

from __future__ import annotations

from engine.magic import COLORS, Caster, allocations, by_color

BUCKETS = tuple((c, None) for c in COLORS)


def splits(casters, budgets=(0, 0)):
    return {tuple(sorted(by_color(v, BUCKETS).items())) for v in allocations(casters, BUCKETS, budgets)}


def test_eagle_knight_at_a_swampland():
    """002 Terrain Advantage: a 3-health Coral Elf ID at a swampland: "three points of blue magic or up
    to six points of green magic"; each health-worth is doubled or not, green only."""
    knight = Caster("eagle", "coral-elf", normal=0, ids=3, colors=("blue", "green"), doubles=("green",))
    expected = set()
    for blue in range(4):
        for green in range(3 - blue, 2 * (3 - blue) + 1):
            expected.add(tuple(sorted({k: v for k, v in {"blue": blue, "green": green}.items() if v}.items())))
    assert splits([knight]) == expected
    assert (("blue", 1), ("green", 4)) in expected and (("green", 6),) in expected


def test_goblin_and_dwarf_combine_without_doubling():
    """002 Magic example: one Goblin point and two Dwarf points give exactly six splits."""
    gob = Caster("g", "goblin", normal=1, ids=0, colors=("black", "gold"))
    dw = Caster("d", "dwarf", normal=2, ids=0, colors=("gold", "red"))
    assert splits([gob, dw]) == {
        (("gold", 3),), (("gold", 2), ("red", 1)), (("black", 1), ("gold", 2)), (("gold", 1), ("red", 2)),
        (("black", 1), ("red", 2)), (("black", 1), ("gold", 1), ("red", 1)),
    }


def test_dead_unit_area_doubles_one_black_id_point_per_dead_health():
    """002 Dead Unit Area Advantage: Goblin IDs worth 4 give 8, 7, 6, 5 or 4 black as the DUA holds 4..0."""
    goblins = [Caster("p", "goblin", 0, 1, ("black",), (), "max"), Caster("f", "goblin", 0, 3, ("black",), (), "max")]
    for dead, black in ((4, 8), (3, 7), (2, 6), (1, 5), (0, 4)):
        assert max(dict(s).get("black", 0) for s in splits(goblins, (dead, 0))) == black
