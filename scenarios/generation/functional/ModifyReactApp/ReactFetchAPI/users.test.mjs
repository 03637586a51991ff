import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MORE, NAMES, USERS, eventually, excerpt, held, isDisabled, open, pageText, reload, reloadButton, search, searchBox, shown,
} from './users.mjs';

const NO_MATCH = 'No users match your search.';

test('once loaded, shows "Showing 5 of 5 users" and every user', async () => {
  const app = await open(USERS);
  assert.ok(app.requests() >= 1, 'the users should be requested from the API at start');
  assert.ok(pageText(app).includes('Showing 5 of 5 users'), `expected "Showing 5 of 5 users"; the page says: ${excerpt(app)}`);
  assert.deepEqual(shown(app, USERS), NAMES, 'every loaded user should be shown');
  app.close();
});

test('a search box is shown above the list of users', async () => {
  const app = await open(USERS);
  const box = searchBox(app);
  const firstName = [...app.body.querySelectorAll('*')].find((e) => e.children.length === 0 && e.textContent.includes(NAMES[0]));
  assert.ok(firstName, 'the first user should be on the page');
  assert.ok(box.compareDocumentPosition(firstName) & 4, 'the search box should come before the list in the page');
  assert.equal(box.value, '', 'the search box should start empty');
  app.close();
});

test('search matches names case-insensitively and updates the count', async () => {
  const app = await open(USERS);
  await search(app, 'NOVAK');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Tomasz Novak'], 'searching "NOVAK" should show only Tomasz Novak'));
  assert.ok(pageText(app).includes('Showing 1 of 5 users'), `expected "Showing 1 of 5 users"; the page says: ${excerpt(app)}`);
  app.close();
});

test('search matches e-mail addresses', async () => {
  const app = await open(USERS);
  await search(app, 'Orchard.Example');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Marta Ruiz', 'Lena Fischer'], 'searching "Orchard.Example" should show the two users with an @orchard.example address'));
  assert.ok(pageText(app).includes('Showing 2 of 5 users'), `expected "Showing 2 of 5 users"; the page says: ${excerpt(app)}`);
  app.close();
});

test('the search text is trimmed before matching', async () => {
  const app = await open(USERS);
  await search(app, '  aiko ');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Aiko Tanaka'], 'searching "  aiko " should show Aiko Tanaka'));
  app.close();
});

test('search looks only at the name and e-mail, not company, city, phone or username', async () => {
  const app = await open(USERS);
  for (const text of ['Bluefin', 'Westmere', '555-0122', 'member202']) {
    await search(app, text);
    await eventually(app, () => assert.deepEqual(shown(app, USERS), [], `"${text}" is not in any name or e-mail, so no user should be shown`));
  }
  app.close();
});

test(`when no user matches, "${NO_MATCH}" is shown instead of the list`, async () => {
  const app = await open(USERS);
  await search(app, 'zebra');
  await eventually(app, () => assert.ok(pageText(app).includes(NO_MATCH), `expected "${NO_MATCH}"`));
  assert.deepEqual(shown(app, USERS), [], 'no user card should be shown');
  assert.ok(!pageText(app).includes('No users found.'), '"No users found." is for an empty response, not for a search without matches');
  app.close();
});

test('a blank or cleared search shows every user', async () => {
  const app = await open(USERS);
  await search(app, '   ');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), NAMES, 'a search of only spaces should show every user'));
  await search(app, 'novak');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Tomasz Novak'], 'searching "novak" should show one user'));
  await search(app, '');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), NAMES, 'an empty search should show every user'));
  assert.ok(pageText(app).includes('Showing 5 of 5 users'), 'the count should be back to "Showing 5 of 5 users"');
  app.close();
});

test('typing in the search sends no request', async () => {
  const app = await open(USERS);
  const before = app.requests();
  await search(app, 'lena');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Lena Fischer'], 'searching "lena" should show Lena Fischer'));
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(app.requests(), before, `typing must not send requests; ${app.requests() - before} were sent`);
  app.close();
});

test('Reload fetches the users again and shows the new list', async () => {
  const app = await open(USERS);
  const before = app.requests();
  app.answer(MORE.slice(4));
  await reload(app);
  await eventually(app, () => assert.deepEqual(shown(app), ['Lena Fischer', 'Priya Raman'], 'after Reload the list should be the one the API sent the second time'));
  assert.equal(app.requests(), before + 1, 'Reload should request the users once more');
  assert.ok(pageText(app).includes('Showing 2 of 2 users'), `expected "Showing 2 of 2 users" after the reload; the page says: ${excerpt(app)}`);
  app.close();
});

test('while a request runs, Reload is disabled and the loading message is shown', async () => {
  const first = held();
  const second = held();
  const app = await open(first);
  assert.ok(isDisabled(reloadButton(app)), 'Reload should be disabled during the first load');
  assert.ok(/Loading users/.test(pageText(app)), 'the loading message should be shown during the first load');
  first.release(USERS);
  await eventually(app, () => assert.ok(!isDisabled(reloadButton(app)), 'Reload should be enabled once the users are loaded'));
  app.answer(second);
  await reload(app);
  assert.ok(isDisabled(reloadButton(app)), 'Reload should be disabled while the reload runs');
  assert.ok(/Loading users/.test(pageText(app)), 'the loading message should be shown while the reload runs');
  second.release(USERS.slice(0, 2));
  await eventually(app, () => assert.ok(!isDisabled(reloadButton(app)) && pageText(app).includes('Showing 2 of 2 users'), 'after the reload Reload should be enabled and "Showing 2 of 2 users" shown'));
  assert.ok(!/Loading users/.test(pageText(app)), 'the loading message should be gone after the reload');
  app.close();
});

test('Reload after a failed request (HTTP 500) clears the error and shows the list', async () => {
  const app = await open({ status: 500, body: { error: 'down' } });
  assert.ok(/Could not load users/.test(pageText(app)), 'a 500 answer should show the error message "Could not load users: ..."');
  app.answer(USERS);
  await reload(app);
  await eventually(app, () => assert.deepEqual(shown(app, USERS), NAMES, 'after a successful reload every user should be shown'));
  assert.ok(!/Could not load users/.test(pageText(app)), 'the old error message should be gone after a successful reload');
  app.close();
});

test('after a network error, Reload is enabled and clears the error while the new request runs', async () => {
  const pending = held();
  const app = await open('network');
  assert.ok(/Could not load users/.test(pageText(app)), 'a network error should show the error message');
  assert.ok(!isDisabled(reloadButton(app)), 'Reload should be enabled after a failed request');
  app.answer(pending);
  await reload(app);
  assert.ok(!/Could not load users/.test(pageText(app)), 'the error should be cleared as soon as the reload starts');
  assert.ok(/Loading users/.test(pageText(app)), 'the loading message should be shown while the reload runs');
  pending.release(USERS);
  await eventually(app, () => assert.deepEqual(shown(app, USERS), NAMES, 'the reloaded users should be shown'));
  app.close();
});

test('the search text is kept across a reload and applies to the reloaded list', async () => {
  const app = await open(USERS);
  await search(app, 'orchard');
  await eventually(app, () => assert.deepEqual(shown(app), ['Marta Ruiz', 'Lena Fischer'], 'searching "orchard" should show two users'));
  app.answer(MORE);
  await reload(app);
  await eventually(app, () => assert.deepEqual(shown(app), ['Marta Ruiz', 'Lena Fischer', 'Priya Raman'], 'the search should apply to the reloaded list (three @orchard.example users)'));
  assert.equal(searchBox(app).value, 'orchard', 'the search text should be kept across the reload');
  assert.ok(pageText(app).includes('Showing 3 of 6 users'), `expected "Showing 3 of 6 users"; the page says: ${excerpt(app)}`);
  app.close();
});

test(`an empty response shows "No users found.", not "${NO_MATCH}", even with a search`, async () => {
  const app = await open([]);
  assert.ok(pageText(app).includes('No users found.'), 'an empty response should show "No users found."');
  await search(app, 'anyone');
  await eventually(app, () => assert.ok(pageText(app).includes('No users found.'), 'with an empty response "No users found." should stay while searching'));
  assert.ok(!pageText(app).includes(NO_MATCH), `"${NO_MATCH}" is only for loaded users that do not match`);
  app.close();
});

test('the rest of the page is kept: header, footer, and a matching user\'s card with its details', async () => {
  const app = await open(USERS);
  await search(app, 'tanaka');
  await eventually(app, () => assert.deepEqual(shown(app, USERS), ['Aiko Tanaka'], 'searching "tanaka" should show Aiko Tanaka'));
  const links = [...app.document.querySelectorAll('a')].map((a) => a.getAttribute('href') || '');
  assert.ok(links.includes('mailto:aiko.t@lantern.example'), 'the card should keep the mailto: link of the e-mail');
  assert.ok(links.some((h) => h.includes('openstreetmap.org') && h.includes('43.5')), 'the card should keep the "Show on map" link');
  assert.ok(links.includes('http://site3.example'), 'the card should keep the website link');
  const text = pageText(app);
  assert.ok(text.includes('555-0133') && text.includes('3 Quarry Lane'), 'the card should keep the phone and the address');
  assert.ok(app.queryByRole('heading', { level: 1, name: 'Users' }), 'the "Users" heading should be kept');
  assert.ok(text.includes('Everyone registered in the demo directory'), 'the subtitle under the heading should be kept');
  assert.ok(links.includes('https://jsonplaceholder.typicode.com'), 'the footer link crediting JSONPlaceholder should be kept');
  app.close();
});
