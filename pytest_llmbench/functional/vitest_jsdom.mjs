// The first import of Vitest's test process in a served run (vitest_server.mjs), when the
// environment is jsdom: jsdom from the packages' script with V8's code cache (node_share.py;
// the cache made for processes without node's flags), put in Node's module cache where
// jsdom's own main file is (LLMBENCH_JSDOM, by its own path: the workspace, its
// node_modules link too, may be laid anew meanwhile), so Vitest's jsdom environment
// imports it from there, in place of its thousand files. Only jsdom is taken from the
// script: Testing Library and React DOM look at the page's globals as they load, which
// this process has not yet got. Without the script (LLMBENCH_NODE_SHARE unset, or it did
// not load), jsdom is imported as it is.
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadShared, PLAIN_CACHE } from './shared.mjs';

const main = process.env.LLMBENCH_JSDOM;
let jsdom = null;
try {
  const shared = loadShared(process.env.LLMBENCH_NODE_SHARE, createRequire(main), {}, PLAIN_CACHE);
  jsdom = shared && shared.jsdom;
} catch {
  jsdom = null; // the script's jsdom did not load: Node's
}
if (jsdom && typeof jsdom.JSDOM === 'function') {
  const module = new Module(main);
  Object.assign(module, { filename: main, loaded: true, exports: jsdom, paths: Module._nodeModulePaths(path.dirname(main)) });
  Module._cache[main] = module;
} else {
  await import(pathToFileURL(main).href);
}
