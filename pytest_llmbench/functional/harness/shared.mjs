// The packages the harness runs on (jsdom, Testing Library, user-event) as one script with
// V8's code cache for it, made once per node_modules by our own code (make-shared.mjs,
// node_share.py). A test process then compiles one file, mostly from that cache, instead
// of resolving, reading and compiling a thousand modules.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

export const DEPS = 'deps.cjs';
export const CODE_CACHE = 'deps.cache';
export const PLAIN_CACHE = 'deps.plain.cache'; // for processes without node's flags (make-shared.mjs)
export const PACKAGES = { jsdom: 'jsdom', dom: '@testing-library/dom', userEvent: '@testing-library/user-event' };
// Left to Node's require: nwsapi (the harness loads it into a realm of its own), the
// optional native packages jsdom and ws try, and Node's own modules.
export const EXTERNAL = ['nwsapi', 'canvas', 'bufferutil', 'utf-8-validate'];

/** The packages from `folder` (LLMBENCH_NODE_SHARE), or null when there are none there or
 * they do not load (then the harness requires them as usual); each loads when first asked
 * for. `made.script` is set to the compiled script, for make-shared.mjs to take its code
 * cache from. `cache`: the code cache's file name in `folder`. */
export function loadShared(folder, requireFrom, made = {}, cache = CODE_CACHE) {
  if (!folder) return null;
  try {
    const file = path.join(folder, DEPS);
    const code = readFileSync(file, 'utf8');
    let cachedData;
    try {
      cachedData = readFileSync(path.join(folder, cache));
    } catch {
      cachedData = undefined; // `warm` makes it
    }
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
    const script = new vm.Script(wrapped, { filename: file, cachedData });
    const module = { exports: {} };
    // the externals resolve as from jsdom's own folder: nwsapi is the harness's copy
    const require = createRequire(requireFrom.resolve('jsdom'));
    script.runInThisContext()(module.exports, require, module, file, folder);
    made.script = script;
    made.rejected = Boolean(cachedData && script.cachedDataRejected);
    return module.exports;
  } catch {
    return null;
  }
}
