// Helpers of the hidden to-do tests (copied beside them as `support:`): the to-do page
// read through the CSS classes the prompts keep (new-todo, todo-list, toggle, edit,
// destroy, todo-count, clear-completed, filters, selected, completed, editing).
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

// user-event sends KeyboardEvents without the legacy keyCode/which a browser sets; an
// answer may read either, so the page gets them as a browser would give them.
const KEY_CODES = { Enter: 13, Escape: 27, Backspace: 8, Tab: 9, ' ': 32 };
export function legacyKeyCodes(window) {
  for (const type of ['keydown', 'keyup', 'keypress']) {
    window.addEventListener(type, (event) => {
      if (event.keyCode) return;
      const key = event.key || '';
      const code = KEY_CODES[key] ?? (key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0);
      Object.defineProperty(event, 'keyCode', { value: code });
      Object.defineProperty(event, 'which', { value: code });
    }, true);
  }
}

/** Open the app at `hash` with `todos` stored under `key` (none: nothing stored). */
export async function openTodos({ key, hash = '#/', todos = null, angular = true }) {
  const app = await openApp({
    angular,
    url: `http://localhost/${hash}`,
    storage: todos === null ? {} : { [key]: JSON.stringify(todos) },
    setup: legacyKeyCodes,
  });
  // a failed wait reports the assertion's own words, without a dump of the page
  const waitFor = app.waitFor;
  app.waitFor = (callback, options = {}) => waitFor(callback, { timeout: 4000, onTimeout: (error) => error, ...options });
  app.key = key;
  return app;
}

export const clean = (text) => (text || '').replace(/\s+/g, ' ').trim();

/** Displayed: in the page and not hidden by an attribute or an inline style. */
export function shown(element) {
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
    if (node.hidden || node.style.display === 'none' || node.classList.contains('ng-hide')) return false;
  }
  return Boolean(element);
}

export const items = (app) => [...app.document.querySelectorAll('.todo-list li')].filter(shown);
export const titles = (app) => items(app).map((li) => clean((li.querySelector('label') || li).textContent));
export const stored = (app) => JSON.parse(app.window.localStorage.getItem(app.key) || 'null');
export const newTodo = (app) => {
  const input = app.document.querySelector('input.new-todo');
  assert.ok(input, 'the page should have the new-todo field (input.new-todo)');
  return input;
};
export const counter = (app) => {
  const count = app.document.querySelector('.todo-count');
  return count && shown(count) ? clean(count.textContent) : '';
};

/** The list item whose title is `title`. */
export function item(app, title) {
  const found = items(app).find((li) => clean((li.querySelector('label') || li).textContent) === title);
  assert.ok(found, `the list should show the to-do "${title}"; it shows: ${JSON.stringify(titles(app))}`);
  return found;
}

export async function expectTitles(app, wanted, why) {
  await app.waitFor(() => assert.deepEqual(titles(app), wanted, why));
}

/** Add a to-do the way a user does: type it in the new-todo field and press Enter. */
export async function add(app, text) {
  await app.user.type(newTodo(app), `${text}{Enter}`);
  await app.settle();
}

/** Double-click the title of `title` and return the edit field once it has the focus. */
export async function startEditing(app, title) {
  await app.user.dblClick(item(app, title).querySelector('label'));
  return app.waitFor(() => {
    const active = app.document.activeElement;
    assert.ok(active && active.classList.contains('edit'), `double-clicking "${title}" should focus its edit field (input.edit)`);
    return active;
  });
}

/** A control found by the CSS class the original used (e.g. 'destroy', 'clear-completed'). */
export function byClass(scope, className, what) {
  const found = scope.querySelector(`.${className}`);
  assert.ok(found && shown(found), `there should be ${what} (.${className})`);
  return found;
}
