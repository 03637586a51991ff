// The page of a to-do app as a user sees it, for the shared to-do tests (todo.mjs): the
// new-todo field by its placeholder, rows as list items holding a checkbox, titles, the
// "N items left" counter, buttons and links by their texts, and the list in localStorage.
// Class names are read only where the prompts keep the original's (completed, editing,
// selected).
import assert from 'node:assert/strict';
import { openReact18 } from './react18.mjs';

export const PLACEHOLDER = 'What needs to be done?';
const COUNTER = /^\s*(\d+)\s+(item|items)\s+left\s*$/;

/** Whether `element` exists and is not hidden by an attribute or inline style. */
export function shown(element) {
  for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
    if (node.hidden || node.style.display === 'none' || node.style.visibility === 'hidden') return false;
  }
  return Boolean(element);
}

function describe(element) {
  if (!element) return 'nothing';
  return element.tagName.toLowerCase() + (element.className ? `.${element.className}` : '');
}

export class TodoPage {
  constructor(app, config) {
    this.app = app;
    this.config = config;
    this.document = app.document;
  }

  field() {
    const field = this.app.queryByPlaceholderText(PLACEHOLDER);
    assert.ok(field, `expected the new-todo text field with the placeholder "${PLACEHOLDER}"`);
    return field;
  }

  async add(...titles) {
    for (const title of titles) await this.app.user.type(this.field(), `${title}{Enter}`);
  }

  /** A to-do row: a list item holding a checkbox (the filter links' items hold none). */
  rows() {
    return [...this.document.querySelectorAll('li')].filter((li) => shown(li) && li.querySelector('input[type="checkbox"]'));
  }

  titleOf(row) {
    return (row.querySelector('label') || row).textContent.trim();
  }

  titles() {
    return this.rows().map((row) => this.titleOf(row));
  }

  row(title) {
    const row = this.rows().find((li) => this.titleOf(li) === title);
    assert.ok(row, `expected a to-do "${title}" in the list; the list shows ${JSON.stringify(this.titles())}`);
    return row;
  }

  /** The innermost element showing exactly the title (the original's <label>). */
  label(title) {
    const row = this.row(title);
    const matches = [...row.querySelectorAll('*')].filter((el) => el.textContent.trim() === title && shown(el));
    return matches.find((el) => ![...el.children].some((child) => child.textContent.trim() === title)) || row;
  }

  checkbox(title) {
    return this.row(title).querySelector('input[type="checkbox"]');
  }

  destroyButton(title) {
    const row = this.row(title);
    return row.querySelector('.destroy') || this.app.within(row).queryAllByRole('button')[0];
  }

  toggleAll() {
    return this.app.queryByLabelText('Mark all as complete') || this.document.getElementById('toggle-all');
  }

  counter() {
    const matches = [...this.document.body.querySelectorAll('*')].filter((el) => COUNTER.test(el.textContent) && shown(el));
    return matches.find((el) => ![...el.children].some((child) => COUNTER.test(child.textContent))) || null;
  }

  counterText() {
    const counter = this.counter();
    return counter ? counter.textContent.replace(/\s+/g, ' ').trim() : null;
  }

  clearButton() {
    return this.app.queryByRole('button', { name: /^\s*Clear completed/ });
  }

  link(name) {
    const link = this.app.queryByRole('link', { name });
    assert.ok(link, `expected a filter link "${name}" in the footer`);
    return link;
  }

  /** Double-click the title; returns the edit field, which must have the focus. */
  async edit(title) {
    await this.app.user.dblClick(this.label(title));
    await this.app.settle();
    const field = this.document.activeElement;
    assert.ok(
      field && field.tagName === 'INPUT' && this.row(title).contains(field),
      `double-clicking "${title}" should focus a text field in its row; the focus is on ${describe(field)}`,
    );
    return field;
  }

  async leaveField() {
    await this.app.user.click(this.document.body);
    await this.app.settle();
  }

  stored() {
    const key = this.config.storageKey;
    const text = this.app.window.localStorage.getItem(key);
    assert.ok(text !== null, `expected the list saved in localStorage under "${key}"`);
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      assert.fail(`localStorage "${key}" should hold JSON; it holds ${text.slice(0, 80)}`);
    }
    assert.ok(Array.isArray(value), `localStorage "${key}" should hold a JSON array of to-dos`);
    return value;
  }

  async setHash(hash) {
    this.app.window.location.hash = hash;
    await this.app.settle();
  }
}

/** Open the app of `config` (see todo.mjs) with the harness's options. */
export async function open(config, options = {}) {
  const app = await openReact18({ entry: config.entry, ...options });
  return new TodoPage(app, config);
}

export const savedStorage = (config) => ({ [config.storageKey]: JSON.stringify(config.saved) });
export const savedTitles = (config) => config.saved.map((todo) => todo.title);
export const activeTitles = (config) => config.saved.filter((todo) => !todo.completed).map((todo) => todo.title);
export const completedTitles = (config) => config.saved.filter((todo) => todo.completed).map((todo) => todo.title);
export const itemsLeft = (count) => `${count} ${count === 1 ? 'item' : 'items'} left`;
