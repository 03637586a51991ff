// Shared by the user-directory tests: opens the app (the dataset's index.html and
// src/index.jsx with the answer's changes) against a fake users API and reads what a
// user sees: the names on the page, the search box, the Reload button and the messages.
import { openApp } from './harness.mjs';

function user(id, name, email, extra = {}) {
  return {
    id, name, email, username: `member${id}0${id}`, phone: `555-01${id}${id}`, website: `site${id}.example`,
    address: { street: `${id} Quarry Lane`, suite: `Unit ${id}`, city: extra.city || 'Pinecrest', zipcode: `0${id}000`, geo: { lat: `4${id}.5`, lng: `-7${id}.25` } },
    company: { name: extra.company || `Company ${id}`, catchPhrase: `Motto number ${id}` },
  };
}

export const USERS = [
  user(1, 'Marta Ruiz', 'marta@orchard.example'),
  user(2, 'Tomasz Novak', 'tnovak@riverbank.example', { company: 'Bluefin Holdings', city: 'Westmere' }),
  user(3, 'Aiko Tanaka', 'aiko.t@lantern.example'),
  user(4, 'Samuel Okoro', 'sam@harbor.example'),
  user(5, 'Lena Fischer', 'lena.fischer@orchard.example'),
];
export const NAMES = USERS.map((u) => u.name);
export const MORE = [...USERS, user(6, 'Priya Raman', 'priya@orchard.example')];

/** A deferred answer: the route waits until `release(answer)` is called. */
export function held() {
  let release;
  const promise = new Promise((resolve) => { release = resolve; });
  return { promise, release: (answer) => release(answer) };
}

/** Open the app against a fake API whose GET /users gives `answer`: a list of users,
 * {status, body}, 'network' (the request fails) or a held(). `app.answer(next)` changes
 * what the following requests get (React's StrictMode may send the first load twice, so
 * tests count requests from a point, never from zero). `app.requests()` counts them. */
export async function open(answer) {
  let current = answer;
  const app = await openApp({
    routes: {
      'GET /users': async () => {
        let reply = current;
        if (reply && reply.promise) reply = await reply.promise;
        if (reply === 'network') throw new TypeError('Failed to fetch');
        return reply;
      },
    },
  });
  app.answer = (next) => { current = next; };
  app.requests = () => app.calls.filter((c) => c.method === 'GET' && c.path === '/users').length;
  await app.settle();
  return app;
}

/** The page's text with runs of white space as one space. */
export function pageText(app) {
  return app.body.textContent.replace(/\s+/g, ' ');
}

/** A short piece of the page's text for failure messages: from `word` if the page has it,
 * else from the users heading. */
export function excerpt(app, word = 'Showing') {
  const text = pageText(app);
  let at = text.indexOf(word);
  if (at < 0) at = Math.max(0, text.indexOf('Users'));
  return JSON.stringify(text.slice(at, at + 160));
}

/** Names of the known users shown on the page, in USERS/MORE order. */
export function shown(app, people = MORE) {
  const text = pageText(app);
  return people.map((u) => u.name).filter((name) => text.includes(name));
}

/** The search box: the page's one text input. */
export function searchBox(app) {
  const inputs = [...app.document.querySelectorAll('input:not([type]), input[type="text"], input[type="search"]')];
  if (inputs.length !== 1) throw new Error(`expected one text input (the search box) on the page, found ${inputs.length}`);
  return inputs[0];
}

export async function search(app, text) {
  const box = searchBox(app);
  if (box.value !== '') await app.user.clear(box);
  if (text) await app.user.type(box, text);
  await app.settle();
}

/** The button labelled Reload (its aria-label or text has the word), or a failure saying it is missing. */
export function reloadButton(app) {
  const found = [...app.document.querySelectorAll('button, [role="button"], input[type="button"]')].find((b) => {
    const name = b.getAttribute('aria-label') ?? (b.tagName === 'INPUT' ? b.value : b.textContent);
    return /\breload\b/i.test(name);
  });
  if (!found) throw new Error('expected a button labelled "Reload"');
  return found;
}

export function isDisabled(button) {
  return button.disabled === true || button.getAttribute('aria-disabled') === 'true';
}

export async function reload(app) {
  await app.user.click(reloadButton(app));
  await app.settle();
}

/** Run `check` until it passes (up to about 0.8 s: a search may be debounced), then once
 * more to report its own failure. */
export async function eventually(app, check) {
  for (let i = 0; i < 20; i += 1) {
    try {
      return await check();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 40));
      await app.settle();
    }
  }
  return check();
}
