"""jsdom's default style sheet indexed by element name for Jest (functional/jsdom_sheet.js):
every element of a page built to reach every rule of that sheet has the same computed
style, property for property, with the index as without it, and an index that leaves a
rule out is told apart by the same page."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_llmbench.functional import jest

PROBE = Path(__file__).resolve().parents[1] / "fixtures" / "jsdom_styles_probe.js"

pytestmark = pytest.mark.skipif(
    jest.modules_dir() is None or shutil.which("node") is None, reason="runners/jest-react16"
)


def _styles(mode: str, sheet: Path) -> str:
    modules = jest.modules_dir()
    assert modules is not None
    environment = modules / "jest-environment-jsdom"
    done = subprocess.run(
        ["node", str(PROBE), str(environment), mode, str(sheet)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_indexed_sheet_gives_every_element_the_same_computed_style() -> None:
    plain = _styles("plain", jest.SHEET)
    assert plain.count("display: none") > 10 and "visibility: hidden" in plain
    assert _styles("sparse", jest.SHEET) == plain


def test_the_page_tells_an_index_that_leaves_rules_out(tmp_path: Path) -> None:
    wrong = tmp_path / "sheet.js"
    text = jest.SHEET.read_text(encoding="utf-8")
    broken = text.replace("names.add(name[0].toLowerCase());", "names.add('nothing');")
    assert broken != text
    wrong.write_text(broken, encoding="utf-8")
    assert _styles("sparse", wrong) != _styles("plain", jest.SHEET)
