"""jsdom's default style sheet indexed by element name (functional/jsdom_sheet.js), for
Jest's jsdom 20 and in node's packages' script (jsdom 25, harness/make-shared.mjs): every
element of a page built to reach every rule of that sheet has the same computed style,
property for property, with the index as without it, and an index that leaves a rule out
is told apart by the same page."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_llmbench.functional import jest, node, node_share
from pytest_llmbench.functional.workspace import HARNESS
from pytest_llmbench.toolchain.node_packages import node_program

PROBE = Path(__file__).resolve().parents[1] / "fixtures" / "jsdom_styles_probe.js"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no node")
needs_jest = pytest.mark.skipif(jest.modules_dir() is None, reason="runners/jest-react16")
needs_node = pytest.mark.skipif(node.missing() is not None, reason="the project's node_modules")


def _probe(source: Path, mode: str, given: Path | None = None) -> str:
    done = subprocess.run(
        [node_program(), str(PROBE), str(source), mode, *([str(given)] if given else [])],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def _styles(mode: str, sheet: Path) -> str:
    modules = jest.modules_dir()
    assert modules is not None
    return _probe(modules / "jest-environment-jsdom", mode, sheet)


def _shared(folder: Path, sheet: Path) -> Path:
    """node's packages' script alone (make-shared.mjs `bundle`), made with `sheet`."""
    modules = node.modules_dir(node.NEEDED)
    assert modules is not None
    folder.mkdir()
    subprocess.run(
        [node_program(), str(HARNESS / "make-shared.mjs"), "bundle", str(folder), str(sheet)],
        env={"PATH": os.environ["PATH"], "LLMBENCH_NODE_MODULES": str(modules)},
        capture_output=True,
        timeout=120,
        check=True,
    )
    return folder


@needs_jest
def test_indexed_sheet_gives_every_element_the_same_computed_style() -> None:
    plain = _styles("plain", jest.SHEET)
    assert plain.count("display: none") > 10 and "visibility: hidden" in plain
    assert _styles("sparse", jest.SHEET) == plain


@needs_jest
def test_the_page_tells_an_index_that_leaves_rules_out(tmp_path: Path) -> None:
    assert _styles("sparse", _wrong(tmp_path)) != _styles("plain", jest.SHEET)


def _wrong(tmp_path: Path) -> Path:
    """An index that puts every rule under a name no element has."""
    wrong = tmp_path / "sheet.js"
    text = jest.SHEET.read_text(encoding="utf-8")
    broken = text.replace("names.add(name[0].toLowerCase());", "names.add('nothing');")
    assert broken != text
    wrong.write_text(broken, encoding="utf-8")
    return wrong


@needs_node
def test_the_packages_script_indexes_jsdoms_sheet_with_the_same_computed_styles(
    tmp_path: Path,
) -> None:
    modules = node.modules_dir(node.NEEDED)
    assert modules is not None
    assert node_share.SHEET == jest.SHEET
    share = _shared(tmp_path / "share", node_share.SHEET)
    assert "sparseRules(cssom.parse(defaultStyleSheet)" in (share / "deps.cjs").read_text("utf-8")
    plain = _probe(modules, "plain")
    assert plain.count("display: none") > 10 and "visibility: hidden" in plain
    assert _probe(modules, "share", share) == plain
    wrong = _shared(tmp_path / "wrong", _wrong(tmp_path))
    assert _probe(modules, "share", wrong) != plain
