// Hidden acceptance tests of the React/Redux -> Angular sign-up form: the answer's
// src/index.html and src/main.ts, compiled just in time in jsdom, filled in as a user.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

const MESSAGES = [
  'Name is required', 'Name must be at least 2 characters', 'Name must be at most 50 characters',
  'Email is required', 'Email is not valid',
  'Password is required', 'Password must be at least 8 characters', 'Password must contain a number',
  'Password must contain an upper-case letter', 'Please confirm your password', 'Passwords do not match',
];

async function open() {
  const app = await openApp({ angular: true });
  const waitFor = app.waitFor;
  app.waitFor = (callback, options = {}) => waitFor(callback, { timeout: 4000, onTimeout: (error) => error, ...options });
  return app;
}

const text = (app) => app.document.body.textContent.replace(/\s+/g, ' ');
const shownMessages = (app) => MESSAGES.filter((m) => text(app).includes(m) && !MESSAGES.some((o) => o !== m && o.includes(m) && text(app).includes(o)));

/** The input labelled `label` (exact: "Password" is not "Confirm password"). */
function input(app, label) {
  const found = app.queryAllByLabelText(label).filter((el) => el.matches('input'));
  assert.ok(found.length === 1, `there should be one field labelled "${label}"`);
  return found[0];
}

/** Leave the focused field by clicking outside of every field. */
async function leave(app) {
  await app.user.click(app.document.body);
  await app.settle();
}

/** Type `value` into a field (replacing what it held) and leave it. */
async function fill(app, label, value) {
  const field = input(app, label);
  await app.user.clear(field);
  if (value) await app.user.type(field, value);
  await leave(app);
}

async function expectMessages(app, wanted, why) {
  await app.waitFor(() => assert.deepEqual(shownMessages(app), wanted, why));
}

function signUpButton(app) {
  const button = [...app.document.querySelectorAll('button')].find((b) => /Sign(ing)? up/.test(b.textContent));
  assert.ok(button, 'there should be the "Sign up" button');
  return button;
}

async function fillValid(app, email = 'alice@example.org') {
  await fill(app, 'Name', 'Alice');
  await fill(app, 'Email', email);
  await fill(app, 'Password', 'Secret123A');
  await fill(app, 'Confirm password', 'Secret123A');
}

test('the form shows its title, four fields and the Sign up button, and no message before anything is touched', async () => {
  const app = await open();
  assert.ok(text(app).includes('Create your account'), 'the form has the title "Create your account"');
  assert.equal(input(app, 'Email').type, 'email', 'Email is an e-mail field');
  assert.equal(input(app, 'Password').type, 'password', 'Password is a password field');
  assert.equal(input(app, 'Confirm password').type, 'password', 'Confirm password is a password field');
  assert.ok(input(app, 'Name'));
  assert.equal(signUpButton(app).textContent.trim(), 'Sign up');
  assert.deepEqual(shownMessages(app), [], 'no message is shown before a field is left');
  assert.ok(app.errors.length === 0, `the app should start without errors: ${app.errors[0] || ''}`);
  app.close();
});

test('leaving the name shows its message: required, at least 2, at most 50 characters; a valid name none', async () => {
  const app = await open();
  await app.user.click(input(app, 'Name'));
  await leave(app);
  await expectMessages(app, ['Name is required'], 'leaving the empty name shows "Name is required" (and only it)');
  await fill(app, 'Name', 'A');
  await expectMessages(app, ['Name must be at least 2 characters']);
  await fill(app, 'Name', 'N'.repeat(51));
  await expectMessages(app, ['Name must be at most 50 characters']);
  await fill(app, 'Name', 'Alice');
  await expectMessages(app, [], 'a valid name shows no message');
  app.close();
});

test('leaving the e-mail shows "Email is required" or "Email is not valid"; a valid address none', async () => {
  const app = await open();
  await fill(app, 'Email', '');
  await expectMessages(app, ['Email is required']);
  await fill(app, 'Email', 'alice@example');
  await expectMessages(app, ['Email is not valid']);
  await fill(app, 'Email', 'alice@example.org');
  await expectMessages(app, [], 'a valid address shows no message');
  app.close();
});

test('the password rules come in order: required, 8 characters, a number, an upper-case letter', async () => {
  const app = await open();
  await fill(app, 'Password', '');
  await expectMessages(app, ['Password is required']);
  await fill(app, 'Password', 'abc');
  await expectMessages(app, ['Password must be at least 8 characters']);
  await fill(app, 'Password', 'abcdefgh');
  await expectMessages(app, ['Password must contain a number']);
  await fill(app, 'Password', 'abcdefg1');
  await expectMessages(app, ['Password must contain an upper-case letter']);
  await fill(app, 'Password', 'Abcdefg1');
  await expectMessages(app, [], 'a valid password shows no message');
  app.close();
});

test('the confirmation is checked against the password: "Please confirm your password", "Passwords do not match"', async () => {
  const app = await open();
  await fill(app, 'Password', 'Secret123A');
  await fill(app, 'Confirm password', '');
  await expectMessages(app, ['Please confirm your password']);
  await fill(app, 'Confirm password', 'Secret123B');
  await expectMessages(app, ['Passwords do not match']);
  await fill(app, 'Confirm password', 'Secret123A');
  await expectMessages(app, [], 'a matching confirmation shows no message');
  app.close();
});

test('submitting with invalid fields shows every message and starts no sign-up', async () => {
  const app = await open();
  await fill(app, 'Name', 'Al');
  await fill(app, 'Password', 'short');
  await app.user.click(signUpButton(app));
  await expectMessages(app, ['Email is required', 'Password must be at least 8 characters', 'Please confirm your password'],
    'a submit shows the message of every invalid field and none for the valid name');
  await app.settle();
  assert.equal(signUpButton(app).textContent.trim(), 'Sign up', 'an invalid form is not sent ("Signing up..." never shows)');
  app.close();
});

test('a valid form shows "Signing up..." on a disabled button at once, then the welcome message', async () => {
  const app = await open();
  await fillValid(app);
  await app.user.click(signUpButton(app));
  await app.waitFor(() => assert.equal(signUpButton(app).textContent.trim(), 'Signing up...', 'the button reads "Signing up..." while signing up'));
  assert.ok(signUpButton(app).disabled, 'the button is disabled while signing up');
  assert.ok(!text(app).includes('Welcome'), 'the answer of the simulated request is not there at once');
  await app.waitFor(() => assert.ok(text(app).includes('Welcome, Alice! Your account has been created.'),
    'after the simulated request the page says "Welcome, Alice! Your account has been created."'), { timeout: 5000 });
  assert.equal(app.queryAllByLabelText('Name').length, 0, 'the welcome message replaces the form');
  app.close();
});

test('an e-mail already registered (in any case) gives "Sorry <name>, this email is already registered." and the form stays usable', async () => {
  const app = await open();
  await fillValid(app, 'Admin@Example.com');
  await app.user.click(signUpButton(app));
  await app.waitFor(() => assert.ok(text(app).includes('Sorry Alice, this email is already registered.'),
    'the page should say "Sorry Alice, this email is already registered."'), { timeout: 5000 });
  assert.ok(!text(app).includes('Welcome'), 'a registered e-mail does not sign up');
  assert.equal(signUpButton(app).textContent.trim(), 'Sign up', 'the button reads "Sign up" again');
  assert.ok(!signUpButton(app).disabled, 'the button can be used again');
  assert.equal(input(app, 'Name').value, 'Alice', 'the form keeps its values');
  app.close();
});
