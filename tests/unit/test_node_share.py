"""The packages' script and V8 code cache node's harness loads (functional/node_share.py,
harness/shared.mjs), through the real runner in the sandbox: made once from our own code,
loaded by a run with its code cache, read-only to it, and a damaged cache only costs the
compile it would have saved."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional import node_share
from pytest_llmbench.functional.node import missing
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.toolchain import sandbox
from pytest_llmbench.toolchain.node_packages import modules_dir

pytestmark = pytest.mark.skipif(
    missing() is not None or sandbox.missing() is not None, reason="no node, packages or sandbox"
)

# Reports, as its failure message, how the harness got its packages, after trying to
# change the script it got them from (as code that reached Node's realm would).
PROBE = """\
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApp, sharedScript } from './harness.mjs';

test('probe', async () => {
  const app = await openApp({ source: "document.body.innerHTML = '<button>Go</button>'" });
  await app.user.click(app.getByRole('button', { name: 'Go' }));
  const folder = process.env.LLMBENCH_NODE_SHARE;
  let write = 'no folder';
  try {
    writeFileSync(path.join(folder, 'deps.cjs'), 'module.exports = {}');
    write = 'done';
  } catch (error) {
    write = error.code;
  }
  const script = sharedScript();
  assert.fail(JSON.stringify({ loaded: Boolean(script), rejected: Boolean(script && script.cachedDataRejected), write }));
});
"""


def _probe() -> dict[str, object]:
    functional = Functional(
        "node", "acceptance", "empty", 120.0, (HiddenFile("p.test.mjs", PROBE),)
    )
    result = run_functional(functional, None, [("src/a.js", "")])
    [test] = result.tests
    return dict(json.loads(test.message))


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "node"
    monkeypatch.setenv(node_share.CACHE_ENV, str(folder))
    monkeypatch.setattr(node_share, "_made", {})
    return folder


def test_a_run_loads_the_packages_script_with_its_code_cache_read_only(cache: Path) -> None:
    modules = modules_dir(("jsdom",))
    assert modules is not None
    folder = node_share.shared(modules)
    assert folder is not None and folder.parent == cache
    assert sorted(p.name for p in folder.iterdir()) == sorted(node_share.FILES)
    assert node_share.shared(modules) == folder  # made once
    before = {name: (folder / name).read_bytes() for name in node_share.FILES}
    assert _probe() == {"loaded": True, "rejected": False, "write": "EROFS"}
    assert {name: (folder / name).read_bytes() for name in node_share.FILES} == before


def test_a_damaged_code_cache_is_refused_by_v8_and_the_run_goes_on(cache: Path) -> None:
    modules = modules_dir(("jsdom",))
    assert modules is not None
    folder = node_share.shared(modules)
    assert folder is not None
    (folder / "deps.cache").write_bytes(b"\0" * 4096)
    assert _probe() == {"loaded": True, "rejected": True, "write": "EROFS"}


def test_without_the_script_the_harness_requires_the_packages(cache: Path) -> None:
    modules = modules_dir(("jsdom",))
    assert modules is not None
    folder = node_share.shared(modules)
    assert folder is not None
    shutil.rmtree(folder)
    folder.mkdir()  # found, but empty: nothing loads from it
    assert _probe() == {"loaded": False, "rejected": False, "write": "EROFS"}


def test_packages_alike_at_another_path_get_a_script_of_their_own(tmp_path: Path) -> None:
    """The script names a file of jsdom's by its path: the same packages in another
    checkout (the same package.json files) must not be given this checkout's script."""
    modules = modules_dir(("jsdom",))
    assert modules is not None
    copies = []
    for name in ("a", "b"):
        copy = tmp_path / name / "node_modules"
        for package in node_share.PACKAGES:
            (copy / package).mkdir(parents=True)
            shutil.copyfile(modules / package / "package.json", copy / package / "package.json")
        copies.append(copy)
    assert node_share._key(copies[0]) != node_share._key(copies[1])
    assert node_share._key(copies[0]) == node_share._key(copies[0])
