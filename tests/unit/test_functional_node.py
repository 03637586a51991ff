"""node's test runner: the plan of a run (harness/planner.mjs, the tests node queued) read
back, and hidden tests a run did not reach listed `not run`, through the real runner in
the sandbox (skipped where node or its packages are missing)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional.node import missing, read_plan, read_results
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.schema.functional import FunctionalResult
from pytest_llmbench.toolchain.node_packages import node_program

HIDDEN = """\
import { test, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';

const page = (source) => openApp({ source: `import * as calc from './src/calc.js'; ${source}` });

test('adds two numbers', async () => {
  const app = await page('document.body.textContent = String(calc.add(2, 3));');
  assert.equal(app.document.body.textContent, '5');
});

test('greets Ada by name', async () => {
  const app = await page("document.body.textContent = calc.greet('Ada');");
  assert.equal(app.document.body.textContent, 'Hello, Ada!');
});

describe('negative numbers', () => {
  it('adds two', () => assert.equal(-1 + -2, -3));
  it('adds three', () => assert.equal(-1 + -2 + -3, -6));
});

test('parts', async (t) => {
  await t.test('first part', () => assert.ok(true));
});
"""
HONEST = "export const add = (a, b) => a + b;\nexport const greet = (name) => `Hello, ${name}!`;\n"
# greet never returns: the run is stopped at its time limit in the second test
HANGS = "export const add = (a, b) => a + b;\nexport const greet = () => { for (;;) {} };\n"
NAMES = {
    "adds two numbers",
    "greets Ada by name",
    "adds two",
    "adds three",
    "parts",
    "first part",
}


def _run(answer: str, limit: float) -> FunctionalResult:
    functional = Functional(
        "node", "acceptance", "empty", limit, (HiddenFile("calc.test.mjs", HIDDEN),)
    )
    return run_functional(functional, None, [("src/calc.js", answer)])


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
def test_a_complete_node_run_lists_every_test_once_and_none_as_not_run() -> None:
    """Suites and tests with subtests are planned too (node queues them): a run that
    finished accounts for each, so nothing is added."""
    result = _run(HONEST, 60.0)
    assert (result.error, result.tampered) == (None, False), result
    assert sorted(t.name for t in result.tests) == sorted(NAMES)
    assert {t.status for t in result.tests} == {"passed"}
    assert (result.passed, result.total, result.rate) == (6, 6, 1.0)


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
def test_a_node_run_stopped_in_its_second_test_lists_the_rest_as_not_run() -> None:
    # a limit the first test passes within on a loaded machine; the second never ends
    result = _run(HANGS, 15.0)
    assert result.error == "the test run was stopped at the time limit"
    statuses = {t.name: t.status for t in result.tests}
    assert statuses.pop("adds two numbers") == "passed"
    # the suite stands for its tests, which node queues only as it starts
    assert statuses == {
        "greets Ada by name": "not run",
        "negative numbers": "not run",
        "parts": "not run",
    }  # the canaries were planned too, and are never listed
    assert (result.passed, result.total, result.rate, result.tampered) == (1, 4, 0.0, False)


def _lines(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(f"{json.dumps(row)}\n" for row in rows), encoding="utf-8")
    return path


def test_a_suite_that_passed_is_no_test_and_a_plan_only_names_tests(tmp_path: Path) -> None:
    results = _lines(
        tmp_path / "results.jsonl",
        [
            {"name": "adds", "passed": True},
            {"name": "group", "passed": True, "suite": True},
            {"name": "broken group", "passed": False, "suite": True, "message": "no"},
            {"name": "later", "passed": True, "skipped": True},
        ],
    )
    tests, suites = read_results(results)
    assert [(t.name, t.status) for t in tests] == [
        ("adds", "passed"),
        ("broken group", "failed"),
        ("later", "skipped"),
    ]
    assert suites == {"group"}
    plan = tmp_path / "planned.jsonl"
    plan.write_text('{"name": "adds"}\nnot json\n{"other": 1}\n{"name": "group"}\n')
    assert read_plan(plan) == ["adds", "group"]


def test_the_plan_is_read_bounded_and_never_through_a_link(tmp_path: Path) -> None:
    secret = _lines(tmp_path / "secret.jsonl", [{"name": "a host secret"}])
    link = tmp_path / "planned.jsonl"
    link.symlink_to(secret)
    assert read_plan(link) == []
    huge = tmp_path / "huge.jsonl"
    huge.write_bytes(b'{"name": "t"}\n' * 200_000)
    assert read_plan(huge) == ["t"] * 10_000


# greet takes memory until the test process dies (V8 gives up at the sandbox's data limit)
CRASHES = (
    "export const add = (a, b) => a + b;\n"
    "export const greet = () => { const kept = []; for (;;) kept.push(new Array(1e6).fill(1)); };\n"
)


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
def test_an_answer_that_crashes_the_test_process_is_not_taken_for_tampering() -> None:
    """The canaries run before the file's own tests: a test process the answer's code
    brings down (here out of memory, in the second test) has run them all, so the tests
    it never reached are failures of the answer, not evidence of a forged verdict."""
    result = _run(CRASHES, 120.0)
    assert not result.tampered, result.tamper_evidence
    statuses = {t.name: t.status for t in result.tests}
    assert statuses["adds two numbers"] == "passed"
    assert statuses["greets Ada by name"] != "passed"
    assert (result.passed, result.total, result.rate) == (1, 4, 0.25)


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
def test_a_file_that_fails_outside_its_tests_says_why() -> None:
    """node reports such a file as "test failed"; the cause its process wrote to stderr
    (here the answer's module the tests import is missing) is the message instead, without
    the workspace's temporary path."""
    hidden = "import { test } from 'node:test';\nimport { add } from '../src/calc.js';\n"
    hidden += "test('adds', () => { if (add(1, 2) !== 3) throw new Error('no'); });\n"
    functional = Functional(
        "node", "acceptance", "empty", 60.0, (HiddenFile("c.test.mjs", hidden),)
    )
    result = run_functional(functional, None, [("src/other.js", HONEST)])
    failed = [t for t in result.tests if t.status == "failed"]
    assert failed and not result.tampered
    assert "ERR_MODULE_NOT_FOUND" in failed[0].message, failed[0]
    assert "Cannot find module 'src/calc.js'" in failed[0].message


REPORTERS = Path(__file__).resolve().parents[2] / "pytest_llmbench/functional/harness"
# A test file that failed outside its tests, as the reporters hear of it from node 20 (the
# file's own entry named by its absolute path) and from node 22 and later (named, and its
# stderr told, by its path from the working folder). The events are replayed, so the
# installed node's version does not matter.
REPLAY = """\
import path from 'node:path';
import planner from '%(dir)s/planner.mjs';
import reporter from '%(dir)s/reporter.mjs';
const file = path.resolve('.h/c.test.mjs');
const named = process.argv[2] === 'relative' ? '.h/c.test.mjs' : file;
const events = [
  { type: 'test:enqueue', data: { name: named, file, nesting: 0 } },
  { type: 'test:stderr', data: { file: named, message: 'Error [ERR_MODULE_NOT_FOUND]: no calc\\n' } },
  { type: 'test:enqueue', data: { name: 'adds', file, nesting: 0 } },
  { type: 'test:fail', data: { name: named, file, nesting: 0, details: { error: { cause: 'test failed' } } } },
];
async function* source() { yield* events; }
const lines = async (r) => { let all = ''; for await (const line of r(source())) all += line; return all; };
process.stdout.write(JSON.stringify({ plan: await lines(planner), results: await lines(reporter) }));
"""


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
@pytest.mark.parametrize("naming", ["absolute", "relative"])
def test_a_test_files_own_entry_is_no_test_under_either_naming(naming: str, tmp_path: Path) -> None:
    """The plan lists only the file's test; the file's failure gets its stderr's cause."""
    script = tmp_path / "replay.mjs"
    script.write_text(REPLAY % {"dir": REPORTERS.as_posix()}, encoding="utf-8")
    done = subprocess.run(
        [node_program(), str(script), naming],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [json.loads(line)["name"] for line in out["plan"].splitlines()] == ["adds"]
    (failed,) = [json.loads(line) for line in out["results"].splitlines()]
    assert failed["passed"] is False
    assert failed["message"] == "Error [ERR_MODULE_NOT_FOUND]: no calc", failed
