// The harness hidden acceptance tests import (`import { openApp } from './harness.mjs'`).
// It builds the answer's app (or a small entry the test writes) with esbuild, loads it
// into a jsdom page and gives the test Testing Library's queries, events and user-event
// on that page. The runner copies this file next to the hidden tests; it runs in the
// sandbox with the workspace as its working folder.
//
// Environment (set by the runner): LLMBENCH_WORKSPACE (the answer's files applied to the
// dataset), LLMBENCH_NODE_MODULES (the checkers' node_modules: esbuild, jsdom, react,
// react-dom, react-router-dom, Testing Library).
import Module, { createRequire } from 'node:module';
import vm from 'node:vm';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ANGULAR_ENTRY, ANGULAR_HTML } from './angular.mjs';
import { build, bundleKey, bundleSpec, requireFrom, workspace } from './bundler.mjs';
import { loadShared } from './shared.mjs';

export { workspace };

// Node's realm compiles no code from strings here (the runner's
// --disallow-code-generation-from-strings), but jsdom's selector engine, nwsapi, compiles
// each selector with Function. It is loaded into a realm of its own, whose global holds
// nothing of Node's, and jsdom is given that copy.
function nwsapiInItsOwnRealm() {
  const file = createRequire(requireFrom.resolve('jsdom')).resolve('nwsapi');
  const realm = vm.createContext({ module: { exports: {} }, exports: {} });
  vm.runInContext(readFileSync(file, 'utf8'), realm, { filename: file });
  const loaded = new Module(file);
  Object.assign(loaded, { filename: file, loaded: true, exports: realm.module.exports });
  Module._cache[file] = loaded;
}
nwsapiInItsOwnRealm();
// The packages from the one script made for them (shared.mjs, node_share.py) where the
// runner gives one, else each by its own require.
const made = {};
const shared = loadShared(process.env.LLMBENCH_NODE_SHARE, requireFrom, made);
/** The compiled script the packages came from (shared.mjs takes its code cache), or null. */
export function sharedScript() {
  return made.script || null;
}
const { JSDOM, VirtualConsole } = shared ? shared.jsdom : requireFrom('jsdom');
/** The JSDOM class the harness's pages are made with (the packages' script's, or jsdom's). */
export const PageJSDOM = JSDOM;
const dom = shared ? shared.dom : requireFrom('@testing-library/dom');
const userEventModule = shared ? shared.userEvent : requireFrom('@testing-library/user-event');
const userEvent = userEventModule.default || userEventModule;
// A query that finds nothing says so in one paragraph: the page dump Testing Library adds
// (coloured markup) is noise in the few lines of a failure that reach the report.
dom.configure({
  getElementError(message) {
    const error = new Error(String(message || '').split('\n\n')[0]);
    error.name = 'TestingLibraryElementError';
    return error;
  },
});

export const HTML = ['index.html', 'public/index.html', 'src/index.html'];
export const ENTRY = [
  'src/main.tsx', 'src/main.jsx', 'src/main.ts', 'src/main.js',
  'src/index.tsx', 'src/index.jsx', 'src/index.ts', 'src/index.js',
];

/** The first of `candidates` (paths relative to the workspace) that exists, or null. */
export function find(candidates) {
  for (const candidate of [].concat(candidates)) {
    if (existsSync(path.join(workspace, candidate))) return candidate;
  }
  return null;
}

/** The text of a workspace file, or null when there is none. */
export function read(relative) {
  const file = path.join(workspace, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

const bundles = new Map(); // one build per entry or source in a test process
// Bundles made before the run from the same files (node_bundles.py), read-only: a file
// per build, named by its key (bundler.mjs), absent when the build was not made.
const PREBUILT = process.env.LLMBENCH_BUNDLES || null;
// The builds this run asked for (node_bundles.py learns them for the runs after it).
const ASKED = path.join(workspace, '.llmbench-out', 'bundles.jsonl');

/** Bundle `entry` (a workspace path) or `source` (code resolved from the workspace) into
 * one browser script; throws an Error listing esbuild's messages when it does not build.
 * `angular`: an Angular app compiled just in time (angular.mjs).
 * The workspace does not change while the tests run, so each build is made once per test
 * process, or taken from the bundles made before the run (pass `fresh: true`, or
 * `cache: false`, after writing into the workspace). */
export async function bundle({ entry = null, source = null, loader = 'tsx', angular = false, fresh = false, cache = true } = {}) {
  const request = { entry, source, loader, angular };
  const spec = bundleSpec(request);
  if (fresh || !cache) bundles.set(spec, build(request));
  else if (!bundles.has(spec)) bundles.set(spec, prebuiltOrBuilt(spec, request));
  return bundles.get(spec);
}

async function prebuiltOrBuilt(spec, request) {
  try {
    appendFileSync(ASKED, `${JSON.stringify({ spec })}\n`);
  } catch {
    // the run's own folder is gone: nothing to note into
  }
  const file = PREBUILT && path.join(PREBUILT, `${bundleKey(spec)}.js`);
  // read as a build is waited for, through the event loop: the reports of the tests before
  // go out before this test runs the app's code (which may never give the loop back)
  if (file && existsSync(file)) return readFile(file, 'utf8');
  return build(request);
}

const scripts = new Map(); // a bundle is compiled once and run in every page that opens it
/** The file name the app's code has in stack traces (to tell its calls from jsdom's). */
export const APP_SCRIPT = 'llmbench-app.js';

function compiled(code) {
  if (!scripts.has(code)) scripts.set(code, new vm.Script(code, { filename: APP_SCRIPT }));
  return scripts.get(code);
}

// Browsers give key events the legacy keyCode/which (Enter 13, Escape 27, letters A-Z...);
// user-event sets only key and code, and jsdom leaves keyCode 0, so code written against
// event.which or event.keyCode (as older apps are) would not see its keys.
const KEY_CODES = {
  Backspace: 8, Tab: 9, Enter: 13, Shift: 16, Control: 17, Alt: 18, Pause: 19, CapsLock: 20,
  Escape: 27, ' ': 32, PageUp: 33, PageDown: 34, End: 35, Home: 36, ArrowLeft: 37, ArrowUp: 38,
  ArrowRight: 39, ArrowDown: 40, Insert: 45, Delete: 46, Meta: 91,
};

// Self-contained (compiled again in the page's realm by pageStub): KEY_CODES comes as an
// argument, the getters are the page's own functions.
function legacyKeyCodes(window, codes) {
  const legacyKeyCode = (key) => {
    if (Object.hasOwn(codes, key)) return codes[key];
    if (/^[a-z0-9]$/i.test(key)) return key.toUpperCase().charCodeAt(0);
    if (/^F([1-9]|1[0-2])$/.test(key)) return 111 + Number(key.slice(1));
    return 0;
  };
  const proto = window.KeyboardEvent.prototype;
  const keyCode = Object.getOwnPropertyDescriptor(proto, 'keyCode');
  if (!keyCode || !keyCode.get) return;
  Object.defineProperty(proto, 'keyCode', {
    configurable: true, enumerable: true,
    get() { return keyCode.get.call(this) || (this.type === 'keypress' ? this.charCode || 0 : legacyKeyCode(this.key)); },
  });
  Object.defineProperty(proto, 'which', {
    configurable: true, enumerable: true,
    get() { return this.type === 'keypress' ? this.charCode || 0 : this.keyCode; },
  });
}

// Self-contained (compiled in the page's realm by inPage): the page's fetch, which asks
// `outer` (fakeFetch's, which records the calls for the test) and answers with a response
// of the page's own: only strings cross from Node's realm.
function pageFetch(window, outer) {
  return async function fetch(input, init) {
    let answer;
    try {
      answer = await outer(input, init);
    } catch (error) {
      // a request fakeFetch could not read: rejected with the page's TypeError, as a
      // browser's fetch rejects, never with the error object of Node's realm
      throw new window.TypeError(`Failed to fetch: ${String(error && error.message)}`);
    }
    const text = String(await answer.text());
    const status = Number(answer.status);
    return {
      ok: status >= 200 && status < 300, status, statusText: String(status), url: String(answer.url),
      headers: new window.Headers({ 'content-type': 'application/json' }),
      json: async () => JSON.parse(text), text: async () => text,
      clone() { return this; },
    };
  };
}

// Self-contained (compiled in the page's realm by inPage): a page method that calls `outer`
// (a function of Node's realm, kept in its closure) with its `this` and arguments; it
// returns nothing and throws the page's Error, so nothing of Node's realm comes back.
function pageMethod(window, outer, name) {
  return {
    [name](...args) {
      try {
        outer.apply(this, args);
      } catch (error) {
        throw new window.Error(String(error && error.message));
      }
    },
  }[name];
}

/** user-event on the page. Its setup replaces HTMLElement's focus and blur with functions
 * of Node's realm (to track the focus); the page gets them behind page methods. */
function pageUserEvent(window, userOptions) {
  const proto = window.HTMLElement.prototype;
  const before = { focus: proto.focus, blur: proto.blur };
  const user = userEvent.setup({ ...userOptions, document: window.document });
  for (const name of Object.keys(before)) {
    if (proto[name] !== before[name]) proto[name] = inPage(window, pageMethod)(window, proto[name], name);
  }
  return user;
}

/** A self-contained function of this module compiled again in the page's realm: what it
 * makes (functions, objects, promises) is the page's, so nothing of it leads to Node's. */
function inPage(window, fn) {
  return window.eval(`(${fn})`);
}

/** What `factory(window, ...args)` makes, made in the page's realm: the factory (a
 * self-contained function: it names nothing outside its own source) is compiled again in
 * the page, and its arguments cross as JSON (strings, numbers, plain data), so the stub
 * and everything it hands the page (classes, functions, their results) are the page's own.
 * The test reads what the factory returns (e.g. a log) from outside; copy a page array
 * (`[...log]`) before comparing it with assert's deepEqual, which compares prototypes. */
export function pageStub(window, factory, ...args) {
  if (typeof factory !== 'function') throw new TypeError('pageStub: the factory must be a function');
  const json = JSON.stringify(args, (key, value) => {
    if (typeof value === 'function') throw new TypeError(`pageStub: ${factory.name || 'the factory'}'s arguments cross as JSON; a function cannot (${key || 'argument'})`);
    return value;
  });
  return inPage(window, factory)(window, ...window.JSON.parse(json));
}

function bodyOf(html) {
  // The page's markup without its scripts: the bundle replaces them.
  return html.replace(/<script\b[\s\S]*?<\/script>/gi, '');
}

/** A fetch for the page: `routes` maps "METHOD /path" (or "/path") to a JSON value, a
 * function (request) => value | {status, body}, or a Response-like {status, body}. Every
 * request is recorded in `calls`. Unknown routes answer 404. */
export function fakeFetch(window, routes = {}) {
  const calls = [];
  async function fetch(input, init = {}) {
    const url = new window.URL(typeof input === 'string' ? input : input.url, window.location.href);
    const method = (init.method || 'GET').toUpperCase();
    const headers = Object.fromEntries(new window.Headers(init.headers || {}).entries?.() || []);
    let body = init.body;
    try { body = typeof body === 'string' ? JSON.parse(body) : body; } catch { /* text body */ }
    const request = { url: url.pathname + url.search, path: url.pathname, query: url.searchParams, method, headers, body };
    calls.push(request);
    const handler = routes[`${method} ${url.pathname}`] ?? (method === 'GET' ? routes[url.pathname] : undefined);
    let answer = typeof handler === 'function' ? await handler(request) : handler;
    if (answer === undefined) answer = { status: 404, body: { error: 'not found' } };
    const isReply = answer && typeof answer === 'object' && 'status' in answer && 'body' in answer;
    const status = isReply ? answer.status : 200;
    const payload = isReply ? answer.body : answer;
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload ?? null);
    return {
      ok: status >= 200 && status < 300, status, statusText: String(status), url: url.href,
      headers: new window.Headers({ 'content-type': 'application/json' }),
      json: async () => JSON.parse(text), text: async () => text,
      clone() { return this; },
    };
  }
  return { fetch, calls };
}

// Where the page's attempts to reach Node are written (node.py reads it after the run):
// the page's code cannot reach Node, so it can neither write nor remove this file.
const ESCAPES = path.join(workspace, '.llmbench-out', 'escapes.jsonl');
// What a code string compiled in the page names when it reaches for Node: the page has
// none of these, so only code on its way out of the page asks for them.
const NODE_NAMES = /\b(?:process|require|getBuiltinModule|__dirname|__filename)\b/;

function noteEscape(kind, source) {
  try {
    appendFileSync(ESCAPES, `${JSON.stringify({ kind, source: String(source).slice(0, 160) })}\n`);
  } catch {
    // the run's own folder is gone: nothing to note into
  }
}

/** In the realm `scope` is the global of (this function is compiled again in each realm
 * it guards), every way to compile a string (the Function, async and generator function
 * constructors, also reached as `x.constructor`, and eval) notes a string that names
 * Node's globals through `note`, then compiles it as before (in Node's realm V8 then
 * refuses it: --disallow-code-generation-from-strings). What code can reach of the
 * wrappers belongs to their own realm; `note` stays in their closure. */
function guardCodeStrings(scope, note, names) {
  const guard = (Real, kind) => {
    const Guarded = function (...args) {
      const body = args.length ? String(args[args.length - 1]) : '';
      if (names.test(body)) note(kind, body);
      return new.target ? Reflect.construct(Real, args, new.target) : Real(...args);
    };
    Object.defineProperty(Guarded, 'name', { value: Real.name });
    Guarded.prototype = Real.prototype;
    Object.defineProperty(Real.prototype, 'constructor', { value: Guarded, writable: true, configurable: true });
    return Guarded;
  };
  scope.Function = guard(scope.Function, 'Function');
  guard(Object.getPrototypeOf(async function () {}).constructor, 'AsyncFunction');
  guard(Object.getPrototypeOf(function* () {}).constructor, 'GeneratorFunction');
  guard(Object.getPrototypeOf(async function* () {}).constructor, 'AsyncGeneratorFunction');
  const realEval = scope.eval;
  scope.eval = function (source) {
    if (typeof source === 'string' && names.test(source)) note('eval', source);
    return realEval(source);
  };
}
guardCodeStrings(globalThis, (kind, source) => noteEscape(`Node's ${kind}`, source), NODE_NAMES);

/** The page's realm guarded as Node's is, by a copy of guardCodeStrings made in it. */
function guardPage(window) {
  inPage(window, guardCodeStrings)(window, noteEscape, window.eval(`${NODE_NAMES}`));
}

/**
 * Open the answer's app in a jsdom page.
 *   html:    candidates for the page (the first that exists; default HTML); its scripts are dropped
 *   entry:   candidates for the entry module (default ENTRY), or
 *   source:  an entry written by the test (JSX/TSX, imports resolved from the workspace)
 *   url:     the page's address (default http://localhost/), e.g. with a #hash
 *   storage: localStorage items to set before the app starts ({key: string})
 *   routes:  a fake fetch's routes (see fakeFetch)
 *   setup:   (window) => void, run before the app starts (stubs of browser APIs)
 *   userOptions: options of user-event's setup, e.g. {delay: null} (no pause between keys)
 *   angular: true for an Angular app (angular.mjs): default page src/index.html, entry
 *            src/main.ts, compiled just in time with zone.js (see also openAngularApp)
 * Returns the page: window, document, Testing Library's queries on the body (getByRole,
 * findByText, ...), fireEvent, waitFor, user (user-event), calls (fetch), errors (uncaught
 * errors and console.error lines), mounts ({createRoot, hydrateRoot, render} counts),
 * unmount() (unmounts every React root the app made, then settles: for tests of effect
 * clean-ups) and close(). Throws when the app does not build or its code throws while starting.
 */
export async function openApp(options = {}) {
  const { url = 'http://localhost/', storage = {}, routes = {}, setup = null, angular = false } = options;
  const htmlPath = options.html === null ? null : find(options.html || (angular ? ANGULAR_HTML : HTML));
  let html = htmlPath ? bodyOf(read(htmlPath)) : '<!DOCTYPE html><html><body><div id="root"></div></body></html>';
  if (options.markup) html = options.markup;
  let code;
  if (options.source) code = await bundle({ source: options.source });
  else {
    const candidates = options.entry || (angular ? ANGULAR_ENTRY : ENTRY);
    const entry = find(candidates);
    if (!entry) throw new Error(`no entry module: none of ${[].concat(candidates).join(', ')}`);
    code = await bundle({ entry, angular });
  }
  const errors = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('error', (...args) => errors.push(args.map(String).join(' ')));
  virtualConsole.on('jsdomError', (error) => errors.push(String(error && (error.stack || error.message) || error)));
  const page = new JSDOM(html, { url, runScripts: 'outside-only', pretendToBeVisual: true, virtualConsole });
  const { window } = page;
  // What the page's code can reach is made in the page's own realm where it can be: from
  // an object of this (Node's) realm, `.constructor.constructor` is Node's Function, which
  // would compile code that sees `process`. The runner starts node with
  // --disallow-code-generation-from-strings, which refuses that in any case.
  window.__llmbench = window.JSON.parse('{"mounts":{"createRoot":0,"hydrateRoot":0,"render":0},"roots":[],"legacy":[]}');
  for (const [key, value] of Object.entries(storage)) window.localStorage.setItem(key, value);
  const fake = fakeFetch(window, routes);
  window.fetch = inPage(window, pageFetch)(window, fake.fetch);
  window.eval(`
    window.matchMedia = window.matchMedia || (() => ({ matches: false, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} }));
    window.scrollTo = () => {};
    window.HTMLElement.prototype.scrollIntoView = function scrollIntoView() {};
  `);
  pageStub(window, legacyKeyCodes, KEY_CODES);
  if (setup) await setup(window);
  window.addEventListener('error', (event) => errors.push(String(event.error && (event.error.stack || event.error.message) || event.message)));
  guardPage(window);
  compiled(code).runInContext(page.getInternalVMContext());
  await settle(window);
  const body = window.document.body;
  const queries = dom.getQueriesForElement(body);
  return {
    window, document: window.document, body, ...queries,
    fireEvent: dom.fireEvent,
    waitFor: (callback, waitOptions = {}) => dom.waitFor(callback, { container: body, timeout: 2000, ...waitOptions }),
    within: dom.within,
    user: pageUserEvent(window, options.userOptions || {}),
    calls: fake.calls, errors, mounts: window.__llmbench.mounts,
    settle: () => settle(window),
    unmount: () => unmount(window),
    close: () => window.close(),
  };
}

/** Unmount every React root the page's app created (createRoot, hydrateRoot or the legacy
 * render), then let pending work run. Returns how many roots were unmounted. */
export async function unmount(window) {
  const { roots, legacy } = window.__llmbench;
  const count = roots.length + legacy.length;
  for (const root of roots.splice(0)) root.unmount();
  if (legacy.length) {
    const { unmountComponentAtNode } = window.__llmbench.legacyApi || {};
    for (const container of legacy.splice(0)) if (unmountComponentAtNode) unmountComponentAtNode(container);
  }
  await settle(window);
  return count;
}

/** Let the page's pending work run (React's scheduler, promises, zero-delay timers). */
export async function settle(window, rounds = 5) {
  for (let i = 0; i < rounds; i += 1) {
    await new Promise((resolve) => window.setTimeout(resolve, 0));
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** openApp for an Angular app: src/index.html, src/main.ts, compiled just in time. */
export function openAngularApp(options = {}) {
  return openApp({ ...options, angular: true });
}
