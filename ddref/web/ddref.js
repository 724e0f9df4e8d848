// ddref's pages over its JSON API: the search page (/) and the scenario page (/trace).
// Every text from the API goes into the page as text (textContent), never as HTML.
"use strict";

// --- small helpers ------------------------------------------------------------

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "data") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

class ApiError extends Error {
  constructor(status, data) {
    super(data.error || `the server answered ${status}`);
    this.status = status;
    this.data = data;
  }
}

async function api(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (exc) {
    throw new ApiError(0, { error: "the ddref server cannot be reached; is it still running?" });
  }
  let data;
  try {
    data = await response.json();
  } catch (exc) {
    data = { error: `the server answered ${response.status} ${response.statusText}` };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// replaceChildren takes nodes and strings, not arrays of them
function fill(node, ...parts) {
  node.replaceChildren(...parts.flat().filter((part) => part !== null));
}

// the status line of the view on show
function showStatus(...parts) {
  fill(document.querySelector("main:not([hidden]) .status"), ...parts);
}

function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

const path = encodeURIComponent;

// --- rule sections, opened in place from any section id ------------------------

function sectionBlock(data) {
  const { section, subsections } = data;
  return el("div", { class: "rule-text" },
    el("h3", {}, section.heading, " ", el("span", { class: "badge" }, section.edition)),
    section.text ? el("p", {}, section.text) : null,
    subsections.map((s) => el("div", { class: "subsection" }, el("h3", {}, s.heading), s.text ? el("p", {}, s.text) : null)),
    el("p", { class: "source" }, el("code", {}, section.id)));
}

// A section id as a button: a tap shows the section's text below it, a second tap hides it.
function citeButton(id) {
  const button = el("button", { type: "button", class: "link cite", "aria-expanded": "false" }, id);
  let shown = null;
  button.addEventListener("click", async () => {
    if (shown) {
      shown.remove();
      shown = null;
      button.setAttribute("aria-expanded", "false");
      return;
    }
    try {
      shown = sectionBlock(await api(`/rules/${path(id)}`));
    } catch (exc) {
      shown = el("p", { class: "errors" }, exc.message);
    }
    button.setAttribute("aria-expanded", "true");
    button.after(shown);
  });
  return button;
}

// --- the search page --------------------------------------------------------------

// the endpoint that answers a hit in full, by its kind
const FULL = {
  spell: (h) => `/spells/${path(h.id)}?edition=${h.edition}`,
  sai: (h) => `/sais/${path(h.id)}?edition=${h.edition}`,
  race: (h) => `/races/${path(h.id)}?edition=${h.edition}`,
  unit: (h) => `/units/${path(h.id)}?edition=${h.edition}`,
  rule: (h) => `/rules/${path(h.id)}`,
  ruling: (h) => `/rulings?q=${path(h.id)}`,
  glossary: (h) => `/glossary/${path(h.id)}`,
};

// fields every record has, shown elsewhere on the card
const SHOWN = new Set(["id", "name", "term", "edition", "source", "text", "heading"]);

function fieldValue(value) {
  if (Array.isArray(value)) return value.map(fieldValue).join("; ");
  if (value && typeof value === "object") {
    if ("printed" in value) return `${value.printed} (${value.rolls})`; // an SAI's resolution
    if ("name" in value && "text" in value) return `${value.name}: ${value.text}`; // a racial ability
    return Object.entries(value).map(([k, v]) => `${k} ${fieldValue(v)}`).join(", ");
  }
  return value === true ? "yes" : value === false ? "no" : String(value);
}

function recordBlock(record) {
  const rows = Object.entries(record)
    .filter(([key, value]) => !SHOWN.has(key) && value !== null && !(Array.isArray(value) && !value.length))
    .flatMap(([key, value]) => [el("dt", {}, key.replace(/_/g, " ")), el("dd", {}, fieldValue(value))]);
  return el("div", {},
    record.topic ? el("h3", {}, `${record.topic} (${record.letter})`) : null,
    rows.length ? el("dl", { class: "fields" }, rows) : null,
    record.text ? el("p", {}, record.text) : null,
    record.source ? el("p", { class: "source" }, "Source: ", citeButton(record.source.section),
      ` (${record.source.edition}, document ${record.source.document})`) : null);
}

function fullText(hit, data) {
  if (hit.kind === "rule") return sectionBlock(data);
  const records = Array.isArray(data) ? data : [data];
  return el("div", {}, records.map(recordBlock));
}

function snippet(hit) {
  const out = el("p", { class: "snippet" });
  let at = 0;
  for (const [start, end] of hit.highlights) {
    out.append(hit.snippet.slice(at, start), el("mark", {}, hit.snippet.slice(start, end)));
    at = end;
  }
  out.append(hit.snippet.slice(at));
  return out;
}

function hitCard(hit) {
  const full = el("div", { class: "full", hidden: "" });
  const more = el("button", { type: "button", class: "link more", "aria-expanded": "false" }, "Full text");
  more.addEventListener("click", async () => {
    const open = more.getAttribute("aria-expanded") === "true";
    if (!open && !full.childNodes.length) {
      try {
        full.append(fullText(hit, await api(FULL[hit.kind](hit))));
      } catch (exc) {
        full.append(el("p", { class: "errors" }, exc.message));
      }
    }
    full.hidden = open;
    more.setAttribute("aria-expanded", String(!open));
    more.textContent = open ? "Full text" : "Hide";
  });
  return el("li", { class: "card", data: { kind: hit.kind, id: hit.id, edition: hit.edition } },
    el("div", { class: "card-head" },
      el("span", { class: "badge kind" }, hit.kind),
      el("h2", { class: "title" }, hit.title),
      // a grouped hit stands for the same record in several editions: list them all, the shown one first (as the CLI does)
      el("span", { class: "badge edition", title: "the text shown is from " + hit.edition },
        (hit.editions && hit.editions.length ? hit.editions : [hit.edition]).join(", "))),
    snippet(hit),
    el("p", { class: "source" }, "Source: ", el("code", { class: "cite" }, hit.source)),
    more, full);
}

function searchPage() {
  const form = document.getElementById("search-form");
  const q = document.getElementById("q");
  const edition = document.getElementById("edition");
  const results = document.getElementById("results");
  let asked = 0;

  async function run() {
    const query = q.value.trim();
    const ticket = ++asked;
    const params = new URLSearchParams({ q: query });
    if (edition.value) params.set("edition", edition.value);
    history.replaceState(null, "", query ? `/?${params}` : "/");
    if (!query) {
      showStatus();
      results.replaceChildren();
      return;
    }
    params.set("limit", "20");
    let data;
    try {
      data = await api(`/search?${params}`);
    } catch (exc) {
      if (ticket === asked) showStatus(el("span", { class: "failure" }, exc.message));
      return;
    }
    if (ticket !== asked) return; // a later query is on its way
    const read = data.understood || query;
    showStatus(data.hits.length ? `${data.hits.length} hit(s) for ` : "No match for ", el("strong", {}, read),
      data.warnings.map((w) => el("div", { class: "warning" }, `warning: ${w}`)));
    fill(results, data.hits.map(hitCard));
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  q.addEventListener("input", debounce(run, 250));
  edition.addEventListener("change", run);
  const given = new URLSearchParams(location.search);
  q.value = given.get("q") || "";
  edition.value = given.get("edition") || "";
  if (q.value) run();
  q.focus();
}

// --- the scenario page ------------------------------------------------------------

// A value as a scenario writes it ({missile: 4}, [a, b]), the text view's form, never JSON's quotes.
function written(value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return `[${value.map(written).join(", ")}]`;
  if (typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${k}: ${written(v)}`).join(", ")}}`;
  return String(value);
}

// The change a line shows: the parts a modifier reached and those it did not, then the whole
// ("8 normal → 4, 3 from rend untouched: 11 → 7"); a comparison shows none (as `ddref resolve` prints it).
function change(event) {
  const { before, after } = event;
  if (event.kind === "comparison" || (before == null && after == null)) return null;
  const whole = before == null ? `= ${written(after)}` : `${written(before)} → ${written(after)}`;
  if (!event.parts) return el("span", { class: "change" }, whole);
  const parts = event.parts.map((p) => p.untouched ? `${p.before} ${p.part} untouched` : `${p.before} ${p.part} → ${p.after}`);
  return el("span", { class: "change" }, `${parts.join(", ")}: ${whole.replace(/^= /, "")}`);
}

const KIND_MARK = { "not-applied": "not applied: " };

// Detail lines (each unit's count, folded into its army's line) are shown with "every event" (--verbose).
function traceEvent(event) {
  const kind = event.kind ? ` ${event.kind}` : "";
  return el("li", { class: `event${kind}${event.detail ? " detail" : ""}` },
    KIND_MARK[event.kind] ? el("span", { class: "mark" }, KIND_MARK[event.kind]) : null,
    el("span", { class: "what" }, event.what), change(event),
    event.defaulted ? el("span", { class: "defaulted" }, "(defaulted)") : null,
    el("div", { class: "rule" }, event.rule, " ", citeButton(event.cite),
      event.also && event.also !== event.cite ? [" ", citeButton(event.also)] : null));
}

function resultsTable(step) {
  // the result types the step rolled for (rolled_for), as `ddref resolve` prints them
  const wanted = step.rolled_for || {};
  const rows = Object.entries(step.results || {}).map(([army, counts]) =>
    [army, Object.entries(counts).filter(([type]) => !wanted[army] || wanted[army].includes(type))
      .map(([type, n]) => `${n} ${type}`).join(", ") || "-"]);
  for (const [army, n] of Object.entries(step.damage || {})) rows.push([`damage to ${army}`, String(n)]);
  if (step.killed && step.killed.length) rows.push(["killed", step.killed.join(", ")]);
  if (step.kept) rows.push(["killed, not to the DUA", Object.entries(step.kept).map(([u, d]) => `${u} to ${d}`).join(", ")]);
  if (step.maneuver) rows.push(["maneuver", step.maneuver.succeeded ? "succeeded" : "failed"]);
  return el("table", { class: "results" },
    rows.map(([label, value]) => el("tr", {}, el("th", { scope: "row" }, label), el("td", {}, value))));
}

function checkItem(check) {
  const shown = written;
  return el("li", { class: `check ${check.ok ? "ok" : "failed"}` },
    el("span", { class: "mark" }, check.ok ? "ok" : "FAILED"),
    `${check.key}: expected ${shown(check.expected)}, actual ${shown(check.actual)}`);
}

function stepSection(step, index, checks) {
  const body = "rejected" in step
    ? [el("p", { class: "rejected" }, `rejected: ${step.rejected}`), step.cite ? citeButton(step.cite) : null]
    : [resultsTable(step), el("ol", { class: "events" }, step.trace.map(traceEvent))];
  return el("section", { class: "step", data: { step: index } },
    el("h3", {}, `Step ${index} · ${step.kind}`), body,
    checks.length ? el("ul", { class: "checks" }, checks.map(checkItem)) : null);
}

function showResult(result) {
  const checks = result.expectations;
  const failed = checks.filter((c) => !c.ok).length;
  const summary = checks.length ? `${checks.length - failed} of ${checks.length} expectations hold` : "no expectations";
  const final = checks.filter((c) => c.step === null);
  const every = el("label", { class: "verbose" }, el("input", { type: "checkbox",
    onchange: (e) => document.getElementById("steps").classList.toggle("verbose", e.target.checked) }),
  " show every event (each unit's count)");
  fill(document.getElementById("steps"),
    el("h2", { class: "title" }, `${result.title} (${result.edition})`),
    el("p", { class: `summary ${failed ? "failed" : "ok"}` }, summary), every,
    result.steps.map((step, i) => stepSection(step, i + 1, checks.filter((c) => c.step === i + 1))),
    final.length ? el("section", { class: "step final" }, el("h3", {}, "Final state"),
      el("ul", { class: "checks" }, final.map(checkItem))) : null);
}

// Select line ``line`` of the textarea and scroll it into the middle, so a located error is found on a phone.
function selectLine(textarea, line) {
  const text = textarea.value;
  const lines = text.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, row) => n + row.length + 1, 0);
  // the height of the text above the line, wrapped as the box wraps it: measured in the box itself
  const height = textarea.style.height;
  textarea.style.height = "0";
  textarea.value = text.slice(0, start);
  const above = textarea.scrollHeight;
  textarea.value = text;
  textarea.style.height = height;
  textarea.focus();
  textarea.setSelectionRange(start, start + (lines[line - 1] || "").length);
  textarea.scrollTop = Math.max(0, above - textarea.clientHeight / 2);
}

function showErrors(textarea, exc) {
  const located = exc.data.errors || [];
  const items = located.length
    ? located.map((e) => el("li", {}, e.line ? el("button", { type: "button", class: "link",
      onclick: () => selectLine(textarea, e.line) }, `line ${e.line}`) : null,
      e.line ? ": " : null, e.path ? `${e.path}: ` : null, e.message))
    : [el("li", {}, exc.message)];
  fill(document.getElementById("errors"), items);
}

function tracePage() {
  const form = document.getElementById("scenario-form");
  const textarea = document.getElementById("scenario");
  const file = document.getElementById("file");

  async function resolve() {
    document.getElementById("errors").replaceChildren();
    document.getElementById("steps").replaceChildren();
    if (!textarea.value.trim()) {
      showStatus(el("span", { class: "failure" }, "paste a scenario first"));
      return;
    }
    showStatus("Resolving…");
    try {
      const result = await api("/resolve", {
        method: "POST", headers: { "Content-Type": "application/yaml" }, body: textarea.value });
      showStatus();
      showResult(result);
    } catch (exc) {
      showStatus(el("span", { class: "failure" },
        exc.data && exc.data.errors ? "The scenario cannot be replayed:" : exc.message));
      if (exc.data && exc.data.errors) showErrors(textarea, exc);
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    resolve();
  });
  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      resolve();
    }
  });
  file.addEventListener("change", async () => {
    if (file.files.length) {
      textarea.value = await file.files[0].text();
      resolve();
    }
  });
}

const VIEWS = { search: ["/", "Search the rules", searchPage], trace: ["/trace", "Resolve a scenario", tracePage] };

document.addEventListener("DOMContentLoaded", () => {
  if (document.getElementById("build")) return; // the builder's page uses these helpers with its own script
  const [view, [, title, start]] = Object.entries(VIEWS).find(([, [at]]) => at === location.pathname) || ["search", VIEWS.search];
  document.getElementById(view).hidden = false;
  document.querySelector(`nav a[data-page="${view}"]`).setAttribute("aria-current", "page");
  document.title = `ddref: ${title.toLowerCase()}`;
  start();
});
