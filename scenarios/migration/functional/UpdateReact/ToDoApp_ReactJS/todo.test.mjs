import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

test('adds a todo with Enter', async () => {
  const app = await openApp();
  const input = app.getByPlaceholderText(/what needs to be done/i);
  await app.user.type(input, 'Buy milk{Enter}');
  await app.findByText('Buy milk');
  assert.equal(app.mounts.createRoot, 1, 'mounted with createRoot');
  assert.deepEqual(app.errors, []);
});
