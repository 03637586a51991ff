"""`llmbench compare` paired (BASE NEW and --models A B) and `llmbench power`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_llmbench.cli import main
from pytest_llmbench.judging import paired
from pytest_llmbench.judging import statistics as st
from tests.unit.test_pairwise import _item


def _report_dir(folder: Path, grades: dict[str, list[float]]) -> Path:
    folder.mkdir()
    items = [
        _item(model, f"S{n:02d}", grade)
        for model, values in grades.items()
        for n, grade in enumerate(values)
    ]
    (folder / "results.jsonl").write_text("".join(i.model_dump_json() + "\n" for i in items))
    return folder


def _row(out: str, first: str) -> list[str]:
    line = next(x for x in out.splitlines() if x.startswith(f"| {first} |"))
    return [c.strip() for c in line.split("|")[1:-1]]


# Scores vary widely by item; "new" is half a grade better on 6 of 30 items, 2 of which
# then reach the pass threshold (a grade of 3).
SPREAD = [1.0 + 3 * ((n * 7) % 30) / 29 for n in range(30)]
BETTER = [g + (0.5 if n % 4 == 0 and g < 3.5 else 0.0) for n, g in enumerate(SPREAD)]
# The exact p of 6 scenarios all up (every other difference is 0) is 2 / 2**6 = 0.031;
# with 30 scenarios it comes from 10,000 random sign patterns, within their error.
EXACT_P = 2 / 2**6


def _near_exact(text: str) -> bool:
    return abs(float(text) - EXACT_P) < 4 * (EXACT_P / paired.PERMUTATIONS) ** 0.5


def test_run_versus_run_is_paired(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = _report_dir(tmp_path / "base", {"m": SPREAD})
    new = _report_dir(tmp_path / "new", {"m": BETTER})
    assert main(["compare", str(base), str(new), "--score-formula=sum8"]) == 0
    cells = _row(capsys.readouterr().out, "m")
    low, high = (float(x) for x in cells[5].split(" to "))
    # Each run's own interval holds the other's mean; paired, the change is clear.
    base_ci, new_ci = (
        st.bootstrap_ci([g / 4 for g in SPREAD]),
        st.bootstrap_ci([g / 4 for g in BETTER]),
    )
    assert base_ci is not None and new_ci is not None and new_ci[0] < base_ci[1]
    assert 0 < low < float(cells[4]) < high
    assert _near_exact(cells[6])
    assert main(["compare", str(base), str(base), "--fail-on-regression=0"]) == 0
    same = _row(capsys.readouterr().out, "m")
    assert same[4:7] == ["+0.000", "+0.000 to +0.000", "1.000"]
    assert main(["compare", str(new), str(base), "--fail-on-regression=0"]) == 1
    assert "beyond noise: m (all)" in capsys.readouterr().err


def test_models_form_compares_two_models_of_merged_dirs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _report_dir(tmp_path / "one", {"old": SPREAD})
    two = _report_dir(tmp_path / "two", {"new": BETTER})
    assert main(["compare", "--models", "new", "old", str(one), str(two)]) == 0
    out = capsys.readouterr().out
    for name in ("(all)", "c"):
        cells = _row(out, name)
        assert cells[1] == "30 (30)" and _near_exact(cells[6])
        assert cells[8] == "2/0 of 30, p 0.500"  # McNemar: 2 / 2**2
        assert cells[9] == "–"  # no hidden tests
    assert main(["compare", "--models", "new", "gone", str(one), str(two)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--models: no item of 'gone'" in err
    assert main(["compare", str(one)]) == 2
    assert "expected BASE NEW (two report dirs), got 1" in capsys.readouterr().err


def test_power_from_an_sd_and_from_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["power", "--difference", "0.05", "--sd", "0.2"]) == 0
    assert f"items needed: {paired.items_needed(0.2, 0.05)} " in capsys.readouterr().out
    both = _report_dir(tmp_path / "both", {"old": SPREAD, "new": BETTER})
    assert main(["power", str(both), "--models", "new", "old", "--difference", "0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("new vs old: 30 items both scored, 30 scenarios")
    detectable = float(lines[1].split()[2])
    needed = int(lines[2].split(": ")[1].split()[0])
    # Items of the same kind: the standard error shrinks with the square root of n
    # (the detectable difference is printed to 3 decimals).
    assert 30 * ((detectable - 0.0005) / 0.01) ** 2 <= needed
    assert needed <= 30 * ((detectable + 0.0005) / 0.01) ** 2 + 1
    assert main(["power", "--difference", "0.05"]) == 2
    assert "give --sd S, or report dirs with --models A B" in capsys.readouterr().err
