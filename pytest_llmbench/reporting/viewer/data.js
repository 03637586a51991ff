// Where the report's files come from: embedded in the page (report.html, base64 of gzip)
// or served beside it (`llmbench view`). Both are gzip JSON, decoded by the browser's
// DecompressionStream. Each file is read once, when first needed (viewdata.py lays them
// out): the index first; a detail chunk and the text chunks its item refers to when an
// item is shown; a run's search index, then only the chunks it says can match, for a
// search.

const cache = new Map();
const REF = "$text";
const WORD = /[a-z0-9_]+/g; // as viewsearch.WORD

async function gunzipJson(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// report.html embeds the item details after the app's script: wait until they are read.
const parsed = new Promise((done) => {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", done);
  else done();
});

async function embedded(name) {
  if (!document.querySelector('script[type="application/gzip-base64"]')) return null;
  if (name !== "index.json.gz") await parsed;
  for (const tag of document.querySelectorAll('script[type="application/gzip-base64"]')) {
    if (tag.dataset.name === name) {
      const binary = atob(tag.textContent.trim());
      const bytes = new Uint8Array(binary.length);
      for (let n = 0; n < binary.length; n++) bytes[n] = binary.charCodeAt(n);
      return bytes;
    }
  }
  return null;
}

async function served(name) {
  const base = document.body.dataset.source || "";
  const reply = await fetch(`${base}${name}`);
  if (!reply.ok) throw new Error(`${name}: HTTP ${reply.status}`);
  return new Uint8Array(await reply.arrayBuffer());
}

export function load(name) {
  if (!cache.has(name)) {
    cache.set(name, (async () => gunzipJson((await embedded(name)) || (await served(name))))());
  }
  return cache.get(name);
}

export function loadIndex() {
  return load("index.json.gz");
}

function isRef(value) {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === REF && typeof value[REF] === "string";
}

// The ids of the texts a value refers to.
function referenced(value, found = new Set()) {
  if (isRef(value)) found.add(value[REF]);
  else if (Array.isArray(value)) value.forEach((v) => referenced(v, found));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => referenced(v, found));
  return found;
}

// schema/texts.resolve: references replaced by their texts; a data key that began with
// "$" was written with one more "$", taken off here. Texts stay strings: the views
// write them as text, never as markup.
function resolve(value, table) {
  if (isRef(value)) {
    const text = table.get(value[REF]);
    if (text === undefined) throw new Error(`text ${value[REF]} is missing from the report`);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, table));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.startsWith("$") ? k.slice(1) : k, resolve(v, table)]));
  }
  return value;
}

// The texts of `ids` (id -> text), from the text chunks `chunk` names for them.
async function textTable(chunk, ids) {
  const names = new Set([...ids].map((id) => `texts${chunk.texts[id]}.json.gz`));
  const table = new Map();
  for (const part of await Promise.all([...names].map(load))) {
    for (const [id, text] of Object.entries(part)) if (ids.has(id)) table.set(id, text);
  }
  return table;
}

function chunkName(run, k) {
  return `run${run}-chunk${k}.json.gz`;
}

export async function detail(index, run, i) {
  const size = index.runs[run].chunk;
  const chunk = await load(chunkName(run, Math.floor(i / size)));
  const item = chunk.items[i % size];
  return resolve(item, await textTable(chunk, referenced(item)));
}

// The detail chunks of a run a search for `query` (lowercased) can match: each word of
// the query must be part of a word of the chunk (viewsearch.py); no word: every chunk.
export async function searchChunks(index, run, query) {
  const count = index.runs[run].chunks;
  const queryWords = [...new Set(query.match(WORD) || [])];
  let mask = (1n << BigInt(count)) - 1n;
  if (queryWords.length) {
    const words = Object.entries((await load(`run${run}-search.json.gz`)).words);
    for (const word of queryWords) {
      let found = 0n;
      for (const [token, hex] of words) if (token.includes(word)) found |= BigInt(`0x${hex}`);
      mask &= found;
    }
  }
  const out = [];
  for (let k = 0; k < count; k++) if ((mask >> BigInt(k)) & 1n) out.push(k);
  return out;
}

const lowered = new Map(); // text id -> the text lowercased, for the search

// A detail chunk's items for the text search: per item, the strings of `parts(item)`
// joined and lowercased, and the ids of the long texts among them (`loweredText`).
export async function searchEntries(index, run, k, parts) {
  const chunk = await load(chunkName(run, k));
  const entries = chunk.items.map((item) => {
    const values = parts(item);
    return { text: values.filter((v) => typeof v === "string").join("\n").toLowerCase(), refs: values.filter(isRef).map((v) => v[REF]) };
  });
  const missing = new Set(entries.flatMap((e) => e.refs).filter((id) => !lowered.has(id)));
  if (missing.size) {
    for (const [id, text] of await textTable(chunk, missing)) lowered.set(id, text.toLowerCase());
  }
  return entries;
}

export function loweredText(id) {
  const text = lowered.get(id);
  if (text === undefined) throw new Error(`text ${id} is missing from the report`);
  return text;
}
