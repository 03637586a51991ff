// node --test reporter: one JSON line per finished test (leaf tests and suites that
// failed before their tests ran), which the runner reads back; a suite that passed has a
// line too (suite: true), which counts as no test: it accounts for the suite's entry in
// the plan (planner.mjs), and its tests have lines of their own.
export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    const details = data.details || {};
    const error = details.error;
    const cause = error && (error.cause || error);
    let message = '';
    if (cause) message = String(cause.message || cause).split('\n').slice(0, 8).join('\n').slice(0, 600);
    yield `${JSON.stringify({
      name: data.name, file: data.file || '', nesting: data.nesting,
      passed: event.type === 'test:pass', skipped: Boolean(data.skip || data.todo),
      suite: details.type === 'suite', message, duration_ms: details.duration_ms,
    })}\n`;
  }
}
