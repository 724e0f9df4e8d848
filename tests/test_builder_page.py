"""The dispute builder (/build, issue 22) in a real headless browser: disputes built only by clicking and typing.

Screenshots at phone and desktop sizes are written under the pytest tmp dir (``builder-screens``; the path is
printed), never into the checkout. DDREF_SKIP_BROWSER=1 skips these tests, as it does the page tests.
"""

from __future__ import annotations

import base64
import json
import shutil
import tempfile

import pytest
import yaml

from test_serve_page import CHROMIUM_FLAGS, CORAL, PHONE, api, browser, fits_the_screen, served, wait_for  # noqa: F401
from fast_yaml import load_yaml

DESKTOP = (1280, 900)


def by_key(browser, key: str):
    """The control bound to a field path, scrolled to the middle of the screen (clear of the sticky buttons)."""
    from selenium.webdriver.common.by import By

    found = browser.find_element(By.CSS_SELECTOR, f'[data-key="{key}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", found)
    return found


def settled(browser) -> None:
    """Wait until the form's last change is checked by the server (the page marks body[data-busy] meanwhile)."""
    from selenium.webdriver.support.ui import WebDriverWait

    # polled every 20 ms, not WebDriverWait's default half second: a check answers in about 10 ms, and this wait
    # follows every click and keystroke of these tests
    WebDriverWait(browser, 20, poll_frequency=0.02).until(
        lambda b: b.execute_script("return !document.body.dataset.busy"))


def click(browser, key: str) -> None:
    by_key(browser, key).click()
    settled(browser)


def choose(browser, key: str, label: str) -> None:
    """Pick an option by the text it shows, as a finger or the keyboard does (the change event fires)."""
    from selenium.webdriver.support.ui import Select

    Select(by_key(browser, key)).select_by_visible_text(label)
    settled(browser)


def type_in(browser, key: str, text: str, commit: bool = False) -> None:
    """Type into a field (after clearing it); ``commit`` leaves it with Tab, as a name field is committed."""
    from selenium.webdriver.common.keys import Keys

    field = by_key(browser, key)
    field.send_keys(Keys.CONTROL, "a")   # selects, no input event: what is typed next replaces the selection
    field.send_keys((text or Keys.DELETE) + (Keys.TAB if commit else ""))
    settled(browser)


def tick(browser, key: str) -> None:
    click(browser, key)


def add_terrain(browser, index: int, id_: str, type_: str, face: int, **picks: str) -> None:
    click(browser, "terrains-add")
    type_in(browser, f"terrains.terrain{index}-id", id_, commit=True)
    choose(browser, f"terrains.{id_}.type", type_)
    choose(browser, f"terrains.{id_}.face", str(face))
    for field, label in picks.items():
        choose(browser, f"terrains.{id_}.{field}", label)


def add_army(browser, index: int, id_: str, player: str, at: str, race: str, unit: str, count: int) -> None:
    click(browser, "armies-add")
    type_in(browser, f"armies.army{index}-id", id_, commit=True)
    choose(browser, f"armies.{id_}.player", player)
    choose(browser, f"armies.{id_}.at", at)
    click(browser, f"armies.{id_}.units-add")
    choose(browser, f"armies.{id_}.units[0].race", race)
    choose(browser, f"armies.{id_}.units[0].unit", unit)
    if count != 1:
        type_in(browser, f"armies.{id_}.units[0].count", str(count))


def add_effect(browser, index: int, spell: str, target: str, by: str, times: int = 1) -> None:
    click(browser, "effects-add")
    type_in(browser, f"effects[{index}].spell", spell, commit=True)
    choose(browser, f"effects[{index}].target", target)
    choose(browser, f"effects[{index}].by", by)
    if times != 1:
        type_in(browser, f"effects[{index}].count", str(times))


def roll_totals(browser, path: str, counts: dict[str, int]) -> None:
    """An army's roll entered as totals: each icon picked from the list and its count typed."""
    for icon, n in counts.items():
        choose(browser, f"{path}-icon", {"id": "ID"}.get(icon, icon))
        click(browser, f"{path}-add")
        type_in(browser, f"{path}.{icon}", str(n))


def add_step(browser, kind_label: str) -> int:
    from selenium.webdriver.common.by import By

    choose(browser, "steps-kind", kind_label)
    click(browser, "steps-add")
    return len(browser.find_elements(By.CSS_SELECTOR, "section.step-form")) - 1


def resolve(browser) -> None:
    """Click Resolve and wait for the new trace: a trace already shown stays until the page's check has answered,
    so waiting for any step section could read the old one (it must be gone first)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    shown = browser.find_elements(By.CSS_SELECTOR, "#trace-view section.step[data-step]")
    browser.find_element(By.ID, "resolve").click()
    if shown:
        WebDriverWait(browser, 30).until(expected_conditions.staleness_of(shown[0]))
    wait_for(browser, "#trace-view section.step[data-step]")


def results_table(browser, step: int = 1) -> dict[str, str]:
    return browser.execute_script(
        "return Object.fromEntries([...document.querySelectorAll(`#trace-view section.step[data-step='${arguments[0]}'] "
        "table.results tr`)].map(r => [r.querySelector('th').innerText.trim(), r.querySelector('td').innerText.trim()]))",
        step)


def form_errors(browser) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".field-error, #general-errors li")]


def current_yaml(browser) -> dict:
    return load_yaml(browser.execute_script("return document.getElementById('yaml').value"))


@pytest.fixture(scope="module")
def screens(tmp_path_factory):
    path = tmp_path_factory.mktemp("builder-screens")
    print(f"\nbuilder screenshots: {path}")
    return path


def shoot(browser, screens, name: str) -> None:
    """The page at phone and desktop sizes, each as tall as its content (artifacts for a person to look at)."""
    for (width, height), size in ((PHONE, "phone"), (DESKTOP, "desktop")):
        browser.set_window_size(width, height)
        tall = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(width, min(tall, 6000))
        browser.save_screenshot(str(screens / f"{name}-{size}.png"))
    browser.set_window_size(*PHONE)


def open_builder(browser, url: str) -> None:
    """Open the builder at ``url`` and have it check each change at once (window.ddrefCheckDelay): the 250 ms pause
    it leaves a typing person would be a quarter second per click here, which ``settled`` waits for anyway."""
    browser.get(url)
    browser.execute_script("window.ddrefCheckDelay = 0")


def fresh_build(browser, served) -> None:
    """The builder, emptied with its Start over button (it keeps the last form across reloads)."""
    from selenium.webdriver.common.by import By

    open_builder(browser, served + "build")
    wait_for(browser, "#form-root .group")
    settled(browser)
    browser.find_element(By.ID, "new").click()
    browser.find_element(By.ID, "new").click()   # a second tap clears
    settled(browser)
    wait_for(browser, '[data-key="terrains-add"]')


def test_the_coral_elf_example_built_by_picking_saves_17(served, browser, screens):
    """002 Dice Modifiers' first worked example, entered only by clicks and typing: the elves save 17."""
    fresh_build(browser, served)
    type_in(browser, "title", "Coral Elves save 17 against a fogged missile attack")
    choose(browser, "turn.player", "bob")
    add_terrain(browser, 1, "coast", "coastland", 8, eighth="standing-stones", home_of="alice")
    add_terrain(browser, 2, "plain", "flatland", 4, action="missile")
    tick(browser, "terrains.plain.frontier")
    book = load_yaml(CORAL.read_text(encoding="utf-8"))
    sizes = {a: book["armies"][a]["units"][0]["count"] for a in ("elves", "archers")}
    add_army(browser, 1, "elves", "alice", "coast", "Coral Elves", "any unit of health 1", sizes["elves"])
    add_army(browser, 2, "archers", "bob", "plain", "Lava Elves", "any unit of health 2", sizes["archers"])
    choose(browser, "terrains.coast.controlled_by", "elves")
    for i, (spell, target, by, times) in enumerate((
            ("ash-storm", "terrain coast", "bob", 2), ("Wall of Fog", "terrain coast", "bob", 1),
            ("transmute-rock-to-mud", "army elves", "bob", 1), ("watery-double", "army elves", "alice", 2),
            ("wind walk", "army elves", "alice", 1), ("wall-of-ice", "army elves", "alice", 1))):
        add_effect(browser, i, spell, target, by, times)
    step = add_step(browser, "Missile")
    at = f"steps[{step}].missile"
    choose(browser, f"{at}.army", "archers")
    choose(browser, f"{at}.target", "elves")
    roll_totals(browser, f"{at}.roll", {"missile": 30})
    choose(browser, f"{at}.saves-army", "elves")
    click(browser, f"{at}.saves-add")
    type_in(browser, f"{at}.saves.elves.save", "3")
    roll_totals(browser, f"{at}.saves.elves", {"maneuver": 12, "id": 2})
    assert form_errors(browser) == []

    written = current_yaml(browser)
    assert written["effects"] == book["effects"]  # names typed as the book spells them are written as ids
    assert written["steps"][0]["missile"] == book["steps"][0]["missile"]
    resolve(browser)
    table = results_table(browser)
    assert table["elves"] == "17 save"  # 002: "the Coral Elves ... 17 saves" (the summary lists what was rolled for)
    assert table["archers"] == "15 missile" and table["damage to elves"] == "0"
    assert fits_the_screen(browser)
    shoot(browser, screens, "coral-elf")


def test_a_melee_with_casualties_chosen_in_the_form(served, browser, screens):
    """Dwarves deal 4 melee to five 1-health goblins saving 1: 3 damage, and the judge picks which three die."""
    fresh_build(browser, served)
    type_in(browser, "title", "Which goblins die")
    add_terrain(browser, 1, "field", "flatland", 3, action="melee")
    add_army(browser, 1, "dwarves", "alice", "field", "Dwarves", "any unit of health 2", 2)
    add_army(browser, 2, "goblins", "bob", "field", "Goblins", "any unit of health 1", 5)
    step = add_step(browser, "Melee")
    at = f"steps[{step}].melee"
    choose(browser, f"{at}.army", "dwarves")
    choose(browser, f"{at}.target", "goblins")
    roll_totals(browser, f"{at}.roll", {"melee": 4})
    click(browser, f"{at}.saves-add")   # the target is offered first
    type_in(browser, f"{at}.saves.goblins.save", "1")
    tick(browser, f"{at}.counter-none")
    for unit in ("goblins.2", "goblins.4", "goblins.5"):
        tick(browser, f"{at}.casualties.goblins['{unit}']")
    assert form_errors(browser) == []
    assert current_yaml(browser)["steps"][0]["melee"]["casualties"] == {"goblins": ["goblins.2", "goblins.4", "goblins.5"]}
    resolve(browser)
    table = results_table(browser)
    assert table["damage to goblins"] == "3"  # 4 melee - 1 save (002 Melee Action)
    assert table["killed"] == "goblins.2, goblins.4, goblins.5"
    shoot(browser, screens, "melee-casualties")


def test_a_tsr_charge_built_by_picking(served, browser):
    """000 Charge, built without YAML: the charging army's melee and maneuver count as damage (5 + 1), the charged
    army's saves reduce it (6 - 2 = 4) and its melee hits the charger (3), which rolls no saves."""
    fresh_build(browser, served)
    type_in(browser, "title", "Goblins charge the coral elves")
    choose(browser, "edition", "tsr-1996")
    add_terrain(browser, 1, "field", "flatland", 3, action="melee")
    add_army(browser, 1, "goblins", "alice", "field", "Goblins", "any unit of health 2", 3)
    add_army(browser, 2, "elves", "bob", "field", "Coral Elves", "any unit of health 2", 3)
    step = add_step(browser, "Melee")
    at = f"steps[{step}].melee"
    choose(browser, f"{at}.army", "goblins")
    choose(browser, f"{at}.target", "elves")
    tick(browser, f"{at}.charge")
    roll_totals(browser, f"{at}.roll", {"melee": 5, "maneuver": 1})
    click(browser, f"{at}.saves-add")   # the target is offered first, with a save
    type_in(browser, f"{at}.saves.elves.save", "2")
    roll_totals(browser, f"{at}.saves.elves", {"melee": 3})
    assert form_errors(browser) == []
    assert current_yaml(browser)["steps"][0]["melee"]["charge"] is True
    resolve(browser)
    table = results_table(browser)
    assert (table["damage to elves"], table["damage to goblins"]) == ("4", "3")


def test_a_bad_casualty_choice_shows_the_loaders_words_at_the_field(served, browser):
    """Two goblins for 3 damage is too few: the engine's refusal appears at the casualties, with the legal units,
    and nothing the judge entered is lost."""
    fresh_build(browser, served)
    type_in(browser, "title", "Too few casualties")
    add_terrain(browser, 1, "field", "flatland", 3, action="melee")
    add_army(browser, 1, "dwarves", "alice", "field", "Dwarves", "any unit of health 2", 2)
    add_army(browser, 2, "goblins", "bob", "field", "Goblins", "any unit of health 1", 5)
    step = add_step(browser, "Melee")
    at = f"steps[{step}].melee"
    choose(browser, f"{at}.target", "goblins")
    roll_totals(browser, f"{at}.roll", {"melee": 4})
    click(browser, f"{at}.saves-add")
    type_in(browser, f"{at}.saves.goblins.save", "1")
    tick(browser, f"{at}.counter-none")
    for unit in ("goblins.1", "goblins.3"):
        tick(browser, f"{at}.casualties.goblins['{unit}']")
    errors = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .field-error')].map(e => e.innerText)",
        f'[data-key="{at}.casualties"]')
    assert len(errors) == 1
    assert "less than the 3 health-worth that must be taken" in errors[0] and "sfr-2012:damage" in errors[0]
    assert by_key(browser, f"{at}.casualties.goblins['goblins.3']").is_selected()  # the choice is still there
    type_in(browser, f"{at}.roll.melee", "3")       # 3 - 1 = 2 damage: the two picked are now right
    assert form_errors(browser) == []

    # a name the corpus does not know: the loader's did-you-mean, under the field
    click(browser, "effects-add")
    type_in(browser, "effects[0].spell", "wall of fogg", commit=True)
    shown = by_key(browser, "effects[0].spell").find_element("xpath", "..").text
    assert "wall of fogg" in shown and "did you mean" in shown and "Wall of Fog" in shown


def test_a_magic_action_with_a_colour_split(served, browser, screens):
    """Six magic from a Coral Elf army split 2 green and 4 blue buys Watery Double (green, 2) and Wind Walk (blue, 4);
    split 3 and 3, the blue no longer pays for Wind Walk (002 Casting Cost)."""
    from selenium.webdriver.common.by import By

    fresh_build(browser, served)
    type_in(browser, "title", "A Coral Elf magic action")
    add_terrain(browser, 1, "sea", "coastland", 3, action="magic")
    add_army(browser, 1, "elves", "alice", "sea", "Coral Elves", "any unit of health 1", 6)
    add_army(browser, 2, "dwarves", "bob", "sea", "Dwarves", "any unit of health 1", 3)
    step = add_step(browser, "Magic")
    at = f"steps[{step}].magic"
    choose(browser, f"{at}.army", "elves")
    roll_totals(browser, f"{at}.roll", {"magic": 6})
    assert "elves casts blue and green magic" in by_key(browser, f"{at}.colors").text  # the army's colors, offered
    type_in(browser, f"{at}.colors.green", "2")
    type_in(browser, f"{at}.colors.blue", "4")
    for j, spell in enumerate(("Watery Double", "wind-walk")):
        click(browser, f"{at}.cast-add")
        type_in(browser, f"{at}.cast[{j}].spell", spell, commit=True)
        choose(browser, f"{at}.cast[{j}].target", "army elves")
    assert form_errors(browser) == []
    written = current_yaml(browser)["steps"][0]["magic"]
    assert written["colors"] == {"green": 2, "blue": 4}
    assert written["cast"] == [{"spell": "watery-double", "target": "elves"}, {"spell": "wind-walk", "target": "elves"}]
    resolve(browser)
    trace = browser.find_element("css selector", "#trace-view section.step[data-step='1']").text.lower()
    assert "watery-double" in trace and "wind-walk" in trace

    type_in(browser, f"{at}.colors.green", "3")   # 3 green, 3 blue: Wind Walk's 4 blue cannot be paid
    type_in(browser, f"{at}.colors.blue", "3")
    errors = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' .field-error')].map(e => e.innerText)",
        f'[data-key="{at}.cast"]')
    assert len(errors) == 1 and "3 blue, 3 green" in errors[0], errors
    assert "The form has changed since this trace" in browser.find_element(By.ID, "trace-view").text
    shoot(browser, screens, "magic-colors")


def test_a_magic_split_picked_from_the_splits_the_engine_lists(served, browser):
    """Coral Elves (blue, green) roll 5 magic and 1 ID at a coastland (blue, green): the ID doubles, so the roll makes
    7 points, each blue or green (002 First March, Magic; Doubling Magic), and the picker offers the 8 largest splits.
    Picking 4 blue, 3 green writes it to ``colors``; it pays Wind Walk (blue, 4) and Watery Double (green, 2)."""
    from selenium.webdriver.support.ui import Select

    fresh_build(browser, served)
    type_in(browser, "title", "A Coral Elf magic split")
    add_terrain(browser, 1, "sea", "coastland", 3, action="magic")
    add_army(browser, 1, "elves", "alice", "sea", "Coral Elves", "any unit of health 1", 6)
    add_army(browser, 2, "dwarves", "bob", "sea", "Dwarves", "any unit of health 1", 3)
    step = add_step(browser, "Magic")
    at = f"steps[{step}].magic"
    choose(browser, f"{at}.army", "elves")
    roll_totals(browser, f"{at}.roll", {"magic": 5, "id": 1})
    offered = [o.text for o in Select(by_key(browser, f"{at}.colors.split")).options][1:]
    assert offered == ["7 blue"] + [f"{7 - g} blue, {g} green" for g in range(1, 7)] + ["7 green"]
    choose(browser, f"{at}.colors.split", "4 blue, 3 green")
    assert current_yaml(browser)["steps"][0]["magic"]["colors"] == {"blue": 4, "green": 3}
    assert by_key(browser, f"{at}.colors.blue").get_attribute("value") == "4"
    for j, spell in enumerate(("wind-walk", "Watery Double")):
        click(browser, f"{at}.cast-add")
        type_in(browser, f"{at}.cast[{j}].spell", spell, commit=True)
        choose(browser, f"{at}.cast[{j}].target", "army elves")
    assert form_errors(browser) == []
    resolve(browser)
    trace = browser.find_element("css selector", "#trace-view section.step[data-step='1']").text.lower()
    assert "magic points: 4 blue, 3 green" in trace and "wind-walk" in trace and "watery-double" in trace


def test_a_cantrip_in_a_save_roll_buys_a_spell_picked_from_those_its_points_pay(served, browser):
    """Dwarves (gold, red: 002 Dwarves) save against 5 missiles with 3 saves and a 2-point Cantrip (002 SAI List,
    Cantrip: "during any non-magic action, save roll ..."): its points pay, one spell at a time, the sfr-2012 spells of
    gold or red costing at most 2 that are basic or Dwarf: Ash Storm (red 2), Earthen Armor (gold 2, Dwarf) and
    Stoneskin (gold 2) -- not Camouflage (Treefolk) nor Hide (Feral). Stoneskin bought (+1 save): 4 saves, 1 damage."""
    from selenium.webdriver.support.ui import Select

    fresh_build(browser, served)
    type_in(browser, "title", "A Cantrip in a save roll")
    add_terrain(browser, 1, "hold", "highland", 3)
    add_army(browser, 1, "archers", "alice", "hold", "Lava Elves", "any unit of health 2", 3)
    add_army(browser, 2, "dwarves", "bob", "hold", "Dwarves", "any unit of health 2", 3)
    step = add_step(browser, "Missile")
    at = f"steps[{step}].missile"
    choose(browser, f"{at}.army", "archers")
    choose(browser, f"{at}.target", "dwarves")
    roll_totals(browser, f"{at}.roll", {"missile": 5})
    click(browser, f"{at}.saves-add")   # the target is offered first
    type_in(browser, f"{at}.saves.dwarves.save", "3")
    choose(browser, f"{at}.saves.dwarves-icon", "Cantrip")
    click(browser, f"{at}.saves.dwarves-add")
    type_in(browser, f"{at}.saves.dwarves.cantrip", "2")
    click(browser, f"{at}.cantrip.dwarves.cast-add")
    offered = [o.text for o in Select(by_key(browser, f"{at}.cantrip.dwarves.cast[0].spell")).options]
    assert sorted(o for o in offered if o != "—") == ["Ash Storm", "Earthen Armor", "Stoneskin"]
    choose(browser, f"{at}.cantrip.dwarves.cast[0].spell", "Stoneskin")
    choose(browser, f"{at}.cantrip.dwarves.cast[0].target", "army dwarves")
    assert current_yaml(browser)["steps"][0]["missile"]["cantrip"] == {
        "dwarves": {"cast": [{"spell": "stoneskin", "target": "dwarves"}]}}
    assert form_errors(browser) == []
    resolve(browser)
    table = results_table(browser)
    assert table["dwarves"] == "4 save" and table["damage to dwarves"] == "1", table   # 3 saves + 1 (Stoneskin)
    trace = browser.find_element("css selector", "#trace-view section.step[data-step='1']").text.lower()
    assert "stoneskin" in trace and "buy stoneskin x1 for 2 gold" in trace


def test_dragon_attack_choices_picked_from_what_the_engine_lists(served, browser):
    """Two gold wyrms breathe on twelve 2-health Ferals: the breaths combine, reaching 10 health-worth, killed with no
    save, "the army's owner chooses" which (002 Dragons, Gold Dragon Breath; Breath); the army's 10 melee slay one
    wyrm (5 health + 5 automatic saves, results of one type: 002 Dragons). Picked: feral.8 to feral.12 and g2."""
    from selenium.webdriver.support.ui import Select, WebDriverWait

    scenario = {
        "ddref": 1, "title": "Gold breath and a slain wyrm", "edition": "sfr-2012", "players": ["me", "them"],
        "turn": {"player": "me"}, "terrains": {"field": {"type": "flatland", "face": 3, "home_of": "me"}},
        "armies": {"feral": {"player": "me", "at": "field", "units": [{"race": "feral", "health": 2, "count": 12}]}},
        "dragons": [{"id": g, "color": "gold", "owner": "them", "at": "field", "form": "wyrm"} for g in ("g1", "g2")],
        "steps": [{"dragon_attack": {"army": "feral", "dragons": {"g1": ["breath"], "g2": ["breath"]},
                                     "roll": {"save": 3, "melee": 10}}}]}
    text = yaml.safe_dump(scenario, sort_keys=False)
    open_builder(browser, served + "build#yaml=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode().rstrip("="))
    wait_for(browser, "#trace-view section.step[data-step]")
    settled(browser)
    at = "steps[0].dragon_attack"
    assert [o.text for o in Select(by_key(browser, f"{at}.slay.g2")).options][1:] == ["melee"]
    choose(browser, f"{at}.slay.g2", "melee")
    offered = browser.execute_script(
        "return [...document.querySelectorAll(arguments[0] + ' input[type=checkbox]')].map(b => b.dataset.key)",
        f'[data-key="{at}.breath_targets.gold"]')
    assert offered == [f"{at}.breath_targets.gold['feral.{n}']" for n in range(1, 13)]
    for n in range(8, 13):
        tick(browser, f"{at}.breath_targets.gold['feral.{n}']")
    written = current_yaml(browser)["steps"][0]["dragon_attack"]
    assert written["slay"] == {"g2": "melee"}
    assert written["breath_targets"] == {"gold": [f"feral.{n}" for n in range(8, 13)]}
    assert form_errors(browser) == []
    resolve(browser)
    WebDriverWait(browser, 20).until(   # the trace the link opened is replaced by the new one
        lambda b: "slain by" in b.execute_script("return document.getElementById('trace-view').innerText"))
    trace = browser.find_element("css selector", "#trace-view section.step[data-step='1']").text
    assert results_table(browser)["killed"] == "feral.8, feral.9, feral.10, feral.11, feral.12"
    assert "feral removes feral.8, feral.9, feral.10, feral.11, feral.12" in trace
    assert "g2 slain by 10 melee results" in trace and "g1 slain" not in trace


def test_a_shared_link_reopens_the_form_and_trace_in_a_fresh_browser(served, browser):
    """The Link button's URL, opened in another browser session, fills the same form and resolves the same trace;
    a link written by a script (/build#yaml=<base64url, no padding>) does the same."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    fresh_build(browser, served)
    text = CORAL.read_text(encoding="utf-8")
    browser.find_element(By.CSS_SELECTOR, "#yaml-box summary").click()   # a pasted scenario fills the form
    browser.execute_script("const box = document.getElementById('yaml'); box.value = arguments[0];"
                           "box.dispatchEvent(new Event('input', {bubbles: true}));", text)
    browser.find_element(By.ID, "load-yaml").click()
    settled(browser)
    resolve(browser)
    first = browser.find_element(By.ID, "steps").text
    browser.find_element(By.ID, "share").click()
    link = wait_for(browser, "#share-url")[0]
    settled(browser)
    url = link.get_attribute("value")
    assert url.startswith(served + "build#yaml=")

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    script_link = served + "build#yaml=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode().rstrip("=")
    with tempfile.TemporaryDirectory() as profile:
        options.add_argument(f"--user-data-dir={profile}")
        other = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
        try:
            other.set_window_size(*DESKTOP)
            for opened in (url, script_link):
                other.get("about:blank")
                other.get(opened)
                wait_for(other, "#trace-view section.step[data-step]")
                assert other.find_element(By.ID, "steps").text == first
                assert by_key(other, "title").get_attribute("value") == "Coral Elves save 17 against a fogged missile attack"
                assert results_table(other)["elves"] == "17 save"
        finally:
            other.quit()
    assert json.loads(json.dumps(load_yaml(text)))  # the example itself is plain data


def test_a_scenario_with_fields_beyond_the_pickers_shows_them_in_controls_and_resolves(served, browser, run):
    """002 Dragon Attack, Example 2: its burial rolls have no picker of their own; the control drawn from the
    format's schema shows them (no "no pickers" note), the YAML keeps them, and the trace is the CLI's."""
    from selenium.webdriver.common.by import By

    from test_serve_page import ROOT

    path = ROOT / "scenarios" / "sfr2012-dragon-attack-three-red-belly-breath-tail.yaml"
    text = path.read_text(encoding="utf-8")
    open_builder(browser, served + "build#yaml=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode())  # padded
    wait_for(browser, "#trace-view section.step[data-step]")
    settled(browser)
    assert not browser.find_element(By.ID, "unshown").is_displayed()
    assert by_key(browser, "steps[0].dragon_attack.breath_burial['dwarves.4']").get_attribute("value") == "melee"
    assert current_yaml(browser) == load_yaml(text)
    step = json.loads(run("resolve", str(path), "--json").stdout)["steps"][0]
    shown = [e.text for e in browser.find_elements(
        By.CSS_SELECTOR, "#trace-view section.step[data-step='1'] li.event:not(.detail) .what")]
    assert shown == [e["what"] for e in step["trace"] if not e.get("detail")]  # detail lines fold, as the CLI's
    assert results_table(browser)["damage to dwarves"] == "0"   # 002: "15 saves stop all 15 damage"


def test_the_form_survives_a_reload(served, browser):
    fresh_build(browser, served)
    type_in(browser, "title", "Kept across a reload")
    browser.refresh()
    wait_for(browser, '[data-key="terrains-add"]')
    settled(browser)
    assert by_key(browser, "title").get_attribute("value") == "Kept across a reload"


def test_a_roll_built_with_the_keyboard_alone(served, browser):
    """Tab to each control, Enter or Space on buttons and boxes, letters and arrows on pickers, Ctrl+Enter to
    resolve: 3 ID icons rolled for melee count as 3 melee (002 Basic Terms: ID icons count as the result rolled for)."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    fresh_build(browser, served)
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")

    def tab_to(key: str) -> None:
        for _ in range(400):
            ActionChains(browser).send_keys(Keys.TAB).perform()
            if browser.execute_script("return document.activeElement.dataset.key") == key:
                return
        raise AssertionError(f"Tab never reaches {key}")

    def keys(*typed) -> None:
        ActionChains(browser).send_keys(*typed).perform()
        settled(browser)

    tab_to("terrains-add")
    keys(Keys.ENTER)
    tab_to("terrains.terrain1.face")
    keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN)          # face 1 -> 3
    tab_to("armies-add")
    keys(Keys.ENTER)
    tab_to("armies.army1.units-add")
    keys(Keys.ENTER)
    tab_to("armies.army1.units[0].count")
    keys("3")
    tab_to("steps-add")                             # the first kind offered: a roll
    keys(Keys.ENTER)
    tab_to("steps[0].roll.for.melee")
    keys(Keys.SPACE)
    tab_to("steps[0].roll.roll-add")                # the first icon offered: ID
    keys(Keys.ENTER)
    tab_to("steps[0].roll.roll.id")
    keys(Keys.BACKSPACE, "3")
    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    wait_for(browser, "#trace-view section.step[data-step]")
    assert form_errors(browser) == []
    written = current_yaml(browser)
    assert written["terrains"]["terrain1"]["face"] == 3
    assert written["steps"][0]["roll"] == {"army": "army1", "for": "melee", "roll": {"id": 3}}
    assert results_table(browser)["army1"] == "3 melee"


def test_a_form_replaced_by_a_link_a_loaded_yaml_or_start_over_is_kept_and_comes_back(served, browser):
    """Nothing of the user's is lost: a link opened over a form being built (in this tab, or after a reload of
    the page keeping it), a pasted scenario and Start over each replace the form, and one tap brings it back."""
    from selenium.webdriver.common.by import By

    def link(title: str) -> str:
        data = load_yaml(CORAL.read_text(encoding="utf-8"))
        data["title"] = title
        return served + "build#yaml=" + base64.urlsafe_b64encode(yaml.safe_dump(data).encode()).decode()

    def back() -> None:
        note = browser.find_element(By.ID, "replaced")
        assert note.is_displayed() and "Half-built dispute" in note.text
        browser.find_element(By.ID, "restore").click()
        settled(browser)
        assert by_key(browser, "title").get_attribute("value") == "Half-built dispute"

    fresh_build(browser, served)
    type_in(browser, "title", "Half-built dispute")
    open_builder(browser, link("A link from another judge"))            # a fresh page load: the kept form
    wait_for(browser, "#trace-view section.step[data-step]")
    assert by_key(browser, "title").get_attribute("value") == "A link from another judge"
    browser.refresh()                                                     # the same link again
    settled(browser)
    back()
    browser.execute_script("location.hash = arguments[0]", link("A pasted link").split("#", 1)[1])  # same tab
    wait_for(browser, "#trace-view section.step[data-step]")
    assert by_key(browser, "title").get_attribute("value") == "A pasted link"
    back()
    browser.find_element(By.CSS_SELECTOR, "#yaml-box summary").click()
    browser.execute_script("const box = document.getElementById('yaml'); box.value = arguments[0];",
                           CORAL.read_text(encoding="utf-8"))
    browser.find_element(By.ID, "load-yaml").click()
    settled(browser)
    back()
    browser.find_element(By.ID, "new").click()
    browser.find_element(By.ID, "new").click()
    settled(browser)
    assert by_key(browser, "title").get_attribute("value") == ""
    back()


def test_yaml_both_ways_download_and_upload(served, browser, run, tmp_path):
    """An uploaded scenario (ddref init's magic template) fills the form; Download saves the YAML the form wrote,
    which reads back as the same scenario."""
    import time
    from pathlib import Path

    from selenium.webdriver.common.by import By

    fresh_build(browser, served)
    started = tmp_path / "magic.yaml"
    assert run("init", str(started), "--template", "magic").exit_code == 0
    browser.find_element(By.CSS_SELECTOR, "#yaml-box summary").click()
    browser.find_element(By.ID, "upload").send_keys(str(started))
    settled(browser)
    assert by_key(browser, "steps[0].magic.colors.blue").get_attribute("value") == "4"
    assert current_yaml(browser) == load_yaml(started.read_text(encoding="utf-8"))  # comments aside

    saved = tmp_path / "downloads"
    saved.mkdir()
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(saved)})
    browser.find_element(By.ID, "download").click()
    want = load_yaml(started.read_text(encoding="utf-8"))
    for _ in range(100):
        # the browser may name the file before it has written all of it: wait for the whole content
        files = [p for p in saved.iterdir() if p.suffix == ".yaml"]
        try:
            if files and load_yaml(Path(files[0]).read_text(encoding="utf-8")) == want:
                break
        except yaml.YAMLError:
            pass                                    # half written
        time.sleep(0.1)
    assert [p.name for p in files] == ["coral-elves-split-their-magic-between-green-and-blue.yaml"]
    assert load_yaml(Path(files[0]).read_text(encoding="utf-8")) == want


@pytest.mark.parametrize("broken", [
    "armies: {elves: {player: alice, at: coast, units: x}}", "steps: x", "steps: [5, {melee: 3}]", "terrains: [1, 2]",
    "players: alice", "armies: {elves: 5}", "effects: {spell: x}", "dragons: [x]",
    "steps: [{missile: {army: archers, roll: [1], saves: x, casualties: [a]}}]",
])
def test_a_scenario_of_the_wrong_shape_shows_the_loaders_errors_and_breaks_nothing(served, browser, broken):
    """Pasted YAML with a field of the wrong shape: the page still draws, the loader says what is wrong, no
    script error happens, and the form still works (a terrain can be added)."""
    from selenium.webdriver.common.by import By

    fresh_build(browser, served)
    browser.execute_script("window.__errors = []; addEventListener('error', e => __errors.push(e.message));"
                           "addEventListener('unhandledrejection', e => __errors.push(String(e.reason)))")
    data = load_yaml(CORAL.read_text(encoding="utf-8"))
    data.update(load_yaml(broken))
    browser.find_element(By.CSS_SELECTOR, "#yaml-box summary").click()
    browser.execute_script("const box = document.getElementById('yaml'); box.value = arguments[0];"
                           "box.dispatchEvent(new Event('input', {bubbles: true}));", yaml.safe_dump(data))
    browser.find_element(By.ID, "load-yaml").click()
    settled(browser)
    assert form_errors(browser), broken
    click(browser, "terrains-add")
    assert browser.execute_script("return window.__errors") == []


def test_every_page_links_to_the_builder(served, browser):
    from selenium.webdriver.common.by import By

    for page in ("", "trace", "build"):
        browser.get(served + page)
        link = wait_for(browser, 'nav a[href="/build"]')[0]
        assert link.text == "Build a dispute"
    assert browser.find_element(By.CSS_SELECTOR, 'nav a[href="/build"]').get_attribute("aria-current") == "page"


def test_renaming_an_army_renames_what_refers_to_it(served, browser):
    """An army renamed after its step was built: the step, the save roll, the casualties (its unit ids) and the
    checks follow the new name, and the scenario stays valid."""
    fresh_build(browser, served)
    type_in(browser, "title", "Renamed")
    add_terrain(browser, 1, "field", "flatland", 3, action="melee")
    add_army(browser, 1, "dwarves", "alice", "field", "Dwarves", "any unit of health 1", 3)
    add_army(browser, 2, "army2", "bob", "field", "Goblins", "any unit of health 1", 3)
    step = add_step(browser, "Melee")
    at = f"steps[{step}].melee"
    roll_totals(browser, f"{at}.roll", {"melee": 2})
    click(browser, f"{at}.saves-add")
    tick(browser, f"{at}.counter-none")
    tick(browser, f"{at}.casualties.army2['army2.1']")
    tick(browser, f"{at}.casualties.army2['army2.3']")
    type_in(browser, "armies.army2-id", "goblins", commit=True)
    written = current_yaml(browser)["steps"][0]["melee"]
    assert written["target"] == "goblins" and list(written["saves"]) == ["goblins"]
    assert written["casualties"] == {"goblins": ["goblins.1", "goblins.3"]}
    assert form_errors(browser) == []


# --- every field of the format can be written on the page ------------------------------------------------------------

def _model(node: dict, defs: dict) -> dict:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[-1]]
    return node


def _skeleton(node: dict, defs: dict):
    """The least data that reaches the models nested in ``node``: a mapping of models with one entry, a list of
    models with one item, a model with its nested models; None where ``node`` holds no model."""
    node = _model(node, defs)
    for alternative in node.get("anyOf", []) + node.get("oneOf", []):
        found = _skeleton(alternative, defs)
        if found is not None:
            return found
    if "properties" in node:
        return {name: sub for name, prop in node["properties"].items()
                if (sub := _skeleton(prop, defs)) is not None}
    values = node.get("additionalProperties")
    if isinstance(values, dict) and (sub := _skeleton(values, defs)) is not None:
        return {"k1": sub}
    if node.get("type") == "array" and isinstance(node.get("items"), dict):
        sub = _skeleton(node["items"], defs)
        return None if sub is None else [sub]
    return None


def _fields(node: dict, value, path: tuple, defs: dict):
    """(path, field) of every field of every model that ``value`` (a skeleton) reaches."""
    node = _model(node, defs)
    for alternative in node.get("anyOf", []) + node.get("oneOf", []):
        if _skeleton(alternative, defs) is not None:
            yield from _fields(alternative, value, path, defs)
            return
    if "properties" in node:
        for name, prop in node["properties"].items():
            yield path, name
            if isinstance(value, dict) and name in value:
                yield from _fields(prop, value[name], (*path, name), defs)
    elif isinstance(value, dict) and isinstance(node.get("additionalProperties"), dict):
        for key, sub in value.items():
            yield from _fields(node["additionalProperties"], sub, (*path, key), defs)
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for i, sub in enumerate(value):
            yield from _fields(node["items"], sub, (*path, i), defs)


def _path_text(path) -> str:
    """The page's (and the loader's) way of writing a path: steps[0].roll.army."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out.lstrip(".")


def test_every_field_of_the_format_has_a_control_on_the_page(served, browser):
    """Walk the format's schema (``ddref schema``): every field of every model -- the setting, each step kind, and
    the models inside them (a spell bought, a Cantrip's purchase, a save's SAI choices, a turn's initial effects) --
    must have a control on the page that writes it (its data-key is the field's path), once "Show every field" is
    ticked. A field added to the format without a way to write it fails here."""
    from selenium.webdriver.common.by import By

    from ddref.scenario.schema import scenario_schema

    schema = scenario_schema()
    defs = schema["$defs"]
    data = _skeleton(schema, defs)
    kinds = schema["properties"]["steps"]["items"]["oneOf"]
    data["steps"] = [{kind: _skeleton(one["properties"][kind], defs) or {}}
                     for one in kinds for kind in one["required"]]
    data.update({"ddref": 1, "title": "every field", "players": ["alice", "bob"]})
    expected = [(path, name) for path, name in _fields(schema, data, (), defs) if path[:1] != ("steps",)]
    for i, (one, step) in enumerate(zip(kinds, data["steps"])):
        kind = one["required"][0]
        expected += [((f"steps", i), name) for name in one["properties"] if name != kind]
        expected += list(_fields(one["properties"][kind], step[kind], ("steps", i, kind), defs))
    assert len({kind for one in kinds for kind in one["required"]}) == 12 and len(expected) > 300

    text = yaml.safe_dump(data, sort_keys=False)
    open_builder(browser, served + "build#yaml=" + base64.urlsafe_b64encode(text.encode()).decode())
    wait_for(browser, '[data-key="all-fields"]')
    settled(browser)
    tick(browser, "all-fields")
    # a control's data-key is the path it writes; data-writes names the other fields it writes (the unit picker: a
    # catalog name or a generic unit's health; an effect's name: its spell or its SAI)
    keys = browser.execute_script("return [...document.querySelectorAll('#form-root [data-key]')].flatMap("
                                  "n => [n.dataset.key, ...(n.dataset.writes || '').split(' ').filter(w => w)])")

    def written(path: str) -> bool:
        return any(k == path or (k.startswith(path) and k[len(path)] in ".[-") for k in keys)

    missing = [p for p in (_path_text((*path, name)) for path, name in expected) if not written(p)]
    assert not missing, f"fields of the format with no control on the page: {missing}"


# bundled scenarios that use the fields the generic controls write (unit_saves, penalties, doubles, order, pursue,
# the magic step's save_sais, summon, death_magic, the casts' to/into/units, move_to, ashes, burial, ...)
ROUND_TRIP = ("tsr1996-sai-joined-freed-charge.yaml", "sfr2012-sai-saves-against-spells.yaml",
              "tsr1996-routing-pursuit.yaml", "tsr1996-magic-death-and-reserve.yaml",
              "sfr2012-sai-special-unique-order.yaml", "sfr2012-spell-flee-recall-raise.yaml")


def test_bundled_scenarios_opened_and_saved_unchanged_resolve_the_same(served, browser, run, tmp_path):
    """Round trip: a bundled scenario opened in the builder, every field drawn ("Show every field"), and saved as is
    gives the same data and the same resolution as the file itself."""
    from test_serve_page import ROOT

    for name in ROUND_TRIP:
        path = ROOT / "scenarios" / name
        text = path.read_text(encoding="utf-8")
        open_builder(browser, served + "build#yaml=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode())
        wait_for(browser, "#trace-view section.step[data-step]")
        settled(browser)
        if not by_key(browser, "all-fields").is_selected():
            tick(browser, "all-fields")
        saved = browser.execute_script("return B.yaml")
        assert load_yaml(saved) == load_yaml(text), name
        assert not form_errors(browser), (name, form_errors(browser))
        copy = tmp_path / name
        copy.write_text(saved, encoding="utf-8")
        mine, theirs = run("resolve", str(copy), "--json"), run("resolve", str(path), "--json")
        assert mine.exit_code == theirs.exit_code == 0, (name, mine.stderr)
        assert json.loads(mine.stdout)["steps"] == json.loads(theirs.stdout)["steps"], name
