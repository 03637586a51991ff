"""The app bundles of node runs cached by content (functional/node_bundles.py): the salt
and key a bundle is stored under, the requests learnt from a run's (hostile) notes, what
is stored from the step before a run, and, through the real runner in the sandbox, that
a run reads its answer's bundles and can write none of the cache."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional import node_bundles
from pytest_llmbench.functional.node import missing
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.functional.workspace import HARNESS, HIDDEN, OUT
from pytest_llmbench.schema.functional import FunctionalResult
from pytest_llmbench.toolchain import sandbox
from pytest_llmbench.toolchain.node_packages import node_program

SPEC = json.dumps([None, "import './src/a.js';", "tsx", False], separators=(",", ":"))


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(node_bundles.CACHE_ENV, str(folder))
    return folder


def _workspace(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text, encoding="utf-8")
    return root


def test_the_salt_follows_the_answers_files_and_not_the_hidden_tests_or_reports(
    tmp_path: Path,
) -> None:
    modules = tmp_path / "node_modules"
    modules.mkdir()
    files = {"src/a.js": "export const a = 1;\n", "index.html": "<div id=root></div>"}
    one = _workspace(tmp_path / "w" / "one", files)
    two = _workspace(tmp_path / "w" / "two", files)
    assert node_bundles.salt(one, modules) == node_bundles.salt(two, modules)
    _workspace(two, {f"{HIDDEN}/x.test.mjs": "// canaries differ", f"{OUT}/results.jsonl": "{}"})
    assert node_bundles.salt(one, modules) == node_bundles.salt(two, modules)
    _workspace(two, {"src/a.js": "export const a = 2;\n"})
    assert node_bundles.salt(one, modules) != node_bundles.salt(two, modules)
    three = _workspace(tmp_path / "w" / "three", {**files, "src/b.js": ""})
    assert node_bundles.salt(one, modules) != node_bundles.salt(three, modules)


def test_the_salt_follows_our_build_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    modules = tmp_path / "node_modules"
    modules.mkdir()
    work = _workspace(tmp_path / "w", {"src/a.js": ""})
    before = node_bundles.salt(work, modules)
    harness = tmp_path / "harness"
    shutil.copytree(HARNESS, harness)
    monkeypatch.setattr(node_bundles, "HARNESS", harness)
    assert node_bundles.salt(work, modules) == before
    (harness / "bundler.mjs").write_text("// another build\n", encoding="utf-8")
    assert node_bundles.salt(work, modules) != before


@pytest.mark.skipif(missing() is not None, reason="no node or node packages")
def test_a_requests_key_is_the_same_in_python_and_in_the_harness() -> None:
    specs = [SPEC, json.dumps(["src/main.tsx", None, "tsx", True]), '["é ✓ 𝄞",null,"tsx",false]']
    script = (
        f"import {{ bundleKey }} from '{(HARNESS / 'bundler.mjs').as_uri()}';"
        "for (const s of JSON.parse(process.argv[1])) console.log(bundleKey(s));"
    )
    modules = os.environ.get("LLMBENCH_NODE_MODULES") or str(Path.cwd() / "node_modules")
    done = subprocess.run(
        [node_program(), "--input-type=module", "-e", script, json.dumps(specs)],
        capture_output=True,
        text=True,
        env={**os.environ, "LLMBENCH_NODE_MODULES": modules},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [node_bundles.key(s) for s in specs]


@pytest.mark.parametrize(
    "spec",
    [
        '["src/main.jsx",null,"tsx",false]',
        '[null,"import x from \'./a\'","jsx",true]',
    ],
)
def test_a_request_as_the_harness_writes_it_is_a_spec(spec: str) -> None:
    assert node_bundles.is_spec(spec)


@pytest.mark.parametrize(
    "spec",
    [
        '["src/main.jsx","and a source","tsx",false]',  # entry and source
        '[null,null,"tsx",false]',  # neither
        '["src/main.jsx",null,"tsx","yes"]',
        '["src/main.jsx",null,"tsx"]',
        '{"entry":"src/main.jsx"}',
        "not json",
        json.dumps([None, "x" * node_bundles.MAX_SPEC_CHARS, "tsx", False]),
        ["src/main.jsx", None, "tsx", False],  # not a string
    ],
)
def test_anything_else_is_no_spec(spec: object) -> None:
    assert not node_bundles.is_spec(spec)


def test_requests_are_learnt_bounded_from_hostile_notes_and_kept_for_later_sessions(
    cache: Path, tmp_path: Path
) -> None:
    notes = tmp_path / "bundles.jsonl"
    specs = [json.dumps([f"src/m{i}.js", None, "tsx", False]) for i in range(12)]
    lines = ["junk", json.dumps({"spec": 7}), json.dumps({"spec": '["a","b","tsx",false]'})]
    lines += [json.dumps({"spec": s}) for s in specs + specs[:3]]
    notes.write_text("\n".join(lines) + "\n", encoding="utf-8")
    learnt = node_bundles.Learnt()
    learnt.learn("tests", notes)
    assert learnt.specs("tests") == specs[-node_bundles.MAX_SPECS :]
    assert learnt.specs("other tests") == []
    assert node_bundles.Learnt().specs("tests") == specs[-node_bundles.MAX_SPECS :]
    link = tmp_path / "link.jsonl"
    link.symlink_to(notes)
    fresh = node_bundles.Learnt()
    fresh.learn("by a link", link)  # our code never writes a link: nothing is read
    assert fresh.specs("by a link") == []


def test_only_the_steps_bundles_are_stored_and_never_through_a_link(tmp_path: Path) -> None:
    made, folder = tmp_path / "made", tmp_path / "cache" / "salt"
    made.mkdir()
    good = node_bundles.key(SPEC) + ".js"
    (made / good).write_text("window.app = 1;", encoding="utf-8")
    mark = node_bundles.key("does not build") + ".none"
    (made / mark).write_text("", encoding="utf-8")
    (made / "notakey.js").write_text("x", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("host file", encoding="utf-8")
    (made / (node_bundles.key("other") + ".js")).symlink_to(secret)
    (made / (node_bundles.key("folder") + ".js")).mkdir()
    assert node_bundles.store(made, folder) == 2
    assert sorted(p.name for p in folder.iterdir()) == sorted([good, mark])
    assert node_bundles.made(folder, SPEC) and node_bundles.made(folder, "does not build")
    assert not node_bundles.made(folder, "other")
    assert not (folder / good).is_symlink()
    assert (folder / good).read_text(encoding="utf-8") == "window.app = 1;"
    assert node_bundles.store(tmp_path / "none", folder) == 0


def test_prune_keeps_the_latest_folders_and_the_learnt_requests(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    for i in range(5):
        (root / f"salt{i}").mkdir(parents=True)
        os.utime(root / f"salt{i}", ns=(i * 10**9, i * 10**9))
    (root / node_bundles.SPECS_FOLDER).mkdir()
    node_bundles.prune(root, keep=2)
    assert sorted(p.name for p in root.iterdir()) == ["requests", "salt3", "salt4"]


# --- through the runner, in the sandbox -------------------------------------------------

# The answer's module, loaded by the hidden tests in Node's realm (as code that left the
# page would be): it tries to change the cache its run reads, and to see the rest of it.
HOSTILE = """\
import fs from 'node:fs';
import path from 'node:path';
export const tried = [];
const folder = process.env.LLMBENCH_BUNDLES;
const attempt = (what, act) => {
  try { act(); tried.push(`${what}: done`); } catch (error) { tried.push(`${what}: ${error.code}`); }
};
if (folder) {
  const [bundle] = fs.readdirSync(folder);
  const file = path.join(folder, bundle);
  attempt('overwrite', () => fs.writeFileSync(file, 'document.body.textContent = "forged";'));
  attempt('append', () => fs.appendFileSync(file, ';document.body.textContent = "forged";'));
  attempt('add', () => fs.writeFileSync(path.join(folder, `${'f'.repeat(64)}.js`), 'x'));
  attempt('remove', () => fs.unlinkSync(file));
  attempt('rename', () => fs.renameSync(file, `${file}.old`));
  attempt('chmod', () => fs.chmodSync(file, 0o666));
  attempt('folder', () => fs.mkdirSync(path.join(path.dirname(folder), 'planted')));
  tried.push(`seen: ${fs.readdirSync(path.dirname(folder)).join(',')}`);
}
"""
TESTS = """\
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp } from './harness.mjs';
import { tried } from '../src/calc.mjs';

test('shows the sum', async () => {
  const app = await openApp({ source: "import { add } from './src/add.js'; document.body.textContent = String(add(2, 3));" });
  assert.equal(app.document.body.textContent, '5');
});

test('the cache stays as it was', () => {
  const folder = process.env.LLMBENCH_BUNDLES;
  assert.ok(folder, 'this run has no bundles made before it');
  assert.deepEqual(tried.filter((line) => line.endsWith(': done')), [], tried.join('; '));
  assert.equal(tried.at(-1), `seen: ${folder.split('/').at(-1)}`, tried.join('; '));
});
"""


def _run_hostile() -> FunctionalResult:
    functional = Functional(
        "node", "acceptance", "empty", 120.0, (HiddenFile("c.test.mjs", TESTS),)
    )
    answer = [("src/add.js", "export const add = (a, b) => a + b;\n"), ("src/calc.mjs", HOSTILE)]
    return run_functional(functional, None, answer)


def _contents(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.mark.skipif(
    missing() is not None or sandbox.missing() is not None, reason="no node, packages or sandbox"
)
def test_a_run_reads_its_answers_bundles_and_cannot_change_the_cache(cache: Path) -> None:
    first = _run_hostile()  # builds in its own process; its request is learnt
    assert {t.name: t.passed for t in first.tests} == {
        "shows the sum": True,
        "the cache stays as it was": False,
    }
    assert not (set(cache.iterdir()) - {cache / node_bundles.SPECS_FOLDER})
    other = cache / ("0" * 64)  # another answer's bundles, which this run must not see
    other.mkdir()
    (other / f"{'1' * 64}.js").write_text("another answer", encoding="utf-8")
    second = _run_hostile()  # the step before it made the bundle: the answer attacks it
    assert second.phases.get("build", 0.0) > 0.0
    assert (second.passed, second.total, second.error) == (2, 2, None), second.tests
    stored = [p for p in cache.iterdir() if p.name not in {node_bundles.SPECS_FOLDER, other.name}]
    assert len(stored) == 1 and len(list(stored[0].iterdir())) == 1
    before = _contents(cache)
    third = _run_hostile()  # all made: no step; the same attacks
    assert third.phases.get("build", 0.0) == 0.0
    assert (third.passed, third.total) == (2, 2), third.tests
    assert _contents(cache) == before
    # the run took the stored bundle and did not build: one changed by its owner shows
    [bundle] = stored[0].iterdir()
    bundle.write_text('document.body.textContent = "from the cache";', encoding="utf-8")
    fourth = _run_hostile()
    shown = {t.name: t for t in fourth.tests}["shows the sum"]
    assert not shown.passed and "from the cache" in shown.message


@pytest.mark.skipif(
    missing() is not None or sandbox.missing() is not None, reason="no node, packages or sandbox"
)
def test_a_request_that_does_not_build_from_an_answer_is_marked_once(cache: Path) -> None:
    tests = (
        "import { test } from 'node:test';\nimport { openApp } from './harness.mjs';\n"
        "test('opens', async () => { await openApp({ source: \"import './src/app.js';\" }); });\n"
    )
    functional = Functional(
        "node", "acceptance", "empty", 120.0, (HiddenFile("o.test.mjs", tests),)
    )
    assert run_functional(functional, None, [("src/app.js", "")]).passed == 1  # learnt
    runs = [run_functional(functional, None, [("src/other.js", "")]) for _ in range(2)]
    assert [r.passed for r in runs] == [0, 0]
    assert "does not build" in runs[0].tests[0].message
    assert runs[0].phases.get("build", 0.0) > 0.0  # the step tried, and marked it
    assert runs[1].phases.get("build", 0.0) == 0.0  # not tried again
    marks = [p for p in cache.rglob("*.none")]
    assert len(marks) == 1 and marks[0].stat().st_size == 0
