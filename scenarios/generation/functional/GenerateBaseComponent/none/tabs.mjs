// Shared by the Tabs tests: mounts the answer's Tabs (imported the way the prompt states,
// from src/components/Tabs) with props the test chooses, and reads the state a user sees.
import { openApp } from './harness.mjs';

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

/** Mount <Tabs {...props}/> (or several instances for an array); `app.rerender(props)`
 * renders again with new props, as a parent would. */
export async function renderTabs(props) {
  const app = await openApp({ source: ENTRY, html: null });
  app.rerender = async (next) => {
    app.window.renderTabs(next);
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

export function calls() {
  const list = [];
  const onChange = (id) => { list.push(id); };
  return { list, onChange };
}
