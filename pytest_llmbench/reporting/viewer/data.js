// Where the report's files come from: embedded in the page (report.html, base64 of gzip)
// or served beside it (`llmbench view`). Both are gzip JSON, decoded by the browser's
// DecompressionStream. Detail chunks are read once, when first needed.

const cache = new Map();

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

export async function detail(index, run, i) {
  const size = index.runs[run].chunk;
  const chunk = await load(`run${run}-chunk${Math.floor(i / size)}.json.gz`);
  return chunk[i % size];
}

// Every item's details of a run (for the text search), chunk by chunk.
export async function allDetails(index, run) {
  const parts = [];
  for (let k = 0; k < index.runs[run].chunks; k++) parts.push(load(`run${run}-chunk${k}.json.gz`));
  return (await Promise.all(parts)).flat();
}
