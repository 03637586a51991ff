// One item: the answer beside the reference (or their diff), each criterion with the
// check's and every judge's verdict and reason, the graders' distributions, usage,
// evaluator reports, code metrics, the hidden tests' outcomes and a dialog's conversation.
import { detail } from "./data.js";
import { el, num, usd, itemName } from "./util.js";
import { hashFor, replaceParams } from "./route.js";
import { codeText, diffText } from "./code.js";
import { dialogView } from "./dialog.js";

const SHOWN = new Set(["attempt", "answer", "answer_latency_s", "accuracy", "completeness", "quality", "steps", "reports", "calls", "generation_rate", "dialog", "code", "functional"]);

function verdict(v) {
  if (!v) return el("td", { class: "muted", text: "–" });
  const conf = typeof v.confidence === "number" ? ` (${Math.round(v.confidence)}%)` : "";
  return el("td", { class: `verdict ${v.passed ? "pass" : "fail"}` },
    el("strong", { text: `${v.passed ? "Pass" : "Fail"}${conf}` }), v.reason ? el("div", { class: "reason", text: v.reason }) : null);
}

// A functional criterion's execution verdict: every hidden test it names passed.
function testsVerdict(passed) {
  if (typeof passed !== "boolean") return el("td", { class: "muted", text: "–" });
  return el("td", { class: `verdict tests ${passed ? "pass" : "fail"}` }, el("strong", { text: passed ? "Pass" : "Fail" }));
}

function steps(attempt) {
  const judges = [...new Set(attempt.steps.flatMap((s) => Object.keys(s.judges || {})))].sort();
  const tested = attempt.steps.some((s) => typeof s.tests_passed === "boolean");
  return el("table", { class: "steps" },
    el("thead", {}, el("tr", {}, el("th", { text: "Id" }), el("th", { class: "name", text: "Criterion" }), el("th", { text: "Weight" }),
      el("th", { text: "Check" }), tested ? el("th", { title: "the hidden tests the criterion names: all passed", text: "Tests" }) : null,
      judges.map((j) => el("th", { text: j })))),
    el("tbody", {}, attempt.steps.map((s) => el("tr", {}, el("td", { text: s.id }), el("td", { class: "name", text: s.criterion }),
      el("td", { text: s.weight }), verdict(s.check), tested ? testsVerdict(s.tests_passed) : null, judges.map((j) => verdict((s.judges || {})[j]))))));
}

// A test's status as the runner reported it (results before 0.2 have only `passed`).
function testStatus(t) {
  return t.status || (t.passed ? "passed" : "failed");
}

// A run marked tampered: the answer attacked the verdict; what gave it away, line by line.
function tamperView(f) {
  if (!f.tampered) return null;
  return el("div", { class: "tampered fail" },
    el("p", {}, el("strong", { text: "Tampered: " }), "the answer attacked the verdict of its tests, so this run counts 0 and passes nothing. The test results below are as reported and may be forged."),
    el("ul", { class: "tamper-evidence" }, (f.tamper_evidence || []).map((line) => el("li", { text: line }))));
}

// What running the answer's code found: each hidden test with its status (or, in mutation
// mode, the answer's tests on the dataset and each mutant), the error that stopped the
// run, and a tampered run's evidence.
function functionalView(f) {
  const mutation = f.mode === "mutation";
  const killed = (f.mutants || []).filter((m) => m.killed).length;
  const head = mutation
    ? `Mutation (${f.runner}): the answer's tests ${f.passed}/${f.total} passed on the dataset · mutants killed ${killed}/${(f.mutants || []).length}`
    : `Hidden tests (${f.runner}): ${f.passed}/${f.total} passed`;
  const row = (cells, cls) => el("tr", { class: cls }, cells.map(([t, c]) => el("td", { class: `name ${c || ""}`, text: t ?? "" })));
  return el("details", { class: "functional", open: true }, el("summary", { text: "Functional tests" }),
    el("p", { text: `${head} · rate ${num(f.rate)} · ${num(f.seconds)} s${f.feedback ? " · this attempt was told the previous one's failures" : ""}` }),
    tamperView(f),
    f.error ? el("p", { class: "fail functional-error", text: `Error: ${f.error}` }) : null,
    (f.tests || []).length ? el("table", { class: "functional-tests" }, el("tr", {}, ["Test", "Status", "Message"].map((h) => el("th", { class: "name", text: h }))),
      f.tests.map((t) => row([[t.name], [testStatus(t), t.passed ? "pass" : "fail"], [t.message, "message"]], t.passed ? null : "failed"))) : null,
    (f.mutants || []).length ? el("table", { class: "functional-mutants" }, el("tr", {}, ["Mutant", "Description", "Result"].map((h) => el("th", { class: "name", text: h }))),
      f.mutants.map((m) => row([[m.id], [m.description], [m.killed ? "killed" : "survived", m.killed ? "pass" : "fail"]], m.killed ? null : "survived"))) : null);
}

// The grader's probabilities of grades 1..4 as one small stacked bar.
function distribution(dist) {
  const bar = el("span", { class: "dist", title: [1, 2, 3, 4].map((k) => `${k}: ${num(dist[k] ?? dist[String(k)] ?? 0)}`).join(", ") });
  for (const k of [1, 2, 3, 4]) {
    const p = Number(dist[k] ?? dist[String(k)] ?? 0);
    if (p > 0) bar.append(el("span", { class: `g${k}`, style: `width:${(p * 100).toFixed(1)}%` }));
  }
  return bar;
}

function metric(name, m) {
  const head = `${name}: ${num(m.value)} (${m.source || "unscored"}${m.unscored_reason ? `: ${m.unscored_reason}` : ""})`;
  return el("div", { class: "metric" }, el("p", { text: head }),
    (m.grades || []).map((g) => el("p", { class: "grade" }, `${g.judge} graded by ${g.grader} (${g.method}): ${g.argmax ?? "–"}, weighted ${num(g.weighted)} `,
      distribution(g.distribution || {}), g.error ? el("span", { class: "fail", text: ` ${g.error}` }) : null)));
}

// A list of records (the report's steps) as a table, one column per field.
function records(list) {
  const keys = [...new Set(list.flatMap((o) => Object.keys(o)))];
  const cell = (v) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
  return el("table", { class: "records" }, el("tr", {}, keys.map((k) => el("th", { class: "name", text: k }))),
    list.map((o) => el("tr", {}, keys.map((k) => el("td", { class: `name ${o[k] === false ? "fail" : o[k] === true ? "pass" : ""}`, text: cell(o[k]) })))));
}

function field(v) {
  if (Array.isArray(v) && v.length && v.every((o) => o && typeof o === "object" && !Array.isArray(o))) return records(v);
  return el("pre", { text: typeof v === "string" ? v : JSON.stringify(v, null, 2) });
}

// An evaluator report is often JSON on one line: shown as its fields, lists as tables.
function report(r) {
  let body;
  try {
    const value = JSON.parse(r.text);
    body = typeof value === "object" && value !== null && !Array.isArray(value)
      ? el("dl", { class: "report" }, Object.entries(value).map(([k, v]) => [el("dt", { text: k }), el("dd", {}, field(v))]))
      : field(value);
  } catch {
    body = el("pre", { text: r.text });
  }
  return el("details", { class: "report" }, el("summary", {}, `Evaluator report by ${r.judge}`, r.error ? el("span", { class: "fail", text: ` (${r.error})` }) : null), body);
}

function metrics(code, columns) {
  return el("details", { class: "metrics", open: true }, el("summary", { text: "Code metrics" }),
    el("table", {}, Object.entries(code).filter(([k]) => k !== "syntax").map(([k, v]) => el("tr", {},
      el("td", { class: "name", title: (columns[k] || {}).help || null, text: k }),
      el("td", { class: "name", text: v === null ? "–" : typeof v === "object" ? JSON.stringify(v) : v })))),
    (code.syntax || []).length ? el("table", { class: "syntax" }, el("tr", {}, ["File", "Language", "Checker", "Status", "Reason"].map((h) => el("th", { class: "name", text: h }))),
      code.syntax.map((f) => el("tr", {}, [f.path, f.language, f.checker || "none", f.status, f.reason].map((t) => el("td", { class: `name ${f.status === "fail" ? "fail" : ""}`, text: t ?? "" }))))) : null);
}

function answerPanes(item, attempt, mode, setMode) {
  const ref = item.reference;
  const buttons = el("div", { class: "modes" }, ["side", "diff"].map((m) => el("button", { type: "button", class: m === mode ? "active" : null, onclick: () => setMode(m), text: m === "side" ? "Side by side" : "Diff against the reference" })));
  if (mode === "diff" && ref !== null && ref !== undefined) {
    const diff = diffText(ref, attempt.answer);
    return el("div", { class: "answer-box" }, buttons, el("p", { class: "muted", text: `- only in the reference (${diff.removed} lines), + only in the answer (${diff.added} lines)` }), diff.node);
  }
  return el("div", { class: "answer-box" }, buttons, el("div", { class: "side" },
    el("div", {}, el("h4", { text: `Answer (attempt ${attempt.attempt})` }), codeText(attempt.answer, "answer")),
    el("div", {}, el("h4", { text: "Reference answer" }), ref === null || ref === undefined
      ? el("p", { class: "muted", text: "No reference answer: the scenario declares none for this dataset, or its file was not found when the report was written." })
      : codeText(ref, "reference"))));
}

function attemptView(item, attempt, p, columns, redraw) {
  const rest = Object.entries(attempt).filter(([k]) => !SHOWN.has(k));
  return el("section", { class: "attempt" },
    el("p", { class: "muted", text: `Attempt ${attempt.attempt}${attempt.attempt === item.best_attempt ? " (best)" : ""} · quality ${num(attempt.quality)} · ${num(attempt.answer_latency_s)} s · ${num(attempt.generation_rate, 1)} tok/s` }),
    answerPanes(item, attempt, p.mode || "side", (m) => { p.mode = m; replaceParams("item", p); redraw(); }),
    el("h4", { text: "Criteria" }), steps(attempt),
    metric("Accuracy", attempt.accuracy), metric("Completeness", attempt.completeness),
    (attempt.reports || []).map(report),
    attempt.functional ? functionalView(attempt.functional) : null,
    attempt.code ? metrics(attempt.code, columns) : null,
    attempt.dialog ? dialogView(attempt.dialog) : null,
    rest.map(([k, v]) => el("p", {}, `${k}: `, el("code", { text: JSON.stringify(v) }))));
}

function usage(item) {
  const c = item.candidate_usage || {}, j = item.judge_usage || {};
  return el("p", { class: "usage", text: `${(item.attempts || []).length} attempts · candidate ${c.prompt_tokens ?? 0} + ${c.completion_tokens ?? 0} tokens, ${usd(c.cost_usd)} · judges ${j.prompt_tokens ?? 0} + ${j.completion_tokens ?? 0} tokens, ${usd(j.cost_usd)} · best attempt ${num(item.latency_s)} s` });
}

export async function itemView(body, index, params) {
  const p = Object.fromEntries(params.entries());
  const run = Math.min(Number(p.r || 0), index.runs.length - 1);
  const rows = index.runs[run].rows;
  const i = Math.max(0, Math.min(Number(p.i || 0), rows.length - 1));
  const item = await detail(index, run, i);
  const row = rows[i];
  const attempts = item.attempts || [];
  const draw = () => {
    const chosen = attempts.find((a) => String(a.attempt) === p.a) || attempts.find((a) => a.attempt === item.best_attempt) || attempts[0];
    body.replaceChildren(el("div", { class: "item-view" },
      el("nav", { class: "item-nav" }, el("a", { href: hashFor("items", { r: run || null }), text: "← all items" }),
        i > 0 ? el("a", { href: hashFor("item", { r: run, i: i - 1 }), text: "previous" }) : null,
        i + 1 < rows.length ? el("a", { href: hashFor("item", { r: run, i: i + 1 }), text: "next" }) : null,
        el("a", { href: hashFor("compare", { scenario: row.scenario, dataset: row.dataset || "", r: run || null }), text: "this item across models" })),
      el("h2", { class: "item-title", text: itemName(row) }),
      el("p", {}, el("span", { class: `badge status-${item.status}`, text: item.status }),
        item.tampered ? [" ", el("span", { class: "badge tampered", title: "an attempt attacked the verdict of its hidden tests: see its functional tests", text: "tampered" })] : null,
        ` score ${num(row.score, 3)} · accuracy ${num(item.accuracy)} · completeness ${num(item.completeness)} · best attempt ${item.best_attempt ?? "–"}`),
      item.reason ? el("p", { class: "fail", text: item.reason }) : null,
      typeof item.functional_rate === "number" ? el("p", { class: "functional-summary", text: `Functional rate ${num(item.functional_rate)} (mean over the attempts) · first attempt ${item.pass_at_1 ? "passed" : "did not pass"} every hidden test${typeof item.pass_after_feedback === "boolean" ? ` · after feedback: ${item.pass_after_feedback ? "passed" : "not passed"}` : ""}` }) : null,
      el("p", { class: "muted small", text: `${item.nodeid || ""}${item.finished_utc ? ` · finished ${item.finished_utc}` : ""}` }),
      usage(item),
      item.complexity && Object.keys(item.complexity).length ? el("p", { text: `Input complexity: ${Object.entries(item.complexity).map(([k, v]) => `${k} ${v}`).join(", ")}` }) : null,
      item.prompt ? el("details", { class: "prompt" }, el("summary", { text: "Prompt" }), el("pre", { text: item.prompt })) : null,
      (item.images || []).length ? el("p", { class: "images" }, "Images sent with the prompt: ", item.images.map((im, n) => [n ? ", " : "", el("code", { text: im.file }), ` (${im.media_type}, ${im.size} bytes, sha256 ${im.sha256.slice(0, 12)})`])) : null,
      attempts.length > 1 ? el("div", { class: "attempt-tabs" }, attempts.map((a) => el("button", { type: "button", class: a === chosen ? "active" : null,
        onclick: () => { p.a = String(a.attempt); replaceParams("item", p); draw(); }, text: `Attempt ${a.attempt}${a.attempt === item.best_attempt ? " (best)" : ""}` }))) : null,
      chosen ? attemptView(item, chosen, p, index.runs[run].columns, draw) : el("p", { class: "muted", text: "No attempt was run." })));
  };
  draw();
}
