// Compare: one scenario x dataset across models, side by side; and two runs (BASE = the
// first report dir given, NEW = a later one, as `llmbench compare BASE NEW`) item by
// item, the regressions first.
import { detail } from "./data.js";
import { el, num, itemKey, scoreColour } from "./util.js";
import { hashFor } from "./route.js";
import { codeText } from "./code.js";

function cases(rows) {
  const seen = new Map();
  for (const r of rows) seen.set(`${r.scenario}\u0000${r.dataset || ""}`, r);
  return [...seen.values()].sort((a, b) => `${a.scenario} ${a.dataset}`.localeCompare(`${b.scenario} ${b.dataset}`));
}

async function acrossModels(index, run, p) {
  const rows = index.runs[run].rows;
  const all = cases(rows);
  const pick = all.find((r) => r.scenario === p.scenario && (r.dataset || "") === (p.dataset || "")) || all[0];
  const chooser = el("label", {}, "Scenario × dataset ", el("select", { name: "case", onchange: (e) => {
    const [scenario, dataset] = e.target.value.split("\u0000");
    location.hash = hashFor("compare", { ...p, scenario, dataset });
  } }, all.map((r) => el("option", { value: `${r.scenario}\u0000${r.dataset || ""}`, selected: r === pick, text: `${r.scenario} · ${r.dataset || "–"}` }))));
  if (!pick) return el("section", {}, el("p", { text: "No items." }));
  const same = rows.filter((r) => r.scenario === pick.scenario && (r.dataset || "") === (pick.dataset || ""));
  const details = await Promise.all(same.map((r) => detail(index, run, r.i)));
  const answer = (item) => (item.attempts || []).find((a) => a.attempt === item.best_attempt) || (item.attempts || [])[0];
  const reference = details.map((d) => d.reference).find((t) => t !== null && t !== undefined);
  const columns = same.map((r, n) => el("div", { class: "column" },
    el("h4", {}, el("a", { href: hashFor("item", { r: run, i: r.i }), text: r.model })),
    el("p", { class: `status-${r.status}`, style: `background:${scoreColour(r.score, index.runs[run].floors[r.formula] || 0)}`, text: `${r.status} · score ${num(r.score, 3)} · Acc ${num(r.accuracy)} · Compl ${num(r.completeness)}${typeof r.functional === "number" ? ` · tests ${num(r.functional)}` : ""}` }),
    answer(details[n]) ? codeText(answer(details[n]).answer, "answer") : el("p", { class: "muted", text: details[n].reason || "no answer" })));
  if (reference !== undefined) columns.unshift(el("div", { class: "column reference" }, el("h4", { text: "Reference answer" }), codeText(reference, "reference")));
  return el("section", { id: "across-models" }, el("h3", { text: "Same scenario × dataset across models" }), chooser,
    el("div", { class: "columns", style: `grid-template-columns: repeat(${columns.length}, minmax(260px, 1fr))` }, columns));
}

function change(base, now) {
  if (!base) return { kind: "new item", delta: null, order: 2 };
  if (!now) return { kind: "gone", delta: null, order: 1 };
  if (base.status === "scored" && now.status !== "scored") return { kind: `now ${now.status}`, delta: null, order: 0 };
  if (base.status !== "scored" && now.status === "scored") return { kind: "now scored", delta: null, order: 3 };
  const delta = base.score !== null && now.score !== null ? now.score - base.score : null;
  return { kind: delta === null ? "" : delta < -1e-9 ? "worse" : delta > 1e-9 ? "better" : "same", delta, order: delta !== null && delta < -1e-9 ? 0 : 3 };
}

function acrossRuns(index, p) {
  const newRun = Math.max(1, Math.min(Number(p.new || 1), index.runs.length - 1));
  const base = new Map(index.runs[0].rows.map((r) => [itemKey(r), r]));
  const now = new Map(index.runs[newRun].rows.map((r) => [itemKey(r), r]));
  const keys = [...new Set([...base.keys(), ...now.keys()])];
  const changes = keys.map((k) => ({ base: base.get(k), now: now.get(k), ...change(base.get(k), now.get(k)) }))
    .sort((a, b) => a.order - b.order || (a.delta ?? 0) - (b.delta ?? 0));
  const regressions = changes.filter((c) => c.order === 0).length;
  const summary = (index.comparisons[String(newRun)] || []);
  const link = (run, r) => (r ? el("a", { href: hashFor("item", { r: run, i: r.i }), text: `${r.status} ${num(r.score, 3)}` }) : "–");
  return el("section", { id: "across-runs" }, el("h3", { text: `BASE ${index.runs[0].name} → NEW ${index.runs[newRun].name}: change = NEW - BASE` }),
    index.runs.length > 2 ? el("label", {}, "New run ", el("select", { onchange: (e) => { location.hash = hashFor("compare", { ...p, new: e.target.value }); } },
      index.runs.slice(1).map((r, n) => el("option", { value: n + 1, selected: n + 1 === newRun, text: r.name })))) : null,
    summary.length ? el("table", { id: "run-change" }, el("tr", {}, ["Model", "Category", "Base", "New", "Change", "95% CI of change", "p", "Items common (base/new)", "Regression"].map((h) => el("th", { class: "name", text: h }))),
      summary.map((r) => el("tr", { class: r.regressed ? "regressed" : null }, el("td", { class: "name", text: r.model }), el("td", { class: "name", text: r.category }),
        el("td", { text: num(r.base, 3) }), el("td", { text: num(r.new, 3) }), el("td", { text: r.change === null ? "–" : `${r.change >= 0 ? "+" : ""}${num(r.change, 3)}` }),
        el("td", { text: r.ci ? `${num(r.ci[0], 3)} to ${num(r.ci[1], 3)}` : "–" }),
        el("td", { title: "paired permutation test, signs flipped per scenario", text: typeof r.p !== "number" ? "–" : r.p < 0.001 ? "<0.001" : num(r.p, 3) }), el("td", { text: `${r.items[0]} (${r.items[1]}/${r.items[2]})` }), el("td", { class: "fail", text: r.regressed ? "REGRESSION" : "" })))) : null,
    el("p", { class: "muted", text: `${changes.length} items · ${regressions} worse or no longer scored, listed first` }),
    el("table", { id: "item-changes" }, el("tr", {}, ["Model", "Category", "Scenario", "Dataset", "Base", "New", "Change"].map((h) => el("th", { class: "name", text: h }))),
      changes.map((c) => { const r = c.now || c.base; return el("tr", { class: c.order === 0 ? "worse" : c.kind === "better" ? "better" : null },
        el("td", { class: "name", text: r.model }), el("td", { class: "name", text: r.category }), el("td", { class: "name", text: r.scenario }), el("td", { class: "name", text: r.dataset || "–" }),
        el("td", {}, link(0, c.base)), el("td", {}, link(newRun, c.now)),
        el("td", { class: "change", text: c.delta === null ? c.kind : `${c.delta >= 0 ? "+" : ""}${num(c.delta, 3)} ${c.kind}` })); })));
}

export async function compareView(body, index, params) {
  const p = Object.fromEntries(params.entries());
  const run = Math.min(Number(p.r || 0), index.runs.length - 1);
  body.append(el("h2", { text: "Compare" }));
  if (index.runs.length > 1) body.append(acrossRuns(index, p));
  else body.append(el("p", { class: "muted", text: "One run here: to compare two runs item by item, open both with `llmbench view BASE NEW`." }));
  body.append(await acrossModels(index, run, p));
}
