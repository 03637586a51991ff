import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

test('adds two numbers', async () => {
  const app = await openApp({ source: "import { add } from './src/calc.js'; document.body.textContent = String(add(2, 3));" });
  assert.equal(app.document.body.textContent, '5');
});

test('greets Ada by name', async () => {
  const app = await openApp({ source: "import { greet } from './src/calc.js'; document.body.textContent = greet('Ada');" });
  assert.equal(app.document.body.textContent, 'Hello, Ada!', 'greet must say hello with an exclamation mark');
});
