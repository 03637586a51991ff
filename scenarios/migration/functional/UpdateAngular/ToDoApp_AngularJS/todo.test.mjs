// Hidden acceptance tests of the AngularJS -> Angular to-do list: the answer's
// src/index.html and src/main.ts, compiled just in time in jsdom, driven as a user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  add, byClass, clean, counter, expectTitles, item, items, newTodo, openTodos, startEditing, stored, titles,
} from './ng-todo-page.mjs';

const KEY = 'todos-angularjs';
const open = (options = {}) => openTodos({ key: KEY, ...options });
const T0 = 1700000000000;
const saved = () => [
  { id: T0, title: 'Buy milk', completed: false, createdAt: T0 },
  { id: T0 + 1, title: 'Call mum', completed: true, createdAt: T0 + 3600000 },
  { id: T0 + 2, title: 'Water plants', completed: false, createdAt: T0 + 7200000 },
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** The original's date:'d MMM, HH:mm' in local time. */
function created(ms) {
  const d = new Date(ms);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getDate()} ${MONTHS[d.getMonth()]}, ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

test('without a stored list the app starts empty, with no counter', async () => {
  const app = await open();
  assert.ok(newTodo(app), 'the new-todo field is shown');
  assert.deepEqual(titles(app), [], 'no to-do is listed');
  assert.equal(counter(app), '', 'the counter is hidden while the list is empty');
  assert.ok(app.errors.length === 0, `the app should start without errors: ${app.errors[0] || ''}`);
  app.close();
});

test('a list saved by the AngularJS version loads unchanged, with completed state and creation dates', async () => {
  const app = await open({ todos: saved() });
  await expectTitles(app, ['Buy milk', 'Call mum', 'Water plants'], 'the stored to-dos are listed in order');
  assert.ok(item(app, 'Call mum').classList.contains('completed'), 'a completed to-do has the class completed');
  assert.ok(!item(app, 'Buy milk').classList.contains('completed'), 'an active to-do has no class completed');
  assert.ok(item(app, 'Call mum').querySelector('.toggle').checked, 'a completed to-do has its checkbox checked');
  const date = clean(item(app, 'Buy milk').querySelector('.created')?.textContent);
  assert.equal(date, created(T0), "the creation date is shown as date:'d MMM, HH:mm' (.created)");
  assert.equal(counter(app), '2 items left');
  app.close();
});

test('Enter adds the trimmed title at the end, stored as { id, title, completed, createdAt }', async () => {
  const app = await open({ todos: saved() });
  await add(app, '   Read a book   ');
  await expectTitles(app, ['Buy milk', 'Call mum', 'Water plants', 'Read a book'], 'the new to-do goes to the end, trimmed');
  assert.equal(newTodo(app).value, '', 'the field empties after adding');
  const list = stored(app);
  assert.deepEqual(list.slice(0, 3), saved(), 'the stored to-dos are kept as they were');
  const added = list[3];
  assert.deepEqual(Object.keys(added).sort(), ['completed', 'createdAt', 'id', 'title'], 'a stored to-do has exactly id, title, completed, createdAt');
  assert.equal(added.title, 'Read a book');
  assert.equal(added.completed, false);
  assert.ok(Math.abs(added.createdAt - Date.now()) < 60000, 'createdAt is the creation time in milliseconds');
  assert.equal(typeof added.id, 'number', 'the id is a number (the creation time)');
  assert.equal(counter(app), '3 items left');
  app.close();
});

test('a blank title is ignored and a title stops at 200 characters', async () => {
  const app = await open();
  await add(app, '    ');
  assert.deepEqual(titles(app), [], 'a blank title adds nothing');
  await app.user.clear(newTodo(app));
  await app.user.paste('x'.repeat(230));
  await app.user.type(newTodo(app), '{Enter}');
  await app.waitFor(() => assert.equal(stored(app)?.length, 1, 'the long title is added'));
  assert.equal(stored(app)[0].title.length, 200, 'the title is cut at 200 characters');
  app.close();
});

test('the checkbox of a to-do toggles it, updates the counter and is stored', async () => {
  const app = await open({ todos: saved() });
  await app.user.click(item(app, 'Buy milk').querySelector('.toggle'));
  await app.waitFor(() => assert.ok(item(app, 'Buy milk').classList.contains('completed'), 'the toggled to-do gets the class completed'));
  assert.equal(counter(app), '1 item left', 'the counter says "1 item left"');
  assert.equal(stored(app)[0].completed, true, 'the new state is stored');
  await app.user.click(item(app, 'Call mum').querySelector('.toggle'));
  await app.waitFor(() => assert.equal(counter(app), '2 items left'));
  assert.equal(stored(app)[1].completed, false);
  app.close();
});

test('toggle all completes every to-do, then makes them all active again', async () => {
  const app = await open({ todos: saved() });
  const toggleAll = byClass(app.document, 'toggle-all', 'the toggle-all checkbox');
  await app.user.click(toggleAll);
  await app.waitFor(() => assert.deepEqual(stored(app).map((t) => t.completed), [true, true, true], 'toggle all completes every to-do'));
  assert.equal(counter(app), '0 items left');
  assert.ok(items(app).every((li) => li.classList.contains('completed')));
  await app.user.click(byClass(app.document, 'toggle-all', 'the toggle-all checkbox'));
  await app.waitFor(() => assert.deepEqual(stored(app).map((t) => t.completed), [false, false, false], 'a second click makes them all active'));
  assert.equal(counter(app), '3 items left');
  app.close();
});

test('double-click edits with the field focused; Enter saves the trimmed title', async () => {
  const app = await open({ todos: saved() });
  const field = await startEditing(app, 'Buy milk');
  assert.equal(field.value, 'Buy milk', 'the edit field holds the title');
  assert.ok(item(app, 'Buy milk').classList.contains('editing'), 'the edited to-do has the class editing');
  await app.user.clear(field);
  await app.user.type(field, '  Buy oat milk  {Enter}');
  await expectTitles(app, ['Buy oat milk', 'Call mum', 'Water plants'], 'Enter saves the trimmed title');
  assert.equal(stored(app)[0].title, 'Buy oat milk', 'the new title is stored');
  assert.ok(!item(app, 'Buy oat milk').classList.contains('editing'), 'editing ends after Enter');
  app.close();
});

test('leaving the edit field saves; Escape cancels the edit', async () => {
  const app = await open({ todos: saved() });
  let field = await startEditing(app, 'Water plants');
  await app.user.type(field, ' today');
  await app.user.click(newTodo(app));
  await expectTitles(app, ['Buy milk', 'Call mum', 'Water plants today'], 'leaving the edit field saves the title');
  assert.equal(stored(app)[2].title, 'Water plants today');
  field = await startEditing(app, 'Buy milk');
  await app.user.type(field, ' and bread{Escape}');
  await app.waitFor(() => assert.ok(!item(app, 'Buy milk').classList.contains('editing'), 'Escape ends editing'));
  await app.settle();
  assert.deepEqual(titles(app), ['Buy milk', 'Call mum', 'Water plants today'], 'Escape keeps the old title');
  assert.equal(stored(app)[0].title, 'Buy milk', 'Escape stores nothing');
  app.close();
});

test('an emptied title deletes the to-do', async () => {
  const app = await open({ todos: saved() });
  const field = await startEditing(app, 'Call mum');
  await app.user.clear(field);
  await app.user.type(field, '{Enter}');
  await expectTitles(app, ['Buy milk', 'Water plants'], 'saving an empty title deletes the to-do');
  assert.deepEqual(stored(app).map((t) => t.title), ['Buy milk', 'Water plants'], 'the deletion is stored');
  app.close();
});

test('the delete button removes a to-do; "Clear completed (n)" removes the completed ones', async () => {
  const app = await open({ todos: saved() });
  await app.user.click(item(app, 'Water plants').querySelector('.destroy'));
  await expectTitles(app, ['Buy milk', 'Call mum'], 'the delete button (.destroy) removes its to-do');
  await app.user.click(item(app, 'Buy milk').querySelector('.toggle'));
  const clear = await app.waitFor(() => {
    const button = byClass(app.document, 'clear-completed', 'a Clear completed button');
    assert.equal(clean(button.textContent), 'Clear completed (2)', 'the button shows the number of completed to-dos');
    return button;
  });
  await app.user.click(clear);
  await app.waitFor(() => assert.deepEqual(stored(app), [], 'Clear completed removes every completed to-do'));
  assert.deepEqual(titles(app), []);
  app.close();
});

test('#/active and #/completed filter the list, an unknown status shows all, the links mark the filter', async () => {
  const active = await open({ hash: '#/active', todos: saved() });
  await expectTitles(active, ['Buy milk', 'Water plants'], '#/active shows the active to-dos');
  const selected = () => clean(active.document.querySelector('.filters a.selected')?.textContent);
  assert.equal(selected(), 'Active', 'the Active link has the class selected');
  const completedLink = [...active.document.querySelectorAll('.filters a')].find((a) => clean(a.textContent) === 'Completed');
  assert.ok(completedLink, 'the filters have a Completed link');
  await active.user.click(completedLink);
  await expectTitles(active, ['Call mum'], 'the Completed link shows the completed to-dos');
  assert.equal(active.window.location.hash, '#/completed', 'the Completed link goes to #/completed');
  await active.waitFor(() => assert.equal(selected(), 'Completed'));
  active.close();
  const other = await open({ hash: '#/whatever', todos: saved() });
  await expectTitles(other, ['Buy milk', 'Call mum', 'Water plants'], 'an unknown status shows every to-do');
  other.close();
});
