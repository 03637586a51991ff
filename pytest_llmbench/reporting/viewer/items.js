// Every item of a run in one table, coloured by outcome and score, filtered by model,
// category, dataset, status, score range and a text search over prompts, answers and
// reasons. The filters are the URL's query, so a filtered list can be shared.
import { searchChunks, searchEntries, loweredText } from "./data.js";
import { el, breakable, num, usd, scoreColour, sortHeader, compareValues } from "./util.js";
import { hashFor, replaceParams } from "./route.js";

const PAGE = 200;
const FILTERS = ["model", "category", "dataset", "status"];
const searchText = new Map(); // "run/chunk" -> Promise of data.searchEntries

// What the search reads of an item: strings, or references to long texts (data.js).
function searchParts(item) {
  const parts = [item.prompt, item.reason];
  for (const a of item.attempts || []) {
    parts.push(a.answer);
    for (const s of a.steps || []) {
      parts.push(s.criterion, s.check && s.check.reason, ...Object.values(s.judges || {}).map((v) => v.reason));
    }
    for (const r of a.reports || []) parts.push(r.text, r.error);
    const f = a.functional;
    if (f) parts.push(f.error, ...(f.tamper_evidence || []), ...(f.tests || []).flatMap((t) => [t.name, t.message]));
    for (const m of ["accuracy", "completeness"]) parts.push(a[m] && a[m].unscored_reason);
  }
  return parts.filter(Boolean);
}

// The numbers of the items whose text holds `query`, read from the chunks the run's
// index says can hold it; each long text is searched once, however many items share it.
async function searchable(index, run, query) {
  const size = index.runs[run].chunk;
  const chunks = await searchChunks(index, run, query);
  const parts = chunks.map((k) => {
    const key = `${run}/${k}`;
    if (!searchText.has(key)) searchText.set(key, searchEntries(index, run, k, searchParts));
    return searchText.get(key);
  });
  const holds = new Map(); // text id -> whether it holds the query
  const inText = (id) => {
    if (!holds.has(id)) holds.set(id, loweredText(id).includes(query));
    return holds.get(id);
  };
  const found = new Set();
  (await Promise.all(parts)).forEach((entries, j) => entries.forEach((entry, n) => {
    if (entry.text.includes(query) || entry.refs.some(inText)) found.add(chunks[j] * size + n);
  }));
  return found;
}

function options(rows, key) {
  return [...new Set(rows.map((r) => r[key] ?? "–"))].sort();
}

function select(key, label, values, current, onChange) {
  return el("label", {}, `${label} `, el("select", { name: key, onchange: (e) => onChange(key, e.target.value) },
    el("option", { value: "", text: "all" }), values.map((v) => el("option", { value: v, selected: v === current, text: v }))));
}

async function filtered(index, run, p) {
  const rows = index.runs[run].rows;
  const lo = p.min === "" || p.min === undefined ? null : Number(p.min);
  const hi = p.max === "" || p.max === undefined ? null : Number(p.max);
  const query = (p.q || "").trim().toLowerCase();
  const found = query ? await searchable(index, run, query) : null;
  return rows.filter((r) =>
    FILTERS.every((k) => !p[k] || (r[k] ?? "–") === p[k]) &&
    (lo === null || (r.score !== null && r.score >= lo)) &&
    (hi === null || (r.score !== null && r.score <= hi)) &&
    (!found || found.has(r.i)));
}

const COLUMNS = [["model", "Model"], ["category", "Category"], ["scenario", "Scenario"], ["dataset", "Dataset"],
  ["status", "Status"], ["score", "Score"], ["accuracy", "Acc"], ["completeness", "Compl"], ["best", "Best attempt"],
  ["tokens", "Tokens"], ["latency", "Time (s)"], ["cost", "Cost"]];
// Shown when some item of the run has hidden tests.
const FUNCTIONAL = ["functional", "Tests"];

function row(run, r, floors, tested) {
  const link = hashFor("item", { r: run, i: r.i });
  const floor = floors[r.formula] || 0;
  return el("tr", { class: `status-${r.status}`, "data-i": r.i },
    el("td", { class: "name" }, el("a", { href: link }, breakable(r.model))),
    el("td", { class: "name", text: r.category }), el("td", { class: "name" }, el("a", { href: link, text: r.scenario })),
    el("td", { class: "name", text: r.dataset || "–" }),
    el("td", { class: `status`, text: r.tampered ? `${r.status} · tampered` : r.status, title: r.reason || null }),
    el("td", { class: "score", style: `background:${scoreColour(r.score, floor)}`, text: num(r.score, 3) }),
    el("td", { text: num(r.accuracy) }), el("td", { text: num(r.completeness) }),
    el("td", { text: r.best === null ? "–" : `${r.best} of ${r.attempts}` }),
    el("td", { text: r.tokens }), el("td", { text: num(r.latency) }), el("td", { text: usd(r.cost) }),
    tested ? el("td", { class: "functional", title: "functional rate: hidden tests passed / tests, mean over the attempts", text: num(r.functional) }) : null);
}

export async function itemsView(body, index, params) {
  const p = Object.fromEntries(params.entries());
  const run = Math.min(Number(p.r || 0), index.runs.length - 1);
  const rows = index.runs[run].rows;
  const holder = el("div", { id: "items-table" });
  const count = el("p", { class: "muted", id: "items-count" });
  const state = { key: p.sort || "", dir: p.dir === "desc" ? -1 : 1 };
  const tested = rows.some((r) => typeof r.functional === "number");
  const columns = tested ? [...COLUMNS, FUNCTIONAL] : COLUMNS;

  const update = async () => {
    replaceParams("items", p);
    const token = (update.token = (update.token || 0) + 1);
    if (p.q) count.textContent = "Searching prompts, answers and reasons…";
    let shown = await filtered(index, run, p);
    if (token !== update.token) return; // a newer filter was typed meanwhile
    if (state.key) {
      shown = [...shown].sort((a, b) => {
        const va = a[state.key], vb = b[state.key];
        return va === null || vb === null ? compareValues(va, vb) : state.dir * compareValues(va, vb);
      });
    }
    const page = Math.max(0, Number(p.page || 0));
    const visible = shown.slice(page * PAGE, (page + 1) * PAGE);
    count.textContent = `${shown.length} of ${rows.length} items` + (shown.length > PAGE ? ` · rows ${page * PAGE + 1}–${page * PAGE + visible.length}` : "");
    const onSort = (key) => {
      state.dir = state.key === key ? -state.dir : 1;
      state.key = key;
      p.sort = key;
      p.dir = state.dir > 0 ? "" : "desc";
      update();
    };
    const pager = shown.length > PAGE ? el("div", { class: "pager" },
      el("button", { type: "button", disabled: page === 0, onclick: () => { p.page = page - 1; update(); }, text: "Previous" }),
      el("button", { type: "button", disabled: (page + 1) * PAGE >= shown.length, onclick: () => { p.page = page + 1; update(); }, text: "Next" })) : null;
    holder.replaceChildren(el("table", { id: "items" },
      el("thead", {}, el("tr", {}, columns.map(([k, label]) => sortHeader(label, null, k, state, onSort)))),
      el("tbody", {}, visible.map((r) => row(run, r, index.runs[run].floors, tested)))), pager || "");
  };
  const set = (key, value) => {
    p[key] = value;
    delete p.page;
    update();
  };
  const runs = index.runs.length > 1 ? el("label", {}, "Run ", el("select", { name: "r", onchange: (e) => { location.hash = hashFor("items", { r: e.target.value }); } },
    index.runs.map((x, n) => el("option", { value: n, selected: n === run, text: x.name || `run ${n + 1}` })))) : null;
  const filters = el("form", { class: "filters", onsubmit: (e) => e.preventDefault() }, runs,
    FILTERS.map((k) => select(k, k[0].toUpperCase() + k.slice(1), options(rows, k), p[k], set)),
    el("label", {}, "Score ", el("input", { name: "min", type: "number", step: "0.05", min: 0, max: 1, value: p.min || "", placeholder: "min", oninput: (e) => set("min", e.target.value) }),
      " to ", el("input", { name: "max", type: "number", step: "0.05", min: 0, max: 1, value: p.max || "", placeholder: "max", oninput: (e) => set("max", e.target.value) })),
    el("label", {}, "Search ", el("input", { name: "q", type: "search", value: p.q || "", placeholder: "prompts, answers, reasons", oninput: (e) => set("q", e.target.value) })),
    el("a", { href: hashFor("items", { r: run || null }), text: "clear" }));
  body.append(el("h2", { text: "Items" }), filters, count, holder);
  await update();
}
