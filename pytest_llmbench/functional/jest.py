"""The answer's own Jest tests (scenarios asking for Jest 29 on React 16 code), run by
real Jest with OUR config (never the answer's jest.config / babel config): jsdom, Babel
with preset-env (node current) and preset-react (automatic runtime), CSS and image
imports stubbed, our setup file (jest-dom's matchers) plus the answer's setup files the
scenario names, one process (`--runInBand`), `--ci` (snapshots never written), per-test
outcomes from our reporter (a JSON line per test file). Everything runs in the sandbox (toolchain/sandbox.py).

The packages are their own tree, `runners/jest-react16/` (package-lock.json there; `npm
ci` in it, done by scripts/install-runners), or $LLMBENCH_JEST_MODULES: Jest 29,
Babel, React and react-dom 16.14, Testing Library 12 and jest-dom 5, and the datasets'
redux 3, react-redux 5, redux-thunk 2.3 and prop-types; React 16 cannot share the
project's node_modules with the React 18 the other runners use. The workspace gets a
`node_modules` link to the tree.

A scenario tunes the run with `jest.json` in its hidden tests folder (optional):

    {"setupFiles": ["test/setupTests.js"], "environment": "jsdom"}
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..toolchain.node_packages import has_packages, node_program
from .coverage import COVERAGE
from .jsreport import JsRunner, read_options
from .outcome import SuiteRun
from .warm import WarmSpec
from .workspace import HIDDEN, OUT

NEEDED = (
    "jest",
    "jest-environment-jsdom",
    "babel-jest",
    "@babel/preset-env",
    "@babel/preset-react",
    "react",
    "react-dom",
    "@testing-library/react",
    "@testing-library/jest-dom",
)
TREE = Path(__file__).resolve().parents[2] / "runners" / "jest-react16" / "node_modules"
SHEET = Path(__file__).with_name("jsdom_sheet.js")
OWN = ".llmbench-jest"
OPTIONS = "jest.json"
RESULTS = "results.jsonl"  # our reporter's, in OUT
CACHE = f"{OUT}/cache"  # Jest's transform cache, keyed by each file's text and our config
SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")


class JestOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setupFiles: list[str] = []  # noqa: N815 (the name Jest's users know)
    environment: Literal["jsdom", "node"] = "jsdom"


SETUP = "require('@testing-library/jest-dom');\n"
# One JSON line per test file as it finishes, in the shape of Jest's --json entries (what
# a run that ends early has finished is kept).
REPORTER = """\
const fs = require('fs');
module.exports = class {
  constructor(globalConfig, options) { this.out = options.out; }
  onTestResult(test, result) {
    const failed = result.testExecError || result.numFailingTests > 0;
    fs.appendFileSync(this.out, JSON.stringify({
      name: result.testFilePath,
      status: failed ? 'failed' : 'passed',
      message: result.failureMessage || '',
      assertionResults: result.testResults.map((t) => ({
        fullName: t.fullName, status: t.status, failureMessages: t.failureMessages, duration: t.duration,
      })),
    }) + '\\n');
  }
};
"""
# Jest's own runtime (a test file's module registry), with two changes:
# - the package tree's files (which a run may only read) are read, transformed (Jest
#   leaves them as they are: transformIgnorePatterns) and made into a vm.Script once per
#   process, for every test file of a run and, in a served one, every later run; Jest
#   itself does all three again for each test file, a file's stat and a lookup of V8's
#   compile cache (a hash of its whole text) included. A script runs in each test file's
#   own context, where its code makes its own objects: nothing of one realm is shared but
#   the compiled code. Where node's VM API has ES modules, a script's dynamic import() goes
#   to the runtime that made it, so scripts are not shared there. The answer's and
#   dataset's files are read, transformed and compiled as Jest does.
# - with LLMBENCH_COVERAGE set (the clean run of mutation mode) it appends, as the test
#   file's run ends, one JSON line naming the files outside node_modules whose code it
#   executed (coverage.py): every module Jest runs goes through _execModule, requireActual
#   and automocks' sources too. The code runs as given: no instrumenting, no inspector.
RUNTIME = """\
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Runtime = require(%(modules)s + '/jest-runtime').default;
const packages = %(modules)s + '/';
const texts = new Map();
const transforms = new Map();
const scripts = new Map();
const shareScripts = typeof vm.SyntheticModule !== 'function';
module.exports = class LlmbenchRuntime extends Runtime {
  readFile(filename) {
    if (!filename.startsWith(packages)) return super.readFile(filename);
    let text = texts.get(filename);
    if (text === undefined) texts.set(filename, (text = super.readFile(filename)));
    else this._cacheFS.set(filename, text);
    return text;
  }
  transformFile(filename, options) {
    if (!filename.startsWith(packages)) return super.transformFile(filename, options);
    const key = filename + '\\n' + JSON.stringify(options || {});
    const kept = transforms.get(key);
    if (kept !== undefined) {
      this._fileTransforms.set(filename, kept.record);
      if (kept.record.sourceMapPath) this._sourceMapRegistry.set(filename, kept.record.sourceMapPath);
      return kept.record.code;
    }
    const code = super.transformFile(filename, options);
    const record = this._fileTransforms.get(filename);
    if (record !== undefined && record.code === code) transforms.set(key, { record: Object.freeze(record) });
    return code;
  }
  createScriptFromCode(scriptSource, filename) {
    if (!shareScripts || !filename.startsWith(packages)) return super.createScriptFromCode(scriptSource, filename);
    const kept = scripts.get(filename);
    if (kept !== undefined && kept.source === scriptSource) return kept.script;
    const script = super.createScriptFromCode(scriptSource, filename);
    scripts.set(filename, { source: scriptSource, script });
    return script;
  }
  _execModule(localModule, ...rest) {
    if (process.env.LLMBENCH_COVERAGE && !localModule.filename.includes('/node_modules/')) {
      (this.llmbenchRan ||= new Set()).add(localModule.filename);
    }
    return super._execModule(localModule, ...rest);
  }
  teardown() {
    const covered = process.env.LLMBENCH_COVERAGE;
    if (covered && this.llmbenchRan) {
      const at = (file) => path.relative(process.cwd(), file);
      fs.appendFileSync(covered, JSON.stringify({ test: at(this._testPath), files: [...this.llmbenchRan].map(at) }) + '\\n');
      this.llmbenchRan = null;
    }
    super.teardown();
  }
};
"""
# The run's canary file first (tripwire.py): it has run whenever `bail` stops the run. The
# run names it in LLMBENCH_FIRST (a served run: our server, before each run); a mutant's
# run gives its files' order in LLMBENCH_ORDER (coverage.py: the likeliest to kill first).
SEQUENCER = """\
const Sequencer = require(%(modules)s + '/@jest/test-sequencer').default;
module.exports = class CanariesFirst extends Sequencer {
  sort(tests) {
    const first = process.env.LLMBENCH_FIRST || null;
    let order = [];
    try { order = JSON.parse(process.env.LLMBENCH_ORDER || '[]'); } catch {}
    const at = (t) => (t.path === first ? -1 : order.includes(t.path) ? order.indexOf(t.path) : order.length);
    const put = (list) => list.map((t, i) => [at(t), i, t]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((e) => e[2]);
    const sorted = super.sort(tests);
    return Array.isArray(sorted) ? put(sorted) : sorted.then(put);
  }
};
"""
# Jest's own environment (jsdom or node), which with `bail` (a mutant's run) also stops a
# test file at its first failing test: the later ones are reported skipped (not passed).
# The canary file runs whole: its must-pass canaries come after its must-fail one. Before
# jsdom loads, its default style sheet is indexed by element name (jsdom_sheet.js).
ENVIRONMENT = """\
require('./sheet.js')(%(base)s);
const Base = require(%(base)s).TestEnvironment;
module.exports = class StopAtFirstFailure extends Base {
  constructor(config, context) {
    super(config, context);
    const first = process.env.LLMBENCH_FIRST;
    this.stops = config.globalConfig.bail > 0 && context.testPath !== first;
    this.failed = false;
  }
  async handleTestEvent(event, state) {
    if (super.handleTestEvent) await super.handleTestEvent(event, state);
    if (!this.stops) return;
    if (event.name === 'test_done' && event.test.errors.length > 0) this.failed = true;
    if (event.name === 'test_start' && this.failed) event.test.mode = 'skip';
  }
};
"""
CONFIG = """\
const modules = %(modules)s;
module.exports = {
  rootDir: %(root)s,
  testEnvironment: %(environment)s,
  transform: {
    '\\\\.[cm]?jsx?$': [modules + '/babel-jest', {
      babelrc: false,
      configFile: false,
      presets: [
        [modules + '/@babel/preset-env', { targets: { node: 'current' } }],
        [modules + '/@babel/preset-react', { runtime: 'automatic' }],
      ],
    }],
  },
  moduleNameMapper: {
    '\\\\.(css|less|sass|scss)$': '<rootDir>/%(own)s/stub.js',
    '\\\\.(png|jpe?g|gif|svg|webp|ico|bmp|woff2?)$': '<rootDir>/%(own)s/stub.js',
  },
  setupFilesAfterEnv: %(setup)s,
  runtime: '<rootDir>/%(own)s/runtime.js',
  cacheDirectory: '<rootDir>/%(cache)s',
  testPathIgnorePatterns: ['/node_modules/'],
  watchman: false,
  bail: %(bail)s,
  testSequencer: '<rootDir>/%(own)s/sequencer.js',
  reporters: [['<rootDir>/%(own)s/reporter.js', { out: %(out)s }]],
};
"""


# One answer's runs in one process (warm.py): Jest's own API per request, which gives every
# test file a new vm context and module registry, as a run of its own does.
SERVER = """\
const path = require('path');
const { runCLI } = require(%(modules)s + '/jest');
// bail ends the run as in watch mode (the remaining files cancelled), not the process
require(%(modules)s + '/jest-watcher').TestWatcher.prototype.isWatchMode = () => true;
// Every run has the answer's files at the same paths (laid out anew from the same files,
// a mutant changing one file's text, a run's canary file added): how a module name
// resolves from a file is the same in every run, so the first run's resolver, and what
// it learnt of the files and packages, serves the later ones (the first run goes as a
// run of its own does).
const Runtime = require(%(modules)s + '/jest-runtime').default;
const Resolver = require(%(modules)s + '/jest-resolve').default;
const createResolver = Runtime.createResolver;
let resolver = null;
let served = 0;
Runtime.createResolver = (...args) => (resolver ||= createResolver.apply(Runtime, args));
const clearCache = Resolver.clearDefaultResolverCache;
Resolver.clearDefaultResolverCache = () => (served > 0 ? undefined : clearCache.call(Resolver));
const out = process.stdout.write.bind(process.stdout);
const config = %(config)s;
const root = process.cwd();
(async () => {
  for await (const line of require('readline').createInterface({ input: process.stdin })) {
    let request;
    try { request = JSON.parse(line); } catch { continue; }
    process.env.LLMBENCH_FIRST = request.first ? path.resolve(root, request.first) : '';
    process.env.LLMBENCH_COVERAGE = request.coverage ? path.resolve(root, %(coverage)s) : '';
    process.env.LLMBENCH_ORDER = JSON.stringify(request.tests.map((t) => path.resolve(root, t)));
    let code = 1;
    try {
      const argv = { config, ci: true, runInBand: true, runTestsByPath: true, watchman: false,
        bail: request.bail ? 2 : 0,
        _: request.tests, $0: 'jest' };
      const { results } = await runCLI(argv, [root]);
      code = results.success ? 0 : 1;
    } catch (error) {
      console.error(String((error && error.stack) || error));
    }
    served += 1;
    out('@@llmbench-done ' + request.nonce + ' ' + code + '\\n');
  }
})();
"""


def modules_dir() -> Path | None:
    """The package tree: $LLMBENCH_JEST_MODULES or runners/jest-react16/node_modules."""
    override = os.environ.get("LLMBENCH_JEST_MODULES")
    root = Path(override) if override else TREE
    if has_packages(root, NEEDED):
        return root.resolve()
    return None


def options(workspace: Path) -> JestOptions:
    """The scenario's options (ValueError naming the file and field when they are bad)."""
    return read_options(workspace / HIDDEN / OPTIONS, JestOptions)


def write_config(
    workspace: Path, modules: Path, opts: JestOptions, canaries: str | None = None
) -> Path:
    """Our config, setup, reporter and stub files in OWN (read-only to the run; Jest writes
    its cache, temporary files and results to OUT); returns the config's path.
    `canaries`: see run."""
    own = workspace / OWN
    shutil.rmtree(own, ignore_errors=True)
    own.mkdir()
    (own / "setup.js").write_text(SETUP, encoding="utf-8")
    (own / "stub.js").write_text("module.exports = {};\n", encoding="utf-8")
    (own / "reporter.js").write_text(REPORTER, encoding="utf-8")
    sequencer = SEQUENCER % {"modules": json.dumps(str(modules))}
    (own / "sequencer.js").write_text(sequencer, encoding="utf-8")
    runtime = RUNTIME % {"modules": json.dumps(str(modules))}
    (own / "runtime.js").write_text(runtime, encoding="utf-8")
    setups = [f"<rootDir>/{OWN}/setup.js"] + [
        f"<rootDir>/{s}" for s in opts.setupFiles if (workspace / s).is_file()
    ]
    base = modules / f"jest-environment-{opts.environment}"
    shutil.copyfile(SHEET, own / "sheet.js")
    (own / "environment.js").write_text(
        ENVIRONMENT % {"base": json.dumps(str(base))}, encoding="utf-8"
    )
    environment = f"<rootDir>/{OWN}/environment.js"
    config = own / "jest.config.js"
    config.write_text(
        CONFIG
        % {
            "modules": json.dumps(str(modules)),
            "root": json.dumps(str(workspace.resolve())),
            "environment": json.dumps(environment),
            "own": OWN,
            "cache": CACHE,
            "setup": json.dumps(setups),
            "bail": 2 if canaries else 0,  # the canary file's failure, then the first other
            "out": json.dumps(str(workspace.resolve() / OUT / RESULTS)),
        },
        encoding="utf-8",
    )
    return config


def _command(
    workspace: Path, modules: Path, runnable: list[str], canaries: str | None
) -> list[str]:
    """Jest on `runnable` by path, in band, under our config (`canaries`: see JsRunner.run;
    the run stops at the first failing test file after the canary file)."""
    config = write_config(workspace, modules, options(workspace), canaries)
    jest = modules / "jest" / "bin" / "jest.js"
    return [
        node_program(),
        str(jest),
        "--config",
        str(config),
        "--ci",
        "--runInBand",
        "--runTestsByPath",
        *runnable,
    ]


def _server(workspace: Path, modules: Path) -> list[str]:
    """Our config and server written (ValueError for bad options); the server's command."""
    config = write_config(workspace, modules, options(workspace))
    server = workspace / OWN / "server.js"
    text = SERVER % {
        "modules": json.dumps(str(modules)),
        "config": json.dumps(str(config)),
        "coverage": json.dumps(f"{OUT}/{COVERAGE}"),
    }
    server.write_text(text, encoding="utf-8")
    return [node_program(), str(server)]


JEST = JsRunner(
    name="Jest",
    languages="JavaScript",
    suffixes=SUFFIXES,
    install="scripts/install-runners (runners/jest-react16)",
    own=OWN,
    report=RESULTS,
    modules=modules_dir,
    command=_command,
    cache=CACHE,
)
missing = JEST.missing
run = JEST.run


def warm(workspace: Path, suite: SuiteRun) -> WarmSpec | None:
    """Jest's warm side (warm.py)."""
    return JEST.served(workspace, suite, _server)
