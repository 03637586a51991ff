// node --test reporter: one JSON line per finished test (leaf tests and suites that
// failed before their tests ran), which the runner reads back; a suite that passed has a
// line too (suite: true), which counts as no test: it accounts for the suite's entry in
// the plan (planner.mjs), and its tests have lines of their own.
//
// A test file whose process failed outside its tests (a module it imports is missing, a
// syntax error, the process ran out of memory) is reported with node's bare "test
// failed": its line gets the cause from what the process wrote to stderr instead.
import path from 'node:path';

const STDERR_KEPT = 16_000; // characters of each file's stderr
const CAUSE = /^(\w*Error\b.*|Error \[.*|FATAL ERROR:.*)$/m;

function causeIn(stderr) {
  const found = CAUSE.exec(stderr || '');
  return found ? found[1].slice(0, 600) : '';
}

/** Whether an event's test is a test file's own entry, not a test: node 20 names it by the
 * file's absolute path (its `file`), node 22 and later by its path from the working folder
 * (the run's, which is this process's). */
export function isFileEntry(data) {
  const { name, file } = data;
  return typeof file === 'string' && file !== '' && (name === file || path.resolve(String(name)) === file);
}

export default async function* reporter(source) {
  // test file (its absolute path: node 22 and later name it from the working folder in
  // these events) -> the start of what its process wrote to stderr
  const stderr = new Map();
  for await (const event of source) {
    if (event.type === 'test:stderr') {
      const { file = '', message = '' } = event.data || {};
      const key = path.resolve(String(file));
      const kept = stderr.get(key) || '';
      if (kept.length < STDERR_KEPT) stderr.set(key, (kept + String(message)).slice(0, STDERR_KEPT));
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    const details = data.details || {};
    const error = details.error;
    const cause = error && (error.cause || error);
    let message = '';
    if (cause) message = String(cause.message || cause).split('\n').slice(0, 8).join('\n').slice(0, 600);
    if (message === 'test failed' && isFileEntry(data)) message = causeIn(stderr.get(data.file)) || message;
    yield `${JSON.stringify({
      name: data.name, file: data.file || '', nesting: data.nesting,
      passed: event.type === 'test:pass', skipped: Boolean(data.skip || data.todo),
      suite: details.type === 'suite', message, duration_ms: details.duration_ms,
    })}\n`;
  }
}
