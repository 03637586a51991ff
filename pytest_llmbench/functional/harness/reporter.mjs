// node --test reporter: one JSON line per finished test (leaf tests and suites that
// failed before their tests ran), which the runner reads back.
export default async function* reporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    const details = data.details || {};
    if (details.type === 'suite' && event.type === 'test:pass') continue;
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
