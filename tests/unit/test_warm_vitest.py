"""Vitest's warm server (functional/vitest_server.mjs) in real sandboxed runs: served runs give
the outcomes runs of their own give, on the code as given and on a mutant (whose change the
server sees), and the same coverage of the clean run; each run starts from a fresh realm (a
global one run sets is not there in the next); a test that ends the server ends its run,
and the next run starts a new server that works; the canaries still catch a report the
tests forged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_llmbench.formats.dataset import Dataset, SourceFile
from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.formats.mutants import load_mutants
from pytest_llmbench.functional import vitest
from pytest_llmbench.functional.mutation import Lab, answer_files_used, killed
from pytest_llmbench.functional.outcome import Run
from pytest_llmbench.functional.vitest import NEEDED
from pytest_llmbench.toolchain import sandbox
from pytest_llmbench.toolchain.node_packages import modules_dir

pytestmark = [
    pytest.mark.skipif(modules_dir(NEEDED) is None, reason="npm packages missing"),
    pytest.mark.skipif(
        sandbox.missing() is not None or not sandbox.kernel_holds_limit(),
        reason="a warm server needs bubblewrap and the kernel's process count",
    ),
    pytest.mark.timeout(300),
]

CALC = """\
export function isEven(n) {
  return n % 2 === 0;
}
"""
MUTANTS = "- {id: odd, file: src/calc.js, find: 'n % 2 === 0', replace: 'n % 2 !== 0'}\n"
SUITE = """\
import { isEven } from './calc.js';

describe('calc', () => {
  it('knows an even number', () => expect(isEven(4)).toBe(true));
  it('knows an odd number', () => expect(isEven(3)).toBe(false));
});
"""
# Fails in any run that sees what an earlier run left in its realm or its process.
# The served runs' test process is kept across runs (the vm pool, vitest_vm.mjs): its
# `process`, however taken, is the realm's own.
LEAVES_A_MARK = """\
import { createRequire } from 'node:module';
import imported from 'node:process';
import './calc.js';

const required = createRequire(import.meta.url)('process');
const taken = process.getBuiltinModule('process');

it('finds no mark of an earlier run', () => {
  const all = [process, imported, required, taken];
  const seen = [globalThis.__llmbenchMark, process.env.LLMBENCH_MARK, process.argv.includes('mark')];
  seen.push(...all.map((p) => p.__llmbenchMark));
  globalThis.__llmbenchMark = 1;
  process.env.LLMBENCH_MARK = '1';
  process.argv.push('mark');
  all.forEach((p, i) => { p.__llmbenchMark = i; });
  expect(all.every((p) => p === process)).toBe(true);
  expect(seen).toEqual([undefined, undefined, false, undefined, undefined, undefined, undefined]);
});
"""
# On the mutant only, ends the server (the test process's parent); first it forges a report
# that says every test passed, without the canaries.
ENDS_THE_SERVER = """\
import fs from 'node:fs';
import { isEven } from './calc.js';

it('knows an even number', () => {
  if (!isEven(4)) {
    const forged = { testResults: [{ name: 'src/calc.test.js', status: 'passed',
      assertionResults: [{ fullName: 'knows an even number', status: 'passed' }] }] };
    fs.writeFileSync('.llmbench-out/report.json', JSON.stringify(forged));
    process.kill(process.ppid, 'SIGKILL');
  }
  expect(isEven(4)).toBe(true);
});
"""


def _lab(
    tmp_path: Path,
    suite: str,
    *,
    served: bool = True,
    more: list[tuple[str, str]] | None = None,
    environment: str = "node",
    files: dict[str, str] | None = None,
    mutants: str = MUTANTS,
) -> Lab:
    options = HiddenFile("vitest.json", json.dumps({"environment": environment}))
    functional = Functional(
        "vitest", "mutation", "dataset", 60.0, (options,), mutants, "scratch/mutants.yaml"
    )
    sources = {**(files or {"src/calc.js": CALC}), "package.json": "{}"}
    dataset = Dataset(
        "Scratch",
        "javascript",
        tmp_path,
        "JS",
        "scratch",
        tuple(SourceFile(path, text) for path, text in sources.items()),
    )
    given = [("src/calc.test.js", suite), *(more or [])]
    used, _ = answer_files_used(given, set(sources))
    root = tmp_path / ("served" if served else "own")
    root.mkdir()
    lab = Lab.build(root, functional, dataset, used)
    if not served:
        lab.warm = None
    return lab


def _outcomes(run: Run) -> list[tuple[str, str]]:
    return [(t.name, t.status) for t in run.tests]


def _mutant_run(lab: Lab) -> Run:
    (mutant,) = load_mutants(MUTANTS, "m.yaml", {"src/calc.js": CALC})
    return lab.mutant(mutant)


def test_served_runs_give_the_outcomes_of_runs_of_their_own(tmp_path: Path) -> None:
    served, own = _lab(tmp_path, SUITE), _lab(tmp_path, SUITE, served=False)
    try:
        runs = [(lab.clean(), _mutant_run(lab), lab.clean()) for lab in (served, own)]
        assert served.server is not None and served.server.starts == 1 and served.served
        assert own.server is None
    finally:
        served.close()
    (clean, mutant, again), (own_clean, own_mutant, _) = runs
    assert clean.all_passed and _outcomes(clean) == _outcomes(own_clean) == _outcomes(again)
    assert killed(mutant) and _outcomes(mutant) == _outcomes(own_mutant)
    assert _outcomes(mutant)[0] == ("src/calc.test.js > calc knows an even number", "failed")
    assert served.evidence == own.evidence == []
    # the clean run's coverage (coverage.py), noted alike by both
    ran = {".llmbench-vitest/setup.mjs", "src/calc.js", "src/calc.test.js"}
    assert served.coverage is not None and own.coverage is not None
    assert served.coverage.ran["src/calc.test.js"] == own.coverage.ran["src/calc.test.js"] == ran


@pytest.mark.parametrize("environment", ["node", "jsdom"])
def test_each_run_starts_from_a_fresh_realm(tmp_path: Path, environment: str) -> None:
    lab = _lab(tmp_path, LEAVES_A_MARK, environment=environment)
    try:
        runs = [lab.clean(), _mutant_run(lab), lab.clean()]
        assert lab.server is not None and lab.server.starts == 1
    finally:
        lab.close()
    assert [r.all_passed for r in runs] == [True, True, True], [_outcomes(r) for r in runs]
    assert lab.evidence == []


# A package's compiled script is kept across contexts (vitest_vm.mjs); what it makes as it
# runs is each context's own.
PACKAGE_STATE = """\
import React from 'react';
import './calc.js';

it('gets its own React', () => {
  const seen = React.__llmbenchMark;
  React.__llmbenchMark = 1;
  expect(seen).toBe(undefined);
});
"""


def test_each_test_file_runs_the_packages_afresh(tmp_path: Path) -> None:
    lab = _lab(tmp_path, PACKAGE_STATE, more=[("src/other.test.js", PACKAGE_STATE)])
    try:
        runs = [lab.clean(), _mutant_run(lab), lab.clean()]
        assert lab.server is not None and lab.server.starts == 1
    finally:
        lab.close()
    assert [len(r.tests) for r in runs] == [2, 2, 2]
    assert [r.all_passed for r in runs] == [True, True, True], [_outcomes(r) for r in runs]


def test_a_served_run_reads_again_a_file_required_by_path(tmp_path: Path) -> None:
    """The vm pool keeps what it read outside its module runner (a CommonJS file a test
    requires by path) for the test process's life; the mutant's file is read afresh.
    Without coverage: the module runner's coverage does not see such a file."""
    cjs = "module.exports = { isEven: (n) => n % 2 === 0 };\n"
    mutants = "- {id: odd, file: src/calc.cjs, find: 'n % 2 === 0', replace: 'n % 2 !== 0'}\n"
    suite = (
        "import { createRequire } from 'node:module';\n"
        "const { isEven } = createRequire(import.meta.url)('./calc.cjs');\n"
        "it('knows an even number', () => expect(isEven(4)).toBe(true));\n"
    )
    lab = _lab(tmp_path, suite, files={"src/calc.cjs": cjs}, mutants=mutants)
    lab.covers = False
    try:
        clean = lab.clean()
        (mutant,) = load_mutants(mutants, "m.yaml", {"src/calc.cjs": cjs})
        run = lab.mutant(mutant)
        assert lab.server is not None and lab.server.starts == 1
    finally:
        lab.close()
    assert clean.all_passed and run is not None and killed(run), _outcomes(run)


def test_a_run_that_ends_the_server_is_caught_and_the_next_run_gets_a_new_one(
    tmp_path: Path,
) -> None:
    lab = _lab(tmp_path, ENDS_THE_SERVER)
    try:
        assert lab.clean().all_passed
        ended = _mutant_run(lab)
        assert lab.evidence and all("canary" in line for line in lab.evidence), lab.evidence
        lab.evidence.clear()
        again = lab.clean()
        assert lab.server is not None and lab.server.starts == 2
    finally:
        lab.close()
    assert ended.returncode != 0 and ended.stopped is None
    assert again.all_passed and lab.evidence == []


def test_a_mutant_run_starts_with_the_smaller_test_files(tmp_path: Path) -> None:
    """Without coverage (coverage.py: the clean run's left out here), the smaller first, so the small unit test stops
    the mutant's run and the large suite (first by name) is not run at all."""
    large = SUITE.replace("describe('calc'", "describe('a large suite'") + "\n" * 4000
    small = (
        "import { isEven } from './calc.js';\nit('is even', () => expect(isEven(2)).toBe(true));\n"
    )
    lab = _lab(tmp_path, large, more=[("src/small.test.js", small)])
    lab.covers = False
    try:
        assert lab.tests == ["src/small.test.js", "src/calc.test.js"]
        assert lab.clean().all_passed
        run = _mutant_run(lab)
    finally:
        lab.close()
    statuses = {t.name: t.status for t in run.tests}
    assert statuses["src/small.test.js > is even"] == "failed"
    # the vm pool leaves the files it did not start out of its report; a run of its own
    # reports them skipped
    assert {statuses[n] for n in statuses if n.startswith("src/calc.test.js")} <= {"skipped"}


# Passes when the page's jsdom was loaded as `files` jsdom modules (1: the packages' script).
JSDOM_FILES = """\
it('has a page', () => {
  // node's own module cache (the test process's), not the vm context's
  const cache = process.getBuiltinModule('node:module')._cache;
  const files = Object.keys(cache).filter((f) => f.includes('/jsdom/lib/'));
  document.body.innerHTML = '<p>hello</p>';
  expect(document.querySelector('p').textContent).toBe('hello');
  expect(files.length).toBe(%d);
});
"""


@pytest.mark.parametrize("share", ["script", "none", "damaged"])
def test_served_runs_take_jsdom_from_the_packages_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, share: str
) -> None:
    """With node's packages' script (node_share.py), the test process takes jsdom from it,
    one module in place of jsdom's files, and the page works; without it, or with a script
    that does not load, jsdom loads as itself and the page works as well."""
    if share == "none":
        monkeypatch.setattr(vitest.node_share, "shared", lambda modules: None)
    elif share == "damaged":
        damaged = tmp_path / "share"
        damaged.mkdir()
        (damaged / "deps.cjs").write_text("throw new Error('not a script');\n", encoding="utf-8")
        (damaged / "deps.plain.cache").write_bytes(b"\0" * 64)
        monkeypatch.setattr(vitest.node_share, "shared", lambda modules: damaged)
    elif vitest.node_share.shared(vitest.VITEST.modules() or Path()) is None:
        pytest.skip("node's packages' script cannot be made here")
    if share == "script":
        suite = JSDOM_FILES % 1
    else:
        suite = JSDOM_FILES.replace("toBe(%d)", "toBeGreaterThan(100)")
    lab = _lab(tmp_path, suite, environment="jsdom")
    try:
        run = lab.clean()
        assert lab.server is not None and lab.server.starts == 1
    finally:
        lab.close()
    assert run.all_passed, _outcomes(run)


# Tries to change the packages' script the test process took jsdom from, as an answer's
# test could; passes when the write is refused.
WRITES_THE_SCRIPT = """\
import fs from 'node:fs';
import path from 'node:path';

it('cannot change the packages script', () => {
  const folder = process.env.LLMBENCH_NODE_SHARE;
  let write = 'no folder';
  try {
    fs.writeFileSync(path.join(folder, 'deps.cjs'), 'module.exports = {}');
    write = 'done';
  } catch (error) {
    write = error.code;
  }
  expect(write).toBe('EROFS');
});
"""


def test_a_served_test_cannot_change_the_packages_script(tmp_path: Path) -> None:
    modules = vitest.VITEST.modules()
    share = vitest.node_share.shared(modules) if modules is not None else None
    if share is None:
        pytest.skip("node's packages' script cannot be made here")
    before = (share / "deps.cjs").read_bytes()
    lab = _lab(tmp_path, WRITES_THE_SCRIPT, environment="jsdom")
    try:
        run = lab.clean()
    finally:
        lab.close()
    assert run.all_passed, _outcomes(run)
    assert (share / "deps.cjs").read_bytes() == before
