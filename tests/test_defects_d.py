"""Defects of issue 20 fixed on branch defects-d: each test states the rule it pins and fails without its fix."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ddref.scenario.model import STEP_KINDS, step_model
from ddref.scenario.run import StepRefused, load, parse, replay
from ddref.scenario.source import ScenarioErrors

ROOT = Path(__file__).resolve().parents[1]


def _steps(path: str) -> list[dict]:
    return replay(load(ROOT / "scenarios" / path))["steps"]


# --- 1. a Flashfire the save roll's own Cantrip casts; the trace in the order things happened ------------------

FLASHFIRE = "sfr2012-defects-d-cantrip-flashfire-suspended-roll.yaml"


def test_a_flashfire_in_play_rerolls_before_the_delayed_decapitate_acts_and_the_trace_says_so_first():
    """002 Flashfire: "this takes effect at the same time as other rerolling effects (i.e. "Instant" SAIs ...)";
    002 SAI Resolution Order: Instant first, Delayed last: the reroll line comes before the Decapitate's (before:
    the reroll was traced where the save roll was counted, after the Decapitate had said it found no ID icon)."""
    trace = [e["what"] for e in _steps(FLASHFIRE)[3]["trace"]]
    reroll = next(i for i, w in enumerate(trace) if w.startswith("chief is rolled again under flashfire"))
    decapitate = next(i for i, w in enumerate(trace) if w.startswith("decapitate: no unit of keep rolled an ID"))
    assert reroll < decapitate
    assert sum(w.startswith("chief is rolled again") for w in trace) == 1     # said once, where it happened


def test_the_cantrips_flashfire_rerolls_after_the_decapitate_which_still_holds():
    """002 Resolution, Delayed (the Decapitate example): the Decapitate "is resolved" before the Cantrip that casts
    the Flashfire; the Flashfire then rerolls another unit of the roll in progress, counted through the pipeline:
    d1 is killed (its ID), d2's melee becomes 2 saves, d3 1: 3 saves against 6 melee."""
    step = _steps(FLASHFIRE)[2]
    assert step["killed"] == ["d1", "d3", "d2"] and step["results"]["wall"]["save"] == 3
    trace = [e["what"] for e in step["trace"]]
    killed = next(i for i, w in enumerate(trace) if w == "decapitate: d1 is killed")
    reroll = next(i for i, w in enumerate(trace) if w.startswith("d2 is rolled again under flashfire"))
    resumes = next(i for i, w in enumerate(trace) if w == "wall's roll resumes")
    assert killed < resumes < reroll


SAVE_ROLL = """
ddref: 1
title: t
players: [me, them]
terrains:
  field: {{type: flatland, face: 3, action: melee}}
armies:
  blades: {{player: me, at: field, units: [{{id: sword, race: undead, health: 3}}, {{race: undead, health: 2, count: 3}}]}}
  wall:
    player: them
    at: field
    units: [{{id: fw, race: firewalker, health: 3}}, {{id: d1, race: firewalker, health: 2}},
            {{id: d2, race: firewalker, health: 2}}]
steps:
  - melee:
      army: blades
      target: wall
      roll: {{sword: {sai} 3, blades.2: melee 2, blades.3: melee 2, blades.4: melee 2}}
      saves: {{wall: {{fw: save 3, d1: id, d2: [melee 2, flashfire, save 2]}}}}
      counter: false
"""


@pytest.mark.parametrize("sai", ["decapitate", "impale", "confuse"])
def test_a_delayed_sai_never_lets_an_unallowed_flashfire_reroll_pass(sai):
    """A Delayed SAI acting on the save roll (Decapitate, Impale, Confuse: any of them) keeps the roll's Flashfire
    rerolls for the count to check: with no Flashfire in play, d2's reroll is refused (before: the Delayed SAI
    rebuilt the roll without them, and the new face counted unchecked)."""
    text = SAVE_ROLL.format(sai=sai)
    if sai == "confuse":
        text = text.replace("counter: false", "counter: false\n      targets: {confuse: [d1]}\n"
                                              "      unit_saves: {d1: save 2}")
    with pytest.raises(StepRefused, match="d2's roll marks a Flashfire reroll, but no Flashfire lets wall reroll"):
        replay(parse(text, "s.yaml"))


# --- 2. a save roll written where the rules roll none -----------------------------------------------------------

NO_DAMAGE = """
ddref: 1
title: t
players: [me, them]
terrains:
  field: {{type: flatland, face: 3, action: {action}}}
armies:
  a: {{player: me, at: field, units: [{{race: goblin, health: 1, count: 3}}]}}
  b: {{player: them, at: field, units: [{{race: goblin, health: 1, count: 3}}]}}
steps:
  - {action}:
      army: a
      target: b
      roll: {{{roll}}}
{more}
"""


@pytest.mark.parametrize("action,roll,more,field,army", [
    ("melee", "save: 3", "      saves: {b: {save: 1}}\n      counter: false", "saves", "b"),
    ("missile", "maneuver: 2", "      saves: {b: {save: 0}}", "saves", "b"),
    ("melee", "melee: 1", "      saves: {b: {save: 0}}\n      counter: {save: 2}\n      counter_saves: {a: {save: 1}}",
     "counter_saves", "a"),
])
def test_a_save_roll_where_no_normal_damage_was_inflicted_is_refused(action, roll, more, field, army):
    """002 First March: "If and only if normal damage is inflicted does the defending army roll to save": saves
    given for an attack (or a counter-attack) of no normal damage are refused when the step resolves, naming the
    field and quoting the rule (before: traced as not rolled, and accepted)."""
    with pytest.raises(StepRefused) as info:
        replay(parse(NO_DAMAGE.format(action=action, roll=roll, more=more), "s.yaml"))
    error = info.value.errors[0]
    assert error.path.endswith(f".{field}")
    assert f"{army} makes no save roll here" in error.message
    assert "if and only if normal damage is inflicted does the defending army roll to save" in error.message
    assert f"remove {field}.{army}" in error.message


# --- 3. a counter-attack after a missile; an unknown field lists the step's fields -------------------------------

def test_a_counter_attack_written_on_a_missile_step_loads_and_is_refused_with_the_rule():
    """002 Missile: "Unlike during melee combat, the target army cannot attack back, even if it occupies the same
    terrain": before, ``counter`` on a missile step was an unknown field (a load error expect_error cannot pin)."""
    text = NO_DAMAGE.format(action="missile", roll="missile: 1", more="      saves: {b: {save: 0}}\n"
                                                                       "      counter: {melee: 2}")
    with pytest.raises(StepRefused) as info:
        replay(parse(text, "s.yaml"))
    error = info.value.errors[0]
    assert error.path == "steps[0].missile.counter"
    assert "cannot attack back, even if it occupies the same terrain" in error.message
    assert "sfr-2012:the-turn-sequence.first-march.missile" in str(error)
    # counter: false says there is none, and is accepted
    replay(parse(text.replace("counter: {melee: 2}", "counter: false"), "s.yaml"))


@pytest.mark.parametrize("kind", sorted(STEP_KINDS))
def test_an_unknown_field_of_any_step_lists_the_fields_of_its_kind(kind):
    """Issue 21 §3 / 20: an unknown field's error names what the step kind has, after which the did-you-mean."""
    text = (NO_DAMAGE.format(action="melee", roll="melee: 1", more="")
            .split("steps:")[0] + f"steps:\n  - {kind}: {{zzqq: 1}}\n")
    with pytest.raises(ScenarioErrors) as info:
        parse(text, "s.yaml")
    unknown = [e for e in info.value.errors if "zzqq" in e.path]
    assert unknown, [str(e) for e in info.value.errors]
    fields = sorted((f.alias or name) for name, f in step_model(kind).model_fields.items())
    assert f"(a {kind.replace('_', ' ')} step has: {', '.join(fields)})" in unknown[0].message


def test_the_did_you_mean_follows_the_field_list():
    text = NO_DAMAGE.format(action="missile", roll="missile: 1", more="      countr: {melee: 2}")
    with pytest.raises(ScenarioErrors) as info:
        parse(text, "s.yaml")
    message = info.value.errors[0].message
    assert message.startswith("unknown field 'countr' (a missile step has: ")
    assert "; did you mean: counter" in message and message.index("step has: ") < message.index("did you mean")


# --- 4. dragonkin dissipate at once, whatever moved the others away ----------------------------------------------

def test_transfer_dissipates_dragonkin_left_alone_at_once():
    """002 Dragonkin: "If all other units are killed or leave the terrain (by any means) the Dragonkin dissipate":
    the one move of a unit between armies (engine.moves.transfer, which every SAI, spell and retreat uses) returns
    them to the summoning pool then and there."""
    from engine.moves import transfer
    from engine.steps import StepResult

    scenario = load(ROOT / "scenarios" / "sfr2012-defects-d-dragonkin-attack-dissipate.yaml")
    from ddref.scenario.run import load_ruleset

    ruleset = load_ruleset("sfr-2012")
    state, out = scenario.state, StepResult(kind="melee")
    state = transfer(state, "ce", state.army("ferry"), state.army("elves"), "test", "c", ruleset, out)
    assert [u.id for u in state.army("ferry").units] == ["e9", "k3"]      # another unit stays: no dissipation
    state = transfer(state, "e9", state.army("ferry"), state.army("elves"), "test", "c", ruleset, out)
    assert state.army("ferry").units == ()
    assert [u.id for u in state.pool("alice").units] == ["k3"]


@pytest.mark.parametrize("path,step,army,result,value", [
    ("sfr2012-defects-d-dragonkin-attack-dissipate.yaml", 0, "ferry", "melee", 0),      # the attack roll's Ferry
    ("sfr2012-defects-c-dragonkin-ferry-dissipate.yaml", 0, "ferry", "save", 0),        # the save roll's Ferry
])
def test_kin_a_rolls_mover_leaves_alone_dissipate_at_once_and_leave_the_roll(path, step, army, result, value):
    """Every roll whose SAI moves the other units away: the kin are not killed by the damage that follows, and
    their results leave the roll (002 Resolution: a component removed "does not have its results counted")."""
    out = _steps(path)[step]
    assert out["killed"] == []
    assert out["results"][army][result] == value
    trace = [e["what"] for e in out["trace"]]
    assert any("dissipate to the summoning pool at once" in w for w in trace)


# --- 5. CLI robustness --------------------------------------------------------------------------------------------

NAMES = """
ddref: 1
title: t
players: [{alice}, bob]
terrains:
  hill: {{type: highland, face: 3}}
armies:
  {army}: {{player: {alice}, at: hill, units: [{{id: {unit}, race: goblin, health: 1}}]}}
  b: {{player: bob, at: hill, units: [{{race: goblin, health: 1}}]}}
"""


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u2066", "\ufeff", "\u00a0", "\u3164", "\u200d", "\u0007"])
@pytest.mark.parametrize("where", ["alice", "army", "unit"])
def test_a_name_with_an_invisible_or_bidi_character_is_refused_at_load(char, where):
    """A player, army or unit whose name holds a character that cannot be seen (zero-width, a filler, a no-break
    space) or that reorders text (bidi overrides, isolates) is refused with file, line, field and what was expected
    (before: accepted silently, two names that look the same being two names)."""
    names = {"alice": "alice", "army": "a", "unit": "u1"}
    names[where] = f'"x\\u{ord(char):04x}y"'      # YAML's escape: a raw control character is refused by YAML itself
    with pytest.raises(ScenarioErrors) as info:
        parse(NAMES.format(**names), "n.yaml")
    error = info.value.errors[0]
    assert error.file == "n.yaml" and error.line is not None
    assert {"alice": "players[0]", "army": "armies", "unit": "armies"}[where] in error.path
    assert f"U+{ord(char):04X}" in error.message and "expected visible characters only" in error.message


def test_plain_names_with_spaces_and_letters_of_any_script_load():
    parse(NAMES.format(alice='"Zoë Ω"', army='"армия 1"', unit='"يونيت"'), "n.yaml")


def _ddref(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "DDREF_CACHE_DIR": kwargs.pop("cache"), "COLUMNS": "80"}
    return subprocess.Popen([sys.executable, "-m", "ddref", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, **kwargs)


def test_ctrl_c_during_resolve_says_interrupted_and_exits_130(tmp_path):
    """Ctrl+C (SIGINT) mid-command: one short line on stderr, no traceback, exit 130 (before: nothing said)."""
    code = textwrap.dedent("""
        import os, signal, sys, time
        import ddref.scenario.run as run
        def load(*args, **kwargs):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        run.load = load
        sys.argv = ["ddref", "resolve", "x.yaml"]
        from ddref.cli import main
        main()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path,
                          env={**os.environ, "DDREF_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 130
    assert done.stderr.strip() == "ddref: interrupted"


def test_ctrl_c_stops_serve_with_one_line_and_exit_130(tmp_path):
    proc = _ddref("serve", "--port", "0", "--json", cache=str(tmp_path / "cache"), cwd=tmp_path)
    try:
        assert proc.stdout.readline()        # its URL: it is serving
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert stderr.strip().splitlines()[-1] == '{"error": "interrupted"}'
    assert "Traceback" not in stderr


def test_init_force_writes_through_a_symlink_and_keeps_the_link(run, tmp_path):
    """``ddref init --force`` on a symbolic link writes the file it points to, atomically; the link stays a link
    (before: the new file was renamed over the link, silently replacing it)."""
    real = tmp_path / "real.yaml"
    real.write_text("mine\n", encoding="utf-8")
    link = tmp_path / "link.yaml"
    link.symlink_to("real.yaml")
    refused = run("init", str(link))
    assert refused.exit_code == 2 and "--force" in refused.stderr and real.read_text(encoding="utf-8") == "mine\n"
    assert run("init", str(link), "--force").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "real.yaml"
    assert real.read_text(encoding="utf-8").startswith("# yaml-language-server:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.yaml", "real.yaml"]     # no temporary file left


def test_init_refuses_a_loop_of_links(run, tmp_path):
    (tmp_path / "a.yaml").symlink_to("b.yaml")
    (tmp_path / "b.yaml").symlink_to("a.yaml")
    result = run("init", str(tmp_path / "a.yaml"), "--force")
    assert result.exit_code == 2 and "loop of links" in result.stderr and "Traceback" not in result.stderr
    assert (tmp_path / "a.yaml").is_symlink() and (tmp_path / "b.yaml").is_symlink()


def test_init_help_says_what_a_symlink_gets(run):
    assert "symbolic link" in run("init", "--help").stdout
