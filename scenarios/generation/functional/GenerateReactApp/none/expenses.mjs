// Shared by the expense tracker tests: opens the answer's app (index.html + src/main.tsx)
// and drives it through the labels, texts and storage key the prompt states.
import { openApp } from './harness.mjs';

export const KEY = 'expense-tracker.expenses.v1';
export const CATEGORIES = ['Food', 'Transport', 'Housing', 'Leisure', 'Other'];
export const REQUIRED = 'Description is required.';
export const BAD_AMOUNT = 'Enter an amount greater than 0 with at most 2 decimals.';

export async function open(options = {}) {
  return openApp(options);
}

/** The page's text with runs of white space as one space. */
export function pageText(app) {
  return app.body.textContent.replace(/\s+/g, ' ');
}

const LABELS = {
  description: /^\s*Description/i,
  amount: /^\s*Amount/i,
  category: /^\s*Category/i,
  date: /^\s*Date/i,
  show: /^\s*Show/i,
};
const found = new WeakMap();

/** A form control by its label (Description, Amount (EUR), Category, Date, Show); found
 * once per page and found again if the app replaced it. */
function control(app, name) {
  const known = found.get(app) || {};
  found.set(app, known);
  if (!known[name] || !known[name].isConnected) known[name] = app.getByLabelText(LABELS[name]);
  return known[name];
}

export const field = Object.fromEntries(Object.keys(LABELS).map((name) => [name, (app) => control(app, name)]));

async function fill(app, input, text) {
  if (input.value !== '') await app.user.clear(input);
  if (text) {
    input.focus();
    await app.user.paste(text);
  }
}

/** The page's buttons with their accessible names (aria-labelledby, aria-label or text);
 * a plain scan, much cheaper in jsdom than a getByRole query per lookup. */
export function buttons(app) {
  const doc = app.document;
  return [...doc.querySelectorAll('button, [role="button"], input[type="submit"], input[type="button"]')].map((element) => {
    const labelledBy = element.getAttribute('aria-labelledby');
    let name = element.getAttribute('aria-label');
    if (labelledBy) name = labelledBy.split(/\s+/).map((id) => doc.getElementById(id)?.textContent || '').join(' ');
    else if (name === null) name = element.tagName === 'INPUT' ? element.value : element.textContent;
    return { element, name: name.replace(/\s+/g, ' ').trim() };
  });
}

/** The button whose accessible name is `name` (case and spacing ignored); fails the test
 * with a plain message when there is none. */
export function button(app, name) {
  const wanted = name.replace(/\s+/g, ' ').trim().toLowerCase();
  const found = buttons(app).find((b) => b.name.toLowerCase() === wanted);
  if (!found) throw new Error(`expected a button named "${name}"; the buttons are: ${buttons(app).map((b) => `"${b.name}"`).join(', ') || 'none'}`);
  return found.element;
}

/** Fill the form as a user and press "Add expense"; fields not given are left as they are. */
export async function add(app, { description, amount, category, date } = {}) {
  if (description !== undefined) await fill(app, field.description(app), description);
  if (amount !== undefined) await fill(app, field.amount(app), amount);
  if (category !== undefined) await app.user.selectOptions(field.category(app), category);
  if (date !== undefined) app.fireEvent.change(field.date(app), { target: { value: date } });
  await app.user.click(button(app, 'Add expense'));
  await app.settle();
}

/** Delete an expense with its "Delete <description>" button. */
export async function remove(app, description) {
  await app.user.click(button(app, `Delete ${description}`));
  await app.settle();
}

/** Descriptions of the listed expenses, in page order, from their "Delete <description>" buttons. */
export function listed(app) {
  return buttons(app).filter((b) => /^Delete\s/i.test(b.name)).map((b) => b.name.replace(/^Delete\s+/i, ''));
}

/** The smallest element around the "Delete <description>" button that shows the
 * description outside the button (a list item, a table row, ...). */
export function row(app, description) {
  const target = button(app, `Delete ${description}`);
  let element = target.parentElement;
  while (element && !element.textContent.replace(target.textContent, '').includes(description)) element = element.parentElement;
  return element;
}

/** The digits of an amount, e.g. "12.50" -> "1250": locale separators and symbols differ. */
export function digits(amount) {
  return amount.replace(/\D/g, '');
}

/** Number-like pieces of a text ("€1,234.50" -> "123450"), each as its digits. */
export function numbers(text) {
  return (text.match(/\d(?:[\d.,\u00a0\u202f' ]*\d)?/g) || []).map(digits);
}

/** The digits of the amount that follows "Total:", or null when there is none. */
export function total(app) {
  const text = pageText(app);
  const match = text.match(/Total:\s*[^\d]{0,6}(\d(?:[\d.,\u00a0\u202f']*\d)?)/);
  return match ? digits(match[1]) : null;
}

/** The text after "Total:" (for messages and the currency check). */
export function totalText(app) {
  const text = pageText(app);
  const at = text.indexOf('Total:');
  return at < 0 ? '(no "Total:" on the page)' : text.slice(at, at + 30);
}

/** Today's date in the page, YYYY-MM-DD (local calendar day). */
export function today(app, offsetDays = 0) {
  const d = new app.window.Date();
  d.setDate(d.getDate() + offsetDays);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
