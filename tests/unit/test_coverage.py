"""Which test files can see a mutant (functional/coverage.py), from the files each test
file's clean run executed: the test files that ran code of the mutated file, the most
focused first, none for a file no test ran, and a coverage file written by hostile code
(not JSON, wrong shapes, a link) read as far as it is sound."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_llmbench.formats.mutants import Mutant, load_mutants
from pytest_llmbench.functional.coverage import Coverage

TEXT = "function a() {\n  return 1;\n}\n"
MUTANT = "- {id: one, file: %s, find: 'return 1', replace: 'return 0'}\n"


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    return path


def _mutant(file: str) -> Mutant:
    return load_mutants(MUTANT % file, "m.yaml", {file: TEXT})[0]


def test_a_mutant_runs_with_the_test_files_that_ran_its_file(tmp_path: Path) -> None:
    rows = [
        {"test": "wide.test.js", "files": ["src/m.js", "src/n.js"]},
        {"test": "a.test.js", "files": ["src/m.js", 7, None]},
        {"test": "none.test.js", "files": []},
        {"test": "odd.test.js", "files": {"src/m.js": True}},
        {"files": ["src/m.js"]},
    ]
    coverage = Coverage.read(_write(tmp_path / "coverage.jsonl", rows))
    assert coverage is not None
    assert coverage.tests_for(_mutant("src/m.js")) == ["a.test.js", "wide.test.js"]
    assert coverage.tests_for(_mutant("src/n.js")) == ["wide.test.js"]
    assert coverage.tests_for(_mutant("src/o.js")) == []


def test_no_coverage_or_a_damaged_file_means_every_test_file(tmp_path: Path) -> None:
    assert Coverage.read(tmp_path / "missing.jsonl") is None
    (tmp_path / "garbage.jsonl").write_bytes(b"\xff\xfe not json\n[1, 2]\n")
    assert Coverage.read(tmp_path / "garbage.jsonl") is None
    link = tmp_path / "link.jsonl"
    link.symlink_to(_write(tmp_path / "real.jsonl", [{"test": "a", "files": ["f"]}]))
    assert Coverage.read(link) is None  # a link is not what our reporter writes
