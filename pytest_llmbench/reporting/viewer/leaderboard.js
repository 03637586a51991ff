// The leaderboard: sortable columns with their meaning as tooltips, honest rank ranges
// (models that do not differ significantly share one), score intervals as whiskers, every
// pair of models compared on the items both scored, the checkers each model's answers met, the charts,
// the hidden tests' figures (with the items tampered with) and the judges against the
// tests, when a run had hidden tests; then each model's trend over the registered runs.
import { trendSection } from "./trend.js";
import { el, breakable, num, pct, usd, ci, sortHeader, compareValues, scoreColour } from "./util.js";

const state = { key: "score", dir: -1 };

function floorsText(run) {
  const used = run.board.formula.split(",");
  return used.map((f) => `${f}: ${num(run.floors[f])}`).join(", ");
}

function help(run, key) {
  const base = (run.columns[key] || {}).help || "";
  if (key === "score") {
    return `${base} A do-nothing answer (all grades 1, no rate, first attempt) scores ${floorsText(run)}. ` +
      `Rate term: Rate/MaxRate (MaxRate ${num(run.board.max_rate, 1)} tok/s); 0 for offline models.`;
  }
  if (key === "pass_at_k") return base.replace("k attempts", `k = ${run.board.attempts} attempts`);
  return base;
}

function whisker(row, floor) {
  const bar = el("span", { class: "whisker-box" });
  if (typeof row.score === "number") {
    bar.append(el("span", { class: "bar", style: `width:${(row.score * 100).toFixed(1)}%;background:${scoreColour(row.score, floor)}` }));
    if (row.score_ci) {
      const [lo, hi] = row.score_ci;
      bar.append(el("span", { class: "whisker", style: `left:${(lo * 100).toFixed(1)}%;width:${((hi - lo) * 100).toFixed(1)}%` }));
    }
  }
  return el("td", { class: "score", title: `${num(row.score, 3)} ${ci(row.score_ci)}` },
    el("span", { class: "value", text: num(row.score, 3) }), bar, el("span", { class: "interval", text: ci(row.score_ci) }));
}

function checkersText(run, model) {
  const found = run.checkers[model] || {};
  const names = Object.entries(found).map(([name, files]) => `${name} ${files}`);
  return names.length ? names.join(", ") : "–";
}

function sourcesText(row) {
  return Object.entries(row.metric_sources || {}).map(([k, v]) => `${k} ${v}`).join(", ");
}

function functionalCell(row) {
  if (typeof row.functional_rate !== "number") return el("td", { class: "muted", title: "no item of this row has hidden tests", text: "–" });
  return el("td", { title: `over ${row.functional_items} items with hidden tests ${ci(row.functional_rate_ci)}` },
    num(row.functional_rate), " ", el("span", { class: "muted small", text: `(${row.functional_items})` }));
}

// Which optional columns the board has: the hidden tests' only when some item had them,
// the prompt cache's only when some provider read from its cache.
function shown(board, key) {
  const rows = [...board.models, ...board.categories];
  if (key === "cached_tokens") return board.models.some((r) => r.candidate_cached_tokens || r.judge_cached_tokens);
  if (key === "pass_at_k") return board.attempts > 1;
  if (key.startsWith("functional_") && !rows.some((r) => r.functional_items)) return false;
  if (key === "functional_pass_after_feedback") return rows.some((r) => typeof r.functional_pass_after_feedback === "number");
  if (key === "tampered") return rows.some((r) => r.functional_items);
  return true;
}

// Column key -> [value for sorting, cell].
function columns(run, row, floor) {
  return {
    model: [row.model, el("td", { class: "name" }, breakable(row.model))],
    score: [row.score, whisker(row, floor)],
    accuracy: [row.accuracy, el("td", { title: ci(row.accuracy_ci), text: num(row.accuracy) })],
    completeness: [row.completeness, el("td", { title: ci(row.completeness_ci), text: num(row.completeness) })],
    pass_rate: [row.pass_rate, el("td", { text: num(row.pass_rate) })],
    pass_at_1: [row.pass_at_1, el("td", { text: num(row.pass_at_1) })],
    pass_at_k: [row.pass_at_k, el("td", { text: num(row.pass_at_k) })],
    functional_rate: [row.functional_rate, functionalCell(row)],
    functional_pass_at_1: [row.functional_pass_at_1, el("td", { text: pct(row.functional_pass_at_1) })],
    functional_pass_after_feedback: [row.functional_pass_after_feedback, el("td", { text: pct(row.functional_pass_after_feedback) })],
    tampered: [row.tampered ?? 0, el("td", { class: row.tampered ? "fail tampered" : "tampered", text: row.tampered ?? 0 })],
    attempt: [row.attempt, el("td", { text: num(row.attempt) })],
    generation_rate: [row.generation_rate, el("td", { text: num(row.generation_rate, 1), title: row.generation_rate === null ? "no rate: offline model or no token counts (rate term 0)" : null })],
    judge_alpha: [row.judge_alpha, el("td", { text: num(row.judge_alpha) })],
    judge_exact_agreement: [row.judge_exact_agreement, el("td", { text: pct(row.judge_exact_agreement) })],
    check_judge_agreement: [row.check_judge_agreement, el("td", { text: pct(row.check_judge_agreement) })],
    checkers: [sourcesText(row), el("td", { class: "name checkers", title: `syntax checkers: ${checkersText(run, row.model)}` },
      el("div", { text: sourcesText(row) || "–" }), el("div", { class: "muted small", text: checkersText(run, row.model) }))],
    tokens: [row.tokens.median, el("td", { text: `${num(row.tokens.median, 0)} / ${num(row.tokens.p95, 0)}` })],
    latency_s: [row.latency_s.median, el("td", { text: `${num(row.latency_s.median)} / ${num(row.latency_s.p95)} s` })],
    cached_tokens: [row.candidate_cached_tokens ?? 0, el("td", { text: `${row.candidate_cached_tokens ?? 0} / ${row.judge_cached_tokens ?? 0}` })],
    candidate_cost_usd: [row.candidate_cost_usd, el("td", { text: usd(row.candidate_cost_usd) })],
    scored: [row.scored, el("td", { text: `${row.scored}/${row.items}` })],
  };
}

function formulaFloor(run, formula) {
  const parts = formula.split(",");
  return parts.length === 1 ? run.floors[parts[0]] || 0 : Math.min(...parts.map((f) => run.floors[f] || 0));
}

function label(run, key) {
  const column = run.columns[key];
  const k = run.board.attempts;
  if (key === "pass_at_k") return [`pass@${k}`, `p@${k}`];
  return column.short ? [column.label, column.short] : column.label;
}

function table(run, redraw) {
  const models = run.board.models;
  const cells = new Map(models.map((r) => [r, columns(run, r, formulaFloor(run, r.formula))]));
  // With one attempt allowed pass@k is pass@1: shown once.
  const keys = Object.keys(cells.get(models[0]) || {}).filter((k) => shown(run.board, k));
  const sorted = [...models].sort((a, b) => {
    const va = cells.get(a)[state.key][0], vb = cells.get(b)[state.key][0];
    if (va === null || vb === null) return compareValues(va, vb);
    return state.dir * compareValues(va, vb) || compareValues(a.model, b.model);
  });
  const onSort = (key) => {
    state.dir = state.key === key ? -state.dir : key === "model" ? 1 : -1;
    state.key = key;
    redraw();
  };
  const head = el("tr", {}, el("th", { title: help(run, "rank"), text: "#" }),
    keys.map((k) => sortHeader(label(run, k), help(run, k), k, state, onSort)));
  const many = keys.some((k) => k.startsWith("functional_"));
  return el("table", { id: "leaderboard", class: many ? "board many" : "board" }, el("thead", {}, head),
    el("tbody", {}, sorted.map((r) => el("tr", {}, el("td", { class: "rank", text: r.rank ?? "–" }), keys.map((k) => cells.get(r)[k][1])))));
}

function categories(run) {
  const tests = ["functional_rate", "functional_pass_at_1", "functional_pass_after_feedback", "tampered"].filter((k) => shown(run.board, k));
  const head = ["Model", "Category", "Formula", "#", "Score", "95% CI", "Accuracy", "Completeness", "pass@1", "Scored"];
  const rankHelp = "The ranks the model may hold among the models' rows of this category, from the paired tests over the category's items (Holm over its pairs).";
  return el("table", { id: "categories" },
    el("thead", {}, el("tr", {}, head.map((h, n) => el("th", { class: n < 3 ? "name" : null, title: n === 3 ? rankHelp : null, text: h })),
      tests.map((k) => el("th", { title: help(run, k), "data-key": k, text: run.columns[k].label })))),
    el("tbody", {}, run.board.categories.map((r) => el("tr", {},
      el("td", { class: "name", text: r.model }), el("td", { class: "name", text: r.category }), el("td", { class: "name", text: r.formula }), el("td", { class: "rank", text: r.rank ?? "–" }),
      el("td", { style: `background:${scoreColour(r.score, formulaFloor(run, r.formula))}`, title: `do-nothing floor ${num(formulaFloor(run, r.formula))}`, text: num(r.score, 3) }),
      el("td", { text: ci(r.score_ci) }),
      el("td", {}, num(r.accuracy), " ", el("span", { class: "muted small", text: ci(r.accuracy_ci) })),
      el("td", {}, num(r.completeness), " ", el("span", { class: "muted small", text: ci(r.completeness_ci) })),
      el("td", { text: num(r.pass_at_1) }), el("td", { text: `${r.scored}/${r.items}` }),
      tests.map((k) => columns(run, r, 0)[k][1])))));
}

// Each judge (then the checks) against the hidden tests of functional criteria.
function calibration(run) {
  const rows = run.board.calibration || [];
  if (!rows.length) return null;
  const head = [["Verifier", "the judge model, or the deterministic checks"], ["Steps", "functional criteria with both a verdict and a test verdict, over every attempt"],
    ["Agreement", "share of those steps where Pass/Fail equals whether every named hidden test passed"],
    ["κ", "Cohen's kappa: agreement corrected for chance (0 = chance, 1 = full); – when both sides said the same throughout"],
    ["Over-trust", "Pass while a named hidden test failed"], ["Fail, tests pass", "Fail while every named hidden test passed"],
    ["Both pass", null], ["Both fail", null]];
  return el("div", {}, el("h2", { text: "Judges against the hidden tests" }),
    el("p", { class: "muted small", text: "A functional criterion names hidden tests; its execution verdict is whether all of them passed. Each judge's (and the checks') Pass/Fail on such criteria, compared with it." }),
    el("div", { class: "wide" }, el("table", { id: "calibration" },
      el("thead", {}, el("tr", {}, head.map(([h, t], n) => el("th", { class: n ? null : "name", title: t, text: h })))),
      el("tbody", {}, rows.map((c) => el("tr", { class: `kind-${c.kind}` },
        el("td", { class: "name" }, breakable(c.verifier)), el("td", { text: c.n }), el("td", { text: pct(c.agreement) }), el("td", { text: num(c.kappa) }),
        el("td", { class: c.pass_tests_fail ? "fail" : null, text: c.pass_tests_fail }), el("td", { text: c.fail_tests_pass }),
        el("td", { text: c.both_pass }), el("td", { text: c.both_fail })))))));
}

function pvalue(p) {
  return typeof p !== "number" ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3);
}

function mcnemarCell(m) {
  if (!m.items) return el("td", { class: "muted", text: "–" });
  return el("td", { title: `over ${m.items} items: passed by A only ${m.a_only}, by B only ${m.b_only}; exact McNemar p ${pvalue(m.p)}, Holm ${pvalue(m.p_holm)}` },
    `${m.a_only}/${m.b_only}`, " ", el("span", { class: "muted small", text: `p ${pvalue(m.p_holm)}` }));
}

function signed(x) {
  return typeof x === "number" ? `${x >= 0 ? "+" : ""}${x.toFixed(3)}` : "–";
}

// Every pair of models on the items both scored (leaderboard.json's `pairs`).
function pairs(run) {
  const rows = run.board.pairs || [];
  if (!rows.length) return null;
  const head = [["A", "the model ranked higher by score"], ["B", null], ["Items (scenarios)", "items both models scored, and their scenarios (resampled whole)"],
    ["Difference", "mean score of A - B over those items"], ["95% CI", "bootstrap interval of the difference, whole scenarios resampled, both scores of an item together"],
    ["p", "paired permutation test of the difference (signs flipped per scenario)"], ["p Holm", "p adjusted over all pairs (Holm); * the models differ"],
    ["Detectable", "the smallest difference these items find with 80% power"],
    ["pass@1 A/B only", "attempt 1 reaching the pass threshold: items passed by A only / by B only, exact McNemar p (Holm)"],
    ["Tests pass@1 A/B only", "attempt 1 passing every hidden test: items passed by A only / by B only, exact McNemar p (Holm)"]];
  return el("div", {}, el("h2", { text: "Pairwise comparisons" }),
    el("div", { class: "wide" }, el("table", { id: "pairs" },
      el("thead", {}, el("tr", {}, head.map(([h, t], n) => el("th", { class: n < 2 ? "name" : null, title: t, text: h })))),
      el("tbody", {}, rows.map((p) => el("tr", { class: p.significant ? "differ" : null },
        el("td", { class: "name" }, breakable(p.a)), el("td", { class: "name" }, breakable(p.b)), el("td", { text: `${p.items} (${p.scenarios})` }),
        el("td", { text: signed(p.difference) }), el("td", { text: p.difference_ci ? `${signed(p.difference_ci[0])} to ${signed(p.difference_ci[1])}` : "–" }),
        el("td", { text: pvalue(p.p) }), el("td", { text: pvalue(p.p_holm) + (p.significant ? " *" : "") }), el("td", { text: num(p.detectable, 3) }),
        mcnemarCell(p.pass_at_1), mcnemarCell(p.tests_pass_at_1)))))));
}

function rankingText(b) {
  const r = b.ranking;
  if (!r) return "Ranks by score.";
  return `#: the ranks a model may hold. Two models differ when the ${r.test} gives a p-value below ${(1 - r.level).toFixed(2)} after ${r.adjustment}; models that do not differ share a rank range ("1-2").`;
}

// The SVG text comes from the report's Python side (charts.py), which escapes every label.
function svg(markup) {
  const box = el("div", { class: "chart-box" });
  box.innerHTML = markup;
  return box;
}

function charts(run) {
  const c = run.charts;
  return el("div", { class: "charts" },
    el("figure", { id: "chart-scores" }, el("figcaption", { text: "Score by model, with 95% CI" }), svg(c.scores)),
    el("figure", { id: "chart-heatmap" }, el("figcaption", { text: "Score by model and category (colour from the formula's do-nothing floor to 1)" }), svg(c.heatmap)),
    el("figure", { id: "chart-cost" }, el("figcaption", { text: `Score versus ${c.cost_label}` }),
      c.cost ? svg(c.cost) : el("p", { class: "note", text: c.cost_note })),
    c.complexity ? el("figure", { id: "chart-complexity" }, el("figcaption", { text: "Input versus output complexity (GCI) per item" }), svg(c.complexity)) : null);
}

// The syntax checkers the machine had (leaderboard.json's `checkers`): a missing one
// leaves its languages unchecked, so scores differ from a run that had it.
function availableCheckers(run) {
  const found = run.meta.checkers;
  if (!found) return el("p", { id: "checkers-available", class: "muted small", text: "Syntax checkers on the machine: not recorded." });
  const names = Object.keys(found).sort();
  const missing = names.filter((n) => !found[n]);
  return el("p", { id: "checkers-available", class: missing.length ? "small fail" : "muted small" },
    `Syntax checkers on the machine: ${names.map((n) => `${n} ${found[n] ? "yes" : "MISSING"}`).join(", ")}.`,
    missing.length ? ` Code in their languages was not checked, so these scores differ from a run with ${missing.join(", ")}.` : "");
}

export function leaderboardView(body, index) {
  const run = index.runs[0];
  const b = run.board;
  const intro = el("p", { class: "formula" }, "Score formula ", el("strong", { text: b.formula }), ": ",
    Object.entries(b.formulas).map(([name, text], n) => [n ? "; " : "", el("code", { text: `${name} = ${text}` })]),
    ` (A = ${b.attempts}, MaxRate = ${num(b.max_rate, 1)} tok/s). Do-nothing floor: ${floorsText(run)}. `,
    `Intervals are ${Math.round(b.confidence.level * 100)}% percentile bootstrap intervals over items (${b.confidence.resamples} resamples, seed ${b.confidence.seed}). `,
    `An attempt passes (pass@k) when its quality (Acc + Compl)/8 reaches the pass threshold ${b.pass_threshold}. `,
    el("span", { id: "ranking", text: rankingText(b) }), " Hover a column's name for what it measures.");
  const holder = el("div", { class: "wide" });
  const redraw = () => holder.replaceChildren(table(run, redraw));
  redraw();
  const notes = b.models.filter((r) => r.notes && r.notes.length).map((r) => el("p", { class: "muted small", text: `${r.model}: ${r.notes.join("; ")}` }));
  body.append(el("h2", { text: "Leaderboard" }), intro, availableCheckers(run), holder, el("div", { class: "notes" }, notes), pairs(run),
    el("h2", { text: "Charts" }), charts(run), el("h2", { text: "By category" }), el("div", { class: "wide" }, categories(run)), calibration(run),
    trendSection(run.history));
}
