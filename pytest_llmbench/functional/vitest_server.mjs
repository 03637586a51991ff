// One answer's Vitest runs served by one process (functional/warm.py, vitest.py's `warm`):
// Vitest's Node API started once with our config (config.mjs beside this file, as the run
// of its own has it), then one run per request line on stdin:
//   {"nonce": "<hex>", "tests": [...], "first": "<canary file>" | null, "bail": true | false,
//    "coverage": true | false}
// written to the same JSON report as the run of its own, and ended by the line
// `@@llmbench-done <nonce> <code>` (code: the exit status `vitest run` would have had).
//
// What a run of its own starts afresh, each run starts afresh here: Vitest's state (the
// tests' results, which `bail` counts), its results cache (which orders the files), every
// transform of the module graph (the workspace is laid anew between runs: a mutant's file
// is read again), and each test file's realm: the vm pool (`vmForks`, one test process
// kept across the runs) runs every test file in a vm context of its own, with a module
// graph, a page and a `process` of its own (vm.mjs, the test process's first import, gives
// each context its `process` and keeps the packages' compiled scripts and code caches for
// the next contexts). The answer's code never runs in this process. The test process's
// first imports are Vitest's vm worker and the test environment (nothing that looks at the
// environment's globals as it loads, as React DOM and Testing Library do), named by their
// own paths: the workspace, its node_modules link too, is laid anew between runs.
// The forks pool (a new test process per run) would keep a run's code from reaching the
// next run's process too, at a third more CPU (docs/measurements.md); what a run's code may
// leave in the kept process is caught by the equivalent mutants run among the mutants
// (warm.py), as for Jest's server.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createVitest, getFilePoolName } from 'vitest/node';
import { llmbenchConfig } from './config.mjs';

const { root, out, coverage, test, jsdom } = JSON.parse(readFileSync(new URL('./options.json', import.meta.url), 'utf8'));
const preload = ['./vm.mjs', 'vitest/dist/workers/vmForks.js', 'vitest/environments'];
// jsdom itself, or our module that takes it from the packages' script (vitest_jsdom.mjs)
process.env.LLMBENCH_JSDOM = fileURLToPath(import.meta.resolve('jsdom'));
if (test.environment === 'jsdom') preload.push(jsdom || 'jsdom');
test.pool = 'vmForks';
test.poolOptions = { vmForks: { singleFork: true } };
test.poolOptions.vmForks.execArgv = preload.flatMap((name) => ['--import', import.meta.resolve(name)]);
const write = process.stdout.write.bind(process.stdout);
// as `vitest run` sets them before it loads the config
process.env.TEST = 'true';
process.env.VITEST = 'true';
process.env.NODE_ENV ??= 'test';
const ctx = await createVitest(
  'test',
  { config: false, root, watch: false, run: true },
  llmbenchConfig(root, out, test),
);
let runs = 0;

function afresh() {
  runs += 1;
  ctx.state = new ctx.state.constructor();
  ctx.cache = new ctx.cache.constructor(ctx.version);
  ctx._cachedSpecs.clear();
  for (const project of new Set([ctx, ...ctx.projects])) {
    project.server.moduleGraph.invalidateAll();
    project.vitenode.fetchCache.clear();
    for (const cache of Object.values(project.vitenode.fetchCaches)) cache.clear();
    // the pool's transformed files go under TMPDIR, which the workspace's refresh removed
    if (project !== ctx) project.tmpDir = join(tmpdir(), `vitest-${runs}`);
  }
}

async function run(request) {
  afresh();
  process.env.LLMBENCH_FIRST = request.first ? join(root, request.first) : '';
  process.env.LLMBENCH_ORDER = JSON.stringify(request.tests.map((t) => join(root, t)));
  ctx.configOverride.bail = request.bail ? 2 : 0; // the canaries' must-fail test, then one
  // where our setup file notes the files each test file ran, if asked (coverage.py)
  ctx.provide('llmbenchCoverage', request.coverage ? join(root, coverage) : '');
  const files = request.tests.map((t) => join(root, t));
  const specs = ctx.projects.flatMap((p) => files.map((f) => p.createSpec(f, getFilePoolName(p, f))));
  await ctx.report('onInit', ctx);
  await ctx.cache.stats.populateStats(root, specs);
  process.exitCode = 0;
  await ctx.runFiles(specs, true);
  return process.exitCode ? 1 : 0;
}

for await (const line of createInterface({ input: process.stdin })) {
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    continue;
  }
  let code = 1;
  try {
    code = await run(request);
  } catch (error) {
    console.error(String((error && error.stack) || error));
  }
  write(`@@llmbench-done ${request.nonce} ${code}\n`);
}
await ctx.close();
process.exit(0);
