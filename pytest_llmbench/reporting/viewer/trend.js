// Each model's trend over the runs registered in the cache folder's history (history.py's
// trend_data): its overall score per run, oldest to newest, with the figures
// `llmbench history --model` prints, and a small line. A run without the model is a gap
// (no cell, no point), never 0. Every figure and name is written as text.
import { el, breakable, clamp01 } from "./util.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 140, HEIGHT = 30, PAD = 4;

function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

// The overall scores as a line on a fixed 0-1 scale (models comparable at a glance); a
// missing or unscored run breaks the line.
function line(values) {
  const x = (n) => (values.length < 2 ? WIDTH / 2 : PAD + (n * (WIDTH - 2 * PAD)) / (values.length - 1));
  const y = (v) => HEIGHT - PAD - clamp01(v) * (HEIGHT - 2 * PAD);
  const svg = svgEl("svg", { class: "trend-line", width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true" });
  svg.append(svgEl("line", { class: "grid", x1: PAD, x2: WIDTH - PAD, y1: y(0), y2: y(0) }));
  let path = "", open = false;
  values.forEach((v, n) => {
    if (v === null) { open = false; return; }
    path += `${open ? "L" : "M"}${x(n).toFixed(1)} ${y(v).toFixed(1)}`;
    open = true;
    svg.append(svgEl("circle", { class: "trend-point", cx: x(n).toFixed(1), cy: y(v).toFixed(1), r: 2 }));
  });
  if (path) svg.prepend(svgEl("path", { class: "trend-path", d: path }));
  return svg;
}

function runTitle(run) {
  return `run ${run.id} (${run.kind}), ${run.time} UTC, commit ${run.commit ? run.commit.slice(0, 10) : "unknown"}`;
}

// A model's cell of one run: the overall figure, its categories as the tooltip.
function cell(model, cells, run) {
  if (!cells) return el("td", { class: "gap muted", title: `${model.model} is not in run ${run.id}`, text: "" });
  const parts = model.keys.map((k, n) => `${k} ${cells[n]}`);
  return el("td", { title: `${runTitle(run)}: ${parts.join(", ")}`, text: cells[0] });
}

function value(cells) {
  const v = cells ? Number.parseFloat(cells[0]) : NaN;
  return Number.isFinite(v) ? v : null;
}

export function trendSection(history) {
  if (!history) return null;
  const title = el("h2", { text: "Trend over registered runs" });
  const runs = history.runs;
  if (runs.length < 2) {
    return el("section", { id: "trend" }, title, el("p", { class: "muted", text:
      `One run is registered in this cache folder's history (${runs[0].id}). Each later run (or llmbench merge) ` +
      "with the same cache folder (--llm-cache-dir) adds one; this section then shows each model's score run by run, " +
      "as llmbench history --model M prints it." }));
  }
  const head = el("tr", {}, el("th", { class: "name", text: "Model" }), el("th", { text: "Overall score" }),
    runs.map((r) => el("th", { "data-run": r.id, title: runTitle(r) }, r.id,
      el("div", { class: "muted small", text: `${r.time.replace("T", " ")}${r.kind === "merge" ? " (merge)" : ""}` }))));
  const rows = history.models.map((m) => el("tr", {}, el("td", { class: "name" }, breakable(m.model)),
    el("td", { class: "trend" }, line(m.cells.map(value))), m.cells.map((c, n) => cell(m, c, runs[n]))));
  return el("section", { id: "trend" }, title,
    el("p", { class: "muted small", text: `The last ${runs.length} runs of this cache folder's history, oldest first, this run the last (hover a run for its time and commit, a score for its categories); a blank cell: the model was not in that run. llmbench history --model M prints the same figures.` }),
    el("div", { class: "wide" }, el("table", { id: "trend-table" }, el("thead", {}, head), el("tbody", {}, rows))));
}
