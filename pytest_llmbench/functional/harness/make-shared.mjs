// Makes the packages' script and its code cache for shared.mjs, from our own code only
// (node_share.py runs it): `bundle` has esbuild write jsdom, Testing Library and
// user-event into one file, jsdom's default style sheet indexed by element name
// (../jsdom_sheet.js, or SHEET); `warm` loads it as a run does, runs our warm-up page on it
// and writes the code V8 compiled meanwhile.
//
//   node make-shared.mjs bundle FOLDER [SHEET] (FOLDER/deps.cjs)
//   node make-shared.mjs warm FOLDER [NAME]   (FOLDER/NAME, default deps.cache; with
//                                             LLMBENCH_NODE_SHARE=FOLDER)
// V8 takes a code cache only in a process started with the same flags: node_share.py warms
// once as the harness's test processes run and once without their flags (PLAIN_CACHE, for
// Vitest's test processes, which take jsdom alone from the script).
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODE_CACHE, DEPS, EXTERNAL, PACKAGES } from './shared.mjs';

// jsdom's style-rules.js ended by the line of jsdom_sheet.js that indexes its default sheet,
// when the module is shaped as that line needs (else as it is: the index only saves time).
function indexedSheet(jsdomRoot, sheet) {
  const file = path.join(jsdomRoot, 'lib', 'jsdom', 'living', 'helpers', 'style-rules.js');
  return {
    name: 'llmbench-sheet',
    setup(build) {
      build.onLoad({ filter: /style-rules\.js$/ }, (args) => {
        if (args.path !== file || !existsSync(sheet)) return undefined;
        const { RULES_SHAPE, RULES_LINE } = createRequire(import.meta.url)(sheet);
        const text = readFileSync(file, 'utf8');
        if (!RULES_SHAPE.every((part) => text.includes(part))) return undefined;
        return { contents: text + RULES_LINE(sheet), loader: 'js' };
      });
    },
  };
}

async function bundle(folder, requireFrom, sheet) {
  const esbuild = requireFrom('esbuild');
  const jsdomRoot = path.dirname(requireFrom.resolve('jsdom/package.json'));
  // each package loads when it is first asked for: Vitest's processes ask for jsdom alone
  const entry = Object.entries(PACKAGES).map(([name, pkg]) =>
    `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => require(${JSON.stringify(pkg)}) });`);
  const worker = {
    // jsdom finds its synchronous XHR worker by require.resolve: kept as its real path
    name: 'llmbench-shared',
    setup(build) {
      build.onResolve({ filter: /xhr-sync-worker\.js$/ }, (args) => ({ path: path.join(args.resolveDir, args.path), external: true }));
    },
  };
  await esbuild.build({
    stdin: { contents: entry.join('\n'), resolveDir: jsdomRoot, loader: 'js' },
    bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'silent',
    nodePaths: [path.dirname(jsdomRoot)],
    external: EXTERNAL, plugins: [worker, indexedSheet(jsdomRoot, sheet)], outfile: path.join(folder, DEPS),
  });
}

// Our warm-up page: what most hidden tests do (queries by role, label and text, typing,
// clicks, a change of the URL hash), so that the code cache holds what they run.
const WARM_UP = `
const root = document.getElementById('root');
root.innerHTML = '<h1>todos</h1><label for=f>New</label><input id=f placeholder="What needs to be done?">'
  + '<ul></ul><button type=button>Add</button><a href="#/done">Done</a><input type=checkbox aria-label=all>';
const field = document.getElementById('f');
const add = () => { const li = document.createElement('li'); li.textContent = field.value.trim(); root.querySelector('ul').append(li); field.value = ''; };
root.querySelector('button').addEventListener('click', add);
field.addEventListener('keydown', (event) => { if (event.key === 'Enter') add(); });
window.addEventListener('hashchange', () => { root.dataset.hash = location.hash; });
`;

async function warm(folder, name = CODE_CACHE) {
  const harness = await import('./harness.mjs');
  const script = harness.sharedScript();
  if (!script) throw new Error(`the packages did not load from ${folder}`);
  const app = await harness.openApp({ source: WARM_UP, userOptions: { delay: null } });
  await app.user.type(app.getByPlaceholderText('What needs to be done?'), 'Buy milk{Enter}');
  await app.user.click(app.getByRole('button', { name: 'Add' }));
  await app.user.dblClick(app.getByText('Buy milk'));
  await app.user.click(app.getByRole('checkbox', { name: 'all' }));
  await app.user.keyboard('{Escape}');
  app.getByLabelText('New');
  app.queryAllByRole('listitem');
  await app.findByRole('heading', { name: 'todos' });
  app.fireEvent.click(app.getByRole('link', { name: 'Done' }));
  await app.settle();
  app.close();
  writeFileSync(path.join(folder, name), script.createCachedData());
}

const [step, folder, name] = process.argv.slice(2);
const modules = process.env.LLMBENCH_NODE_MODULES || path.join(process.cwd(), 'node_modules');
const requireFrom = createRequire(path.join(modules, 'noop.js'));
if (step === 'bundle') await bundle(folder, requireFrom, name || fileURLToPath(new URL('../jsdom_sheet.js', import.meta.url)));
else if (step === 'warm') await warm(folder, name);
else throw new Error(`make-shared.mjs: no step ${step}`);
process.exit(0);
