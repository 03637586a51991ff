// Shared by the Tabs tests: mounts the answer's Tabs (imported the way the prompt states,
// from src/components/Tabs) with props the test chooses, and reads the state a user sees.
import { openApp, pageStub } from './harness.mjs';

const ENTRY = `
import { createElement, Fragment } from 'react';
import { createRoot } from 'react-dom/client';
import { Tabs } from './src/components/Tabs';
const root = createRoot(document.getElementById('root'));
window.renderTabs = (props) => {
  const list = Array.isArray(props) ? props : [props];
  root.render(createElement(Fragment, null, ...list.map((p, i) => createElement(Tabs, { key: i, ...p }))));
};
`;

export const ITEMS = [
  { id: 'one', label: 'One', content: 'Panel one' },
  { id: 'two', label: 'Two', content: 'Panel two' },
  { id: 'three', label: 'Three', content: 'Panel three' },
  { id: 'four', label: 'Four', content: 'Panel four' },
];

/** Items with some of them disabled (ids listed). */
export function withDisabled(...ids) {
  return ITEMS.map((item) => (ids.includes(item.id) ? { ...item, disabled: true } : { ...item }));
}

// Self-contained (compiled in the page's realm by pageStub): an onChange of the page that
// notes each id it is called with in the array returned with it (written with
// defineProperty as it was before the component ran).
function changeRecorder(window) {
  const define = window.Object.defineProperty;
  const list = [];
  const onChange = (id) => { define(list, list.length, { value: id, enumerable: true }); };
  return { list, onChange };
}

const spies = new WeakMap(); // calls().onChange -> its spy

/** `props` made in the page's realm: the data crosses as JSON, a spy's onChange becomes
 * the page's recorder (one per spy and page). */
function pageProps(window, props) {
  const list = [].concat(props);
  const made = window.JSON.parse(JSON.stringify(list.map(({ onChange, ...data }) => data)));
  list.forEach(({ onChange }, i) => {
    const spy = spies.get(onChange);
    if (!spy) return;
    if (spy.window !== window) Object.assign(spy, { window }, pageStub(window, changeRecorder));
    made[i].onChange = spy.onChange;
  });
  return made;
}

/** Mount <Tabs {...props}/> (or several instances for an array); `app.rerender(props)`
 * renders again with new props, as a parent would. */
export async function renderTabs(props) {
  const app = await openApp({ source: ENTRY, html: null });
  app.rerender = async (next) => {
    app.window.renderTabs(pageProps(app.window, next));
    await app.settle();
  };
  await app.rerender(props);
  return app;
}

export function tabs(app) {
  return app.queryAllByRole('tab');
}

export function tab(app, label) {
  return app.getByRole('tab', { name: label });
}

/** Labels of the tabs with aria-selected="true". */
export function selected(app) {
  return tabs(app).filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.textContent.trim());
}

/** Label of the focused tab, or a description of whatever has focus. */
export function focused(app) {
  const active = app.document.activeElement;
  if (!active || active === app.document.body) return '(nothing)';
  return active.getAttribute('role') === 'tab' ? active.textContent.trim() : `a <${active.tagName.toLowerCase()}> that is not a tab`;
}

/** Text of the panels a user can see (those without the hidden attribute). */
export function visiblePanels(app) {
  return app.queryAllByRole('tabpanel').map((p) => p.textContent.trim());
}

/** Focus a tab the way a user does (a click) without changing the selection in manual mode. */
export async function focusTab(app, label) {
  tab(app, label).focus();
  await app.settle();
}

/** An onChange spy: pass `onChange` as the prop (the page gets a recorder of its own);
 * `list` is the ids it was called with, in order. */
export function calls() {
  const onChange = Object.freeze({ spy: 'onChange' });
  const spy = { window: null, list: [], onChange: null };
  spies.set(onChange, spy);
  return {
    onChange,
    get list() { return [...spy.list]; },
  };
}
