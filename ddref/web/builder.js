// The dispute builder (/build): a form that writes a ddref scenario, checked live by the server's loader.
//
// No framework: the scenario being built is plain data (`S`, the scenario format's own fields) and the form is
// drawn from it again after each change of structure (a row added, a pick that changes other pickers' options);
// typing only updates `S`. The server does everything that needs the rules: /build/catalog (what the pickers
// offer), /build/check (the YAML, the loader's errors, each step's legal options), /build/parse (YAML -> data),
// /resolve (the trace). Uses el(), api(), fill(), showStatus() and showResult() from ddref.js.
"use strict";

const B = {
  S: null,            // the scenario being built
  catalog: null,      // /build/catalog for S.edition
  options: null,      // /build/check's options of the last scenario the loader could read
  errors: [],         // the loader's errors for the current S
  yaml: "",           // the YAML of the current S, as the server writes it
  modes: {},          // roll editors' mode by path: "army" (totals) or "units" (each unit's face)
  stash: {},          // a roll's other mode's entries, kept while the mode is switched
  checked: 0,         // the ticket of the latest check asked for
  unshown: [],        // paths of fields the form has no picker for (kept, written in the YAML)
  opened: new Set(),  // the folded choices the user opened, kept open as the form is drawn again
  schema: null,       // the format's JSON Schema (/build/schema): every field any control can write
  allOpen: false,     // "Show every field": every fold and step drawn open
  openSteps: new Set(),    // the steps opened in a long scenario (the others are drawn as their heading only)
  closedSteps: new Set(),  // the steps closed in a short one (drawn open by default)
};

// a scenario of more steps than this shows each step folded to its heading until it is opened: a form of a thousand
// steps is drawn (and checked) only for the steps being edited (bench/builder_bench.py --steps 1000)
const FOLD_AFTER = 20;

// --- paths: the loader's way of writing them (ddref.scenario.source.format_path) ----------------------------

function pathText(path) {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z0-9_-]+$/.test(part)) out += `.${part}`;
    else if (part.includes("'") && !part.includes('"')) out += `["${part}"]`;
    else out += `['${part.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
  }
  return out.replace(/^\./, "");
}

function get(path, from = B.S) {
  let at = from;
  for (const part of path) {
    if (at === null || at === undefined || typeof at !== "object") return undefined;
    at = at[part];
  }
  return at;
}

function isEmpty(value) {
  return value === undefined || value === null || value === "" ||
    (typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length);
}

// Set the value at path (creating the mappings on the way); an empty value removes the key, and a mapping left
// empty by that goes too, so the YAML never carries a field the user cleared.
function put(path, value) {
  let at = B.S;
  const parents = [];
  for (const part of path.slice(0, -1)) {
    if (at[part] === undefined || at[part] === null || typeof at[part] !== "object") at[part] = {};
    parents.push([at, part]);
    at = at[part];
  }
  const last = path[path.length - 1];
  if (isEmpty(value) && !Array.isArray(at)) delete at[last];
  else at[last] = value;
  for (const [parent, part] of parents.reverse()) {
    if (isEmpty(parent[part]) && !Array.isArray(parent)) delete parent[part];
    else break;
  }
}

// --- drawing ----------------------------------------------------------------------------------------------------

let changedStructure = false;

function changed(redraw) {
  if (redraw) draw();
  markStale(true);
  scheduleCheck();
}

// a trace shown for an earlier form is dimmed and says so until Resolve runs again
function markStale(stale) {
  const view = document.getElementById("trace-view");
  const shown = document.getElementById("steps").childNodes.length > 0;
  view.classList.toggle("stale", stale && shown);
  let note = document.getElementById("stale-note");
  if (stale && shown && !note) {
    note = el("p", { id: "stale-note", class: "note" }, "The form has changed since this trace: Resolve again.");
    view.prepend(note);
  } else if (!(stale && shown) && note) {
    note.remove();
  }
}

// The pause after a change before the form is checked, so that typing sends one check, not one a key. A script
// driving the page (the browser tests) may shorten it with window.ddrefCheckDelay.
const CHECK_DELAY_MS = 250;
let checkTimer = null;

// body[data-busy] while a check is waiting or on its way: what a test (or a script) waits on
function scheduleCheck() {
  document.body.dataset.busy = "1";
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, window.ddrefCheckDelay ?? CHECK_DELAY_MS);
}

function wrap(label, control, key, cls) {
  return el("label", { class: `field ${cls || ""}`, data: { field: key } }, el("span", { class: "name" }, label), control);
}

// A text input bound to path; `redraw` draws the form again on change (a name other pickers list).
function text(label, path, opts = {}) {
  const key = pathText(path);
  const input = el("input", { type: "text", value: get(path) ?? "", data: { key }, autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", ...(opts.list ? { list: opts.list } : {}),
    ...(opts.placeholder ? { placeholder: opts.placeholder } : {}) });
  input.addEventListener(opts.redraw ? "change" : "input", () => {
    put(path, opts.parse ? opts.parse(input.value) : input.value.trim() ? input.value : undefined);
    changed(opts.redraw);
  });
  return wrap(label, input, key, opts.cls);
}

function number(label, path, opts = {}) {
  const key = pathText(path);
  const value = get(path);
  const input = el("input", { type: "text", inputmode: "numeric", pattern: "[0-9]*", value: value ?? "",
    data: { key }, autocomplete: "off", class: "num", ...(opts.placeholder ? { placeholder: opts.placeholder } : {}) });
  input.addEventListener("input", () => {
    const raw = input.value.trim();
    // a whole number is written as one; anything else as typed, for the loader to say what is wrong at the field
    put(path, raw === "" ? undefined : /^-?\d+$/.test(raw) ? Number(raw) : raw);
    changed(opts.redraw);
  });
  return wrap(label, input, key, "short");
}

// A select bound to path: choices are [value, label] pairs or plain values; "" (the first, blank) removes it.
function pick(label, path, choices, opts = {}) {
  const key = pathText(path);
  const value = get(path);
  const select = el("select", { data: { key } });
  const listed = choices.map((c) => (Array.isArray(c) ? c : [c, c]));
  if (!opts.required || value === undefined) select.append(el("option", { value: "" }, opts.blank || "—"));
  if (value !== undefined && value !== "" && !listed.some(([v]) => String(v) === String(value))) {
    listed.unshift([value, `${value} (not offered here)`]);  // a value the form does not offer is kept as written
  }
  for (const [v, l] of listed) {
    const option = el("option", { value: String(v) }, l);
    if (value !== undefined && String(v) === String(value)) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    const chosen = listed.find(([v]) => String(v) === select.value);
    put(path, chosen ? chosen[0] : undefined);
    if (opts.after) opts.after(chosen ? chosen[0] : undefined);
    changed(opts.redraw !== false);
  });
  return wrap(label, select, key, opts.cls);
}

function check_(label, path, opts = {}) {
  const key = pathText(path);
  const box = el("input", { type: "checkbox", data: { key } });
  box.checked = get(path) === true;
  box.addEventListener("change", () => {
    put(path, box.checked ? true : undefined);
    changed(opts.redraw);
  });
  return el("label", { class: "field check", data: { field: key } }, box, el("span", { class: "name" }, label));
}

function button(label, key, onclick, cls = "secondary") {
  return el("button", { type: "button", class: cls, data: { key }, onclick }, label);
}

function removeButton(label, key, onclick) {
  return el("button", { type: "button", class: "remove", "aria-label": label, title: label, data: { key }, onclick }, "✕");
}

function group(title, path, ...children) {
  return el("fieldset", { class: "group", data: { key: pathText(path) } }, el("legend", {}, title), ...children);
}

// keys of a mapping the form does not draw are kept as written and listed in a note
function unshownKeys(obj, known, path) {
  if (!obj || typeof obj !== "object" || Array.isArray(obj)) return;
  for (const k of Object.keys(obj)) if (!known.includes(k)) B.unshown.push(pathText([...path, k]));
}

// --- the options the pickers offer -------------------------------------------------------------------------------

// the state before step i (null: the start), as the last readable check gave it; else what S itself says
function stateAt(i) {
  const o = B.options;
  if (o) {
    if (i === null || i === undefined) return o.initial;
    if (o.steps[i]) return o.steps[i];
    if (i < o.steps.length) return o.initial;   // a folded step's options were not asked for: opening it asks
    const last = o.steps.filter((x) => x);
    if (last.length) return last[last.length - 1];
    return o.initial;
  }
  const armies = {};
  for (const [id, a] of Object.entries(B.S.armies || {})) armies[id] = { player: a.player, at: a.at, units: [], colors: [] };
  return { players: B.S.players || [], terrains: Object.keys(B.S.terrains || {}), armies, dua: {}, bua: {},
    dragons: (B.S.dragons || []).map((d) => ({ id: d.id })), effects: [] };
}

function armyIds(i) {
  const ids = Object.keys(stateAt(i).armies || {});
  for (const id of Object.keys(B.S.armies || {})) if (!ids.includes(id)) ids.push(id);
  return ids;
}

function players() { return (Array.isArray(B.S.players) ? B.S.players : []).filter((p) => typeof p === "string" && p); }
function terrainIds() { return Object.keys(B.S.terrains || {}); }

function unitsOf(i, army) {
  const a = (stateAt(i).armies || {})[army];
  return a ? a.units : [];
}

function allUnits(i) {
  return Object.values(stateAt(i).armies || {}).flatMap((a) => a.units);
}

function deadUnits(i, which = "dua") {
  return Object.values(stateAt(i)[which] || {}).flat();
}

function iconChoices() {
  const names = Object.fromEntries(B.catalog.sais.map((s) => [s.id, s.name]));
  return B.catalog.icons.map((icon) => [icon, icon === "id" ? "ID" : names[icon] || icon]);
}

// --- the setting -----------------------------------------------------------------------------------------------

function drawSetting() {
  const S = B.S;
  const drawnTop = ["title", "source", "edition", "players", "turn", "terrains", "armies",
    "dua", "bua", "dragons", "effects", "steps", "expect"];
  if (S.players !== undefined && !Array.isArray(S.players)) B.unshown.push("players");
  const playerRows = (Array.isArray(S.players) ? S.players : []).map((p, i) => el("div", { class: "row" },
    text(`Player ${i + 1}`, ["players", i], { redraw: true }),
    removeButton(`Remove player ${p}`, `players[${i}]-remove`, () => { S.players.splice(i, 1); changed(true); })));
  return group("Setting", [],
    text("Title", ["title"], { cls: "wide-field", placeholder: "what the dispute is about" }),
    el("div", { class: "row" },
      pick("Edition", ["edition"], ["sfr-2012", "sfr-v4", "tsr-1996"], { required: true,
        after: () => loadCatalog().then(() => changed(true)) }),
      pick("Whose turn", ["turn", "player"], players())),
    safely(() => moreFields(S.turn, model("TurnIn"), ["player"], ["turn"], "More about the turn"), ["turn"]),
    moreFields(S, model(""), drawnTop, [], "More of the setting"),
    text("Source", ["source"], { cls: "wide-field", placeholder: "a game at the club, round 3" }),
    el("div", { class: "players", data: { key: "players" } }, playerRows,
      button("Add player", "players-add", () => { S.players = [...players(), `player${players().length + 1}`]; changed(true); })),
    drawTerrains(), drawEffects());
}

// A terrain or army renamed in place, its order kept, and every reference to it renamed too: a value naming it,
// a key naming it (saves: {elves: ...}), the ids of its generic units (elves.3), the paths of the checks.
function renameKey(mapPath, old, name) {
  const map = get(mapPath);
  if (!name || name === old || name in map) return;
  const renamed = {};
  for (const [k, v] of Object.entries(map)) renamed[k === old ? name : k] = v;
  put(mapPath, renamed);
  // a whole value, or a dotted part of one (a unit id elves.3, an expectation's path results.elves.save)
  const fix = (value) => value.split(".").map((part) => (part === old ? name : part)).join(".");
  const walk = (node) => {
    if (Array.isArray(node)) {
      node.forEach((v, i) => { if (typeof v === "string") node[i] = fix(v); else walk(v); });
    } else if (node && typeof node === "object") {
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === "string") node[k] = fix(v); else walk(v);
      }
      const keys = Object.keys(node);
      if (keys.some((k) => fix(k) !== k)) {
        const entries = keys.map((k) => [fix(k), node[k]]);
        for (const k of keys) delete node[k];
        for (const [k, v] of entries) node[k] = v;
      }
    }
  };
  for (const part of ["terrains", "armies", "effects", "dragons", "steps", "expect", "turn"]) {
    walk(B.S[part]);
  }
  for (const key of Object.keys(B.modes)) {  // a roll's mode follows its army's new name
    const moved = key.split(old).join(name);
    if (moved !== key) { B.modes[moved] = B.modes[key]; delete B.modes[key]; }
  }
}

function idInput(label, mapPath, id) {
  const key = `${pathText([...mapPath, id])}-id`;
  const input = el("input", { type: "text", value: id, data: { key }, autocomplete: "off", autocapitalize: "off",
    spellcheck: "false", class: "id" });
  input.addEventListener("change", () => { renameKey(mapPath, id, input.value.trim()); changed(true); });
  return wrap(label, input, key, "short");
}

function freeId(map, stem) {
  let n = Object.keys(map || {}).length + 1;
  while (map && `${stem}${n}` in map) n += 1;
  return `${stem}${n}`;
}

function drawTerrains() {
  const S = B.S;
  const rows = Object.entries(S.terrains || {}).map(([id, t]) => safely(() => {
    const at = ["terrains", id];
    const extra = moreFields(t, model("TerrainIn"), ["type", "face", "action", "eighth", "controlled_by", "home_of", "frontier", "special"], at);
    return el("div", { class: "item", data: { key: pathText(at) } }, extra,
      el("div", { class: "row" },
        idInput("Terrain id", ["terrains"], id),
        pick("Type", [...at, "type"], B.catalog.terrain_types, { required: true }),
        pick("Face", [...at, "face"], [1, 2, 3, 4, 5, 6, 7, 8], { required: true }),
        pick("Action icon", [...at, "action"], ["melee", "missile", "magic"]),
        removeButton(`Remove terrain ${id}`, `${pathText(at)}-remove`, () => { delete S.terrains[id]; changed(true); })),
      el("div", { class: "row" },
        pick("Eighth face", [...at, "eighth"], B.catalog.eighth),
        pick("Controlled by", [...at, "controlled_by"], Object.keys(S.armies || {})),
        pick("Home of", [...at, "home_of"], players()),
        check_("Frontier", [...at, "frontier"], { redraw: true }),
        pick("Special", [...at, "special"], B.catalog.special)));
  }, ["terrains", id]));
  return group("Terrains", ["terrains"], rows,
    button("Add terrain", "terrains-add", () => {
      S.terrains = S.terrains || {};
      S.terrains[freeId(S.terrains, "terrain")] = { type: B.catalog.terrain_types.includes("flatland") ? "flatland" : B.catalog.terrain_types[0], face: 1 };
      changed(true);
    }));
}

function effectTargets() {
  const st = stateAt(null);
  return [...terrainIds().map((t) => [t, `terrain ${t}`]), ...Object.keys(B.S.armies || {}).map((a) => [a, `army ${a}`]),
    ...Object.values(st.armies || {}).flatMap((a) => a.units.map((u) => [u.id, `unit ${u.label}`])),
    ...players().map((p) => [p, `player ${p}`])];
}

function drawEffects() {
  const S = B.S;
  const rows = (Array.isArray(S.effects) ? S.effects : []).map((e, i) => safely(() => {
    const at = ["effects", i];
    const kind = e.sai !== undefined ? "sai" : "spell";
    const extra = moreFields(e, model("EffectIn"), ["spell", "sai", "target", "by", "count"], at);
    return el("div", { class: "item", data: { key: pathText(at) } }, el("div", { class: "row" },
      spellInput(kind === "sai" ? "SAI" : "Spell", [...at, kind], { sais: true, effectAt: at }),
      pick("On", [...at, "target"], effectTargets(), { required: true }),
      pick("Cast by", [...at, "by"], players(), { required: true }),
      number("Times", [...at, "count"], { placeholder: "1" }),
      removeButton(`Remove effect ${i + 1}`, `${pathText(at)}-remove`, () => { S.effects.splice(i, 1); changed(true); })), extra);
  }, ["effects", i]));
  return group("Effects already in play", ["effects"], rows,
    button("Add an effect in play", "effects-add", () => {
      S.effects = [...(S.effects || []), { spell: "", target: terrainIds()[0] || "", by: players()[0] || "" }];
      changed(true);
    }));
}

// A spell (or SAI) typed with completion from the corpus: the name or the id; written as the id when it is one.
function spellInput(label, path, opts = {}) {
  const key = pathText(path);
  const input = el("input", { type: "text", value: get(path) ?? "", list: opts.sais ? "spells-and-sais" : "spells",
    // an effect's one name field writes its spell or its SAI (data-writes: the other fields a control writes)
    data: { key, ...(opts.effectAt ? { writes: ["spell", "sai"].map((f) => pathText([...opts.effectAt, f])).join(" ") } : {}) },
    autocomplete: "off", autocapitalize: "off", spellcheck: "false", placeholder: "type a name" });
  input.addEventListener("change", () => {
    const raw = input.value.trim();
    const low = raw.toLowerCase();
    const spell = B.catalog.spells.find((s) => s.id === low || s.name.toLowerCase() === low);
    const sai = opts.sais && !spell && B.catalog.sais.find((s) => s.id === low || s.name.toLowerCase() === low);
    if (opts.effectAt) {
      const effect = get(opts.effectAt);
      delete effect.spell;
      delete effect.sai;
      const fields = Object.entries(effect);
      for (const k of Object.keys(effect)) delete effect[k];
      Object.assign(effect, sai ? { sai: sai.id } : { spell: spell ? spell.id : raw }, Object.fromEntries(fields));
    } else {
      put(path, spell ? spell.id : raw || undefined);
    }
    changed(true);
  });
  return wrap(label, input, key);
}

function datalists() {
  const spells = B.catalog.spells.map((s) => el("option", { value: s.id }, `${s.name} (${s.color}, ${s.cost})`));
  const sais = B.catalog.sais.map((s) => el("option", { value: s.id }, `${s.name} (SAI)`));
  const results = [];
  for (const a of Object.keys(B.S.armies || {})) {
    for (const r of B.catalog.results) results.push(`results.${a}.${r}`);
    results.push(`damage.${a}`, `armies.${a}.health`, `armies.${a}.units`);
  }
  results.push("killed", "buried", "maneuver.succeeded");
  return el("div", { hidden: "" },
    el("datalist", { id: "spells" }, spells),
    el("datalist", { id: "spells-and-sais" }, spells.map((o) => o.cloneNode(true)), sais),
    el("datalist", { id: "expect-keys" }, results.map((r) => el("option", { value: r }))),
    el("datalist", { id: "known-ids" }, knownIds().map((v) => el("option", { value: v }))));
}

// the ids a mapping's key may be: units (in armies, dead, buried), armies, dragons, terrains, players, SAIs
function knownIds() {
  const st = stateAt(null);
  const ids = [...allUnits(null).map((u) => u.id), ...deadUnits(null).map((u) => u.id), ...deadUnits(null, "bua").map((u) => u.id),
    ...Object.keys(B.S.armies || {}), ...(st.dragons || []).map((d) => d.id), ...terrainIds(), ...players(),
    ...B.catalog.sais.map((s) => s.id)];
  return [...new Set(ids)];
}

// --- armies and units ---------------------------------------------------------------------------------------------

function unitChoices(race) {
  const units = B.catalog.units.filter((u) => (u.race || "") === (race || ""));
  const out = units.map((u) => [`name:${u.name}`, `${u.name} · ${u.size}, health ${u.health}`]);
  if (race) for (const h of [1, 2, 3, 4]) out.push([`health:${h}`, `any unit of health ${h}`]);
  return out;
}

function unitRow(listPath, i) {
  const at = [...listPath, i];
  const u = get(at);
  const key = pathText(at);
  const remove = removeButton(`Remove unit ${i + 1}`, `${key}-remove`, () => { get(listPath).splice(i, 1); changed(true); });
  if (typeof u !== "object" || u === null) {   // a catalog name written as text: shown as written
    return el("div", { class: "row unit", data: { key } }, text("Unit (catalog name)", at), remove);
  }
  const race = u.race || "";
  const current = u.name ? `name:${u.name}` : u.health ? `health:${u.health}` : "";
  const races = [["", "magical items (no race)"], ...B.catalog.races.map((r) => [r.id, r.name])];
  const raceSelect = pick("Race", [...at, "race"], races.slice(1), { blank: "items, artifacts, medallions",
    after: () => { delete u.name; delete u.health; const first = unitChoices(get([...at, "race"]))[0]; if (first) setUnit(u, first[0]); } });
  const unitSelect = el("select", { data: { key: `${key}.unit`, writes: `${key}.name ${key}.health` } });
  const choices = unitChoices(race);
  if (!current) unitSelect.append(el("option", { value: "" }, "—"));
  if (current && !choices.some(([v]) => v === current)) choices.unshift([current, current.replace(/^\w+:/, "")]);
  for (const [v, l] of choices) {
    const option = el("option", { value: v }, l);
    if (v === current) option.selected = true;
    unitSelect.append(option);
  }
  unitSelect.addEventListener("change", () => { setUnit(u, unitSelect.value); changed(true); });
  const colored = u.color !== undefined || ["eldarim", "dragonkin", ""].includes(race);
  const extra = moreFields(u, model("UnitIn"), ["name", "race", "health", "count", ...(u.id !== undefined ? ["id"] : []),
    ...(colored ? ["color"] : [])], at, "More");
  return el("div", { class: "row unit", data: { key } },
    raceSelect, wrap("Unit", unitSelect, `${key}.unit`, "grow"),
    number("How many", [...at, "count"], { placeholder: "1" }),
    u.id !== undefined ? text("Id", [...at, "id"], { redraw: true }) : null,
    colored ? pick("Color", [...at, "color"], B.catalog.colors) : null,
    remove, extra);
}

function setUnit(u, choice) {
  delete u.name;
  delete u.health;
  if (!choice) return;
  const [kind, value] = [choice.slice(0, choice.indexOf(":")), choice.slice(choice.indexOf(":") + 1)];
  const ordered = {};
  if (u.id !== undefined) ordered.id = u.id;
  if (u.race) ordered.race = u.race;
  if (kind === "name") ordered.name = value; else ordered.health = Number(value);
  for (const [k, v] of Object.entries(u)) if (!(k in ordered)) ordered[k] = v;
  for (const k of Object.keys(u)) delete u[k];
  Object.assign(u, ordered);
}

function unitsEditor(listPath, title) {
  const list = get(listPath) || [];
  if (!Array.isArray(list)) throw new TypeError("units are a list");
  return el("div", { class: "units", data: { key: pathText(listPath) } },
    el("h4", {}, title), list.map((_, i) => unitRow(listPath, i)),
    button("Add units", `${pathText(listPath)}-add`, () => {
      const race = B.catalog.races[0] ? B.catalog.races[0].id : undefined;
      const unit = race ? { race } : {};
      const first = unitChoices(race)[0];
      if (first) setUnit(unit, first[0]);
      if (!get(listPath)) put(listPath, []);
      get(listPath).push(unit);
      changed(true);
    }));
}

function drawArmies() {
  const S = B.S;
  const rows = Object.entries(S.armies || {}).map(([id, a]) => safely(() => {
    const at = ["armies", id];
    const extra = moreFields(a, model("ArmyIn"), ["player", "at", "units"], at);
    return el("div", { class: "item", data: { key: pathText(at) } },
      el("div", { class: "row" },
        idInput("Army id", ["armies"], id),
        pick("Player", [...at, "player"], players(), { required: true }),
        pick("Where", [...at, "at"], [...terrainIds(), ["reserve", "reserve area"]], { required: true }),
        removeButton(`Remove army ${id}`, `${pathText(at)}-remove`, () => { delete S.armies[id]; changed(true); })),
      unitsEditor([...at, "units"], `Units of ${id}`), extra);
  }, ["armies", id]));
  const areas = ["dua", "bua"].map((area) => {
    const title = area === "dua" ? "Dead units (DUA)" : "Buried units (BUA)";
    const owners = Object.keys(S[area] || {});
    return el("div", { class: "area" },
      owners.map((p) => el("div", { class: "item" }, unitsEditor([area, p], `${title} of ${p}`),
        removeButton(`Remove ${title} of ${p}`, `${area}.${p}-remove`, () => { delete S[area][p]; changed(true); }))),
      players().filter((p) => !owners.includes(p)).map((p) =>
        button(`${title} of ${p}`, `${area}.${p}-add`, () => { S[area] = S[area] || {}; S[area][p] = []; changed(true); })));
  });
  return group("Armies", ["armies"], rows,
    button("Add army", "armies-add", () => {
      S.armies = S.armies || {};
      S.armies[freeId(S.armies, "army")] = { player: players()[0] || "", at: terrainIds()[0] || "reserve", units: [] };
      changed(true);
    }), areas, drawDragons());
}

function drawDragons() {
  const S = B.S;
  if (!B.catalog.dragon_faces.length && !(S.dragons || []).length) return null;
  const rows = (Array.isArray(S.dragons) ? S.dragons : []).map((d, i) => safely(() => {
    const at = ["dragons", i];
    const extra = moreFields(d, model("DragonIn"), ["id", "color", "form", "owner", "at"], at);
    return el("div", { class: "item", data: { key: pathText(at) } }, el("div", { class: "row" },
      text("Dragon id", [...at, "id"], { redraw: true }),
      pick("Color", [...at, "color"], B.catalog.dragon_colors, { required: true }),
      pick("Form", [...at, "form"], ["drake", "wyrm"]),
      pick("Owner", [...at, "owner"], players()),
      pick("At", [...at, "at"], terrainIds(), { required: true }),
      removeButton(`Remove dragon ${i + 1}`, `${pathText(at)}-remove`, () => { S.dragons.splice(i, 1); changed(true); })), extra);
  }, ["dragons", i]));
  return el("div", { class: "dragons", data: { key: "dragons" } }, el("h4", {}, "Dragons"), rows,
    button("Add dragon", "dragons-add", () => {
      S.dragons = [...(S.dragons || []), { id: `dragon${(S.dragons || []).length + 1}`, color: "red", at: terrainIds()[0] || "" }];
      changed(true);
    }));
}

// --- rolls ----------------------------------------------------------------------------------------------------------

// One army's roll: its totals by icon ({maneuver: 12, id: 2}), or each unit's face ({unit: "melee 2"}).
function rollEditor(title, path, army, i) {
  const key = pathText(path);
  const value = get(path) || {};
  const units = unitsOf(i, army);
  const ids = new Set(units.map((u) => u.id));
  const keys = Object.keys(value);
  const mode = B.modes[key] || (keys.length && keys.every((k) => ids.has(k)) ? "units" : "army");
  const switchTo = (to) => {
    if (to === mode) return;
    B.stash[`${key} ${mode}`] = get(path);
    put(path, B.stash[`${key} ${to}`]);
    B.modes[key] = to;
    changed(true);
  };
  const modes = el("div", { class: "modes", role: "group", "aria-label": `${title}: how it is entered` },
    el("button", { type: "button", class: mode === "army" ? "on" : "", "aria-pressed": String(mode === "army"),
      data: { key: `${key}-mode-army` }, onclick: () => switchTo("army") }, "Army totals"),
    el("button", { type: "button", class: mode === "units" ? "on" : "", "aria-pressed": String(mode === "units"),
      data: { key: `${key}-mode-units` }, onclick: () => switchTo("units") }, "Each unit"));
  let body;
  if (mode === "army") {
    const names = Object.fromEntries(iconChoices());
    const rows = keys.map((icon) => el("div", { class: "row icon" },
      number(names[icon] || icon, [...path, icon]),
      removeButton(`Remove ${icon}`, `${pathText([...path, icon])}-remove`, () => { delete value[icon]; put(path, value); changed(true); })));
    const add = el("select", { data: { key: `${key}-icon` }, "aria-label": `${title}: icon to add` },
      iconChoices().filter(([v]) => !keys.includes(v)).map(([v, l]) => el("option", { value: v }, l)));
    body = [el("div", { class: "icons" }, rows), el("div", { class: "row add" }, add,
      button("Add icon", `${key}-add`, () => {
        put([...path, add.value], get([...path, add.value]) ?? 1);
        focusAfter = pathText([...path, add.value]);
        changed(true);
      }))];
  } else {
    body = units.length ? units.map((u) => unitFace(path, u)) :
      el("p", { class: "note" }, army ? `No units known for ${army} yet: add its units, or fix the errors above.` : "Pick the army first.");
  }
  return el("div", { class: "roll", data: { key } }, el("h4", {}, title), modes, body);
}

function unitFace(path, u) {
  const at = [...path, u.id];
  const key = pathText(at);
  const raw = get(at);
  if (raw !== undefined && typeof raw !== "string") {  // several faces: kept as written, shown as text
    return text(`${u.label}: faces`, at, { parse: (v) => v.split(",").map((s) => s.trim()).filter((s) => s) });
  }
  const [icon, count] = raw ? (/^(.*\S)\s+(\d+)$/.exec(raw) || [null, raw, ""]).slice(1) : ["", ""];
  const write = () => {
    const n = countInput.value.trim();
    put(at, select.value ? (n && n !== "1" ? `${select.value} ${n}` : select.value) : undefined);
  };
  const select = el("select", { data: { key: `${key}-icon` }, "aria-label": `${u.label}: icon` },
    el("option", { value: "" }, "—"),
    iconChoices().map(([v, l]) => { const o = el("option", { value: v }, l); if (v === icon) o.selected = true; return o; }));
  const countInput = el("input", { type: "text", inputmode: "numeric", class: "num", value: count,
    placeholder: "1", data: { key }, "aria-label": `${u.label}: how many icons` });
  select.addEventListener("change", () => { write(); changed(false); });
  countInput.addEventListener("input", () => { write(); changed(false); });
  return el("div", { class: "row face", data: { field: key } }, el("span", { class: "unit-label" }, u.label), select, countInput);
}

// Army id -> roll (saves, counter-maneuvers, counter-attack saves): the armies offered first, then any other.
function rollMap(title, path, i, offered) {
  const value = get(path) || {};
  const rows = Object.keys(value).map((army) => el("div", { class: "item" },
    rollEditor(`${title}: ${army}`, [...path, army], army, i),
    removeButton(`Remove ${title} of ${army}`, `${pathText([...path, army])}-remove`, () => { delete value[army]; put(path, value); changed(true); })));
  const others = [...offered, ...armyIds(i).filter((a) => !offered.includes(a))].filter((a) => a && !(a in value));
  const add = el("select", { data: { key: `${pathText(path)}-army` }, "aria-label": `${title}: army` },
    others.map((a) => el("option", { value: a }, a)));
  return el("div", { class: "rollmap", data: { key: pathText(path) } }, el("h4", {}, title), rows,
    others.length ? el("div", { class: "row add" }, add, button(`Add ${title.toLowerCase()}`, `${pathText(path)}-add`, () => {
      put([...path, add.value], { save: 0 });
      changed(true);
    })) : null);
}

// {type: n} over a fixed set of keys: ID placement, penalties, a magic color split
function counts(title, path, keys, hint) {
  return el("div", { class: "counts", data: { key: pathText(path) } }, el("h4", {}, title),
    hint ? el("p", { class: "note" }, hint) : null,
    el("div", { class: "row" }, keys.map(([k, label]) => number(label, [...path, k]))));
}

// Army id -> the unit ids it removes, picked from its units before the step
function casualties(path, i, armies) {
  const value = get(path) || {};
  const blocks = armies.filter((a) => a).map((army) => {
    const units = unitsOf(i, army);
    const chosen = value[army] || [];
    return el("fieldset", { class: "picks", data: { key: pathText([...path, army]) } },
      el("legend", {}, `Units ${army} removes`),
      units.map((u) => {
        const box = el("input", { type: "checkbox", data: { key: pathText([...path, army, u.id]) } });
        box.checked = chosen.includes(u.id);
        box.addEventListener("change", () => {
          const now = new Set(get([...path, army]) || []);
          if (box.checked) now.add(u.id); else now.delete(u.id);
          put([...path, army], units.map((x) => x.id).filter((id) => now.has(id)).concat([...now].filter((id) => !units.some((x) => x.id === id))));
          if (!now.size) put([...path, army], undefined);
          changed(false);
        });
        return el("label", { class: "field check" }, box, el("span", {}, u.label));
      }));
  });
  return el("div", { class: "casualties", data: { key: pathText(path) } }, el("h4", {}, "Casualties"),
    el("p", { class: "note" }, "Left unticked, the engine chooses the smallest units (marked defaulted)."), blocks);
}

// A magic roll's largest splits by color, as the engine lists them for the roll (the check's "splits" of step i):
// picking one writes it to `colors` (002 First March, Magic; Doubling Magic)
function splitPick(path, i) {
  const splits = (stateAt(i) || {}).splits || [];
  const key = pathText([...path, "split"]);
  if (!splits.length) return null;
  const label = (split) => Object.entries(split).map(([c, n]) => `${n} ${c}`).join(", ");
  const now = get(path) || {};
  const same = (split) => Object.keys({ ...split, ...now }).every((c) => (split[c] || 0) === (Number(now[c]) || 0));
  const select = el("select", { data: { key } }, el("option", { value: "" }, "— (type the points below)"),
    splits.map((split, j) => el("option", { value: String(j), ...(same(split) ? { selected: true } : {}) }, label(split))));
  select.addEventListener("change", () => {
    const split = splits[Number(select.value)];
    if (select.value === "" || !split) return;
    put(path, { ...split });
    changed(true);
  });
  return wrap("The largest splits this roll allows", select, key);
}

// army (or freed unit) -> what its Cantrip buys in the step: for each Cantrip the engine found rolled, the spells its
// points can pay for (the check's "cantrip" of step i), picked with their targets (002 SAI List, Cantrip)
function cantripBuys(path, i) {
  const offered = (stateAt(i) || {}).cantrip || {};
  const value = get(path) || {};
  const keys = [...Object.keys(offered), ...Object.keys(value).filter((k) => !(k in offered))];
  if (!keys.length) return null;
  if (B.drew) B.drew.add(path[path.length - 1]);
  return el("div", { class: "cantrips", data: { key: pathText(path) } }, el("h4", {}, "Cantrip purchases"),
    keys.map((key) => {
      const extra = moreFields(value[key], model("CantripIn"), ["cast"], [...path, key]);
      const spells = offered[key];
      const note = spells ? (spells.length ? `The spells ${key}'s Cantrip points can pay for, one at a time:` :
        `${key}'s Cantrip points pay for no spell.`) : `${key} rolls no Cantrip here (as last checked).`;
      return el("fieldset", { class: "picks", data: { key: pathText([...path, key]) } },
        el("legend", {}, `What ${key}'s Cantrip buys`), el("p", { class: "note" }, note),
        casts([...path, key, "cast"], i, spells), extra);
    }));
}

// a dragon attack's choices as the engine lists them (the check's "dragon" of step i): which results slay each dragon
// (002 Dragons: results of one type, its health plus its automatic saves), and the units each breath color reaches
function dragonChoices(at, i) {
  const found = (stateAt(i) || {}).dragon || {};
  const slay = found.slay || {};
  const breath = found.breath || {};
  const parts = [];
  if (Object.keys(slay).length) {
    B.drew.add("slay");
    parts.push(el("div", { class: "slay", data: { key: pathText([...at, "slay"]) } }, el("h4", {}, "Dragons slain"),
      el("p", { class: "note" }, "Left blank, the engine slays what the results allow, the cheapest first (marked defaulted)."),
      el("div", { class: "row" }, Object.entries(slay).map(([dragon, types]) => (types.length
        ? pick(`Slay ${dragon} with`, [...at, "slay", dragon], types, { blank: "— (the engine's choice)" })
        : el("p", { class: "note" }, `${dragon}: no results of one type enough to slay it.`))))));
  }
  for (const [color, b] of Object.entries(breath)) {
    B.drew.add("breath_targets");
    const path = [...at, "breath_targets", color];
    const chosen = get(path) || [];
    parts.push(el("fieldset", { class: "picks", data: { key: pathText(path) } },
      el("legend", {}, `Units the ${color} breath reaches`),
      el("p", { class: "note" }, `It reaches ${b.reach} ${b.per === "units" ? "units" : "health-worth"}; left unticked, the smallest units.`),
      b.units.map((id) => {
        const box = el("input", { type: "checkbox", data: { key: pathText([...path, id]) } });
        box.checked = chosen.includes(id);
        box.addEventListener("change", () => {
          const now = new Set(get(path) || []);
          if (box.checked) now.add(id); else now.delete(id);
          put(path, now.size ? b.units.filter((u) => now.has(u)) : undefined);
          changed(false);
        });
        return el("label", { class: "field check" }, box, el("span", {}, id));
      })));
  }
  return parts.length ? el("div", { class: "dragon-choices" }, parts) : null;
}

// the spells bought: spell, target, times, paying color; `offered` ([{spell, color}]): the spells to pick from
function casts(path, i, offered) {
  const list = get(path) || [];
  const st = stateAt(i);
  const targets = [...terrainIds().map((t) => [t, `terrain ${t}`]), ...armyIds(i).map((a) => [a, `army ${a}`]),
    ...allUnits(i).map((u) => [u.id, `unit ${u.label}`]), ...deadUnits(i).map((u) => [u.id, `dead ${u.label}`]),
    ...players().map((p) => [p, `player ${p}`]), ...(st.effects || []).map((e) => [e, `spell in play ${e}`])];
  const rows = list.map((c, j) => {
    const at = [...path, j];
    const extra = moreFields(c, model("CastIn"), ["spell", "target", "count", "color"], at);
    const names = Object.fromEntries(B.catalog.spells.map((sp) => [sp.id, sp.name]));
    return el("div", { class: "item", data: { key: pathText(at) } }, el("div", { class: "row" },
      offered ? pick("Spell", [...at, "spell"], [...new Set(offered.map((o) => o.spell))].map((id) => [id, names[id] || id]),
        { required: true, after: (id) => {
          const colors = offered.filter((o) => o.spell === id && o.color).map((o) => o.color);
          if (colors.length) put([...at, "color"], colors.includes(c.color) ? c.color : colors[0]);
        } }) : spellInput("Spell", [...at, "spell"]),
      pick("Target", [...at, "target"], targets, { required: true }),
      number("Times", [...at, "count"], { placeholder: "1" }),
      pick("Paid in", [...at, "color"], B.catalog.colors, { blank: "its color" }),
      removeButton(`Remove spell ${j + 1}`, `${pathText(at)}-remove`, () => { list.splice(j, 1); changed(true); })), extra);
  });
  return el("div", { class: "casts", data: { key: pathText(path) } }, el("h4", {}, "Spells bought"), rows,
    button("Add a spell", `${pathText(path)}-add`, () => {
      const first = offered && offered.length ? offered[0] : null;
      put(path, [...list, { spell: first ? first.spell : "", target: targets[0] ? targets[0][0] : "",
        ...(first && first.color ? { color: first.color } : {}) }]);
      changed(true);
    }));
}

// SAI name -> the units it takes ([ids]); other forms of targets are kept as written
function saiTargets(path, i) {
  const value = get(path) || {};
  const names = Object.fromEntries(B.catalog.sais.map((s) => [s.id, s.name]));
  const units = [...allUnits(i), ...deadUnits(i), ...deadUnits(i, "bua")];
  const rows = Object.entries(value).map(([sai, chosen]) => {
    if (!Array.isArray(chosen)) {   // per mover ({t1: [a]}) or an army id: written as YAML flow
      return el("div", { class: "item row", data: { key: pathText([...path, sai]) } }, flowField(`${names[sai] || sai} takes`, [...path, sai]),
        removeButton(`Remove ${sai} targets`, `${pathText([...path, sai])}-remove`, () => { delete value[sai]; put(path, value); changed(true); }));
    }
    return el("fieldset", { class: "picks", data: { key: pathText([...path, sai]) } },
      el("legend", {}, `${names[sai] || sai} takes`),
      units.map((u) => {
        const box = el("input", { type: "checkbox", data: { key: pathText([...path, sai, u.id]) } });
        box.checked = chosen.includes(u.id);
        box.addEventListener("change", () => {
          const now = (get([...path, sai]) || []).filter((id) => id !== u.id);
          if (box.checked) now.push(u.id);
          put([...path, sai], now);
          changed(false);
        });
        return el("label", { class: "field check" }, box, el("span", {}, u.label));
      }),
      removeButton(`Remove ${sai} targets`, `${pathText([...path, sai])}-remove`, () => { delete value[sai]; put(path, value); changed(true); }));
  });
  const add = el("select", { data: { key: `${pathText(path)}-sai` }, "aria-label": "SAI whose targets to pick" },
    B.catalog.sais.filter((s) => !(s.id in value)).map((s) => el("option", { value: s.id }, s.name)));
  return el("div", { class: "targets", data: { key: pathText(path) } }, el("h4", {}, "SAI targets"), rows,
    el("div", { class: "row add" }, add, button("Pick its targets", `${pathText(path)}-add`, () => { put([...path, add.value], []); changed(true); })));
}

// dragon id -> the icons it rolled, in order
function dragonIcons(path, i) {
  const value = get(path) || {};
  const dragons = (stateAt(i).dragons || []).map((d) => d.id);
  const rows = Object.entries(value).map(([d, icons]) => {
    const list = Array.isArray(icons) ? icons : [icons];
    return el("div", { class: "item row", data: { key: pathText([...path, d]) } }, el("span", { class: "unit-label" }, d),
      list.map((icon, j) => pick(`Icon ${j + 1}`, [...path, d, j], B.catalog.dragon_faces, { required: true,
        after: () => { if (!Array.isArray(icons)) put([...path, d], [get([...path, d])].flat()); } })),
      button("Add icon", `${pathText([...path, d])}-add`, () => { put([...path, d], [...list, B.catalog.dragon_faces[0]]); changed(true); }),
      removeButton(`Remove dragon ${d}`, `${pathText([...path, d])}-remove`, () => { delete value[d]; put(path, value); changed(true); }));
  });
  const add = el("select", { data: { key: `${pathText(path)}-dragon` }, "aria-label": "Dragon that rolls" },
    dragons.filter((d) => !(d in value)).map((d) => el("option", { value: d }, d)));
  return el("div", { class: "dragon-icons", data: { key: pathText(path) } }, el("h4", {}, "Dragons' icons"), rows,
    el("div", { class: "row add" }, add, button("Add dragon", `${pathText(path)}-add`, () => {
      if (add.value) put([...path, add.value], [B.catalog.dragon_faces[0]]);
      changed(true);
    })));
}

function unitList(title, path, units) {
  const chosen = get(path) || [];
  return el("fieldset", { class: "picks", data: { key: pathText(path) } }, el("legend", {}, title),
    units.map((u) => {
      const box = el("input", { type: "checkbox", data: { key: pathText([...path, u.id]) } });
      box.checked = chosen.includes(u.id);
      box.addEventListener("change", () => {
        const now = (get(path) || []).filter((id) => id !== u.id);
        if (box.checked) now.push(u.id);
        put(path, now.length ? now : undefined);
        changed(false);
      });
      return el("label", { class: "field check" }, box, el("span", {}, u.label));
    }));
}

function unitMap(title, path, from, to) {
  return el("div", { class: "unitmap", data: { key: pathText(path) } }, el("h4", {}, title),
    from.map((u) => pick(u.label, [...path, u.id], to)));
}

function expectEditor(path) {
  const value = get(path) || {};
  const rows = Object.entries(value).map(([k, v], j) => {
    const keyInput = el("input", { type: "text", value: k, list: "expect-keys", "aria-label": "What to check",
      data: { key: `${pathText([...path, k])}-key` }, autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
    keyInput.addEventListener("change", () => {
      const renamed = {};
      for (const [a, b] of Object.entries(get(path) || {})) renamed[a === k ? keyInput.value.trim() || k : a] = b;
      put(path, renamed);
      changed(true);
    });
    const valueInput = el("input", { type: "text", value: typeof v === "string" ? v : JSON.stringify(v),
      "aria-label": `Expected value of ${k}`, data: { key: pathText([...path, k]) }, autocomplete: "off", autocapitalize: "off" });
    valueInput.addEventListener("input", () => { put([...path, k], scalar(valueInput.value)); changed(false); });
    return el("div", { class: "row expect", data: { field: pathText([...path, k]) } }, keyInput, el("span", {}, "="), valueInput,
      removeButton(`Remove check ${k}`, `${pathText([...path, k])}-remove`, () => { delete value[k]; put(path, value); changed(true); }));
  });
  return el("div", { class: "expect", data: { key: pathText(path) } }, el("h4", {}, "Expected (optional checks)"), rows,
    button("Add a check", `${pathText(path)}-add`, () => {
      put(path, { ...value, [`check${Object.keys(value).length + 1}`]: 0 });
      changed(true);
    }));
}

function scalar(raw) {
  const t = raw.trim();
  if (/^-?\d+$/.test(t)) return Number(t);
  if (t === "true" || t === "false") return t === "true";
  if (/^[[{]/.test(t)) { try { return JSON.parse(t); } catch (exc) { /* kept as text */ } }
  return raw;
}

// --- any field of the format, drawn from its schema (GET /build/schema: `ddref schema`) -------------------------
//
// The pickers above know the game (the units of an army before the step, the splits a roll allows); every other
// field of the format gets a control drawn from the schema's shape, labelled with its name and the schema's own
// description (the rule it is for) as its hint, and checked by the loader like the rest: a yes/no box, a number, a
// list of choices, a text (with the known names to complete), a mapping (a key, then its value), a list, or, for a
// field that takes several shapes (a unit's roll: {save: 2}, "save 2" or [save, melee]), a short YAML flow text.

function deref(s) {
  let out = s || {};
  while (out.$ref) out = B.schema.$defs[out.$ref.split("/").pop()] || {};
  return out;
}

// the shapes a field takes, null left out
function alternatives(s) {
  const d = deref(s);
  const alts = d.anyOf || d.oneOf;
  if (alts) return alts.flatMap(alternatives);
  const types = [d.type].flat().filter((t) => t !== "null" && t !== undefined);
  if (d.type !== undefined && !types.length) return [];
  return [types.length ? { ...d, type: types[0] } : d];
}

function isWord(a) {
  return a.type === "string" || (a.enum || (a.const !== undefined ? [a.const] : [])).some((v) => typeof v === "string");
}

// what control writes a field of this schema
function shapeOf(s) {
  const alts = alternatives(s);
  if (!alts.length) return { kind: "flow" };
  if (alts.every(isWord)) {
    const values = alts.flatMap((a) => a.enum || (a.const !== undefined ? [a.const] : []));
    return alts.some((a) => a.type === "string" && !a.enum && a.const === undefined) ? { kind: "text", suggest: values }
      : { kind: "pick", values };
  }
  if (alts.length === 1) {
    const a = alts[0];
    if (a.enum) return { kind: "pick", values: a.enum };
    if (a.type === "boolean") return { kind: "bool" };
    if (a.type === "integer" || a.type === "number") return { kind: "number" };
    if (a.type === "object" && a.properties) return { kind: "object", schema: a };
    if (a.type === "object" && a.additionalProperties && typeof a.additionalProperties === "object") {
      return { kind: "map", value: a.additionalProperties, keys: a.propertyNames ? a.propertyNames.enum : null };
    }
    if (a.type === "array" && a.items) {
      const item = shapeOf(a.items);
      if (item.kind === "text" || item.kind === "pick") return { kind: "words", item };
      if (item.kind === "object") return { kind: "list", item: item.schema };
    }
  }
  return { kind: "flow" };
}

function fieldName(name) { return name.replace(/_/g, " "); }

// a datalist of these values (made once for each list of the schema), for a text field to complete from
const listIds = new Map();
function listFor(values) {
  if (!values || !values.length) return "known-ids";
  const known = values.join("\n");   // the same list, whichever field and draw asks for it
  if (!listIds.has(known)) {
    const id = `names-${listIds.size + 1}`;
    listIds.set(known, id);
    document.getElementById("schema-lists").append(el("datalist", { id }, values.map((v) => el("option", { value: v }))));
  }
  return listIds.get(known);
}

// one field of the format: its control, then its description from the schema (what it is for, and the rule)
function anyField(name, path, s) {
  const shape = shapeOf(s);
  const label = fieldName(String(name));
  let control;
  switch (shape.kind) {
    case "bool": control = check_(label, path, { redraw: true }); break;
    case "number": control = number(label, path); break;
    case "pick": control = pick(label, path, shape.values); break;
    case "text": control = text(label, path, { list: listFor(shape.suggest), redraw: true }); break;
    case "words": control = words(label, path, shape.item); break;
    case "object": control = objectFields(label, path, shape.schema); break;
    case "map": control = mapFields(label, path, shape); break;
    case "list": control = listFields(label, path, shape.item); break;
    default: control = flowField(label, path);
  }
  const hint = deref(s).description || s.description;
  return el("div", { class: "any-field" }, control, hint ? el("p", { class: "hint-text" }, hint) : null);
}

// a list of names, written comma-separated
function words(label, path, item) {
  const key = pathText(path);
  const value = get(path);
  const input = el("input", { type: "text", value: Array.isArray(value) ? value.join(", ") : value ?? "", data: { key },
    autocomplete: "off", autocapitalize: "off", spellcheck: "false", placeholder: "names, separated by commas",
    list: item.kind === "pick" ? listFor(item.values) : listFor(item.suggest) });
  input.addEventListener("input", () => {
    const names = input.value.split(",").map((w) => w.trim()).filter((w) => w);
    put(path, names.length ? names : undefined);
    changed(false);
  });
  return wrap(label, input, key, "wide-field");
}

function objectFields(label, path, s) {
  return el("fieldset", { class: "picks object", data: { key: pathText(path) } }, el("legend", {}, label),
    Object.entries(s.properties).map(([name, prop]) => anyField(name, [...path, name], prop)));
}

// a value written at path as it is, even empty (a new mapping entry the user fills next)
function setRaw(path, value) {
  let at = B.S;
  for (const part of path.slice(0, -1)) {
    if (at[part] === undefined || at[part] === null || typeof at[part] !== "object") at[part] = {};
    at = at[part];
  }
  at[path[path.length - 1]] = value;
}

function emptyOf(s) {
  const shape = shapeOf(s);
  return { object: {}, map: {}, list: [], words: [], number: 0, bool: true, pick: shape.values ? shape.values[0] : "" }[shape.kind] ?? "";
}

// a mapping: each key (a unit, army, SAI ... id; picked where the format lists them) and its value
function mapFields(label, path, shape) {
  const key = pathText(path);
  const value = get(path);
  const entries = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
  if (value !== undefined && !entries.length && !isEmpty(value)) return flowField(label, path);
  const rows = entries.map((k) => {
    const rename = el("input", { type: "text", value: k, class: "id", list: shape.keys ? listFor(shape.keys) : "known-ids",
      data: { key: `${pathText([...path, k])}-key` }, "aria-label": `${label}: key`, autocomplete: "off",
      autocapitalize: "off", spellcheck: "false" });
    rename.addEventListener("change", () => {
      const name = rename.value.trim();
      if (!name || name === k || name in get(path)) return;
      const renamed = {};
      for (const [a, b] of Object.entries(get(path))) renamed[a === k ? name : a] = b;
      setRaw(path, renamed);
      changed(true);
    });
    return el("div", { class: "item map-entry" },
      el("div", { class: "row" }, rename,
        removeButton(`Remove ${k}`, `${pathText([...path, k])}-remove`, () => { delete value[k]; put(path, value); changed(true); })),
      anyField(k, [...path, k], shape.value));
  });
  const adding = shape.keys
    ? el("select", { data: { key: `${key}-new` }, "aria-label": `${label}: what to add` },
      shape.keys.filter((k) => !entries.includes(k)).map((k) => el("option", { value: k }, k)))
    : el("input", { type: "text", list: "known-ids", data: { key: `${key}-new` }, "aria-label": `${label}: the key to add`,
      placeholder: "a unit, army, SAI ... id", autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
  return el("div", { class: "map", data: { key } }, el("h4", {}, label), rows,
    el("div", { class: "row add" }, adding, button("Add", `${key}-add`, () => {
      const name = adding.value.trim();
      if (!name || (value && name in value)) return;
      setRaw([...path, name], emptyOf(shape.value));
      changed(true);
    })));
}

// a list of mappings (each drawn from its model)
function listFields(label, path, s) {
  const key = pathText(path);
  const list = get(path);
  if (list !== undefined && !Array.isArray(list)) return flowField(label, path);
  return el("div", { class: "list", data: { key } }, el("h4", {}, label),
    (list || []).map((_, j) => el("div", { class: "item" },
      objectFields(`${label} ${j + 1}`, [...path, j], s),
      removeButton(`Remove ${label} ${j + 1}`, `${pathText([...path, j])}-remove`, () => { list.splice(j, 1); changed(true); }))),
    button("Add", `${key}-add`, () => { setRaw(path, [...(list || []), {}]); changed(true); }));
}

// a field of several shapes, as YAML flow text: {save: 2}, save 2, [save, melee]
function flowField(label, path) {
  const key = pathText(path);
  const input = el("input", { type: "text", value: toFlow(get(path)), data: { key }, autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", placeholder: "e.g. {save: 2}, save 2 or [a, b]" });
  input.addEventListener("input", () => {
    const raw = input.value.trim();
    put(path, raw === "" ? undefined : parseFlow(raw));
    changed(false);
  });
  return wrap(label, input, key, "wide-field");
}

function toFlow(value) {
  if (value === undefined) return "";
  if (Array.isArray(value)) return `[${value.map(toFlow).join(", ")}]`;
  if (value && typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${flowWord(k)}: ${toFlow(v)}`).join(", ")}}`;
  return typeof value === "string" ? flowWord(value) : String(value);
}

function flowWord(s) {
  const plain = /^[^\s,:{}[\]"'#&*!|>%@`-][^,{}[\]#]*$/.test(s) && !/: |:$/.test(s) && s.trim() === s;
  return plain && typeof flowScalar(s) === "string" ? s : JSON.stringify(s);
}

function flowScalar(word) {
  if (/^-?\d+$/.test(word)) return Number(word);
  if (word === "true" || word === "false") return word === "true";
  if (word === "null" || word === "~") return null;
  return word;
}

// YAML flow text as data ({a: 1, b: [x, "y z"]}); text it cannot read is kept as typed, for the loader to locate
function parseFlow(source) {
  let at = 0;
  const space = () => { while (at < source.length && /\s/.test(source[at])) at += 1; };
  const fail = () => { throw new SyntaxError("flow"); };
  const scalar = (inMap) => {
    space();
    const quote = source[at];
    if (quote === '"' || quote === "'") {
      const end = source.indexOf(quote, at + 1);
      if (end < 0) fail();
      const body = source.slice(at + 1, end);
      at = end + 1;
      return quote === '"' ? JSON.parse(`"${body}"`) : body;
    }
    let end = at;
    while (end < source.length && !",{}[]".includes(source[end]) &&
      !(inMap && source[end] === ":" && (end + 1 === source.length || /[\s,}\]]/.test(source[end + 1])))) end += 1;
    const word = source.slice(at, end).trim();
    at = end;
    return flowScalar(word);
  };
  const value = (inMap) => {
    space();
    if (source[at] === "{") {
      at += 1;
      const out = {};
      space();
      while (source[at] !== "}") {
        const k = scalar(true);
        space();
        if (source[at] !== ":") fail();
        at += 1;
        out[String(k)] = value(true);
        space();
        if (source[at] === ",") { at += 1; space(); } else if (source[at] !== "}") fail();
      }
      at += 1;
      return out;
    }
    if (source[at] === "[") {
      at += 1;
      const out = [];
      space();
      while (source[at] !== "]") {
        out.push(value(false));
        space();
        if (source[at] === ",") { at += 1; space(); } else if (source[at] !== "]") fail();
        if (at >= source.length) fail();
      }
      at += 1;
      return out;
    }
    return scalar(inMap);
  };
  try {
    if (!/^[{[]/.test(source)) return flowScalar(source);
    const out = value(false);
    space();
    return at === source.length ? out : source;
  } catch (exc) {
    return source;
  }
}

// a model's fields that the pickers above do not draw: folded under one summary that names them, drawn only when
// opened (or when one has a value); keys the format does not know are kept as written and named in the note
function moreFields(obj, s, drawn, path, title = "More fields") {
  const props = (s && s.properties) || {};
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    for (const k of Object.keys(obj)) if (!(k in props) && !drawn.includes(k)) B.unshown.push(pathText([...path, k]));
  }
  const names = Object.keys(props).filter((n) => !drawn.includes(n));
  if (!names.length) return null;
  const filled = names.filter((n) => !isEmpty(get([...path, n])));
  return fold(`${title}: ${names.map(fieldName).join(", ")}`, `${pathText(path)}-fields`,
    () => names.map((n) => anyField(n, [...path, n], props[n])), filled.length > 0);
}

// a folded part, drawn when it is opened
function fold(title, key, build, hasValue) {
  const open = B.allOpen || hasValue || B.opened.has(key);
  const box = el("details", { class: "more-fields", ...(open ? { open: "" } : {}) }, el("summary", { data: { key } }, title));
  let built = false;
  const fillIn = () => { if (!built) { built = true; box.append(el("div", { class: "fields" }, build())); } };
  if (open) fillIn();
  box.addEventListener("toggle", () => {
    if (box.open) { B.opened.add(key); fillIn(); showErrors(); } else B.opened.delete(key);
  });
  return box;
}

function model(name) { return name ? B.schema.$defs[name] : B.schema; }

function stepModel(kind) {
  const one = B.schema.properties.steps.items.oneOf.find((k) => kind in k.properties);
  return one ? alternatives(one.properties[kind])[0] : null;
}

// --- steps ------------------------------------------------------------------------------------------------------

const KIND_NAMES = { roll: "Roll", maneuver: "Maneuver", melee: "Melee", missile: "Missile", magic: "Magic",
  dragon_attack: "Dragon attack", turn: "Turn begins", reserves: "Reserve movement", minor: "Minor terrain",
  setup: "Set-up", promote: "Promotion", replant: "Replanting" };

// each kind's fields the form draws, in order; the step's other fields are kept as written (the note says which)
const STEP_FIELDS = {
  roll: (at, body, i) => [armyPick(at, i), forPick(at, body),
    rollEditor("The roll", [...at, "roll"], body.army, i), check_("Avoidance roll", [...at, "avoidance"]),
    more([...at, "ids"], counts("Where ID icons go (combination roll)", [...at, "ids"], resultKeys())),
    more([...at, "penalties"], counts("Where an 'any result' penalty goes", [...at, "penalties"], resultKeys())),
    more([...at, "counts_as"], counts("Results a racial ability converts", [...at, "counts_as"], resultKeys())),
    more([...at, "targets"], saiTargets([...at, "targets"], i))],
  maneuver: (at, body, i) => [armyPick(at, i), pick("Direction", [...at, "direction"], ["up", "down"]),
    rollEditor("The maneuver roll", [...at, "roll"], body.army, i),
    rollMap("Counter-maneuver", [...at, "counter"], i, []), casualties([...at, "casualties"], i, [body.army]),
    more([...at, "targets"], saiTargets([...at, "targets"], i))],
  missile: (at, body, i) => actionFields(at, body, i, false),
  melee: (at, body, i) => actionFields(at, body, i, true),
  magic: (at, body, i) => {
    const colors = ((stateAt(i).armies || {})[body.army] || {}).colors || [];
    return [armyPick(at, i), rollEditor("The magic roll", [...at, "roll"], body.army, i),
      splitPick([...at, "colors"], i),
      counts("Magic points by color", [...at, "colors"],
        [...colors, ...B.catalog.colors.filter((c) => !colors.includes(c))].map((c) => [c, colors.includes(c) ? `${c} (the army's)` : c]),
        colors.length ? `${body.army} casts ${colors.join(" and ")} magic.` : null),
      casts([...at, "cast"], i), rollMap("Avoidance roll", [...at, "avoidance"], i, []), cantripBuys([...at, "cantrip"], i),
      casualties([...at, "casualties"], i, armyIds(i).filter((a) => a !== body.army)), more([...at, "targets"], saiTargets([...at, "targets"], i))];
  },
  dragon_attack: (at, body, i) => [armyPick(at, i), dragonIcons([...at, "dragons"], i),
    rollEditor("The army's roll", [...at, "roll"], body.army, i),
    counts("Where ID icons go", [...at, "ids"], [["melee", "melee"], ["missile", "missile"], ["save", "save"]]),
    dragonChoices(at, i), casualties([...at, "casualties"], i, [body.army])],
  turn: (at) => [pick("Player", [...at, "player"], players(), { required: true })],
  setup: (at) => [number("Force (health points)", [...at, "force"]), pick("Only player", [...at, "player"], players())],
  promote: (at, body, i) => {
    const army = (stateAt(i).armies || {})[body.army];
    const dead = army ? ((stateAt(i).dua || {})[army.player] || []) : [];
    return [armyPick(at, i), number("How many may be promoted", [...at, "allowed"], { placeholder: "1" }),
      unitMap("Promotions: unit -> the dead unit it becomes", [...at, "chosen"], unitsOf(i, body.army), dead.map((u) => [u.id, u.label]))];
  },
  replant: (at, body, i) => {
    const army = (stateAt(i).armies || {})[body.army];
    const dead = army ? ((stateAt(i).dua || {})[army.player] || []) : [];
    return [armyPick(at, i), unitList("Treefolk going to the DUA", [...at, "give"], unitsOf(i, body.army)),
      unitList("Dead Treefolk joining", [...at, "take"], dead)];
  },
  minor: (at, body, i) => [armyPick(at, i), pick("Face rolled", [...at, "roll"],
    ["melee", "missile", "magic", "double maneuvers", "double saves", "id", "flood", "landslide", "revolt", "lost"], { required: true }),
  pick("After an ID", [...at, "choose"], ["actions", "doubles"]), casualties([...at, "casualties"], i, [body.army])],
  reserves: (at, body, i) => {
    const st = stateAt(i);
    const inReserve = Object.values(st.armies || {}).filter((a) => a.at === "reserve").flatMap((a) => a.units);
    const atTerrains = Object.values(st.armies || {}).filter((a) => a.at !== "reserve").flatMap((a) => a.units);
    return [unitMap("Reinforce: unit -> terrain", [...at, "reinforce"], inReserve, terrainIds()),
      unitList("Retreat to the reserve area", [...at, "retreat"], atTerrains)];
  },
};

const DRAWN = { roll: ["army", "for", "roll", "avoidance", "ids", "penalties", "counts_as", "targets"],
  maneuver: ["army", "direction", "roll", "counter", "casualties", "targets"],
  missile: ["army", "target", "roll", "saves", "casualties", "targets", "cantrip"],
  melee: ["army", "target", "roll", "saves", "counter", "counter_saves", "casualties", "targets", "cantrip", "charge"],
  magic: ["army", "roll", "colors", "cast", "avoidance", "casualties", "targets", "cantrip"],
  dragon_attack: ["army", "dragons", "roll", "ids", "casualties", "slay", "breath_targets"], turn: ["player"], setup: ["force", "player"],
  promote: ["army", "allowed", "chosen"], replant: ["army", "give", "take"], minor: ["army", "roll", "choose", "casualties"],
  reserves: ["reinforce", "retreat"] };

// the fields of DRAWN whose pickers are drawn only in some states; each marks itself drawn in B.drew
const SOMETIMES = ["cantrip", "slay", "breath_targets", "charge", "counter", "counter_saves"];

// a choice most disputes do not need, folded away until it is opened or has a value
function more(path, content) {
  const title = content.querySelector("h4") ? content.querySelector("h4").textContent : "More";
  const key = `${pathText(path)}-more`;
  const box = el("details", { class: "more-choice", ...(isEmpty(get(path)) && !B.opened.has(key) ? {} : { open: "" }) },
    el("summary", { data: { key } }, title), content);
  box.addEventListener("toggle", () => { if (box.open) B.opened.add(key); else B.opened.delete(key); });
  return box;
}

function resultKeys() { return B.catalog.results.map((r) => [r, r]); }

function armyPick(at, i, field = "army", label = "Army") {
  return pick(label, [...at, field], armyIds(i), { required: true });
}

function forPick(at, body) {
  const chosen = [body.for].flat().filter((x) => x);
  return el("fieldset", { class: "picks inline", data: { key: pathText([...at, "for"]) } },
    el("legend", {}, "Rolled for (several: a combination roll)"),
    B.catalog.results.map((r) => {
      const box = el("input", { type: "checkbox", data: { key: pathText([...at, "for", r]) } });
      box.checked = chosen.includes(r);
      box.addEventListener("change", () => {
        const now = B.catalog.results.filter((x) => (x === r ? box.checked : chosen.includes(x)));
        put([...at, "for"], now.length > 1 ? now : now[0]);
        changed(true);
      });
      return el("label", { class: "field check" }, box, el("span", {}, r));
    }));
}

function actionFields(at, body, i, melee) {
  const counter = get([...at, "counter"]);
  // 000 Charge: a tsr-1996 melee may be a charge (its melee and maneuver count as damage; the charged army's
  // one roll saves and hits back, the charger rolling no saves): offered there, or shown once it is set
  const charge = melee && (B.S.edition === "tsr-1996" || body.charge !== undefined);
  const charging = charge && body.charge === true;
  const out = [el("div", { class: "row" }, armyPick(at, i), armyPick(at, i, "target", "Target army")),
    charge ? B.drew.add("charge") && check_("Charge (tsr-1996): melee and maneuver count as damage; the target's roll saves and hits back",
      [...at, "charge"], { redraw: true }) : null,
    rollEditor(charging ? "The charging roll" : melee ? "The melee roll" : "The missile roll", [...at, "roll"], body.army, i),
    rollMap(charging ? "The charged army's roll: its saves, and its melee that hits back" : "Save roll",
      [...at, "saves"], i, [body.target])].filter((part) => part !== null);
  if (melee && !charging) {
    const none = el("input", { type: "checkbox", data: { key: `${pathText([...at, "counter"])}-none` } });
    none.checked = counter === false;
    none.addEventListener("change", () => { put([...at, "counter"], none.checked ? false : undefined); changed(true); });
    B.drew.add("counter");
    if (counter !== false) B.drew.add("counter_saves");
    out.push(el("div", { class: "counter" },
      el("label", { class: "field check" }, none, el("span", {}, "No counter-attack")),
      counter === false ? null : rollEditor(`Counter-attack roll of ${body.target || "the target"}`, [...at, "counter"], body.target, i),
      counter === false ? null : rollMap("Save roll against the counter-attack", [...at, "counter_saves"], i, [body.army])));
  }
  out.push(cantripBuys([...at, "cantrip"], i),
    casualties([...at, "casualties"], i, [body.target, melee && counter !== false ? body.army : null]),
    more([...at, "targets"], saiTargets([...at, "targets"], i)));
  return out;
}

function drawSteps() {
  const S = B.S;
  const steps = Array.isArray(S.steps) ? S.steps : [];
  const rows = steps.map((step, i) => safely(() => drawStep(S, step, i), ["steps", i]));
  const kind = el("select", { id: "step-kind", data: { key: "steps-kind" }, "aria-label": "Kind of step to add" },
    B.catalog.steps.map((k) => el("option", { value: k }, KIND_NAMES[k] || k)));
  return group("What happened", ["steps"], rows,
    el("div", { class: "row add" }, kind, button("Add step", "steps-add", () => {
      const armies = Object.keys(S.armies || {});
      const body = ["turn", "setup", "reserves"].includes(kind.value) ? {} : { army: armies[0] || "" };
      if (kind.value === "melee" || kind.value === "missile") body.target = armies[1] || "";
      S.steps = [...steps, { [kind.value]: body }];
      B.openSteps.add(S.steps.length - 1);
      changed(true);
    })));
}

function drawStep(S, step, i) {
  if (!step || typeof step !== "object" || Array.isArray(step)) throw new TypeError("a step is a mapping");
  const kind = Object.keys(step).find((k) => k in STEP_FIELDS) || Object.keys(step).find((k) => !["expect", "expect_error"].includes(k));
  const at = ["steps", i, kind];
  const body = step[kind] || {};
  unshownKeys(step, [kind, "expect", "expect_error"], ["steps", i]);
  const open = stepOpen(i);
  const head = el("div", { class: "step-head" }, el("h3", {}, `Step ${i + 1} · ${KIND_NAMES[kind] || kind}`,
    !open && body && typeof body === "object" && typeof body.army === "string" ? ` · ${body.army}` : ""),
    button(open ? "Fold" : "Open", `steps[${i}]-open`, () => toggleStep(i, !open), "small"),
    i > 0 ? button("↑", `steps[${i}]-up`, () => { moveSteps(i, "up"); [S.steps[i - 1], S.steps[i]] = [S.steps[i], S.steps[i - 1]]; changed(true); }, "small") : null,
    removeButton(`Remove step ${i + 1}`, `steps[${i}]-remove`, () => { moveSteps(i, "remove"); S.steps.splice(i, 1); changed(true); }));
  if (!open) return el("section", { class: "step-form item folded", data: { key: pathText(["steps", i]) } }, head);
  let fields;
  if (STEP_FIELDS[kind] && typeof body === "object") {
    B.drew = new Set();
    const special = STEP_FIELDS[kind](at, body, i);
    // a picker drawn only in some states (a Cantrip the engine found, the dragons a breath reaches) leaves its field
    // to the controls drawn from the schema when it is not drawn
    const drawn = DRAWN[kind].filter((f) => !SOMETIMES.includes(f) || B.drew.has(f));
    fields = [special, moreFields(body, stepModel(kind), drawn, at, "More choices of this step")];
  } else {
    B.unshown.push(pathText(at));
    fields = [el("p", { class: "note" }, `A ${kind} step: shown in the YAML only.`)];
  }
  return el("section", { class: "step-form item", data: { key: pathText(["steps", i]) } }, head,
    el("div", { class: "body", data: { key: pathText(at) } }, fields),
    el("details", { class: "more", ...(step.expect || step.expect_error ? { open: "" } : {}) },
      el("summary", {}, "Checks on this step"),
      expectEditor(["steps", i, "expect"]),
      text("Expected refusal (the rule's words)", ["steps", i, "expect_error"], { cls: "wide-field" })));
}

// A step is drawn open in a short scenario (unless folded), folded in a long one (unless opened)
function stepOpen(i) {
  if (B.allOpen) return true;
  const n = Array.isArray(B.S.steps) ? B.S.steps.length : 0;
  return n <= FOLD_AFTER ? !B.closedSteps.has(i) : B.openSteps.has(i);
}

function toggleStep(i, open) {
  if (open) { B.openSteps.add(i); B.closedSteps.delete(i); } else { B.openSteps.delete(i); B.closedSteps.add(i); }
  draw();
  // a step opened for the first time needs its options (the state before it): the check brings them
  if (open && B.options && !B.options.steps[i]) scheduleCheck();
}

// the opened and folded steps follow a step moved up or removed
function moveSteps(i, how) {
  for (const set of [B.openSteps, B.closedSteps]) {
    const before = [...set];
    set.clear();
    for (const j of before) {
      if (how === "up") set.add(j === i ? i - 1 : j === i - 1 ? i : j);
      else if (j !== i) set.add(j > i ? j - 1 : j);
    }
  }
}

// the steps whose options the check asks for: the ones drawn open
function wantedSteps() {
  const n = Array.isArray(B.S.steps) ? B.S.steps.length : 0;
  if (B.allOpen || n <= FOLD_AFTER) return "all";
  return [...B.openSteps].filter((i) => i < n).sort((a, b) => a - b).join(",");
}

// A part of the form drawn from data of a shape the form does not expect (a pasted scenario with units: "x"): the
// loader's errors say what is wrong; the part is shown as a note and kept as written, and the rest is drawn.
function safely(drawPart, path) {
  try {
    return drawPart();
  } catch (exc) {
    B.unshown.push(pathText(path) || "the setting");
    return el("p", { class: "note", data: { key: pathText(path) } },
      `${pathText(path) || "The setting"}: written in a shape the form cannot show; edit it in the YAML below.`);
  }
}

// --- the whole form, errors at their fields ---------------------------------------------------------------------

let focusAfter = null;

function allFields() {
  const box = el("input", { type: "checkbox", id: "all-fields", data: { key: "all-fields" } });
  box.checked = B.allOpen;
  box.addEventListener("change", () => {
    B.allOpen = box.checked;
    draw();
    if (B.allOpen) scheduleCheck();   // the options of every step
  });
  return box;
}

function draw() {
  const root = document.getElementById("form-root");
  const active = document.activeElement;
  const focused = focusAfter || (active && active.dataset ? active.dataset.key : null);
  const selection = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
  focusAfter = null;
  B.unshown = [];
  fill(root, el("label", { class: "field check all-fields" }, allFields(), el("span", { class: "name" },
    "Show every field of the format (each step open, every choice unfolded)")), safely(datalists, []), safely(drawSetting, []), safely(drawArmies, ["armies"]), safely(drawSteps, ["steps"]),
    safely(() => group("Expected at the end (optional)", ["expect"], expectEditor(["expect"])), ["expect"]));
  if (focused) {
    const again = root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) {
      again.focus();
      if (selection && "setSelectionRange" in again && again.type === "text") {
        try { again.setSelectionRange(...selection); } catch (exc) { /* not a text field */ }
      }
    }
  }
  const note = document.getElementById("unshown");
  note.hidden = !B.unshown.length;
  note.textContent = B.unshown.length ? `The form has no pickers for ${B.unshown.join(", ")}: kept as written, `
    + "they are in the YAML below and resolve with the rest." : "";
  showErrors();
}

// Each error goes to the field it concerns: the one whose path is the longest start of the error's path.
function showErrors() {
  const root = document.getElementById("form-root");
  root.querySelectorAll(".field-error").forEach((n) => n.remove());
  root.querySelectorAll("[aria-invalid]").forEach((n) => n.removeAttribute("aria-invalid"));
  const keyed = [...root.querySelectorAll("[data-key]")];
  const general = [];
  for (const e of B.errors) {
    const path = (e.path || "").replace(/(units\[\d+\])\.(name|health)$/, "$1.unit");
    let best = null;
    for (const node of keyed) {
      const k = node.dataset.key;
      if (path === k || (path.startsWith(k) && ".[".includes(path[k.length]))) {
        if (!best || k.length > best.dataset.key.length) best = node;
      }
    }
    const where = e.line ? `line ${e.line}: ` : "";
    const message = el("p", { class: "field-error", role: "alert" }, e.path && best && best.dataset.key !== e.path ? `${e.path}: ` : "", e.message);
    if (!best || !path) {
      general.push(el("li", {}, where, e.path ? `${e.path}: ` : "", e.message));
      continue;
    }
    if (["INPUT", "SELECT", "TEXTAREA"].includes(best.tagName)) {
      best.setAttribute("aria-invalid", "true");
      (best.closest("[data-field]") || best.parentNode).append(message);
    } else if (best.tagName === "BUTTON") {
      best.after(message);
    } else {
      const legend = best.querySelector(":scope > legend, :scope > h4, :scope > h3");
      if (legend) legend.after(message); else best.prepend(message);
    }
  }
  fill(document.getElementById("general-errors"), general);
}

// --- the server ------------------------------------------------------------------------------------------------

async function loadCatalog() {
  document.body.dataset.busy = "1";  // the check that follows clears it
  if (!B.schema) B.schema = await api("/build/schema");
  B.catalog = await api(`/build/catalog?edition=${encodeURIComponent(B.S.edition || "sfr-2012")}`);
}

async function check() {
  const ticket = ++B.checked;
  document.body.dataset.busy = "1";
  let answer;
  try {
    answer = await api(`/build/check?steps=${wantedSteps()}`, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(B.S) });
  } catch (exc) {
    if (ticket === B.checked) {
      delete document.body.dataset.busy;
      showStatus(el("span", { class: "failure" }, exc.message));
    }
    return null;
  }
  if (ticket !== B.checked) return null;  // a later change is being checked
  delete document.body.dataset.busy;
  try { localStorage.setItem(STORED, JSON.stringify(B.S)); } catch (exc) { /* private browsing: not kept */ }
  const hadOptions = JSON.stringify(B.options);
  B.errors = answer.errors;
  B.yaml = answer.yaml;
  if (answer.options) B.options = answer.options;
  const box = document.getElementById("yaml");
  if (!box.dataset.edited) box.value = answer.yaml;
  setDownload();
  const empty = isEmpty(B.S.terrains) && isEmpty(B.S.armies);
  showStatus(empty ? "Start with the setting: add a terrain, then the armies and what happened."
    : B.errors.length ? el("span", { class: "failure" }, `${B.errors.length} problem(s): see the fields marked below.`)
      : el("span", { class: "ok" }, "Checked: the scenario is valid."));
  if (JSON.stringify(B.options) !== hadOptions) draw(); else showErrors();
  return answer;
}

let downloadUrl = null;
function setDownload() {
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([B.yaml], { type: "application/yaml" }));
  const link = document.getElementById("download");
  link.href = downloadUrl;
  link.download = `${(B.S.title || "dispute").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "dispute"}.yaml`;
}

async function resolveNow() {
  const answer = await check();
  if (!answer) return;
  document.getElementById("steps").replaceChildren();
  if (answer.errors.length) {
    showStatus(el("span", { class: "failure" }, "Fix the problems marked below first."));
    const first = document.querySelector(".field-error, #general-errors li");
    if (first) first.scrollIntoView({ block: "center" });
    return;
  }
  showStatus("Resolving…");
  try {
    const result = await api("/resolve", { method: "POST", headers: { "Content-Type": "application/yaml" }, body: answer.yaml });
    showStatus(el("span", { class: "ok" }, "Resolved: the trace is below."));
    showResult(result);
    markStale(false);
    document.getElementById("trace-view").scrollIntoView({ block: "start" });
  } catch (exc) {
    showStatus(el("span", { class: "failure" }, exc.message));
    if (exc.data && exc.data.errors) { B.errors = exc.data.errors; showErrors(); }
  }
}

async function fromYaml(textValue, resolveAfter) {
  document.body.dataset.busy = "1";
  let data;
  try {
    data = await api("/build/parse", { method: "POST", headers: { "Content-Type": "application/yaml" }, body: textValue });
  } catch (exc) {
    B.errors = (exc.data && exc.data.errors) || [{ path: "", message: exc.message }];
    if (!B.catalog) { await loadCatalog(); draw(); } else showErrors();
    delete document.body.dataset.busy;
    showStatus(el("span", { class: "failure" }, "The YAML cannot be read; the form is unchanged."));
    return;
  }
  keepPrevious(B.S, data.scenario);
  B.S = data.scenario;
  B.modes = {};
  B.stash = {};
  B.options = null;
  document.getElementById("yaml").dataset.edited = "";
  delete document.getElementById("yaml").dataset.edited;
  await loadCatalog();
  draw();
  if (resolveAfter) await resolveNow(); else await check();
}

// --- a form replaced by a link, a pasted or an uploaded scenario is kept, and one tap brings it back ---------------

const PREVIOUS = "ddref-builder-previous";  // the form a link or a loaded YAML replaced (kept across a reload)

function hasWork(S) {
  return !!S && typeof S === "object" && !!(S.title || !isEmpty(S.terrains) || !isEmpty(S.armies)
    || (Array.isArray(S.steps) && S.steps.length) || !isEmpty(S.effects));
}

function keepPrevious(old, incoming) {
  let kept = null;
  if (hasWork(old) && JSON.stringify(old) !== JSON.stringify(incoming)) {
    kept = old;
    try { localStorage.setItem(PREVIOUS, JSON.stringify(old)); } catch (exc) { /* private browsing: this tab only */ }
  } else {   // the same link opened again (a reload): the form it replaced the first time is still kept
    try { kept = JSON.parse(localStorage.getItem(PREVIOUS) || "null"); } catch (exc) { kept = null; }
    if (!hasWork(kept) || JSON.stringify(kept) === JSON.stringify(incoming)) kept = null;
  }
  B.previous = kept;
  showPrevious();
}

function showPrevious() {
  const note = document.getElementById("replaced");
  note.hidden = !B.previous;
  if (B.previous) {
    const title = B.previous.title ? `"${B.previous.title}"` : "(untitled)";
    note.firstElementChild.textContent = `The form you had, ${title}, was replaced; it is kept:`;
  }
}

async function restorePrevious() {
  if (!B.previous) return;
  const back = B.previous;
  B.previous = hasWork(B.S) ? B.S : null;   // a swap: the scenario it replaced is kept in its turn
  try {
    if (B.previous) localStorage.setItem(PREVIOUS, JSON.stringify(B.previous)); else localStorage.removeItem(PREVIOUS);
  } catch (exc) { /* private browsing */ }
  B.S = back;
  B.modes = {};
  B.stash = {};
  B.options = null;
  history.replaceState(null, "", "/build");
  document.getElementById("steps").replaceChildren();
  delete document.getElementById("yaml").dataset.edited;
  showPrevious();
  await loadCatalog();
  changed(true);
}

// --- links: /build#yaml=<base64url of the UTF-8 YAML> ----------------------------------------------------------

function toBase64Url(textValue) {
  const bytes = new TextEncoder().encode(textValue);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(value) {
  let b64 = value.replace(/-/g, "+").replace(/_/g, "/").replace(/\s/g, "");
  while (b64.length % 4) b64 += "=";
  const binary = atob(b64);
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

async function share() {
  const answer = await check();
  if (!answer) return;
  const url = `${location.origin}/build#yaml=${toBase64Url(answer.yaml)}`;
  history.replaceState(null, "", url);
  const box = document.getElementById("share-box");
  box.hidden = false;
  const input = document.getElementById("share-url");
  input.value = url;
  input.focus();
  input.select();
  try {
    await navigator.clipboard.writeText(url);
    showStatus(el("span", { class: "ok" }, "Link copied: it reopens this form and its trace."));
  } catch (exc) {
    showStatus("Copy the link below: it reopens this form and its trace.");
  }
}

const STORED = "ddref-builder-scenario";  // the form as last checked, reopened after a reload

function stored() {
  try {
    const data = JSON.parse(localStorage.getItem(STORED) || "null");
    return data && typeof data === "object" && !Array.isArray(data) ? data : null;
  } catch (exc) {
    return null;
  }
}

// /build#yaml=<base64url of the UTF-8 YAML>: fill the form from it and resolve it at once
async function openLink() {
  const yamlBox = document.getElementById("yaml");
  let textValue;
  try {
    textValue = fromBase64Url(decodeURIComponent(location.hash.slice("#yaml=".length)));
  } catch (exc) {
    B.S = B.S || fresh();
    if (!B.catalog) await loadCatalog();
    draw();
    delete document.body.dataset.busy;
    showStatus(el("span", { class: "failure" }, "The link's scenario cannot be decoded (expected #yaml= and the "
      + "base64url of the scenario's UTF-8 YAML); the form is unchanged."));
    return;
  }
  yamlBox.value = textValue;
  document.getElementById("steps").replaceChildren();
  B.S = B.S || stored() || fresh();   // the form kept from the last visit is what the link replaces
  await fromYaml(textValue, true);
}

function fresh() {
  return { ddref: 1, title: "", edition: "sfr-2012", players: ["alice", "bob"], terrains: {}, armies: {}, steps: [] };
}

async function start() {
  document.getElementById("builder").addEventListener("submit", (event) => event.preventDefault());
  document.getElementById("resolve").addEventListener("click", resolveNow);
  document.getElementById("share").addEventListener("click", share);
  document.getElementById("restore").addEventListener("click", restorePrevious);
  const startOver = document.getElementById("new");
  let armed = null;
  startOver.addEventListener("click", async () => {
    if (!armed) {  // a second tap clears the form: one stray tap loses nothing
      startOver.textContent = "Tap again to clear";
      armed = setTimeout(() => { armed = null; startOver.textContent = "Start over"; }, 5000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    startOver.textContent = "Start over";
    document.body.dataset.busy = "1";
    keepPrevious(B.S, fresh());
    B.S = fresh();
    B.options = null;
    history.replaceState(null, "", "/build");
    document.getElementById("steps").replaceChildren();
    await loadCatalog();
    changed(true);
  });
  const yamlBox = document.getElementById("yaml");
  yamlBox.addEventListener("input", () => { yamlBox.dataset.edited = "1"; });
  document.getElementById("load-yaml").addEventListener("click", () => fromYaml(yamlBox.value, false));
  const upload = document.getElementById("upload");
  upload.addEventListener("change", async () => {
    if (upload.files.length) {
      document.body.dataset.busy = "1";
      const textValue = await upload.files[0].text();
      yamlBox.value = textValue;
      await fromYaml(textValue, false);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); resolveNow(); }
  });
  // a link pasted into this tab's address bar changes only the hash: the page is not loaded again
  window.addEventListener("hashchange", () => { if (/^#yaml=/.test(location.hash)) openLink(); });
  if (/^#yaml=/.test(location.hash)) {
    await openLink();
    return;
  }
  B.S = stored() || fresh();
  await loadCatalog();
  draw();
  await check();
}

document.addEventListener("DOMContentLoaded", () => {
  start().catch((exc) => showStatus(el("span", { class: "failure" }, exc.message)));
});
