// DOM and number helpers. Every text reaches the page through textContent (el's
// children and `text`), never as markup: answers and names come from models and users.

export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.setAttribute("style", value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// A name that may wrap after "/", "-" or "_" (model ids), each part as text.
export function breakable(name) {
  const parts = String(name).split(/(?<=[/_-])/);
  return parts.flatMap((part, n) => (n ? [document.createElement("wbr"), part] : [part]));
}

export function num(value, digits = 2) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

export function pct(value) {
  return typeof value === "number" ? `${Math.round(value * 100)}%` : "–";
}

export function usd(value) {
  return typeof value === "number" ? `$${value.toFixed(4)}` : "–";
}

export function ci(interval, digits = 3) {
  return interval ? `[${num(interval[0], digits)}, ${num(interval[1], digits)}]` : "–";
}

export function clamp01(value) {
  return Math.max(0, Math.min(1, value));
}

// Red (floor) -> yellow -> green (1), on the score's own scale.
export function scoreColour(score, floor = 0) {
  if (typeof score !== "number") return "#eee";
  const share = floor < 1 ? (score - floor) / (1 - floor) : score;
  return `hsl(${Math.round(120 * clamp01(share))}, 65%, 80%)`;
}

export function itemName(row) {
  return [row.model, row.category, row.scenario, row.dataset || "–"].join(" · ");
}

export function itemKey(row) {
  return [row.model, row.category, row.scenario, row.dataset || ""].join("\u0000");
}

// A sortable table header: clicking sorts by the column, again reverses.
// `label` is a text, or [long, short] shown by the screen's width (viewer.css).
export function sortHeader(label, help, key, state, onSort) {
  const dir = state.key === key ? state.dir : null;
  return el("th", {
    title: help || null,
    "data-key": key,
    "aria-sort": dir === null ? "none" : dir > 0 ? "ascending" : "descending",
    class: "sortable",
    onclick: () => onSort(key),
  }, Array.isArray(label) ? [el("span", { class: "long", text: label[0] }), el("span", { class: "short", text: label[1] })] : label,
  el("span", { class: "arrow", text: dir === null ? "" : dir > 0 ? " ▲" : " ▼" }));
}

export function compareValues(a, b) {
  const missingA = a === null || a === undefined, missingB = b === null || b === undefined;
  if (missingA || missingB) return missingA === missingB ? 0 : missingA ? 1 : -1;
  return typeof a === "string" ? a.localeCompare(b) : a - b;
}
