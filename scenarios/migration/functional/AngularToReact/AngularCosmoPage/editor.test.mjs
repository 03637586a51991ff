// Hidden acceptance tests of the AngularJS -> React CMS page editor. They open the
// answer's index.html + src/main.tsx in jsdom at a hash URL, answer its REST calls with
// a fake back end and check what a user sees, what is sent and what is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, pageStub } from './harness.mjs';

const DAY = 86400;
const NOW = Math.round(Date.now() / 1000);
const USER = { id: 7, name: 'Alice Martin', role: 'editor' };
const NEW_ID = 42;

function serverPages() {
  return [
    { id: 1, title: 'About us', url: 'about', description: 'Who we are', type: 'basic', body: '<p>Hello</p>',
      tags: ['company'], published: 'Y', published_date: NOW - 30 * DAY, featured_image: '/files/team.jpg',
      featured_alt: 'Our team', author_id: 3, modified: NOW - 2 * DAY },
    { id: 2, title: 'Spring sale', url: 'spring-sale', description: '', type: 'landing', body: '',
      tags: ['sale', 'news'], published: 'Y', published_date: NOW + 10 * DAY, author_id: 3, modified: NOW - 3600 },
    { id: 3, title: 'Contact', url: 'contact', description: '', type: 'basic', body: '', tags: [],
      published: 'N', published_date: null, author_id: 3, modified: NOW - 5 * DAY },
  ];
}

const IMAGES = [
  { id: 1, url: '/files/beach.jpg', title: 'Beach' },
  { id: 2, url: '/files/city.jpg', title: 'City at night' },
];

/** The fake back end: every endpoint of the REST service, with `extra` routes on top. */
function backEnd(extra = {}) {
  const routes = { 'GET /api/pages': serverPages() };
  let created = null;
  routes['POST /api/pages'] = (request) => {
    created = { ...request.body, id: NEW_ID, modified: NOW };
    return created;
  };
  routes[`GET /api/pages/${NEW_ID}`] = () => created || { status: 404, body: {} };
  for (const page of [...serverPages(), { id: NEW_ID }]) {
    const base = `/api/pages/${page.id}`;
    if (page.title) routes[`GET ${base}`] = page;
    routes[`PUT ${base}`] = (request) => ({ ...page, ...request.body, id: page.id, modified: NOW });
    routes[`DELETE ${base}`] = {};
    routes[`GET ${base}/revisions`] = [];
    routes[`POST ${base}/revisions`] = (request) => ({ ...request.body, id: 900, created: NOW });
    routes[`DELETE ${base}/tags`] = {};
    routes[`POST ${base}/tags`] = (request) => request.body;
  }
  routes['GET /api/tags'] = [];
  routes['GET /api/files'] = IMAGES;
  return { ...routes, ...extra };
}

// user-event sends KeyboardEvents without the legacy keyCode/which a browser sets; an
// answer may read either, so the page gets them as a browser would give them.
const KEY_CODES = { Enter: 13, ',': 188, Backspace: 8, Tab: 9, Escape: 27, ' ': 32 };
function legacyKeyCodes(window) {
  for (const type of ['keydown', 'keyup']) {
    window.addEventListener(type, (event) => {
      if (event.keyCode) return;
      const key = event.key || '';
      const code = KEY_CODES[key] ?? (key.length === 1 ? key.toUpperCase().charCodeAt(0) : 0);
      Object.defineProperty(event, 'keyCode', { value: code });
      Object.defineProperty(event, 'which', { value: code });
    }, true);
  }
}

// Self-contained (compiled in the page's realm by pageStub): window.confirm and
// window.prompt answer with `answers.confirm` and `answers.prompt` (the test may change
// them between dialogs) and note each dialog in `dialogs`, written with defineProperty as
// it was before the app ran.
function dialogStub(window, confirm, prompt) {
  const define = window.Object.defineProperty;
  const dialogs = [];
  const answers = { confirm, prompt };
  const note = (dialog) => define(dialogs, dialogs.length, { value: dialog, enumerable: true });
  window.confirm = (message) => {
    note({ kind: 'confirm', message: String(message) });
    return answers.confirm;
  };
  window.prompt = (message, value) => {
    note({ kind: 'prompt', message: String(message), value });
    return answers.prompt;
  };
  return { dialogs, answers };
}

/** Open the app at `hash`, signed in (cms.token, cms.user), with window.confirm answering
 * `confirm` and window.prompt `prompt` (change them in `app.answers`); `app.dialogs` lists
 * the dialogs shown. */
async function open(hash, { routes = {}, storage = {}, confirm = true, prompt = null } = {}) {
  let stub = null;
  const app = await openApp({
    url: `http://localhost/${hash}`,
    storage: { 'cms.token': 'tok-123', 'cms.user': JSON.stringify(USER), ...storage },
    routes: backEnd(routes),
    setup(window) {
      legacyKeyCodes(window);
      stub = pageStub(window, dialogStub, confirm, prompt);
    },
  });
  app.answers = stub.answers;
  Object.defineProperty(app, 'dialogs', { get: () => [...stub.dialogs] });
  // a failed wait reports the assertion's own words, without a dump of the page
  const waitFor = app.waitFor;
  app.waitFor = (callback, options = {}) => waitFor(callback, { timeout: 4000, onTimeout: (error) => error, ...options });
  return app;
}

const text = (app) => app.document.body.textContent.replace(/\s+/g, ' ');

/** Wait until the page shows `wanted` somewhere. */
async function see(app, wanted, what = wanted) {
  await app.waitFor(() => assert.ok(text(app).includes(wanted), `the page should show "${what}"`));
}

const CONTROLS = 'button, a, [role="button"], [role="link"], input[type="submit"], input[type="button"]';
const clean = (value) => (value || '').replace(/\s+/g, ' ').trim();

/** The buttons and links in `scope` named `name`: by text, aria-label or value (fast), else
 * by Testing Library's accessible name. */
function controls(app, name, scope = app.document.body) {
  const quick = [...scope.querySelectorAll(CONTROLS)].filter((el) => !el.closest('[hidden]')
    && (clean(el.getAttribute('aria-label')) === name || (!el.hasAttribute('aria-label') && clean(el.textContent || el.value) === name)));
  if (quick.length) return quick;
  const q = app.within(scope);
  const named = [...q.queryAllByRole('button', { name }), ...q.queryAllByRole('link', { name })];
  if (named.length) return named;
  // a clickable element without a role (a <th> with a click handler): the innermost element with that text
  return [...scope.querySelectorAll('*')].filter((el) => clean(el.textContent) === name
    && ![...el.children].some((child) => clean(child.textContent) === name));
}

/** The button or link named `name` (exact), in the page or inside `scope`. */
function control(app, name, scope = undefined) {
  const found = controls(app, name, scope);
  assert.ok(found.length > 0, `no button or link named "${name}"`);
  return found[0];
}

/** The smallest element around the text `label` holding exactly one control named `name`
 * (a table row, a list item), and that control. */
function around(app, label, name) {
  let node = app.getAllByText(label)[0];
  while (node && node !== app.document.body) {
    const found = controls(app, name, node);
    if (found.length === 1) return { node, control: found[0] };
    if (found.length > 1) break;
    node = node.parentElement;
  }
  assert.fail(`no "${name}" control next to "${label}"`);
}
const controlNear = (app, label, name) => around(app, label, name).control;

/** The radio button labelled `name`. */
function radio(app, name) {
  const found = app.queryAllByLabelText(name).filter((el) => el.type === 'radio');
  return found[0] || app.getByRole('radio', { name });
}

/** Wait for a heading that contains `wanted`. */
async function heading(app, wanted) {
  await app.waitFor(() => assert.ok([...app.document.querySelectorAll('h1, h2, h3, h4, h5, h6, [role="heading"]')]
    .some((h) => h.textContent.includes(wanted)), `a heading should read "${wanted}"`));
}

// The editor's fields: label, placeholder and id of the original template.
const FIELDS = {
  Title: ['Page title', '#title'], URL: [null, '#url'], Description: [null, '#description'], 'Page type': [null, '#type'],
};

/** A form field of the editor by its label, else its placeholder or its id in the original. */
function field(app, label) {
  const byLabel = app.queryAllByLabelText(label).filter((el) => el.matches('input, textarea, select'));
  if (byLabel.length) return byLabel[0];
  const [placeholder, selector] = FIELDS[label] || [];
  const byPlaceholder = placeholder ? app.queryAllByPlaceholderText(placeholder) : [];
  if (byPlaceholder.length) return byPlaceholder[0];
  const byId = selector ? app.document.querySelector(selector) : null;
  if (byId) return byId;
  assert.fail(`no field labelled "${label}"`);
}

const sent = (app, method, path) => app.calls.filter((c) => c.method === method && c.path === path);

async function editorLoaded(app, title) {
  await app.waitFor(() => assert.equal(field(app, 'Title').value, title, `the editor should show the page "${title}"`));
}

async function saveAndWait(app, method, path) {
  await app.user.click(control(app, 'Save'));
  await app.waitFor(() => assert.ok(sent(app, method, path).length > 0, `Save should send ${method} ${path}`));
  await app.settle();
}

/** Order of the first appearance of each text on the page. */
function order(app, titles) {
  const body = text(app);
  return titles.filter((t) => body.includes(t)).sort((a, b) => body.indexOf(a) - body.indexOf(b));
}

/** A datetime-local value (local time) and its unix seconds. */
function localDate(seconds) {
  const date = new Date(seconds * 1000);
  date.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, '0');
  const value = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return { value, seconds: date.getTime() / 1000, date };
}

const hashOf = (app) => app.window.location.hash;

test('page list: shows "Loading...", then every page with its URL, tags and status; a failed load says so', async () => {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  const app = await open('#/pages', { routes: { 'GET /api/pages': async () => { await gate; return serverPages(); } } });
  await see(app, 'Loading...');
  release();
  await app.findByText('About us');
  await app.waitFor(() => assert.ok(!text(app).includes('Loading...'), '"Loading..." should go once the pages arrived'));
  await see(app, 'Signed in as Alice Martin', 'Signed in as <name from cms.user>');
  const rows = { 'About us': ['/about', 'company', 'Published'], 'Spring sale': ['/spring-sale', 'sale, news', 'Scheduled'], Contact: ['/contact', 'Draft'] };
  for (const [title, wanted] of Object.entries(rows)) {
    const row = around(app, title, 'Delete').node;
    for (const part of wanted) assert.ok(row.textContent.includes(part), `the row of "${title}" should show "${part}"`);
  }
  const list = sent(app, 'GET', '/api/pages');
  assert.ok(list.length > 0, 'the list should be loaded with GET /api/pages');
  assert.equal(list[0].headers['x-auth-token'], 'tok-123', 'requests carry the X-Auth-Token header from localStorage cms.token');
  app.close();
  const failed = await open('#/pages', { routes: { 'GET /api/pages': { status: 500, body: {} } } });
  await see(failed, 'The pages could not be loaded');
  failed.close();
});

test('page list: the title search and the status filter narrow the rows', async () => {
  const app = await open('#/pages');
  await app.findByText('About us');
  await app.user.type(app.getByPlaceholderText('Search by title'), 'sale');
  await app.waitFor(() => assert.deepEqual(order(app, ['About us', 'Spring sale', 'Contact']), ['Spring sale'], 'searching "sale" should leave only "Spring sale"'));
  await app.user.clear(app.getByPlaceholderText('Search by title'));
  const status = app.getByDisplayValue('All');
  await app.user.selectOptions(status, 'Draft');
  await app.waitFor(() => assert.deepEqual(order(app, ['About us', 'Spring sale', 'Contact']), ['Contact'], 'the Draft filter should leave only the draft page'));
  await app.user.selectOptions(status, 'Scheduled');
  await app.waitFor(() => assert.deepEqual(order(app, ['About us', 'Spring sale', 'Contact']), ['Spring sale'], 'the Scheduled filter should leave only the page published in the future'));
  app.close();
});

test('page list: newest modified first; Title sorts by title, a second click reverses', async () => {
  const app = await open('#/pages');
  await app.findByText('About us');
  const titles = ['About us', 'Spring sale', 'Contact'];
  assert.deepEqual(order(app, titles), ['Spring sale', 'About us', 'Contact'], 'the list should start sorted by modified date, newest first');
  await app.user.click(control(app, 'Title'));
  await app.waitFor(() => assert.deepEqual(order(app, titles), ['About us', 'Contact', 'Spring sale'], 'clicking Title should sort A to Z'));
  await app.user.click(control(app, 'Title'));
  await app.waitFor(() => assert.deepEqual(order(app, titles), ['Spring sale', 'Contact', 'About us'], 'clicking Title again should sort Z to A'));
  app.close();
});

test('page list: Delete asks for confirmation and sends DELETE /api/pages/:id only when confirmed', async () => {
  const app = await open('#/pages', { confirm: false });
  await app.findByText('Contact');
  await app.user.click(controlNear(app, 'Contact', 'Delete'));
  assert.ok(app.dialogs.some((d) => d.kind === 'confirm' && d.message.includes('Contact')), 'Delete should ask for confirmation naming the page');
  await app.settle();
  assert.equal(sent(app, 'DELETE', '/api/pages/3').length, 0, 'a refused confirmation should not delete');
  assert.ok(app.queryByText('Contact'), 'the page stays listed when the deletion is refused');
  app.answers.confirm = true;
  await app.user.click(controlNear(app, 'Contact', 'Delete'));
  await app.waitFor(() => assert.equal(sent(app, 'DELETE', '/api/pages/3').length, 1, 'a confirmed Delete should send DELETE /api/pages/3'));
  await app.waitFor(() => assert.ok(!app.queryByText('Contact'), 'the deleted page should leave the list'));
  assert.ok(app.queryByText('About us'), 'the other pages stay listed');
  app.close();
});

test('routing: #/pages, #/pages/new and #/pages/:id open the list and the editor; other hashes and missing pages go to #/pages', async () => {
  const lost = await open('#/nowhere');
  await lost.waitFor(() => assert.equal(hashOf(lost), '#/pages', 'an unknown hash should redirect to #/pages'));
  await lost.findByText('About us');
  await lost.user.click(control(lost, 'New page'));
  await lost.waitFor(() => assert.equal(hashOf(lost), '#/pages/new', '"New page" should open #/pages/new'));
  await lost.waitFor(() => assert.equal(field(lost, 'Title').value, '', '#/pages/new should show the editor with an empty title'));
  await heading(lost, 'New page');
  lost.close();
  const edit = await open('#/pages/1');
  await editorLoaded(edit, 'About us');
  assert.ok(sent(edit, 'GET', '/api/pages/1').length > 0, '#/pages/1 should load GET /api/pages/1');
  await heading(edit, 'Edit page');
  edit.close();
  const missing = await open('#/pages/99', { routes: { 'GET /api/pages/99': { status: 404, body: {} } } });
  await missing.waitFor(() => assert.equal(hashOf(missing), '#/pages', 'a page that cannot be loaded should send the editor back to #/pages'));
  missing.close();
});

test('editor: the URL follows the title as a slug until the URL is edited by hand', async () => {
  const app = await open('#/pages/new');
  const title = field(app, 'Title');
  const url = field(app, 'URL');
  await see(app, 'The URL follows the title until you change it.');
  await app.user.type(title, 'Tips & Tricks');
  assert.equal(url.value, 'tips-and-tricks', 'the URL should be the slug of the title ("Tips & Tricks" -> "tips-and-tricks")');
  await app.user.type(title, ', again!');
  assert.equal(url.value, 'tips-and-tricks-again', 'the slug drops punctuation and trims hyphens');
  await app.user.clear(url);
  await app.user.type(url, 'tips');
  await app.user.type(title, ' More');
  assert.equal(url.value, 'tips', 'after the URL was edited by hand the title no longer changes it');
  assert.ok(!text(app).includes('The URL follows the title until you change it.'), 'the hint goes once the URL is edited');
  app.close();
});

test('editor: a new page is created with POST /api/pages, then its tags and a revision, and the editor moves to #/pages/<id>', async () => {
  const app = await open('#/pages/new');
  await app.user.type(field(app, 'Title'), 'Tips & Tricks');
  await app.user.type(field(app, 'Description'), 'Short');
  await app.user.selectOptions(field(app, 'Page type'), 'Article');
  await app.user.type(app.getByPlaceholderText('Add a tag'), 'news{Enter}');
  await saveAndWait(app, 'POST', '/api/pages');
  await app.waitFor(() => assert.equal(sent(app, 'POST', `/api/pages/${NEW_ID}/revisions`).length, 1, 'a revision should be posted to /api/pages/42/revisions'));
  const [post] = sent(app, 'POST', '/api/pages');
  assert.equal(sent(app, 'POST', '/api/pages').length, 1, 'one POST /api/pages');
  assert.equal(post.headers['x-auth-token'], 'tok-123', 'the POST carries the X-Auth-Token header');
  const body = post.body;
  assert.equal(body.title, 'Tips & Tricks');
  assert.equal(body.url, 'tips-and-tricks');
  assert.equal(body.description, 'Short');
  assert.equal(body.type, 'article', 'the page type is sent by its id');
  assert.equal(body.published, 'N', 'a new page is a draft (published "N")');
  assert.equal(body.published_date ?? null, null, 'a draft has no published_date');
  assert.equal(body.author_id, USER.id, 'author_id is the id of the user in cms.user');
  const order = app.calls.map((c) => `${c.method} ${c.path}`);
  const tagsDeleted = order.indexOf(`DELETE /api/pages/${NEW_ID}/tags`);
  const tagAdded = order.indexOf(`POST /api/pages/${NEW_ID}/tags`);
  assert.ok(tagsDeleted > -1 && tagAdded > tagsDeleted, 'the tags are replaced: DELETE /api/pages/42/tags, then one POST per tag');
  assert.deepEqual(sent(app, 'POST', `/api/pages/${NEW_ID}/tags`).map((c) => c.body), [{ tag: 'news' }]);
  const revision = sent(app, 'POST', `/api/pages/${NEW_ID}/revisions`)[0].body;
  assert.equal(revision.page_id, NEW_ID, 'the revision carries page_id');
  assert.equal(revision.title, 'Tips & Tricks', 'the revision is a copy of the page as sent');
  await app.waitFor(() => assert.equal(hashOf(app), `#/pages/${NEW_ID}`, 'after a create the editor moves to #/pages/42'));
  app.close();
});

test('editor: an existing page is shown and saved with PUT, keeping its first publish date; "Page saved"', async () => {
  const app = await open('#/pages/1');
  await editorLoaded(app, 'About us');
  assert.equal(field(app, 'URL').value, 'about');
  assert.equal(field(app, 'Description').value, 'Who we are');
  await see(app, '150 characters left', '150 characters left (160 minus the description)');
  assert.ok(radio(app, 'Published').checked, 'a published page has Published checked');
  assert.equal(app.getByAltText('Our team').getAttribute('src'), '/files/team.jpg', 'the featured image is shown');
  assert.ok(app.queryAllByText('company').length > 0, 'the tags are shown');
  await app.user.type(field(app, 'Description'), ' and what we do');
  await saveAndWait(app, 'PUT', '/api/pages/1');
  await see(app, 'Page saved');
  const body = sent(app, 'PUT', '/api/pages/1')[0].body;
  assert.equal(body.description, 'Who we are and what we do');
  assert.equal(body.url, 'about', 'the URL is kept');
  assert.equal(body.published, 'Y');
  assert.equal(body.published_date, NOW - 30 * DAY, 'a published page keeps its first published_date');
  assert.equal(body.featured_image, '/files/team.jpg');
  assert.equal(body.featured_alt, 'Our team');
  assert.equal(sent(app, 'POST', '/api/pages').length, 0, 'an existing page is not created again');
  await app.waitFor(() => assert.deepEqual(sent(app, 'POST', '/api/pages/1/tags').map((c) => c.body), [{ tag: 'company' }], 'the tags are sent again after DELETE /api/pages/1/tags'));
  await app.waitFor(() => assert.equal(sent(app, 'POST', '/api/pages/1/revisions')[0]?.body.page_id, 1, 'a revision with page_id 1 is posted'));
  assert.ok(sent(app, 'GET', '/api/pages/1/revisions').length > 0, 'the revisions are loaded with the page');
  const posted = app.calls.findIndex((c) => c.method === 'POST' && c.path === '/api/pages/1/revisions');
  await app.waitFor(() => assert.ok(app.calls.some((c, i) => i > posted && c.method === 'GET' && c.path === '/api/pages/1/revisions'), 'the revisions are reloaded after the save'));
  app.close();
});

test('editor: validation messages block saving (title, reserved URL, description over 160 characters)', async () => {
  const app = await open('#/pages/new');
  await app.user.click(control(app, 'Save'));
  await see(app, 'The page needs a title');
  await app.user.type(field(app, 'Title'), 'Admin');
  await app.user.click(control(app, 'Save'));
  await see(app, 'The URL "admin" is reserved');
  await app.user.clear(field(app, 'URL'));
  await app.user.type(field(app, 'URL'), 'api/v2');
  await app.user.click(control(app, 'Save'));
  await see(app, 'The URL "api/v2" is reserved');
  await app.user.clear(field(app, 'URL'));
  await app.user.type(field(app, 'URL'), 'news');
  await app.user.click(field(app, 'Description'));
  await app.user.paste('x'.repeat(161));
  await app.user.click(control(app, 'Save'));
  await see(app, 'The description is longer than 160 characters');
  await app.settle();
  assert.equal(sent(app, 'POST', '/api/pages').length, 0, 'nothing is sent while the page is not valid');
  app.close();
});

test('editor: a 409 answer reports the URL conflict, other failures their status', async () => {
  let status = 409;
  const app = await open('#/pages/1', { routes: { 'PUT /api/pages/1': () => ({ status, body: {} }) } });
  await editorLoaded(app, 'About us');
  await app.user.click(control(app, 'Save'));
  await see(app, 'Another page already uses the URL "about"');
  status = 500;
  await app.user.click(control(app, 'Save'));
  await see(app, 'The page could not be saved (500)');
  app.close();
});

test('autosave: a change is stored one second later as draft.new.<field> JSON plus draft.new.savedAt', async () => {
  const app = await open('#/pages/new');
  const storage = app.window.localStorage;
  await app.user.type(field(app, 'Title'), 'Hello');
  assert.equal(storage.getItem('draft.new.title'), null, 'the draft is written after a one-second pause, not at once');
  await app.waitFor(() => assert.equal(storage.getItem('draft.new.title'), '"Hello"', 'draft.new.title should hold the title as JSON'), { timeout: 4000 });
  assert.equal(storage.getItem('draft.new.url'), '"hello"', 'draft.new.url holds the URL as JSON');
  assert.equal(storage.getItem('draft.new.tags'), '[]', 'draft.new.tags holds the tags as a JSON array');
  assert.equal(storage.getItem('draft.new.publish'), '"N"', 'draft.new.publish holds "N" for a draft');
  assert.equal(storage.getItem('draft.new.type'), '"basic"', 'draft.new.type holds the page type id');
  const savedAt = storage.getItem('draft.new.savedAt');
  assert.match(String(savedAt), /^\d+$/, 'draft.new.savedAt is unix seconds');
  assert.ok(Math.abs(Number(savedAt) - Date.now() / 1000) < 30, 'draft.new.savedAt is the time of writing in seconds');
  app.close();
});

function oldDraft(id, savedAt, publishOn) {
  const draft = {
    title: 'Contact the team', description: 'Write to us', url: 'contact', type: 'basic', body: '',
    publish: 'schedule', scheduleDate: new Date(publishOn * 1000), tags: ['support'], featured: null,
  };
  const storage = Object.fromEntries(Object.entries(draft).map(([field, value]) => [`draft.${id}.${field}`, JSON.stringify(value)]));
  storage[`draft.${id}.savedAt`] = String(savedAt);
  return storage;
}

test('drafts: a stored draft newer than the page is offered and "Restore it" puts it into the form, schedule date included', async () => {
  const publishOn = localDate(NOW + 3 * DAY);
  const app = await open('#/pages/3', { storage: oldDraft(3, NOW - 20, publishOn.seconds) });
  await editorLoaded(app, 'Contact');
  await see(app, 'A newer local version of this page from just now was found.');
  await app.user.click(control(app, 'Restore it'));
  await app.waitFor(() => assert.equal(field(app, 'Title').value, 'Contact the team', 'Restore it should put the draft title in the form'));
  assert.equal(field(app, 'Description').value, 'Write to us');
  assert.ok(radio(app, 'Schedule').checked, 'the draft publish state "schedule" is restored');
  assert.ok(!text(app).includes('A newer local version'), 'the notice goes after restoring');
  await saveAndWait(app, 'PUT', '/api/pages/3');
  const body = sent(app, 'PUT', '/api/pages/3')[0].body;
  assert.equal(body.published, 'Y', 'a scheduled page is sent as published');
  assert.equal(body.published_date, publishOn.seconds, 'the restored schedule date is sent as published_date');
  await app.waitFor(() => assert.deepEqual(sent(app, 'POST', '/api/pages/3/tags').map((c) => c.body), [{ tag: 'support' }], 'the restored tags are saved'));
  app.close();
});

test('drafts: "Discard it" removes the stored draft; a draft older than the page is not offered', async () => {
  const app = await open('#/pages/3', { storage: oldDraft(3, NOW - 20, NOW + 3 * DAY) });
  await editorLoaded(app, 'Contact');
  await app.user.click(control(app, 'Discard it'));
  await app.waitFor(() => assert.ok(!text(app).includes('A newer local version'), 'the notice goes after discarding'));
  const left = Object.keys(app.window.localStorage).filter((key) => key.startsWith('draft.3.'));
  assert.deepEqual(left, [], 'Discard it should remove every draft.3.* key');
  assert.equal(field(app, 'Title').value, 'Contact', 'the page keeps its saved title');
  app.close();
  const older = await open('#/pages/1', { storage: oldDraft(1, NOW - 10 * DAY, NOW + 3 * DAY) });
  await editorLoaded(older, 'About us');
  await older.settle();
  assert.ok(!text(older).includes('A newer local version'), 'a draft older than the page\'s modified time is not offered');
  older.close();
});

test('tags: Enter and comma add trimmed lower-case tags without # once; Backspace in the empty field removes the last', async () => {
  const app = await open('#/pages/3');
  await editorLoaded(app, 'Contact');
  const input = app.getByPlaceholderText('Add a tag');
  await app.user.type(input, '#News{Enter}');
  await app.user.type(input, ' Tips ,');
  await app.user.type(input, 'NEWS{Enter}');
  await app.user.type(input, 'oops{Enter}');
  await app.waitFor(() => assert.ok(app.queryAllByText('oops').length > 0, 'an added tag is shown'));
  assert.equal(input.value, '', 'the field empties after a tag is added');
  await app.user.type(input, '{Backspace}');
  await app.waitFor(() => assert.equal(app.queryAllByText('oops').length, 0, 'Backspace in the empty field removes the last tag'));
  await saveAndWait(app, 'PUT', '/api/pages/3');
  await app.waitFor(() => assert.deepEqual(sent(app, 'POST', '/api/pages/3/tags').map((c) => c.body.tag), ['news', 'tips'], 'the saved tags should be news and tips, each once'));
  app.close();
});

test('tags: from the second character up to five suggestions come from GET /api/tags?q=, without chosen tags; a click adds one', async () => {
  const suggestions = ['company', 'contact', 'cooking', 'corporate', 'cost', 'coffee', 'copper'];
  const app = await open('#/pages/1', { routes: { 'GET /api/tags': (request) => suggestions.filter((s) => s.startsWith(request.query.get('q') || '')) } });
  await editorLoaded(app, 'About us');
  const input = app.getByPlaceholderText('Add a tag');
  await app.user.type(input, 'c');
  await app.settle();
  assert.equal(sent(app, 'GET', '/api/tags').length, 0, 'one character asks for no suggestions');
  await app.user.type(input, 'o');
  await app.findByText('cooking');
  assert.ok(sent(app, 'GET', '/api/tags').some((c) => c.query.get('q') === 'co'), 'suggestions come from GET /api/tags?q=co');
  for (const shown of ['contact', 'cooking', 'corporate', 'cost', 'coffee']) assert.ok(app.queryByText(shown), `"${shown}" should be suggested`);
  assert.ok(!app.queryByText('copper'), 'at most five suggestions');
  assert.equal(app.queryAllByText('company').length, 1, 'a tag the page already has is not suggested');
  await app.user.click(app.getByText('cooking'));
  await app.waitFor(() => assert.ok(!app.queryByText('contact'), 'choosing a suggestion closes the list'));
  await saveAndWait(app, 'PUT', '/api/pages/1');
  await app.waitFor(() => assert.deepEqual(sent(app, 'POST', '/api/pages/1/tags').map((c) => c.body.tag), ['company', 'cooking'], 'the chosen suggestion is saved as a tag'));
  app.close();
});

test('featured image: "Choose image" lists GET /api/files?type=image, filters by title, and the choice is saved', async () => {
  const app = await open('#/pages/3');
  await editorLoaded(app, 'Contact');
  await app.user.click(control(app, 'Choose image'));
  await app.findByAltText('Beach');
  assert.ok(sent(app, 'GET', '/api/files').some((c) => c.query.get('type') === 'image'), 'the media library is GET /api/files?type=image');
  await app.user.type(app.getByPlaceholderText('Filter images'), 'city');
  await app.waitFor(() => assert.ok(!app.queryByAltText('Beach'), 'the filter hides images whose title does not match'));
  await app.user.click(app.getByAltText('City at night'));
  await app.waitFor(() => assert.ok(controls(app, 'Change image').length > 0, 'with an image chosen the button reads "Change image"'));
  const shown = app.getAllByAltText('City at night');
  assert.equal(shown.length, 1, 'the picker closes and the chosen image is shown once');
  assert.equal(shown[0].getAttribute('src'), '/files/city.jpg');
  await saveAndWait(app, 'PUT', '/api/pages/3');
  const body = sent(app, 'PUT', '/api/pages/3')[0].body;
  assert.equal(body.featured_image, '/files/city.jpg', 'featured_image is the file URL');
  assert.equal(body.featured_alt, 'City at night', 'featured_alt is the file title');
  app.close();
});

test('publish: a future schedule is sent as published on that date; a past one publishes now with a warning', async () => {
  const future = localDate(NOW + 2 * DAY);
  const app = await open('#/pages/3');
  await editorLoaded(app, 'Contact');
  await app.user.click(radio(app, 'Schedule'));
  const input = await app.waitFor(() => {
    const found = app.document.querySelector('input[type="datetime-local"]');
    assert.ok(found, 'choosing Schedule should show a datetime-local input');
    return found;
  });
  app.fireEvent.change(input, { target: { value: future.value } });
  await saveAndWait(app, 'PUT', '/api/pages/3');
  let body = sent(app, 'PUT', '/api/pages/3')[0].body;
  assert.equal(body.published, 'Y', 'a scheduled page is sent as published');
  assert.equal(body.published_date, future.seconds, 'published_date is the scheduled date in unix seconds');
  app.close();

  const past = localDate(NOW - 2 * DAY);
  const late = await open('#/pages/3');
  await editorLoaded(late, 'Contact');
  await late.user.click(radio(late, 'Schedule'));
  const lateInput = await late.waitFor(() => {
    const found = late.document.querySelector('input[type="datetime-local"]');
    assert.ok(found, 'choosing Schedule should show a datetime-local input');
    return found;
  });
  late.fireEvent.change(lateInput, { target: { value: past.value } });
  await saveAndWait(late, 'PUT', '/api/pages/3');
  await see(late, 'The scheduled date is in the past, the page is published now');
  body = sent(late, 'PUT', '/api/pages/3')[0].body;
  assert.equal(body.published, 'Y');
  assert.ok(Math.abs(body.published_date - Date.now() / 1000) < 60, 'a past schedule is published now (published_date = now)');
  late.close();
});

test('revisions: listed newest first; Restore puts a revision into the form and asks to save it', async () => {
  const revisions = [
    { id: 11, page_id: 1, title: 'About us (first)', description: 'Old words', url: 'about-old', type: 'basic', body: '', published: 'N', created: NOW - 3 * DAY },
    { id: 12, page_id: 1, title: 'About us (second)', description: 'Newer words', url: 'about', type: 'basic', body: '', published: 'Y', created: NOW - 3600 },
  ];
  const app = await open('#/pages/1', { routes: { 'GET /api/pages/1/revisions': revisions } });
  await editorLoaded(app, 'About us');
  await app.findByText('About us (first)');
  assert.deepEqual(order(app, ['About us (first)', 'About us (second)']), ['About us (second)', 'About us (first)'], 'revisions are listed newest first');
  await see(app, '3 days ago', 'the age of a revision ("3 days ago")');
  await app.user.click(controlNear(app, 'About us (first)', 'Restore'));
  await app.waitFor(() => assert.equal(field(app, 'Title').value, 'About us (first)', 'Restore puts the revision title into the form'));
  assert.equal(field(app, 'URL').value, 'about-old');
  assert.equal(field(app, 'Description').value, 'Old words');
  assert.ok(radio(app, 'Draft').checked, 'the revision publish state is restored');
  await see(app, 'restored, save to keep it');
  assert.equal(sent(app, 'PUT', '/api/pages/1').length, 0, 'restoring saves nothing by itself');
  app.close();
});

test('duplicate and delete: Duplicate asks for the URL of the copy and POSTs it with " (copy)"; Delete confirms, deletes and returns to #/pages', async () => {
  const app = await open('#/pages/1', { prompt: 'About Copy' });
  await editorLoaded(app, 'About us');
  await app.user.click(control(app, 'Duplicate'));
  const asked = app.dialogs.find((d) => d.kind === 'prompt');
  assert.ok(asked, 'Duplicate should ask for the URL of the copy');
  assert.equal(asked.value, 'about-copy', 'the proposed URL is <url>-copy');
  await app.waitFor(() => assert.equal(sent(app, 'POST', '/api/pages').length, 1, 'the copy is created with POST /api/pages'));
  const copy = sent(app, 'POST', '/api/pages')[0].body;
  assert.equal(copy.title, 'About us (copy)');
  assert.equal(copy.url, 'about-copy', 'the URL given for the copy is turned into a slug');
  assert.equal(sent(app, 'PUT', '/api/pages/1').length, 0, 'the original page is not overwritten');
  await app.waitFor(() => assert.equal(hashOf(app), `#/pages/${NEW_ID}`, 'the editor moves to the copy'));
  app.close();

  const same = await open('#/pages/1', { prompt: 'about' });
  await editorLoaded(same, 'About us');
  await same.user.click(control(same, 'Duplicate'));
  await see(same, 'Give the copy a different URL');
  assert.equal(sent(same, 'POST', '/api/pages').length, 0, 'a copy with the same URL is refused');
  same.close();

  const gone = await open('#/pages/1');
  await editorLoaded(gone, 'About us');
  await gone.user.click(control(gone, 'Delete'));
  assert.ok(gone.dialogs.some((d) => d.kind === 'confirm' && d.message.includes('About us')), 'Delete asks for confirmation naming the page');
  await gone.waitFor(() => assert.equal(sent(gone, 'DELETE', '/api/pages/1').length, 1, 'a confirmed Delete sends DELETE /api/pages/1'));
  await gone.waitFor(() => assert.equal(hashOf(gone), '#/pages', 'after deleting the editor returns to #/pages'));
  gone.close();
});

test('unsaved changes: leaving the site after a change asks first, not before', async () => {
  const app = await open('#/pages/1');
  await editorLoaded(app, 'About us');
  const leave = () => {
    const event = new app.window.Event('beforeunload', { cancelable: true });
    let returned = '';
    Object.defineProperty(event, 'returnValue', { get: () => returned, set: (value) => { returned = value; } });
    app.window.dispatchEvent(event);
    return event.defaultPrevented || (typeof returned === 'string' && returned !== '') || returned === false;
  };
  assert.equal(leave(), false, 'leaving an unchanged page should not ask');
  await app.user.type(field(app, 'Description'), '!');
  await app.settle();
  assert.equal(leave(), true, 'leaving with unsaved changes should ask (beforeunload)');
  app.close();
});
