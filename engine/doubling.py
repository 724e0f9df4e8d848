"""What doubles an army's results whatever icon made them: the eighth face its army controls, a minor
terrain's Double Maneuvers or Double Saves (002 The Eighth Face; Minor Terrains). Applied in the multiply step
of the modifier sequence (engine.roll)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .trace import NOT_APPLIED, TracePart, TraceEvent, not_applied, reading, split, whose

CHARGE = "charge"       # the tsr-1996 charging army's roll (Ruleset.charge_roll, engine.actions.charge)

if TYPE_CHECKING:       # engine.roll calls these with its own values
    from .rolled import RollContext, Tally


def eighth_face(tally: Tally, ctx: RollContext, trace: list[TraceEvent]) -> None:
    terrain = ctx.terrain
    if ctx.individual:
        _not_for_a_unit(tally, ctx, trace)
        return
    if terrain is None or terrain.face != 8 or terrain.controlled_by != ctx.army.id:
        return
    if ctx.ruleset.eighth_face_doubles_ids:
        _eighth_face_ids(tally, terrain, ctx, trace)
        return
    events: list[TraceEvent] = []
    _double(tally, ctx.ruleset.eighth_face_doubles, events, f"eighth face at {terrain.id}",
            ctx.ruleset.quote("eighth-face", "the controlling army doubles every save and maneuver result, whatever "
                              "icon made it"),
            ctx.ruleset.cite("eighth-face"))
    _sai_readings(tally, ctx, terrain.id, events)
    if ctx.kind == CHARGE:
        # reading, traced (000's example, 15 damage): a charge rolls for maneuvers too ("Each point of maneuver
        # rolled count as a point of damage"), so "When rolling for maneuvers" doubles them
        events = [reading(f"{e.what} in the charge roll, which rolls for maneuvers too",
                          ctx.ruleset.cite("eighth-face"), ctx.ruleset.cite("charge"))
                  .evolve(before=e.before, after=e.after, parts=e.parts) for e in events]
    trace.extend(events)


def _sai_readings(tally: Tally, ctx: RollContext, terrain_id: str, events: list[TraceEvent]) -> None:
    """An SAI whose results the eighth face just doubled, where the edition's words on that are read with another
    passage (``Ruleset.sai_read_with`` ``<sai>:gives``, its reading in ``quotes`` ``<sai>:eighth-face``): said as a
    reading with both citations (tsr-1996 Regenerate: 004 General Rules D2 "Regenerate is the only new special action
    icon which can benefit from the Eighth Face", read with Regenerate C "Regenerate never doubles it effect")."""
    rs = ctx.ruleset
    for t in rs.eighth_face_doubles:
        for sai in dict.fromkeys(tally[t].sais) if tally[t].sai else ():
            other, said = rs.sai_read_with.get(f"{sai}:gives"), rs.quotes.get(f"{sai}:eighth-face")
            if other and said:
                _, where = rs.words(f"{sai}:gives", "", rs.cite("eighth-face"))
                events.append(reading(f"{sai}'s {t} results doubled by the eighth face at {terrain_id}: {said}",
                                      where, other))


def _not_for_a_unit(tally: Tally, ctx: RollContext, trace: list[TraceEvent]) -> None:
    """A unit of the controlling army rolling by itself: said once, where the doubling would have been. 002's
    words exclude it ("When a unit requires save results to avoid an individual-targeting effect, these results
    are not doubled"), sfr-v4's double "when rolling the army"; tsr-1996 says neither, and is read with 002's."""
    from .modifiers import home_army

    terrain, home, rs = ctx.terrain, home_army(ctx), ctx.ruleset
    if ctx.joined or terrain is None or home is None or terrain.face != 8 or terrain.controlled_by != home.id:
        return
    rolled = [t for t in (ctx.wanted if rs.eighth_face_doubles_ids else rs.eighth_face_doubles)
              if (tally[t].ids if rs.eighth_face_doubles_ids else tally[t].total)]
    if not rolled:
        return
    what = f"eighth face at {terrain.id}: {whose(ctx.army.id)} own {' and '.join(rolled)} not doubled"
    if rs.eighth_face_doubles_ids:
        trace.append(not_applied(what, rs.quote("eighth-face", "When rolling the army, all ID results are doubled")
                                 + ": a unit rolling by itself is not the army rolled", rs.cite("eighth-face")))
    elif rs.edition == "sfr-2012":
        trace.append(not_applied(what, f"when a unit requires {' or '.join(rolled)} results to avoid an "
                                       "individual-targeting effect, these results are not doubled",
                                 rs.cite("eighth-face")))
    else:
        trace.append(reading(f"{what}: the eighth face read as not doubling a unit rolling by itself",
                             rs.cite("eighth-face"), "sfr-2012:the-eighth-face").evolve(kind=NOT_APPLIED))


def _eighth_face_ids(tally: Tally, terrain, ctx: RollContext, trace: list[TraceEvent]) -> None:
    """sfr-v4 Terrain - Eighth Face: "When rolling the army, all ID results are doubled" (step 7, a multiplier).
    Which results a subtraction took is not said: ddref reads that it takes the non-ID results first."""
    for t in ("maneuver", "melee", "missile", "save", "magic"):
        if not tally[t].ids:
            continue
        before, ids = tally[t].total, tally[t].ids
        tally[t].normal += tally[t].ids
        # the parts: the ID results doubled, the rest not (sfr-v4 doubles "all ID results" only)
        parts = (TracePart(name="ID", before=ids, after=2 * ids),
                 TracePart(name="other", before=before - ids, after=before - ids, untouched=True)) \
            if before > ids else ()
        trace.append(TraceEvent(what=f"eighth face at {terrain.id}: {tally[t].ids} ID {t} doubled", before=before,
                                parts=parts,
                                after=tally[t].total, rule=ctx.ruleset.quote("eighth-face", "the controlling army "
                                "doubles all its ID results") + " (a reading where a subtraction came first: it took "
                                "non-ID results first, which the text leaves open)",
                                cite=ctx.ruleset.cite("eighth-face"), also=ctx.ruleset.cite("modifier-order")))


def minor_terrain(tally: Tally, ctx: RollContext, trace: list[TraceEvent]) -> None:
    """002 Minor Terrains, Double Maneuvers / Double Saves: "allows the owning army to double its maneuvers
    [saves] as long as this face is in effect. This effect is cumulative with racial abilities. However, the
    double ... effect does not apply where a unit requires ... results to avoid an individual-targeting effect"."""
    if not ctx.state.minor_terrains:
        return
    m = ctx.state.minor_terrain(ctx.army.id)
    doubles = ctx.ruleset.minor_doubles.get(m.face or "", ()) if m is not None else ()
    if ctx.individual or not doubles:
        return
    _double(tally, doubles, trace, f"{ctx.army.id}'s {m.type} minor terrain ({m.face})",
            "the minor terrain's face doubles the owning army's results while it is in effect",
            ctx.ruleset.cite("minor-terrains"))


def _double(tally: Tally, results: tuple[str, ...], trace: list[TraceEvent], source: str, rule: str,
            cite: str) -> None:
    """Double every one of ``results`` rolled, whatever icon made it (the eighth face, a minor terrain)."""
    for t in results:
        before = tally[t].total
        tally[t].owed *= 2     # tsr-1996: a penalty still owed is doubled with the results it will come off
        if not before:
            continue
        parts = (tally[t].normal, tally[t].sai)
        tally[t].normal *= 2
        tally[t].sai *= 2
        trace.append(TraceEvent(what=f"{source}: {t} doubled", before=before, after=tally[t].total, rule=rule,
                                cite=cite, parts=split(parts, (tally[t].normal, tally[t].sai), tally[t].sais, False)))
