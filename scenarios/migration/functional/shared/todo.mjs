// Hidden acceptance tests shared by the to-do migrations (React 16 -> 18, jQuery -> React,
// AngularJS -> React): the behaviour the three original apps have in common, checked as a
// user sees it (todo-page.mjs), plus the storage key and format and the URL hashes of each
// original, and what the move to React 18 requires (createRoot, StrictMode, function
// components, listeners removed on unmount). Copied beside the tests with `support:`
// (with todo-page.mjs and react18.mjs); a scenario's test file calls todoSuite(config).
//
// config:
//   entry        the entry module the prompt names (used when index.html names none)
//   storageKey   the localStorage key of the original
//   shape        the keys of a stored to-do, e.g. ['id', 'title', 'completed']
//   saved        a list as the original app stored it (at least one active, one completed)
//   hash         {all, active, completed}: the URL hash of each filter
//   newItem(todo) optional: more checks of a newly stored to-do
//   extras       optional tests: {functionComponents, newFieldKeys: {maxLength}, clearFocusesNew,
//                corruptStorage, markupAsText, createdDate: (createdAt) => text}
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classComponents, listenerLog, rendersInStrictMode } from './react18.mjs';
import {
  activeTitles, completedTitles, itemsLeft, open, savedStorage, savedTitles, shown,
} from './todo-page.mjs';

async function mountsInStrictMode(config) {
  const { app } = await open(config);
  assert.ok(rendersInStrictMode(app.document), 'the app should be rendered inside <React.StrictMode>');
}

async function functionComponentsOnly(config) {
  const page = await open(config, { storage: savedStorage(config) });
  await page.edit(config.saved[0].title);
  const classes = classComponents(page.app.document);
  assert.deepEqual(classes, [], `every component should be a function component; class components rendered: ${classes.join(', ')}`);
}

async function startsEmpty(config) {
  const page = await open(config);
  assert.ok(page.app.queryByRole('heading', { name: 'todos' }), 'expected the heading "todos"');
  page.field();
  assert.deepEqual(page.titles(), [], 'no to-do should be listed');
  assert.ok(!shown(page.toggleAll()), 'the "Mark all as complete" checkbox should not be shown without to-dos');
  assert.equal(page.counter(), null, 'the "items left" counter should not be shown without to-dos');
  assert.equal(page.app.queryByRole('link', { name: 'Active' }), null, 'the filter links should not be shown without to-dos');
}

async function addsTrimmedTitles(config) {
  const page = await open(config);
  await page.add('  Buy milk  ', 'Walk the dog');
  assert.deepEqual(page.titles(), ['Buy milk', 'Walk the dog'], 'the new to-dos should be listed in order, trimmed');
  assert.equal(page.field().value, '', 'the field should be cleared after adding');
  await page.add('   ');
  assert.deepEqual(page.titles(), ['Buy milk', 'Walk the dog'], 'a blank title should not be added');
  assert.equal(page.counterText(), itemsLeft(2), 'the counter should count both new to-dos');
}

async function newFieldKeys(config) {
  const { maxLength } = config.extras.newFieldKeys;
  const page = await open(config);
  await page.app.user.type(page.field(), 'Draft');
  await page.app.user.keyboard('{Escape}');
  assert.equal(page.field().value, '', 'Escape should clear the new-todo field');
  assert.deepEqual(page.titles(), [], 'Escape should not add anything');
  page.field().focus();
  await page.app.user.paste('x'.repeat(maxLength + 15));
  await page.app.user.keyboard('{Enter}');
  assert.deepEqual(page.titles(), ['x'.repeat(maxLength)], `a long title should be cut to ${maxLength} characters`);
}

async function togglesOne(config) {
  const page = await open(config);
  await page.add('Buy milk', 'Walk the dog');
  assert.equal(page.counterText(), itemsLeft(2));
  await page.app.user.click(page.checkbox('Buy milk'));
  assert.equal(page.checkbox('Buy milk').checked, true, 'the toggled checkbox should be checked');
  assert.ok(page.row('Buy milk').classList.contains('completed'), 'the toggled row should get the class "completed"');
  assert.equal(page.counterText(), itemsLeft(1), 'the counter should say "1 item left"');
  await page.app.user.click(page.checkbox('Walk the dog'));
  assert.equal(page.counterText(), itemsLeft(0), 'the counter should say "0 items left"');
  await page.app.user.click(page.checkbox('Buy milk'));
  assert.equal(page.checkbox('Buy milk').checked, false, 'toggling again should reopen the to-do');
  assert.ok(!page.row('Buy milk').classList.contains('completed'), 'a reopened row should lose the class "completed"');
  assert.equal(page.counterText(), itemsLeft(1));
}

async function togglesAll(config) {
  const page = await open(config, { storage: savedStorage(config) });
  const all = page.toggleAll();
  assert.ok(all && shown(all), 'expected the "Mark all as complete" checkbox');
  assert.equal(all.checked, false, 'toggle-all should be unchecked while to-dos are left');
  await page.app.user.click(all);
  for (const title of savedTitles(config)) assert.equal(page.checkbox(title).checked, true, `"${title}" should be completed by toggle-all`);
  assert.equal(page.toggleAll().checked, true, 'toggle-all should be checked when nothing is left');
  assert.equal(page.counterText(), itemsLeft(0));
  await page.app.user.click(page.toggleAll());
  for (const title of savedTitles(config)) assert.equal(page.checkbox(title).checked, false, `"${title}" should be reopened by unchecking toggle-all`);
  assert.equal(page.counterText(), itemsLeft(config.saved.length));
  await page.app.user.click(page.checkbox(savedTitles(config)[0]));
  for (const title of savedTitles(config).slice(1)) await page.app.user.click(page.checkbox(title));
  assert.equal(page.toggleAll().checked, true, 'toggle-all should be checked once every to-do is completed one by one');
}

async function editsWithEnter(config) {
  const page = await open(config);
  await page.add('Buy milk');
  const field = await page.edit('Buy milk');
  assert.ok(page.row('Buy milk').classList.contains('editing'), 'the edited row should get the class "editing"');
  assert.equal(field.value, 'Buy milk', 'the edit field should hold the title');
  await page.app.user.keyboard(' today  {Enter}');
  await page.app.settle();
  assert.deepEqual(page.titles(), ['Buy milk today'], 'Enter should save the edited, trimmed title');
  assert.ok(!page.row('Buy milk today').classList.contains('editing'), 'Enter should leave edit mode');
  assert.equal(page.stored()[0].title, 'Buy milk today', 'the new title should be saved');
}

async function savesOnLeaving(config) {
  const page = await open(config);
  await page.add('Buy milk', 'Walk the dog');
  const field = await page.edit('Buy milk');
  await page.app.user.clear(field);
  await page.app.user.keyboard('  Buy oat milk  ');
  await page.leaveField();
  assert.deepEqual(page.titles(), ['Buy oat milk', 'Walk the dog'], 'leaving the field should save the trimmed title');
  assert.ok(!page.row('Buy oat milk').classList.contains('editing'), 'leaving the field should end edit mode');
  assert.equal(page.stored()[0].title, 'Buy oat milk', 'the new title should be saved');
}

async function escapeCancels(config) {
  const page = await open(config);
  await page.add('Buy milk');
  const field = await page.edit('Buy milk');
  await page.app.user.clear(field);
  await page.app.user.keyboard('Something else{Escape}');
  await page.app.settle();
  assert.deepEqual(page.titles(), ['Buy milk'], 'Escape should keep the old title');
  assert.ok(!page.row('Buy milk').classList.contains('editing'), 'Escape should leave edit mode');
  await page.leaveField();
  assert.deepEqual(page.titles(), ['Buy milk'], 'leaving the field after Escape should not save the discarded text');
  assert.equal(page.stored()[0].title, 'Buy milk', 'the stored title should be unchanged');
}

async function emptyTitleDeletes(config) {
  const page = await open(config);
  await page.add('Buy milk', 'Walk the dog');
  const field = await page.edit('Buy milk');
  await page.app.user.clear(field);
  await page.app.user.keyboard('   {Enter}');
  await page.app.settle();
  assert.deepEqual(page.titles(), ['Walk the dog'], 'an emptied title should delete the to-do');
  assert.deepEqual(page.stored().map((todo) => todo.title), ['Walk the dog'], 'the deletion should be saved');
}

async function deleteButton(config) {
  const page = await open(config);
  await page.add('Buy milk', 'Walk the dog');
  await page.app.user.click(page.destroyButton('Buy milk'));
  assert.deepEqual(page.titles(), ['Walk the dog'], 'the delete button should remove its to-do');
  await page.app.user.click(page.destroyButton('Walk the dog'));
  assert.deepEqual(page.titles(), [], 'the last to-do should be removed');
  assert.equal(page.counter(), null, 'the footer should disappear with the last to-do');
  assert.ok(!shown(page.toggleAll()), 'the toggle-all checkbox should disappear with the last to-do');
  assert.deepEqual(page.stored(), [], 'the empty list should be saved');
}

async function clearCompleted(config) {
  const page = await open(config);
  await page.add('Buy milk', 'Walk the dog', 'Pay the rent');
  assert.equal(page.clearButton(), null, '"Clear completed" should not be shown while nothing is completed');
  await page.app.user.click(page.checkbox('Buy milk'));
  await page.app.user.click(page.checkbox('Pay the rent'));
  const button = page.clearButton();
  assert.ok(button, 'expected a "Clear completed (2)" button');
  assert.equal(button.textContent.replace(/\s+/g, ' ').trim(), 'Clear completed (2)');
  await page.app.user.click(button);
  assert.deepEqual(page.titles(), ['Walk the dog'], 'the completed to-dos should be removed');
  assert.equal(page.clearButton(), null, '"Clear completed" should disappear when nothing is completed');
  assert.deepEqual(page.stored().map((todo) => todo.title), ['Walk the dog'], 'the cleared list should be saved');
  if (config.extras?.clearFocusesNew) {
    assert.equal(page.app.document.activeElement, page.field(), 'after clearing, the focus should move to the new-todo field');
  }
}

async function hashFilters(config) {
  const page = await open(config, { storage: savedStorage(config), url: `http://localhost/${config.hash.active}` });
  assert.deepEqual(page.titles(), activeTitles(config), `opened at ${config.hash.active}, only the active to-dos should be listed`);
  await page.setHash(config.hash.completed);
  await page.app.waitFor(() => assert.deepEqual(page.titles(), completedTitles(config), `at ${config.hash.completed}, only the completed to-dos should be listed`));
  await page.setHash('#/unknown');
  await page.app.waitFor(() => assert.deepEqual(page.titles(), savedTitles(config), 'an unknown hash should list every to-do'));
}

async function filterLinks(config) {
  const page = await open(config, { storage: savedStorage(config) });
  assert.ok(page.link('All').classList.contains('selected'), '"All" should be selected on start');
  for (const [name, filter, expected] of [['Completed', 'completed', completedTitles(config)], ['Active', 'active', activeTitles(config)], ['All', 'all', savedTitles(config)]]) {
    await page.app.user.click(page.link(name));
    await page.app.waitFor(() => assert.deepEqual(page.titles(), expected, `after clicking "${name}" the list should show ${JSON.stringify(expected)}`));
    assert.equal(page.app.window.location.hash, config.hash[filter], `the "${name}" link should lead to ${config.hash[filter]}`);
    for (const other of ['All', 'Active', 'Completed']) {
      assert.equal(page.link(other).classList.contains('selected'), other === name, `only "${name}" should have the class "selected"`);
    }
  }
}

async function loadsSaved(config) {
  const page = await open(config, { storage: savedStorage(config) });
  assert.deepEqual(page.titles(), savedTitles(config), 'the saved to-dos should be listed in order');
  for (const todo of config.saved) {
    assert.equal(page.checkbox(todo.title).checked, todo.completed, `"${todo.title}" should be ${todo.completed ? 'completed' : 'active'}`);
    assert.equal(page.row(todo.title).classList.contains('completed'), todo.completed, `the row of "${todo.title}" should ${todo.completed ? '' : 'not '}have the class "completed"`);
  }
  assert.equal(page.counterText(), itemsLeft(activeTitles(config).length));
  await page.app.user.click(page.checkbox(activeTitles(config)[0]));
  const stored = page.stored();
  assert.deepEqual(stored.map((todo) => todo.id), config.saved.map((todo) => todo.id), 'the saved ids should be kept');
}

async function savesAfterChanges(config) {
  const page = await open(config, { storage: savedStorage(config) });
  await page.add('Buy milk');
  let stored = page.stored();
  assert.equal(stored.length, config.saved.length + 1, 'the added to-do should be saved');
  const added = stored[stored.length - 1];
  assert.deepEqual(Object.keys(added).sort(), [...config.shape].sort(), `a saved to-do should have exactly the keys ${config.shape.join(', ')}`);
  assert.equal(added.title, 'Buy milk');
  assert.equal(added.completed, false);
  assert.ok((typeof added.id === 'string' && added.id) || Number.isFinite(added.id), 'a new to-do needs an id (a string or a number)');
  assert.ok(!config.saved.some((todo) => todo.id === added.id), 'the new id should differ from the saved ones');
  if (config.newItem) config.newItem(added);
  for (const todo of stored.slice(0, -1)) assert.deepEqual(todo, config.saved[stored.indexOf(todo)], 'the loaded to-dos should be saved back unchanged');
  await page.app.user.click(page.checkbox('Buy milk'));
  stored = page.stored();
  assert.equal(stored[stored.length - 1].completed, true, 'toggling should be saved');
  assert.equal(typeof stored[stored.length - 1].completed, 'boolean', '"completed" should stay a boolean');
}

async function removesHashListener(config) {
  const listeners = listenerLog(['hashchange', 'popstate']);
  const page = await open(config, { storage: savedStorage(config), setup: (window) => listeners.install(window) });
  await page.setHash(config.hash.active);
  await page.app.waitFor(() => assert.deepEqual(page.titles(), activeTitles(config), 'the filter should follow the hash'));
  await page.app.unmount();
  const left = listeners.live('hashchange') + listeners.live('popstate');
  assert.equal(left, 0, `after unmounting, ${left} hashchange listener(s) are still registered on window`);
}

async function markupAsText(config) {
  const page = await open(config);
  const title = '<b>bold</b> & <img src=x onerror="window.__hacked=1">';
  page.field().focus();
  await page.app.user.paste(title);
  await page.app.user.keyboard('{Enter}');
  assert.deepEqual(page.titles(), [title], 'the title should be shown literally');
  assert.equal(page.row(title).querySelector('b, img'), null, 'the markup in a title must not become elements');
  assert.equal(page.app.window.__hacked, undefined, 'markup in a title must not run');
}

async function corruptStorage(config) {
  let page;
  try {
    page = await open(config, { storage: { [config.storageKey]: '{not json' } });
  } catch (error) {
    if (/^(no entry module|the app does not build)/.test(error.message)) throw error;
    assert.fail(`with a corrupt value under "${config.storageKey}" the app should start with an empty list; it failed to start: ${error.message}`);
  }
  assert.deepEqual(page.titles(), [], 'a corrupt stored value should give an empty list');
  await page.add('Buy milk');
  assert.deepEqual(page.titles(), ['Buy milk'], 'the app should still work');
  assert.equal(page.stored()[0].title, 'Buy milk', 'the new list should replace the corrupt value');
}

async function createdDate(config) {
  const page = await open(config, { storage: savedStorage(config) });
  for (const todo of config.saved) {
    const expected = config.extras.createdDate(todo.createdAt);
    assert.ok(page.row(todo.title).textContent.includes(expected), `the row of "${todo.title}" should show its creation date "${expected}"; it shows "${page.row(todo.title).textContent.trim()}"`);
  }
}

async function noErrors(config) {
  const page = await open(config, { storage: savedStorage(config) });
  await page.add('Buy milk', 'Walk the dog');
  const field = await page.edit('Buy milk');
  await page.app.user.type(field, '!{Enter}');
  await page.app.user.click(page.checkbox('Walk the dog'));
  await page.app.user.click(page.link('Active'));
  await page.app.user.click(page.link('All'));
  await page.app.user.click(page.toggleAll());
  await page.app.user.click(page.clearButton());
  await page.app.settle();
  assert.deepEqual(page.titles(), [], 'clearing after toggle-all should empty the list');
  assert.deepEqual(page.app.errors.slice(0, 3), [], 'the console should show no errors or React warnings');
}

/** Register the suite's tests (names are what the model and the reports see). */
export function todoSuite(config) {
  const extras = config.extras || {};
  const key = config.storageKey;
  const tests = [
    ['mounts with React 18 createRoot inside StrictMode', mountsInStrictMode],
    extras.functionComponents && ['renders function components only (no class components)', functionComponentsOnly],
    ['without a stored list it starts empty: header and new-todo field, no list or footer', startsEmpty],
    ['Enter adds the trimmed title at the end, clears the field and ignores blank input', addsTrimmedTitles],
    extras.newFieldKeys && [`Escape clears the new-todo field and titles are cut to ${extras.newFieldKeys.maxLength} characters`, newFieldKeys],
    ['toggling a to-do marks it completed and updates the "items left" counter', togglesOne],
    ['toggle-all completes every to-do, is checked when none is left, and unchecking reopens all', togglesAll],
    ['double-click edits with the field focused; typing appends and Enter saves', editsWithEnter],
    ['leaving the edit field saves the trimmed title', savesOnLeaving],
    ['Escape cancels the edit and keeps the old title', escapeCancels],
    ['emptying the title while editing deletes the to-do', emptyTitleDeletes],
    ['the delete button removes its to-do; the list and footer go with the last one', deleteButton],
    ['"Clear completed (N)" appears only with completed to-dos and removes them', clearCompleted],
    ['the URL hash selects the filter on start and on change; an unknown hash shows all', hashFilters],
    ['the filter links set their URL hash, filter the list and mark the current link "selected"', filterLinks],
    [`loads a list saved by the original app under localStorage "${key}"`, loadsSaved],
    [`saves the list after every change under "${key}" in the original JSON shape`, savesAfterChanges],
    ['unmounting the app removes its hashchange listener', removesHashListener],
    extras.markupAsText && ['a title with HTML markup is shown as plain text', markupAsText],
    extras.corruptStorage && ['a corrupt stored value starts with an empty list instead of breaking the app', corruptStorage],
    extras.createdDate && ['each to-do shows its creation date as "d MMM, HH:mm"', createdDate],
    ['works through add, edit, toggle, filter and delete without errors or React warnings', noErrors],
  ];
  for (const [name, run] of tests.filter(Boolean)) test(name, () => run(config));
}
