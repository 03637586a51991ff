"""The answer's own Jest tests (scenarios asking for Jest 29 on React 16 code), run by
real Jest with OUR config (never the answer's jest.config / babel config): jsdom, Babel
with preset-env (node current) and preset-react (automatic runtime), CSS and image
imports stubbed, our setup file (jest-dom's matchers) plus the answer's setup files the
scenario names, one process (`--runInBand`), `--ci` (snapshots never written), per-test
outcomes from our reporter (a JSON line per test file). Everything runs in the sandbox (code/sandbox.py).

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

from .. import sandbox
from ..node_packages import has_packages, node_missing
from .jsreport import finish, link_modules, read_options
from .node import MEMORY_MB
from .outcome import Run
from .workspace import HIDDEN

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
TREE = Path(__file__).resolve().parents[3] / "runners" / "jest-react16" / "node_modules"
OWN = ".llmbench-jest"
OPTIONS = "jest.json"
SUFFIXES = (".js", ".jsx", ".mjs", ".cjs")


class JestOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    setupFiles: list[str] = []  # noqa: N815 (the name Jest's users know)
    environment: Literal["jsdom", "node"] = "jsdom"


SETUP = "require('@testing-library/jest-dom');\n"
# One JSON line per test file as it finishes, in the shape of Jest's --json entries: with
# `bail`, Jest exits before --json writes anything.
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
        fullName: t.fullName, status: t.status, failureMessages: t.failureMessages,
      })),
    }) + '\\n');
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
  cacheDirectory: '<rootDir>/%(own)s/cache',
  testPathIgnorePatterns: ['/node_modules/'],
  watchman: false,
  bail: %(bail)s,
  reporters: [['<rootDir>/%(own)s/reporter.js', { out: %(out)s }]],
};
"""


def modules_dir() -> Path | None:
    """The package tree: $LLMBENCH_JEST_MODULES or runners/jest-react16/node_modules."""
    override = os.environ.get("LLMBENCH_JEST_MODULES")
    root = Path(override) if override else TREE
    if has_packages(root, NEEDED):
        return root.resolve()
    return None


def missing() -> str | None:
    """Why this machine cannot run Jest tests, or None."""
    return node_missing(modules_dir(), "Jest's", "scripts/install-runners (runners/jest-react16)")


def options(workspace: Path) -> JestOptions:
    """The scenario's options (ValueError naming the file and field when they are bad)."""
    return read_options(workspace / HIDDEN / OPTIONS, JestOptions)


def write_config(workspace: Path, modules: Path, opts: JestOptions, bail: bool) -> Path:
    """Our config, setup and stub files in OWN; returns the config's path."""
    own = workspace / OWN
    shutil.rmtree(own, ignore_errors=True)
    (own / "tmp").mkdir(parents=True)
    (own / "setup.js").write_text(SETUP, encoding="utf-8")
    (own / "stub.js").write_text("module.exports = {};\n", encoding="utf-8")
    (own / "reporter.js").write_text(REPORTER, encoding="utf-8")
    setups = [f"<rootDir>/{OWN}/setup.js"] + [
        f"<rootDir>/{s}" for s in opts.setupFiles if (workspace / s).is_file()
    ]
    environment = str(modules / "jest-environment-jsdom") if opts.environment == "jsdom" else "node"
    config = own / "jest.config.js"
    config.write_text(
        CONFIG
        % {
            "modules": json.dumps(str(modules)),
            "root": json.dumps(str(workspace.resolve())),
            "environment": json.dumps(environment),
            "own": OWN,
            "setup": json.dumps(setups),
            "bail": 1 if bail else 0,
            "out": json.dumps(str(own.resolve() / "results.jsonl")),
        },
        encoding="utf-8",
    )
    return config


def run(workspace: Path, tests: list[str], timeout_s: float, *, bail: bool = False) -> Run:
    """The answer's test files `tests` (workspace-relative; those Jest with Babel cannot
    run are left out) under our config; with `bail`, the run stops after the first
    failing test file."""
    runnable = sorted(t for t in tests if t.endswith(SUFFIXES))
    if not runnable:
        return Run.broken("the answer has no JavaScript test files for Jest")
    modules = modules_dir()
    if modules is None:
        return Run.broken(
            "Jest's packages are missing: run scripts/install-runners (runners/jest-react16)"
        )
    why = link_modules(workspace, modules)
    if why is not None:
        return Run.broken(why)
    try:
        config = write_config(workspace, modules, options(workspace), bail)
    except ValueError as exc:
        return Run.broken(str(exc))
    results = workspace / OWN / "results.jsonl"
    command = [
        "node",
        str(modules / "jest" / "bin" / "jest.js"),
        "--config",
        str(config),
        "--ci",
        "--runInBand",
        "--runTestsByPath",
        *runnable,
    ]
    env = {"CI": "1", "NO_COLOR": "1", "TMPDIR": str(workspace.resolve() / OWN / "tmp")}
    outcome = sandbox.run(
        command, workspace, timeout=timeout_s, memory_mb=MEMORY_MB, env=env, reads=[modules]
    )
    return finish(results, workspace, outcome)


def run_jest(workspace: Path, tests: list[str], timeout_s: float) -> Run:
    return run(workspace, tests, timeout_s)


def run_jest_bail(workspace: Path, tests: list[str], timeout_s: float) -> Run:
    """For mutant runs: the first failing test file is enough."""
    return run(workspace, tests, timeout_s, bail=True)
