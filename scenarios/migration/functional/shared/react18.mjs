// Support for hidden tests of migrations to React 18 (copied beside the tests with the
// `support:` field). It opens the answer's app through the harness and checks what the
// migration requires of the mount: React 18's createRoot (react-dom/client), StrictMode,
// function components. It reads React's own fiber tree only to tell which components
// were rendered, never the answer's file or component names.
import assert from 'node:assert/strict';
import { APP_SCRIPT, ENTRY, find, openApp, pageStub, read } from './harness.mjs';

/** The module entry the page loads (`<script type="module" src="/src/...">` in the root
 * index.html, as Vite does), if that file exists; else null. */
export function entryFromHtml(html = 'index.html') {
  const text = read(html);
  if (!text) return null;
  for (const tag of text.match(/<script\b[^>]*>/gi) || []) {
    if (!/type\s*=\s*["']?module/i.test(tag)) continue;
    const src = /src\s*=\s*["']([^"']+)["']/i.exec(tag);
    if (!src || /^[a-z]+:\/\//i.test(src[1])) continue;
    const relative = src[1].replace(/^\.?\//, '').split(/[?#]/)[0];
    if (find(relative)) return relative;
  }
  return null;
}

const LEGACY = 'ReactDOM.render (the React 17 API)';

/** Open the app from the entry its index.html loads (else `entry`, the one the prompt
 * names, else the usual src/main.* or src/index.*) and assert it mounted with createRoot
 * and never with ReactDOM.render. */
export async function openReact18({ entry, ...options } = {}) {
  const entries = [...new Set([entryFromHtml(), ...[].concat(entry || []), ...ENTRY].filter(Boolean))];
  const app = await openApp({ entry: entries, userOptions: { delay: null }, ...options });
  const { createRoot, render } = app.mounts;
  assert.ok(
    createRoot >= 1 && render === 0,
    `the app must be mounted with createRoot from react-dom/client (React 18); it called createRoot ${createRoot} time(s) and ${LEGACY} ${render} time(s)`,
  );
  return app;
}

/** The root fibers of every React root in the page (React's own record on the container). */
export function rootFibers(document) {
  const fibers = [];
  for (const element of [document.body, ...document.body.querySelectorAll('*')]) {
    for (const key of Object.keys(element)) {
      // the container keeps the first root fiber; the root's current tree is its stateNode's
      if (key.startsWith('__reactContainer$') && element[key]) fibers.push(element[key].stateNode?.current || element[key]);
    }
  }
  return fibers;
}

function* walk(fiber) {
  const stack = [fiber];
  while (stack.length) {
    const node = stack.pop();
    if (!node) continue;
    yield node;
    stack.push(node.sibling, node.child);
  }
}

const STRICT_LEGACY_MODE = 0b1000; // React 18's fiber mode bit set under <StrictMode>

/** Whether any rendered part of the app runs inside <React.StrictMode>. */
export function rendersInStrictMode(document) {
  for (const root of rootFibers(document)) {
    for (const fiber of walk(root)) if ((fiber.mode & STRICT_LEGACY_MODE) !== 0) return true;
  }
  return false;
}

/** Names of the class components rendered in the page (empty: function components only). */
export function classComponents(document) {
  const names = new Set();
  for (const root of rootFibers(document)) {
    for (const fiber of walk(root)) {
      const { type } = fiber;
      if (typeof type === 'function' && type.prototype && type.prototype.isReactComponent) {
        names.add(type.displayName || type.name || 'anonymous class');
      }
    }
  }
  return [...names];
}

// Self-contained (compiled in the page's realm by pageStub): `target`'s addEventListener
// and removeEventListener record each call ({kind, type, listener, stack}) in the array it
// returns, then do what they did. The stack is taken when the call is made, with the
// page's Error as it was before the app ran (its limit and formatting fixed), and the
// record is written with the page's defineProperty as it was then: what the app later
// changes in the page's builtins alters no record.
function listenerRecorder(window, where) {
  const target = where === 'document' ? window.document : window;
  const PageError = window.Error;
  const define = window.Object.defineProperty;
  define(PageError, 'stackTraceLimit', { value: 10, writable: false, configurable: false });
  define(PageError, 'prepareStackTrace', { value: undefined, writable: false, configurable: false });
  const calls = [];
  const record = (kind, type, listener) => {
    const stack = new PageError().stack;
    define(calls, calls.length, { value: { kind, type, listener, stack }, enumerable: true });
  };
  const add = target.addEventListener;
  const remove = target.removeEventListener;
  target.addEventListener = function addEventListener(type, listener, ...rest) {
    record('add', type, listener);
    return add.call(this, type, listener, ...rest);
  };
  target.removeEventListener = function removeEventListener(type, listener, ...rest) {
    record('remove', type, listener);
    return remove.call(this, type, listener, ...rest);
  };
  return calls;
}

function calledByApp(stack) {
  // frame 0 is the recorder's, 1 the wrapper's, 2 its caller's
  const frames = String(stack).split('\n').slice(1);
  return (frames[2] || '').includes(APP_SCRIPT);
}

/** Count the listeners of `types` that the app's own code adds to and removes from
 * `target` (window or document; jsdom adds some itself): install with `setup`, read
 * `live(type)` after unmounting. */
export function listenerLog(types) {
  const records = [];
  return {
    install(target) {
      const window = target.defaultView || target;
      records.push(pageStub(window, listenerRecorder, target === window ? 'window' : 'document'));
    },
    live(type) {
      const live = new Set();
      for (const calls of records) {
        // read by index: the page's array iterator is the app's to change
        for (let i = 0; i < calls.length; i += 1) {
          const { kind, type: called, listener, stack } = calls[i];
          if (called !== type || !types.includes(type) || !listener) continue;
          if (kind === 'add' && calledByApp(stack)) live.add(listener);
          if (kind === 'remove') live.delete(listener);
        }
      }
      return live.size;
    },
  };
}
