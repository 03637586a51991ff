"""Calibration of the repository's own catalogue (issue 5), offline.

The whole catalogue runs once with `llmbench/reference` (answers with each reference
answer) and `llmbench/echo` (answers with the input code, or nothing without a dataset).
Over all deterministic checks the reference must pass at least 95% and the echo at most
30%: checks reward what a correct answer adds, not names the input already contains.
Every file of every reference answer must pass its syntax check.
Dialog scenarios count every turn's checks; there the reference plays its script and the
echo finishes every step without writing.
The figures per category are printed, so CI logs show them.

It also checks that every scenario x dataset row of the method's final test suite
(method.md section 2, listed explicitly below) and every row of the other scenario files
(the Java part, read from the files; every Java dataset must be used) is collected with
its category marker and, when it has a dataset, its complexity_ and size_ markers.
"""

from __future__ import annotations

import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import REPO, read_results

REFERENCE, ECHO = "llmbench/reference", "llmbench/echo"
REFERENCE_MIN, ECHO_MAX = 0.95, 0.30
NO_DATASET = "none"

# method.md section 2, the final test suite: category -> scenario id -> datasets.
METHOD_TABLE: dict[str, dict[str, list[str]]] = {
    "generation": {
        "GenerateBaseComponent": [NO_DATASET],
        "GenerateReactApp": [NO_DATASET],
        "ModifyReactApp": ["ReactFetchAPI"],
    },
    "testing": {
        "WriteTestsForActualCode": ["ReactSelect"],
        "WriteTestsForLegacyCode": ["AngularCosmoPage", "ReactSignUp", "ToDoApp_ReactJS"],
    },
    "explanation": {
        "DescribeTechnicalImplementation": ["AngularCosmoPage", "ReactSignUp", "ToDoApp_ReactJS"],
    },
    "documentation": {
        "BusinessFunctionality": ["AngularCosmoPage", "ReactSignUp", "ToDoApp_ReactJS"],
    },
    "analysis": {
        "EvaluateCodeQuality": ["AngularCosmoPage", "ReactSignUp", "ToDoApp_ReactJS"],
    },
    "migration": {
        "UpdateAngular": ["ToDoApp_AngularJS"],
        "ReactToAngular": ["ToDoApp_ReactJS", "ReactSignUp"],
        "UpdateReact": ["ToDoApp_ReactJS"],
        "AngularToReact": ["AngularCosmoPage"],
        "VanillaToReact": ["Piano_NativeJS"],
        "jQueryToReact": ["ToDoApp_jQuery"],
    },
    "template": {
        "GenerateProjectConfiguration": [NO_DATASET],
    },
}

Row = tuple[str, str, str]  # (category, scenario id, dataset name or "none")


def method_rows() -> list[Row]:
    return [
        (category, scenario, dataset)
        for category, scenarios in METHOD_TABLE.items()
        for scenario, datasets in scenarios.items()
        for dataset in datasets
    ]


def scenario_rows(root: Path) -> list[Row]:
    """Rows of every scenario file of the catalogue (the Java part among them)."""
    rows = []
    for path in sorted((root / "scenarios").glob("*/*.yaml")):
        spec = yaml.safe_load(path.read_text()) or {}
        names = [str(ref).rsplit("/", 1)[-1] for ref in spec.get("datasets") or []]
        rows += [(path.parent.name, str(spec.get("id")), name) for name in names or [NO_DATASET]]
    return rows


def item_name(scenario: str, dataset: str, model: str) -> str:
    middle = "" if dataset == NO_DATASET else f"{dataset}-"
    return f"test_scenario[{scenario}-{middle}{model}]"


@dataclass
class Tally:
    """Deterministic checks passed / run, and the items they came from."""

    passed: int = 0
    total: int = 0
    items: list[tuple[str, int, int, list[str]]] = field(default_factory=list)

    def add(self, label: str, passed: int, total: int, odd: list[str]) -> None:
        self.passed += passed
        self.total += total
        self.items.append((label, passed, total, odd))

    @property
    def rate(self) -> float:
        return self.passed / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.passed}/{self.total} ({self.rate:.1%})"


MODELS = f"--llm-model={REFERENCE},{ECHO}"


@pytest.fixture
def catalogue(pytester: pytest.Pytester) -> Path:
    """A copy of scenarios/ and datasets/, so the run writes its reports outside the checkout."""
    for folder in ("scenarios", "datasets"):
        shutil.copytree(REPO / folder, pytester.path / folder)
    return pytester.path


def test_every_row_is_collected_with_its_markers(
    pytester: pytest.Pytester, catalogue: Path
) -> None:
    recorder = pytester.inline_run("scenarios", "--collect-only", MODELS, "-p", "no:cacheprovider")
    errors = [r for r in recorder.getreports("pytest_collectreport") if r.failed]
    assert not errors, "the catalogue does not collect:\n" + "\n".join(
        str(r.longrepr).strip().splitlines()[-1] for r in errors
    )
    markers = {
        call.item.name: {m.name for m in call.item.iter_markers()}
        for call in recorder.getcalls("pytest_itemcollected")
    }
    catalogue_rows = scenario_rows(catalogue)
    unused = sorted(
        {p.name for p in (catalogue / "datasets" / "java").glob("*") if p.is_dir()}
        - {dataset for _, _, dataset in catalogue_rows}
    )
    assert not unused, f"Java datasets no scenario runs on: {', '.join(unused)}"
    rows = method_rows() + [row for row in catalogue_rows if row not in method_rows()]
    problems = []
    for category, scenario, dataset in rows:
        for model in (REFERENCE, ECHO):
            name = item_name(scenario, dataset, model)
            found = markers.get(name)
            if found is None:
                problems.append(f"{name}: not collected")
                continue
            if dataset != NO_DATASET:
                buckets = {m for m in found if m.startswith(("complexity_", "size_"))}
                if len(buckets) != 2:
                    problems.append(f"{name}: complexity_/size_ markers missing ({sorted(found)})")
            if category not in found:
                problems.append(f"{name}: category marker {category!r} missing ({sorted(found)})")
    assert not problems, f"{len(problems)} rows of the catalogue are wrong:\n" + "\n".join(problems)


def _tally(results: list[dict[str, Any]]) -> dict[tuple[str, str], Tally]:
    """Per (model, category) and (model, "all"): deterministic checks of the best attempt."""
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for item in results:
        attempts = item["attempts"]
        assert attempts, f"{item['nodeid']}: no attempt ({item.get('reason')})"
        best = attempts[(item["best_attempt"] or 1) - 1]
        checked = [s for s in best["steps"] if s["check"] is not None]
        passed = sum(s["check"]["passed"] for s in checked)
        # The steps worth naming: failures of the reference, passes of the echo.
        odd = [s["id"] for s in checked if s["check"]["passed"] != (item["model"] == REFERENCE)]
        label = f"{item['scenario']}-{item['dataset'] or NO_DATASET}"
        for key in ((item["model"], item["category"]), (item["model"], "all")):
            tallies[key].add(label, passed, len(checked), odd)
    return tallies


def _worst(tally: Tally, *, reference: bool, count: int = 5) -> str:
    def rate(entry: tuple[str, int, int, list[str]]) -> float:
        return entry[1] / entry[2] if entry[2] else 1.0

    ranked = sorted(tally.items, key=rate, reverse=not reference)[:count]
    return "; ".join(
        f"{label} {passed}/{total} (steps {', '.join(odd) or '-'})"
        for label, passed, total, odd in ranked
    )


def test_reference_passes_and_echo_fails_the_deterministic_checks(
    pytester: pytest.Pytester, catalogue: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The deterministic checks only: the hidden tests are test_catalogue.py's.
    result = pytester.runpytest(
        "scenarios", MODELS, "--llm-attempts=1", "--llm-functional=off", "-p", "no:cacheprovider"
    )
    outcomes = result.parseoutcomes()
    assert not outcomes.get("failed") and not outcomes.get("errors"), result.stdout.str()[-2000:]
    results = read_results(catalogue)
    tallies = _tally(results)
    categories = sorted({category for _, category in tallies} - {"all"}) + ["all"]
    lines = [
        f"calibration {category:<13} reference {tallies[(REFERENCE, category)]}"
        f"  echo {tallies[(ECHO, category)]}"
        for category in categories
    ]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    reference, echo = tallies[(REFERENCE, "all")], tallies[(ECHO, "all")]
    assert reference.total == echo.total > 0
    # The dialogs' turn checks count like any other (their steps are T<n>.A1, ...).
    assert tallies[(REFERENCE, "dialog")].total == tallies[(ECHO, "dialog")].total > 0
    assert reference.rate >= REFERENCE_MIN, (
        f"llmbench/reference passes {reference} of the deterministic checks (needs >= "
        f"{REFERENCE_MIN:.0%}); worst items: {_worst(reference, reference=True)}"
    )
    # Every file a reference answer gives passes its real syntax check (a checker that is
    # not installed leaves it "not checked", which the CI machine does not).
    broken = [
        f"{item['scenario']}-{item['dataset'] or NO_DATASET}: {check['path']} ({check['reason']})"
        for item in results
        if item["model"] == REFERENCE
        for check in item["code"]["syntax"]
        if check["status"] == "fail"
    ]
    assert not broken, "reference code fails its syntax check:\n" + "\n".join(broken)
    assert echo.rate <= ECHO_MAX, (
        f"llmbench/echo passes {echo} of the deterministic checks (allowed <= {ECHO_MAX:.0%}); "
        f"worst items: {_worst(echo, reference=False)}"
    )
