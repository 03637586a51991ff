// The first import of Vitest's test process in a served run (vitest_server.mjs). The vm
// pool keeps one test process across the answer's runs and runs each test file in a vm
// context of its own, one file at a time.
//
// A realm's own `process`: Vitest makes the context's `process` the process's own. Here
// each context gets one of its own instead, as each of Jest's realms does: an object whose
// reads fall through to the real one, with its own copy of the environment, of the plain
// objects and arrays on it (argv, versions...), its own listeners and exit code, so what
// one test file sets on its `process` is not there in the next file or run. `process`
// and `node:process`, required or imported in the context or taken by its
// getBuiltinModule, give the same object.
//
// Compiled once: Vitest compiles every CommonJS file (React DOM, Testing Library...) again
// in each context, with nothing V8 can reuse (each script's dynamic import is its own).
// A compiled script holds no state of a realm (running it in a context makes its functions
// there), so one is kept per file and text and run in every context; its dynamic import
// goes to the context running now, the only one alive. Only Vitest's scripts (those given a
// dynamic import) are kept; SCRIPT_CHARS bounds the text (and code caches) kept.
import Module from 'node:module';
import vm from 'node:vm';
import { builtinEnvironments } from 'vitest/environments';

let current = null; // the running context's process, if any: the pool runs one file at a time

function plain(value) {
  const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

function realmProcess() {
  const own = Object.create(process);
  const set = (key, value) =>
    Object.defineProperty(own, key, { value, writable: true, enumerable: true, configurable: true });
  for (const [key, { value }] of Object.entries(Object.getOwnPropertyDescriptors(process))) {
    if (plain(value)) set(key, Array.isArray(value) ? [...value] : { ...value }); // no getter runs
  }
  set('env', { ...process.env });
  set('exitCode', undefined);
  set('_events', Object.create(null));
  set('_eventsCount', 0);
  set('getBuiltinModule', (id) => (id === 'process' || id === 'node:process' ? own : process.getBuiltinModule(id)));
  return own;
}

// Vitest's vm pool keeps what it read of the files it runs outside its module runner (the
// packages, and a file a test requires by path) for the life of the process; the
// workspace is laid anew between runs, so as each test file ends the files outside
// node_modules are forgotten, and a mutant's file is read again.
function forgetFiles(context) {
  const files = context && context.__vitest_mocker__?.executor?.externalModules?.fs;
  for (const cache of [files?.fsCache, files?.fsBufferCache]) {
    if (!(cache instanceof Map)) continue;
    for (const path of [...cache.keys()]) if (!String(path).includes('/node_modules/')) cache.delete(path);
  }
}

for (const environment of [builtinEnvironments.jsdom, builtinEnvironments.node]) {
  const setupVM = environment.setupVM;
  environment.setupVM = async function (options) {
    const made = await setupVM.call(this, options);
    let own = realmProcess();
    return {
      ...made,
      getVmContext() {
        const context = made.getVmContext();
        current = () => own;
        Object.defineProperty(context, 'process', {
          configurable: true,
          enumerable: true,
          get: () => own,
          set: (value) => {
            if (value !== process) own = value; // Vitest's own assignment is not taken
          },
        });
        return context;
      },
      async teardown() {
        current = null;
        forgetFiles(made.getVmContext());
        await made.teardown?.();
      },
    };
  };
}

const load = Module._load;
Module._load = function (request, ...rest) {
  if (current !== null && (request === 'process' || request === 'node:process')) return current();
  return load.call(this, request, ...rest);
};

const SCRIPT_CHARS = 64 * 1024 * 1024;
const Script = vm.Script;
const scripts = new Map(); // filename -> { code, script, importer }
let kept = 0;

function KeptScript(code, options) {
  const filename = options && options.filename;
  const importer = options && options.importModuleDynamically;
  if (!new.target || typeof code !== 'string' || typeof filename !== 'string' || typeof importer !== 'function') {
    return Reflect.construct(Script, [code, options], new.target || Script);
  }
  const known = scripts.get(filename);
  if (known && known.code === code) {
    known.importer = importer;
    return known.script;
  }
  if (known || kept + code.length > SCRIPT_CHARS) return new Script(code, options);
  const entry = { code, script: null, importer };
  const dynamic = (...args) => entry.importer(...args);
  entry.script = new Script(code, { ...options, importModuleDynamically: dynamic });
  scripts.set(filename, entry);
  kept += code.length;
  return entry.script;
}
KeptScript.prototype = Script.prototype;
vm.Script = KeptScript;

// ES modules (Vitest's runner, chai... and the answer's transformed files) are made afresh
// in each context, as they must be: a module belongs to its context. What is kept is V8's
// code cache of each file and text, made as the module is first compiled.
const SourceTextModule = vm.SourceTextModule;
const codeCaches = new Map(); // identifier -> { code, data }

class KeptModule extends SourceTextModule {
  constructor(code, options) {
    const key = options && options.identifier;
    const keyed = typeof key === 'string' && typeof code === 'string' && !(options && options.cachedData);
    const known = keyed ? codeCaches.get(key) : undefined;
    super(code, known && known.code === code ? { ...options, cachedData: known.data } : options);
    if (keyed && !known && kept + code.length <= SCRIPT_CHARS) {
      const data = this.createCachedData();
      codeCaches.set(key, { code, data });
      kept += code.length + data.length;
    }
  }
}
vm.SourceTextModule = KeptModule;
