"""The answer's own Vitest tests, run with OUR config (never the answer's): jsdom, globals,
esbuild's automatic JSX runtime (also for JSX in `.js` files), our setup file (jest-dom's
matchers for Vitest and Testing Library's cleanup) plus the answer's setup files the
scenario names, one forked worker, snapshots never written (CI mode), per-test outcomes
from Vitest's JSON reporter. Everything runs in the sandbox (toolchain/sandbox.py).

The packages come from the project's node_modules (`npm ci`): the workspace gets a
`node_modules` link to them, which the sandbox leaves readable (read-only), so Vite
resolves `vitest`, `@testing-library/react` and `react` from a test file as in a project.
Our config and setup sit in OWN, read-only to the run; Vitest writes its cache, temporary
files and report under OUT.

Mutation mode serves an answer's runs from one process (`warm`, functional/warm.py):
vitest_server.mjs, copied into OWN, starts Vitest's Node API once with the same config
(config.mjs, which the run's own config file imports too) and runs each request afresh:
one test process kept across the runs (Vitest's vm pool), a vm context per test file with
its own module graph, page and `process` (vitest_vm.mjs), every transform made again.
The clean run also notes which of the answer's and dataset's files each test file ran
(coverage.py): a mutant then runs only with the test files that ran its file.
With a jsdom environment the test process takes jsdom from node's packages' script and its
code cache (node_share.py, vitest_jsdom.mjs), read-only, in place of jsdom's files.

A scenario tunes the run with `vitest.json` in its hidden tests folder (optional):

    {"setupFiles": ["src/setupTests.ts"],   # the answer's setup files, used when it gives them
     "environment": "jsdom"}                # or "node"
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..toolchain.node_packages import modules_dir, node_program
from . import node_share
from .coverage import COVERAGE
from .jsreport import JsRunner, read_options
from .outcome import SuiteRun
from .warm import WarmSpec
from .workspace import HARNESS, HIDDEN, OUT

NEEDED = (
    "vitest",
    "vite",
    "jsdom",
    "react",
    "react-dom",
    "@testing-library/react",
    "@testing-library/jest-dom",
    "@testing-library/user-event",
)
OWN = ".llmbench-vitest"  # our config, setup, report, cache and temporary files
OPTIONS = "vitest.json"  # the scenario's options, in the hidden tests folder
REPORT = "report.json"  # Vitest's JSON report, in OUT
SUFFIXES = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".mts", ".cts")
_GLOB = re.compile(r"([\\*?\[\]{}()!@+])")


class VitestOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setupFiles: list[str] = []  # noqa: N815 (Vitest's own name)
    environment: Literal["jsdom", "node"] = "jsdom"


SETUP = """\
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, inject } from 'vitest';
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
afterEach(() => cleanup());
// With coverage asked for (the clean run of mutation mode: LLMBENCH_COVERAGE in a run of
// its own, `llmbenchCoverage` provided by our server in a served one), one JSON line as
// the test file ends, naming the files outside node_modules whose code ran for it
// (coverage.py): the modules Vitest's module runner evaluated for this file (it resets them
// before each file; the packages load outside it). A line it cannot write is left out:
// without coverage every test file runs for every mutant, and the suite's own outcome stands.
const provided = inject('llmbenchCoverage');
const covered = provided === undefined ? process.env.LLMBENCH_COVERAGE : provided;
if (covered) {
  afterAll(() => {
    try {
      const state = globalThis.__vitest_worker__;
      const root = state.config.root;
      const files = [];
      for (const [id, module] of state.moduleCache) {
        if (module.promise && id.startsWith(root + '/') && !id.includes('/node_modules/')) {
          files.push(relative(root, id));
        }
      }
      appendFileSync(covered, JSON.stringify({ test: relative(root, state.filepath), files }) + '\\n');
    } catch {}
  });
}
"""

# Our config, made by a function both the run of its own (its config file in OUT) and the
# warm server (vitest_server.mjs) call, so both run the tests alike.
SHARED = """\
import { transformWithEsbuild } from 'vite';
import { BaseSequencer } from 'vitest/node';
// The run's canary file first (tripwire.py): it has run whenever `bail` stops the run. Then
// the others in the run's order (LLMBENCH_ORDER: mutation.py's, the likeliest to fail
// first), before any it does not name. The run names both in its environment (a served
// run: our server, before each run).
class CanariesFirst extends BaseSequencer {
  async sort(files) {
    const first = process.env.LLMBENCH_FIRST || null;
    let order = [];
    try { order = JSON.parse(process.env.LLMBENCH_ORDER || '[]'); } catch {}
    const at = (f) => (f.moduleId === first ? -1 : order.includes(f.moduleId) ? order.indexOf(f.moduleId) : order.length);
    const sorted = await super.sort(files);
    return sorted.map((f, i) => [at(f), i, f]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map((e) => e[2]);
  }
}
export function llmbenchConfig(root, out, test) {
  return {
    root,
    cacheDir: root + '/' + out + '/cache',
    esbuild: { jsx: 'automatic' },
    plugins: [{
      name: 'llmbench-jsx-in-js',
      enforce: 'pre',
      transform(code, id) {
        if (!/\\.js$/.test(id) || id.includes('/node_modules/')) return null;
        return transformWithEsbuild(code, id, { loader: 'jsx', jsx: 'automatic' });
      },
    }],
    test: { ...test, sequence: { sequencer: CanariesFirst } },
  };
}
"""
CONFIG = """\
import { llmbenchConfig } from '../%(own)s/config.mjs';
export default llmbenchConfig(%(root)s, %(out)s, %(test)s);
"""
SERVER = Path(__file__).with_name("vitest_server.mjs")
JSDOM = Path(__file__).with_name("vitest_jsdom.mjs")
VM = Path(__file__).with_name("vitest_vm.mjs")


def options(workspace: Path) -> VitestOptions:
    """The scenario's options (ValueError naming the file and field when they are bad)."""
    return read_options(workspace / HIDDEN / OPTIONS, VitestOptions)


def _glob(path: str) -> str:
    return _GLOB.sub(r"\\\1", path)


def _own(workspace: Path, opts: VitestOptions) -> dict[str, object]:
    """Our setup file and shared config written into OWN (made afresh); the test options
    both a run of its own and the server use (the files to run and `bail` aside)."""
    own = workspace / OWN
    shutil.rmtree(own, ignore_errors=True)
    own.mkdir()
    (own / "setup.mjs").write_text(SETUP, encoding="utf-8")
    (own / "config.mjs").write_text(SHARED, encoding="utf-8")
    setups = [f"{OWN}/setup.mjs"] + [s for s in opts.setupFiles if (workspace / s).is_file()]
    return {
        "exclude": ["**/node_modules/**"],
        "environment": opts.environment,
        "globals": True,
        "setupFiles": setups,
        "pool": "forks",
        "poolOptions": {"forks": {"singleFork": True}},
        "reporters": ["json"],
        "outputFile": {"json": f"{OUT}/{REPORT}"},
        "watch": False,
        "passWithNoTests": False,
    }


def write_config(
    workspace: Path, tests: list[str], opts: VitestOptions, canaries: str | None = None
) -> Path:
    """Our files in OWN, our config in OUT; returns the config's path. `canaries`: see
    run."""
    test = _own(workspace, opts)
    test["include"] = [_glob(t) for t in tests]
    test["bail"] = 2 if canaries else 0  # the canaries' must-fail test, then the first other
    # Vite bundles the config into a file beside it: the config goes where the run may write
    # (it is read once, before any test file loads); OWN stays read-only.
    config = workspace / OUT / "vitest.config.mjs"
    root = json.dumps(str(workspace.resolve()))
    text = CONFIG % {"own": OWN, "root": root, "out": json.dumps(OUT), "test": json.dumps(test)}
    config.write_text(text, encoding="utf-8")
    return config


def _command(
    workspace: Path, modules: Path, runnable: list[str], canaries: str | None
) -> list[str]:
    """`vitest run` on `runnable` under our config (`canaries`: see JsRunner.run)."""
    config = write_config(workspace, runnable, options(workspace), canaries)
    return [node_program(), str(modules / "vitest" / "vitest.mjs"), "run", "--config", str(config)]


VITEST = JsRunner(
    name="Vitest",
    languages="JavaScript/TypeScript",
    suffixes=SUFFIXES,
    install="scripts/install-runners",
    own=OWN,
    report=REPORT,
    modules=lambda: modules_dir(NEEDED),
    command=_command,
)
missing = VITEST.missing
run = VITEST.run


def _server(workspace: Path, modules: Path, share: Path | None) -> list[str]:
    """Our files and the server's options (root, OUT, the test options; with `share`, the
    packages' script of node_share.py, the module that takes jsdom from it) written into
    OWN (ValueError for bad options); the server's command."""
    test = _own(workspace, options(workspace))
    own = workspace / OWN
    served: dict[str, object] = {
        "root": str(workspace.resolve()),
        "out": OUT,
        "coverage": f"{OUT}/{COVERAGE}",
        "test": test,
    }
    if share is not None:
        shutil.copyfile(JSDOM, own / "jsdom.mjs")
        shutil.copyfile(HARNESS / "shared.mjs", own / "shared.mjs")
        served["jsdom"] = "./jsdom.mjs"
    (own / "options.json").write_text(json.dumps(served), encoding="utf-8")
    shutil.copyfile(SERVER, own / "server.mjs")
    shutil.copyfile(VM, own / "vm.mjs")
    return [node_program(), str(own / "server.mjs")]


def warm(workspace: Path, suite: SuiteRun) -> WarmSpec | None:
    """Vitest's warm side (warm.py): vitest_server.mjs serves the runs; its test processes
    take jsdom from node's packages' script where there is one (read-only)."""
    modules = VITEST.modules()
    share = node_share.shared(modules) if modules is not None else None
    spec = VITEST.served(workspace, suite, partial(_server, share=share))
    if spec is None or share is None:
        return spec
    env = {**spec.env, "LLMBENCH_NODE_SHARE": str(share)}
    return replace(spec, env=env, reads=(*spec.reads, share))
