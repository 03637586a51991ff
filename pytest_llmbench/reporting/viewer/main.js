// The report viewer: one app for report.html and `llmbench view`. The view and its
// filters live in the URL hash (#/items?model=...), so a view can be shared or reloaded.
import { loadIndex } from "./data.js";
import { el } from "./util.js";
import { leaderboardView } from "./leaderboard.js";
import { itemsView } from "./items.js";
import { itemView } from "./item.js";
import { compareView } from "./compare.js";
import { hashFor } from "./route.js";

const VIEWS = { board: leaderboardView, items: itemsView, item: itemView, compare: compareView };
const TABS = [["board", "Leaderboard"], ["items", "Items"], ["compare", "Compare"]];

export function parseHash() {
  const [path, query] = location.hash.replace(/^#\/?/, "").split("?");
  const view = VIEWS[path] ? path : "board";
  return { view, params: new URLSearchParams(query || "") };
}

function header(index, view) {
  const run = index.runs[0];
  const meta = run.meta;
  const runs = index.runs.length > 1 ? ` · ${index.runs.length} runs: ${index.runs.map((r) => r.name).join(", ")}` : "";
  return el("header", {},
    el("h1", { text: "pytest-llmbench report" }),
    el("p", { class: "meta", text: `${meta.created_utc || ""} · plugin ${meta.plugin_version || "?"} · commit ${meta.git_commit || "unknown"} · ${meta.items} items${runs}` }),
    el("nav", {}, TABS.map(([name, label]) =>
      el("a", { href: hashFor(name), class: name === view || (view === "item" && name === "items") ? "tab active" : "tab", text: label }))));
}

async function draw(index) {
  const { view, params } = parseHash();
  const app = document.getElementById("app");
  const body = el("main", { id: `view-${view}` });
  app.replaceChildren(header(index, view), body);
  try {
    await VIEWS[view](body, index, params);
  } catch (error) {
    body.append(el("p", { class: "fail", text: `Could not draw this view: ${error.message}` }));
  }
  document.body.dataset.ready = view;
  if (!performance.getEntriesByName("llmbench-drawn").length) performance.mark("llmbench-drawn");
}

async function start() {
  let index;
  try {
    index = await loadIndex();
  } catch (error) {
    document.getElementById("app").replaceChildren(
      el("p", { class: "fail", text: `Could not read the report's data: ${error.message}` }));
    return;
  }
  // Each item row gets the formula of its model x category row (the scale of its colour).
  for (const run of index.runs) {
    const formula = new Map(run.board.categories.map((c) => [`${c.model}\u0000${c.category}`, c.formula]));
    run.rows.forEach((r) => { r.formula = formula.get(`${r.model}\u0000${r.category}`); });
  }
  addEventListener("hashchange", () => draw(index));
  await draw(index);
}

start();
