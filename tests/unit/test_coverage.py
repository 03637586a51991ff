"""Which test files can see a mutant (functional/coverage.py), from the lines each test
file's clean run executed: a mutant's lines met by an executed statement, the fallback to
any executed statement of the file where no statement lies on its lines, a file reached by
no test, the most focused test file first, and a coverage file written by hostile code
(not JSON, wrong shapes) read as far as it is sound."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_llmbench.formats.mutants import load_mutants
from pytest_llmbench.functional.coverage import Coverage

TEXT = "function a() {\n  return 1;\n}\n\nfunction b(x = 2) {\n  return x;\n}\n// end\n"
MUTANTS = """\
- {id: one, file: src/m.js, find: 'return 1', replace: 'return 0'}
- {id: two, file: src/m.js, find: 'return x', replace: 'return -x'}
- {id: default, file: src/m.js, find: 'x = 2', replace: 'x = 3'}
- {id: end, file: src/m.js, find: '// end', replace: '// END'}
"""


def _write(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows) + "not json\n")
    return path


def test_a_mutant_runs_with_the_test_files_that_reached_its_lines(tmp_path: Path) -> None:
    everything = [[2, 2], [6, 6]]
    rows = [
        {"test": "wide.test.js", "files": {
            "src/m.js": {"ran": [[2, 2], [6, 6]], "all": everything},
            "src/n.js": {"ran": [[1, 1]], "all": [[1, 1]]},
        }},
        {"test": "a.test.js", "files": {"src/m.js": {"ran": [[2, 2]], "all": everything}}},
        {"test": "none.test.js", "files": {"src/m.js": {"ran": [], "all": everything}}},
        {"test": "bad.test.js", "files": {"src/m.js": {"ran": [[1, "x"], [True, 2], "y"]}}},
        {"test": "odd.test.js", "files": ["src/m.js"]},
    ]  # fmt: skip
    coverage = Coverage.read(_write(tmp_path / "coverage.jsonl", rows))
    assert coverage is not None
    one, two, default, end = load_mutants(MUTANTS, "m.yaml", {"src/m.js": TEXT})
    assert coverage.tests_for(one, TEXT) == ["a.test.js", "wide.test.js"]  # focused first
    assert coverage.tests_for(two, TEXT) == ["wide.test.js"]
    # no statement lies on line 5: every test file that ran a statement of the file
    assert coverage.tests_for(default, TEXT) == ["a.test.js", "wide.test.js"]
    assert coverage.tests_for(end, TEXT) == ["a.test.js", "wide.test.js"]
    (other,) = load_mutants(
        MUTANTS.replace("src/m.js", "src/o.js")[: MUTANTS.index("\n") + 1],
        "m.yaml",
        {"src/o.js": TEXT},
    )
    assert coverage.tests_for(other, TEXT) == []  # reached by no test: no run


def test_no_coverage_or_a_damaged_file_means_every_test_file(tmp_path: Path) -> None:
    assert Coverage.read(tmp_path / "missing.jsonl") is None
    (tmp_path / "garbage.jsonl").write_bytes(b"\xff\xfe not json\n[1, 2]\n")
    assert Coverage.read(tmp_path / "garbage.jsonl") is None
    link = tmp_path / "link.jsonl"
    link.symlink_to(
        _write(tmp_path / "real.jsonl", [{"test": "a", "files": {"f": {"ran": [[1, 1]]}}}])
    )
    assert Coverage.read(link) is None  # a link is not what our reporter writes
