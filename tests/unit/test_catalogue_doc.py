"""`llmbench catalogue`: the catalogue page's tables come from the scenario and dataset files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.cli import main
from tests.conftest import REPO, write_project

DOC = """# Catalogue
<!-- categories:start -->
stale
<!-- categories:end -->
text kept
<!-- scenarios:start -->
<!-- scenarios:end -->
<!-- datasets:start -->
<!-- datasets:end -->
"""


def test_the_repository_catalogue_page_is_current(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code = main(["catalogue", str(REPO), "--check", str(REPO / "docs" / "catalogue.md")])
    assert code == 0, capsys.readouterr().out
    monkeypatch.chdir(REPO)  # a relative root reads the same hidden tests
    assert main(["catalogue", ".", "--check", "docs/catalogue.md"]) == 0, capsys.readouterr()


def test_write_fills_every_block_and_check_sees_staleness(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(tmp_path)
    doc = tmp_path / "catalogue.md"
    doc.write_text(DOC)
    assert main(["catalogue", str(tmp_path), "--check", str(doc)]) == 1
    assert "is out of date" in capsys.readouterr().out
    assert main(["catalogue", str(tmp_path), "--write", str(doc)]) == 0
    text = doc.read_text()
    assert "stale" not in text and "text kept" in text
    assert "| `generation` | Component generation | built-in | 1 |" in text
    assert "| `AddGreeting` | Add a greeting function | `generation` | Mini | 2 + 2 (3) |" in text
    assert "2 scenarios, 2 items per model." in text
    assert "| `Mini` | javascript | plain ES modules | 1 | 3 |" in text
    assert main(["catalogue", str(tmp_path), "--check", str(doc)]) == 0


def test_a_page_without_a_block_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_project(tmp_path)
    doc = tmp_path / "catalogue.md"
    doc.write_text(DOC.replace("<!-- datasets:end -->\n", ""))
    assert main(["catalogue", str(tmp_path), "--write", str(doc)]) == 2
    assert capsys.readouterr().err == (
        f"llmbench: error: catalogue: {doc} has no <!-- datasets:start --> ... "
        "<!-- datasets:end --> block\n"
    )
    assert doc.read_text() == DOC.replace("<!-- datasets:end -->\n", "")
