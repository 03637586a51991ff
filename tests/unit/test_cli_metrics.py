"""`llmbench complexity` and `llmbench datasets`: tables, JSON, and one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_llmbench.cli import main
from pytest_llmbench.metrics import eslint_ci
from tests.conftest import REPO, write_project


def test_complexity_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.js").write_text("function f(a) {\n  return a ?? 1;\n}\n")
    (tmp_path / "b.py").write_text("def g(x):\n    return 1 if x else 2\n")
    (tmp_path / "broken.js").write_text("const f = function")
    assert main(["complexity", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["file", "language", "CI", "LoC", "NLOC", "functions", "GCI"]
    assert out[-4].split() == ["total", "4", "5", "5", "2", "0.8000"]
    assert out[-3] == "buckets: complexity high, size low"
    counter = eslint_ci.counter()
    assert out[-2] == f"counted by: {counter + ' + radon' if counter else 'lizard + radon'}"
    why = "ESLint cannot parse it" if counter else "lizard found no function"
    assert out[-1].startswith(f"not analysed: {tmp_path}/broken.js: {why}")
    assert main(["complexity", "--json", str(tmp_path / "b.py")]) == 0
    document = json.loads(capsys.readouterr().out)
    (figures,) = document["files"]
    assert figures["functions"] == [{"name": "g", "line": 1, "ci": 2}]
    assert figures["maintainability"] is not None and "volume" in figures["halstead"]


def test_complexity_of_a_missing_path_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["complexity", "no/such/dir"]) == 2
    assert capsys.readouterr().err == (
        "llmbench: error: complexity: no such file or folder: no/such/dir\n"
    )


def test_datasets_table_json_and_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_project(tmp_path)
    monkeypatch.delenv("LLMBENCH_CACHE_DIR", raising=False)
    monkeypatch.chdir(tmp_path / "scenarios")  # the cache goes where the command runs
    assert main(["datasets", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == [
        "Mini",
        "javascript",
        "plain",
        "ES",
        "modules",
        "1",
        "3",
        "0.3333",
        "high",
        "low",
    ]
    assert list((tmp_path / "scenarios" / ".llmbench_cache" / "complexity").glob("*.json"))
    assert not (tmp_path / ".llmbench_cache").exists()
    assert main(["datasets", "--json", str(tmp_path / "datasets")]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["public_name"] == "Mini_high_low" and row["unanalysed"] == {}


def test_datasets_without_datasets_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["datasets", str(tmp_path)]) == 2
    assert "has no datasets/ folder" in capsys.readouterr().err


def _readme_console_blocks() -> list[tuple[list[str], str]]:
    """(arguments, printed output) of each `$ llmbench ...` console block in README.md."""
    text = (REPO / "README.md").read_text()
    found = re.findall(r"```console\n\$ llmbench ([^\n]*)\n(.*?)```", text, flags=re.S)
    return [(command.split(), output) for command, output in found]


def test_readme_shows_what_the_commands_print(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocks = _readme_console_blocks()
    assert [args[0] for args, _ in blocks] == ["complexity", "datasets"]
    monkeypatch.chdir(REPO)
    for args, shown in blocks:
        assert main(args) == 0
        assert capsys.readouterr().out == shown, f"README's `llmbench {' '.join(args)}`"
