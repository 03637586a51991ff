"""The hidden tests' page stubs and the harness's own additions are objects of the page's
realm (issue 25): from the page, every object and function they add, their prototypes,
instances and methods' results lead to the page's Function, never to Node's. The walk is
tests/fixtures/page_realm.test.mjs, run by the node runner with the scenarios' stubs."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.formats.functional import Functional, HiddenFile
from pytest_llmbench.functional.node import missing as node_missing
from pytest_llmbench.functional.verify import run_functional
from pytest_llmbench.schema.functional import FunctionalResult

ROOT = Path(__file__).resolve().parents[2]
WALK = ROOT / "tests" / "fixtures" / "page_realm.test.mjs"
STUBS = {
    "webaudio.mjs": "scenarios/migration/functional/VanillaToReact/Piano_NativeJS/webaudio.mjs",
    "react18.mjs": "scenarios/migration/functional/shared/react18.mjs",
}
APP = "document.getElementById('root').textContent = 'started';\n"
# A stand-in made the way webaudio.mjs made it before pageStub: classes of Node's realm
NODE_REALM_AUDIO = """\
export function fakeAudio() {
  class AudioContext { createOscillator() { return { frequency: { value: 440 } }; } }
  return { install(window) { window.AudioContext = AudioContext; } };
}
"""

needs_node = pytest.mark.skipif(node_missing() is not None, reason="no node or node packages")


def _walk(stubs: dict[str, str]) -> FunctionalResult:
    files = [HiddenFile("realm.test.mjs", WALK.read_text(encoding="utf-8"))]
    files += [HiddenFile(name, text) for name, text in stubs.items()]
    functional = Functional("node", "acceptance", "empty", 120.0, tuple(files))
    result = run_functional(functional, None, [("src/main.js", APP)])
    assert (result.error, result.total, result.tampered) == (None, 1, False), result
    return result


def _scenario_stubs() -> dict[str, str]:
    return {name: (ROOT / path).read_text(encoding="utf-8") for name, path in STUBS.items()}


@needs_node
def test_the_scenarios_stubs_and_the_harness_add_only_page_objects() -> None:
    result = _walk(_scenario_stubs())
    assert result.passed == 1, result.tests


@needs_node
def test_the_walk_finds_a_stub_made_in_nodes_realm() -> None:
    result = _walk({**_scenario_stubs(), "webaudio.mjs": NODE_REALM_AUDIO})
    (outcome,) = result.tests
    assert not outcome.passed
    assert "objects of Node's realm the page can reach: window.AudioContext" in outcome.message
