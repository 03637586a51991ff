import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BAD_AMOUNT, CATEGORIES, KEY, REQUIRED, add, button, field, listed, numbers, open, pageText, remove, row, today, total, totalText,
} from './expenses.mjs';
import { pageStub } from './harness.mjs';

test('starts from index.html and src/main.tsx with createRoot, showing "No expenses yet."', async () => {
  const app = await open();
  assert.equal(app.mounts.createRoot, 1, 'src/main.tsx should mount the app once with React 18 createRoot');
  assert.ok(pageText(app).includes('No expenses yet.'), 'with empty storage the page should say "No expenses yet."');
  assert.deepEqual(listed(app), [], 'no expense should be listed at start with empty storage');
  app.close();
});

test('the form has Description, Amount (EUR), Category and Date fields and an "Add expense" button', async () => {
  const app = await open();
  for (const [name, get] of Object.entries({ Description: field.description, Amount: field.amount, Category: field.category, Date: field.date })) {
    assert.doesNotThrow(() => get(app), `expected a form field labelled "${name}"`);
  }
  assert.equal(field.date(app).getAttribute('type'), 'date', 'the Date field should be an <input type="date">');
  assert.doesNotThrow(() => button(app, 'Add expense'), 'expected a button labelled "Add expense"');
  app.close();
});

test('Category offers exactly Food, Transport, Housing, Leisure, Other and defaults to Food; Date defaults to today', async () => {
  const app = await open();
  const select = field.category(app);
  const options = [...select.options].map((o) => o.textContent.trim());
  assert.deepEqual(options, CATEGORIES, 'the Category select should offer exactly the five categories, in this order');
  assert.equal(select.options[select.selectedIndex].textContent.trim(), 'Food', 'Category should default to Food');
  const utc = new app.window.Date().toISOString().slice(0, 10);
  assert.ok([today(app), utc].includes(field.date(app).value), `the Date field should default to today (${today(app)}); it shows "${field.date(app).value}"`);
  app.close();
});

test('a valid submit adds the expense and empties description and amount', async () => {
  const app = await open();
  await add(app, { description: 'Train ticket', amount: '23.40', category: 'Transport', date: '2024-03-05' });
  assert.deepEqual(listed(app), ['Train ticket'], 'the new expense should be listed, with a "Delete Train ticket" button');
  assert.equal(field.description(app).value, '', 'the description should be emptied after a valid submit');
  assert.equal(field.amount(app).value, '', 'the amount should be emptied after a valid submit');
  assert.ok(!pageText(app).includes('No expenses yet.'), '"No expenses yet." should disappear once an expense exists');
  app.close();
});

test('a row shows the date, description, category and the amount formatted in EUR', async () => {
  const app = await open();
  await add(app, { description: 'Cinema', amount: '12.5', category: 'Leisure', date: '2021-07-14' });
  const line = row(app, 'Cinema');
  const text = line.textContent.replace(/\s+/g, ' ');
  assert.ok(text.includes('Leisure'), `the row should show the category "Leisure"; it shows "${text}"`);
  assert.ok(text.includes('2021'), `the row should show the date (year 2021); it shows "${text}"`);
  assert.ok(numbers(text).includes('1250'), `the row should show the amount 12.50; it shows "${text}"`);
  assert.ok(/€|EUR/.test(text), `the amount should be formatted as EUR (€); the row shows "${text}"`);
  app.close();
});

test('a blank description shows "Description is required.", marks the field aria-invalid and adds nothing', async () => {
  const app = await open();
  await add(app, { description: '   ', amount: '5' });
  assert.ok(pageText(app).includes(REQUIRED), `expected the message "${REQUIRED}"`);
  assert.equal(field.description(app).getAttribute('aria-invalid'), 'true', 'the description field should get aria-invalid="true"');
  assert.notEqual(field.amount(app).getAttribute('aria-invalid'), 'true', 'a valid amount should not be marked aria-invalid');
  assert.deepEqual(listed(app), [], 'nothing should be added when the description is blank');
  app.close();
});

test('invalid amounts (empty, 0, negative, three decimals, text) show the amount message and add nothing', async () => {
  const app = await open();
  for (const amount of ['', '0', '-5', '12.345', 'abc']) {
    await add(app, { description: 'Snack', amount });
    assert.ok(pageText(app).includes(BAD_AMOUNT), `amount "${amount}" should show "${BAD_AMOUNT}"`);
    assert.equal(field.amount(app).getAttribute('aria-invalid'), 'true', `amount "${amount}" should mark the field aria-invalid="true"`);
    assert.deepEqual(listed(app), [], `amount "${amount}" must not add an expense`);
  }
  app.close();
});

test('amounts accept a comma or a dot: "12,50" and "7.05" are added as 12.50 and 7.05', async () => {
  const app = await open();
  await add(app, { description: 'Lunch', amount: '12,50' });
  await add(app, { description: 'Coffee', amount: '7.05' });
  assert.deepEqual(listed(app).sort(), ['Coffee', 'Lunch'], 'both expenses should be added');
  assert.ok(numbers(row(app, 'Lunch').textContent).includes('1250'), '"12,50" should be listed as 12.50');
  assert.ok(numbers(row(app, 'Coffee').textContent).includes('705'), '"7.05" should be listed as 7.05');
  app.close();
});

test('descriptions are trimmed and never longer than 80 characters', async () => {
  const app = await open();
  await add(app, { description: '  Groceries  ', amount: '3' });
  assert.deepEqual(listed(app), ['Groceries'], 'the description "  Groceries  " should be saved trimmed, as "Groceries"');
  const eighty = 'x'.repeat(80);
  await add(app, { description: eighty, amount: '4' });
  assert.ok(listed(app).includes(eighty), 'a description of exactly 80 characters should be accepted');
  await add(app, { description: 'y'.repeat(81), amount: '5' });
  const long = listed(app).filter((d) => d.startsWith('y'));
  assert.ok(long.every((d) => d.length <= 80), `a description over 80 characters must be refused (or cut to 80); got one of ${long.map((d) => d.length)} characters`);
  app.close();
});

test('a future date is refused', async () => {
  const app = await open();
  await add(app, { description: 'Concert', amount: '40', date: today(app, 400) });
  assert.deepEqual(listed(app), [], 'an expense dated in the future must not be added');
  app.close();
});

test('the list is sorted newest date first', async () => {
  const app = await open();
  await add(app, { description: 'February', amount: '1', date: '2024-02-10' });
  await add(app, { description: 'November', amount: '2', date: '2024-11-02' });
  await add(app, { description: 'Old year', amount: '3', date: '2023-12-31' });
  await add(app, { description: 'Same month', amount: '4', date: '2024-02-09' });
  assert.deepEqual(listed(app), ['November', 'February', 'Same month', 'Old year'], 'expenses should be listed newest date first');
  app.close();
});

test('"Delete <description>" removes that expense only, and the last one brings back "No expenses yet."', async () => {
  const app = await open();
  await add(app, { description: 'Rent', amount: '700', category: 'Housing' });
  await add(app, { description: 'Bus', amount: '2.20', category: 'Transport' });
  await remove(app, 'Rent');
  assert.deepEqual(listed(app), ['Bus'], 'deleting "Rent" should leave only "Bus"');
  assert.equal(total(app), '220', `the total should drop to 2.20; the page shows ${totalText(app)}`);
  await remove(app, 'Bus');
  assert.deepEqual(listed(app), [], 'deleting the last expense should empty the list');
  assert.ok(pageText(app).includes('No expenses yet.'), '"No expenses yet." should be shown again');
  app.close();
});

test('the total is exact in cents and shown as "Total: <amount in EUR>"', async () => {
  const app = await open();
  for (const amount of ['0.10', '0.20', '1000.01']) await add(app, { description: `Item ${amount}`, amount });
  assert.equal(total(app), '100031', `"Total:" should show 1000.31 (0.10 + 0.20 + 1000.01); the page shows ${totalText(app)}`);
  assert.ok(/€|EUR/.test(totalText(app)), `the total should be formatted in EUR (€); the page shows ${totalText(app)}`);
  app.close();
});

test('the "Show" filter offers "All categories" and the five categories, and the list and total follow it', async () => {
  const app = await open();
  const options = [...field.show(app).options].map((o) => o.textContent.trim());
  assert.deepEqual(options, ['All categories', ...CATEGORIES], 'the "Show" select should offer "All categories" then the five categories');
  await add(app, { description: 'Pizza', amount: '9.90', category: 'Food' });
  await add(app, { description: 'Taxi', amount: '15', category: 'Transport' });
  await add(app, { description: 'Bread', amount: '2.35', category: 'Food' });
  await app.user.selectOptions(field.show(app), 'Food');
  assert.deepEqual(listed(app).sort(), ['Bread', 'Pizza'], 'Show: Food should list only the Food expenses');
  assert.equal(total(app), '1225', `with Show: Food the total should be 12.25; the page shows ${totalText(app)}`);
  await app.user.selectOptions(field.show(app), 'Transport');
  assert.deepEqual(listed(app), ['Taxi'], 'Show: Transport should list only "Taxi"');
  assert.equal(total(app), '1500', `with Show: Transport the total should be 15.00; the page shows ${totalText(app)}`);
  await app.user.selectOptions(field.show(app), 'All categories');
  assert.equal(listed(app).length, 3, 'All categories should list every expense again');
  assert.equal(total(app), '2725', `with All categories the total should be 27.25; the page shows ${totalText(app)}`);
  app.close();
});

test(`expenses are saved under "${KEY}" and restored on the next start`, async () => {
  const app = await open();
  await add(app, { description: 'Gym', amount: '29.90', category: 'Leisure', date: '2024-01-20' });
  await add(app, { description: 'Phone', amount: '15', category: 'Other', date: '2024-01-22' });
  const saved = app.window.localStorage.getItem(KEY);
  app.close();
  assert.ok(saved && saved.includes('Gym') && saved.includes('Phone'), `both expenses should be saved in localStorage under "${KEY}"`);
  const again = await open({ storage: { [KEY]: saved } });
  assert.deepEqual(listed(again), ['Phone', 'Gym'], 'after a restart both saved expenses should be listed again, newest first');
  assert.equal(total(again), '4490', `after a restart the total should be 44.90; the page shows ${totalText(again)}`);
  again.close();
});

test('a deleted expense stays deleted after a restart', async () => {
  const app = await open();
  await add(app, { description: 'Keep me', amount: '1' });
  await add(app, { description: 'Remove me', amount: '2' });
  await remove(app, 'Remove me');
  const saved = app.window.localStorage.getItem(KEY);
  app.close();
  assert.ok(saved && !saved.includes('Remove me'), 'deleting should save the list without the deleted expense');
  const again = await open({ storage: { [KEY]: saved } });
  assert.deepEqual(listed(again), ['Keep me'], 'after a restart only the kept expense should be listed');
  again.close();
});

test('corrupt or ill-shaped stored data starts an empty, working list instead of crashing', async () => {
  for (const bad of ['{not json', 'null', '{"expenses":1}', '[1,"x",null,{"description":5}]']) {
    const app = await open({ storage: { [KEY]: bad } });
    assert.ok(pageText(app).includes('No expenses yet.'), `with ${JSON.stringify(bad)} stored the app should start with "No expenses yet."`);
    if (bad.startsWith('[')) {
      await add(app, { description: 'Fresh start', amount: '1' });
      assert.deepEqual(listed(app), ['Fresh start'], `with ${JSON.stringify(bad)} stored the app should still add expenses`);
    }
    app.close();
  }
});

// Self-contained (compiled in the page's realm by pageStub): localStorage.setItem fails as
// a full storage does.
function fullStorage(window) {
  window.Storage.prototype.setItem = function setItem() {
    throw new window.DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
}

test('a failing localStorage.setItem is ignored: the app keeps working', async () => {
  const app = await open({ setup(window) { pageStub(window, fullStorage); } });
  await add(app, { description: 'Offline', amount: '8' });
  await add(app, { description: 'Still works', amount: '9' });
  assert.deepEqual(listed(app).sort(), ['Offline', 'Still works'], 'expenses should still be added when saving fails');
  assert.equal(total(app), '1700', `the total should still be 17.00; the page shows ${totalText(app)}`);
  app.close();
});

// Self-contained (compiled in the page's realm by pageStub): localStorage.getItem counts the
// reads of `key` in the object returned.
function countedReads(window, key) {
  const counted = { reads: 0 };
  const real = window.Storage.prototype.getItem;
  window.Storage.prototype.getItem = function getItem(name) {
    if (name === key) counted.reads += 1;
    return real.call(this, name);
  };
  return counted;
}

test('storage is read once at start-up, not on every change', async () => {
  let counted = null;
  const app = await open({ setup(window) { counted = pageStub(window, countedReads, KEY); } });
  const atStart = counted.reads;
  await add(app, { description: 'Two', amount: '2', category: 'Other' });
  await app.user.selectOptions(field.show(app), 'Other');
  await remove(app, 'Two');
  assert.equal(counted.reads, atStart, 'adding, filtering and deleting must not read localStorage again');
  app.close();
});
