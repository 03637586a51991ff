// node --test reporter: the plan of the run, one JSON line {name} per test node's test
// runner queues (test:enqueue), named as reporter.mjs names finished tests. It runs in the
// runner's own process, which gets the events of each test file's process: a file's
// top-level tests are queued as the file is loaded, a suite's tests as the suite starts,
// before any of them runs. A test file's own entry (its path as its name) is no test.
import { isFileEntry } from './reporter.mjs';

export default async function* planner(source) {
  for await (const event of source) {
    if (event.type !== 'test:enqueue') continue;
    const { name } = event.data;
    if (typeof name !== 'string' || isFileEntry(event.data)) continue;
    yield `${JSON.stringify({ name })}\n`;
  }
}
