// A dialog as a conversation: each message by its role, the tool calls it made, and per
// turn the files it changed; the tool events (refused, malformed calls) in a table.
import { el, num } from "./util.js";

function message(m) {
  return el("div", { class: `msg role-${m.role}` }, el("div", { class: "who", text: m.role }),
    m.content ? el("pre", { text: typeof m.content === "string" ? m.content : JSON.stringify(m.content, null, 2) }) : null,
    (m.tool_calls || []).map((c) => el("pre", { class: "call", text: `-> ${c.function ? c.function.name : c.name}(${c.function ? c.function.arguments : c.arguments})` })));
}

export function dialogView(d) {
  return el("section", { class: "dialog" }, el("h4", { text: "Dialog" }),
    el("p", {}, `Protocol ${d.protocol}${d.protocol_note ? ` (${d.protocol_note})` : ""} · ended: `,
      el("span", { class: d.ended === "finished" ? "pass" : "fail", text: d.ended }),
      ` (${d.end_reason}) · ${d.rounds} rounds · ${d.tokens} tokens · ${num(d.seconds)} s · ${d.tool_errors} refused or malformed calls`),
    el("table", { class: "turns" }, el("tr", {}, ["Turn", "Title", "Finished", "Rounds", "Files changed", "Accuracy", "Completeness"].map((h) => el("th", { class: "name", text: h }))),
      d.turns.map((t) => el("tr", {}, el("td", { text: `T${t.number}` }), el("td", { class: "name", text: t.title }), el("td", { text: t.finished ? "yes" : "no" }),
        el("td", { text: t.rounds }), el("td", { class: "name", text: (t.changed || []).join(", ") || "none" }), el("td", { text: num(t.accuracy.value) }), el("td", { text: num(t.completeness.value) })))),
    el("details", { class: "conversation", open: true }, el("summary", { text: `Conversation (${(d.messages || []).length} messages)` }), (d.messages || []).map(message)),
    el("details", {}, el("summary", { text: `Tool calls (${(d.events || []).length})` }),
      el("table", {}, el("tr", {}, ["Turn", "Round", "Tool", "Path", "Outcome", "Result"].map((h) => el("th", { class: "name", text: h }))),
        (d.events || []).map((e) => el("tr", { class: e.outcome === "refused" || e.outcome === "malformed" ? "fail" : null },
          [`T${e.turn}`, e.round, e.tool, e.path || "", e.outcome, e.message].map((t) => el("td", { class: "name", text: t })))))));
}
