// Answers as text with their fenced code blocks highlighted, and the line diff of an
// answer against the reference. highlight.js escapes the code it marks up.
import hljs from "highlight.js/lib/core";
import javascript from "highlight.js/lib/languages/javascript";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import css from "highlight.js/lib/languages/css";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import yaml from "highlight.js/lib/languages/yaml";
import bash from "highlight.js/lib/languages/bash";
import { diffLines } from "diff";
import { el } from "./util.js";

for (const [name, language] of Object.entries({ javascript, typescript, xml, css, json, python, yaml, bash })) {
  hljs.registerLanguage(name, language);
}
const ALIASES = { js: "javascript", jsx: "javascript", mjs: "javascript", ts: "typescript", tsx: "typescript",
  html: "xml", vue: "xml", svg: "xml", scss: "css", py: "python", yml: "yaml", sh: "bash", shell: "bash" };
const FENCE = /^(```+|~~~+)\s*([\w.+-]*)[^\n]*\n([\s\S]*?)^\1\s*$/gm;

function language(tag) {
  const name = (tag || "").toLowerCase().split(".").pop();
  const known = ALIASES[name] || name;
  return hljs.getLanguage(known) ? known : null;
}

function highlighted(code, lang) {
  const node = el("code", { class: lang ? `hljs language-${lang}` : "hljs" });
  if (lang) node.innerHTML = hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
  else node.textContent = code;
  return node;
}

// A pre with the text as it is and each fenced block's code highlighted by its language.
export function codeText(text, cls) {
  const pre = el("pre", { class: cls });
  let at = 0;
  for (const match of (text || "").matchAll(FENCE)) {
    const start = match.index + match[0].indexOf("\n") + 1;
    pre.append(document.createTextNode(text.slice(at, start)));
    pre.append(highlighted(match[3], language(match[2])));
    at = start + match[3].length;
  }
  pre.append(document.createTextNode((text || "").slice(at)));
  return pre;
}

// Unified line diff: lines only in the reference are removed (-), only in the answer added (+).
export function diffText(reference, answer) {
  const pre = el("pre", { class: "diff" });
  let added = 0, removed = 0;
  for (const part of diffLines(reference || "", answer || "")) {
    const mark = part.added ? "+" : part.removed ? "-" : " ";
    const lines = part.value.replace(/\n$/, "").split("\n");
    if (part.added) added += lines.length;
    if (part.removed) removed += lines.length;
    pre.append(el("span", { class: part.added ? "ins" : part.removed ? "del" : "same", text: lines.map((l) => `${mark} ${l}`).join("\n") + "\n" }));
  }
  return { node: pre, added, removed };
}
