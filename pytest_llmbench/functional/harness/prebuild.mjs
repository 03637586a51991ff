// The step before a run that makes the bundles the run will ask for (node_bundles.py):
// each request of the specs file (one JSON array of specs, bundler.mjs) built by the
// harness's own build code and written as <key>.js into the output folder. Nothing of the
// answer runs here: esbuild and TypeScript read its files, never execute them. A build
// that fails, or that read a file other than the answer's (the workspace without the
// hidden tests, which differ from run to run) and the packages', is left to the run: an
// empty <key>.none says so.
//
//   node prebuild.mjs SPECS_FILE OUT_FOLDER
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, bundleKey, modules, requestOf, workspace } from './bundler.mjs';

const hidden = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(workspace, '.llmbench-out');
const inside = (file, folder) => {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
};
const answers = (file) => inside(file, workspace) && !inside(file, hidden) && !inside(file, out);
const shareable = (reads) => reads.every((file) => answers(file) || inside(file, path.resolve(modules)));

const [specsFile, target] = process.argv.slice(2);
const specs = JSON.parse(readFileSync(specsFile, 'utf8'));
mkdirSync(target, { recursive: true });
for (const spec of Array.isArray(specs) ? specs : []) {
  const request = typeof spec === 'string' ? requestOf(spec) : null;
  if (!request) continue;
  const reads = [];
  let text = null;
  try {
    text = await build(request, reads);
  } catch {
    text = null; // the run builds it again and reports why it does not build
  }
  // `<key>.none`: not made for these files (no step before a later run tries again)
  const made = text !== null && shareable(reads);
  writeFileSync(path.join(target, `${bundleKey(spec)}.${made ? 'js' : 'none'}`), made ? text : '');
}
process.exit(0);
