"""Scenario files become pytest items: one per scenario x dataset x model.

A YAML file at `<root>/scenarios/<category>/<Id>.yaml` is a scenario; its datasets are
looked up in the sibling `<root>/datasets/`. Each item is a pytest Function named
`test_scenario[<Scenario>-<Dataset>-<model>]` whose `llmbench_result` fixture runs the
pipeline, marked with its category and its dataset's complexity and size buckets.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .code.complexity import Complexity, cached_measure
from .errors import FormatError
from .formats.categories import CATEGORIES
from .formats.dataset import Dataset, DatasetIndex
from .formats.scenario import load_scenario
from .judging.formulas import quality
from .schema.results import ItemResult
from .settings import settings_of
from .tasks.case import Case

CASE_KEY = pytest.StashKey["tuple[Case, str]"]()
_INDEXES_KEY = pytest.StashKey["dict[Path, DatasetIndex]"]()
_COMPLEXITY_KEY = pytest.StashKey["dict[str, Complexity]"]()
BUCKETS = ("low", "avg", "high")


def is_scenario_file(path: Path) -> bool:
    return path.suffix in (".yaml", ".yml") and path.parent.parent.name == "scenarios"


def register_markers(config: pytest.Config) -> None:
    for category in CATEGORIES.values():
        config.addinivalue_line(
            "markers", f"{category.id}: scenarios of the category {category.title}"
        )
    for bucket in BUCKETS:
        config.addinivalue_line("markers", f"complexity_{bucket}: dataset GCI bucket {bucket}")
        config.addinivalue_line("markers", f"size_{bucket}: dataset LoC bucket {bucket}")


def dataset_complexity(config: pytest.Config, dataset: Dataset) -> Complexity:
    """Measured once per dataset content, however many items use it; kept across runs
    under `<cache dir>/complexity/` (--llm-cache-dir, see folders.py)."""
    cache = config.stash.setdefault(_COMPLEXITY_KEY, {})
    key = dataset.content_hash
    if key not in cache:
        cache[key] = cached_measure(dataset.files, key, settings_of(config).cache_dir)
    return cache[key]


def _dataset_index(config: pytest.Config, scenario_path: Path) -> DatasetIndex:
    root = scenario_path.parent.parent.parent / "datasets"
    indexes = config.stash.setdefault(_INDEXES_KEY, {})
    if root not in indexes:
        indexes[root] = DatasetIndex(root)
    return indexes[root]


def test_scenario(llmbench_result: ItemResult, request: pytest.FixtureRequest) -> None:
    """Passes when the item was run and scored; a low score fails only under --llm-min-score."""
    __tracebackhide__ = True
    if llmbench_result.status != "scored":
        pytest.fail(f"unscored: {llmbench_result.reason}", pytrace=False)
    gate = settings_of(request.config).min_score
    acc, compl = llmbench_result.accuracy, llmbench_result.completeness
    if gate is not None and acc is not None and compl is not None and quality(acc, compl) < gate:
        pytest.fail(
            f"quality (Acc + Compl)/8 = {quality(acc, compl):.3f} is below --llm-min-score {gate}",
            pytrace=False,
        )


class ScenarioItem(pytest.Function):
    def reportinfo(self) -> tuple[Path, int | None, str]:
        # A line number (0: the file's top) is required by node.warn() (e.g. from junitxml)
        # and when a fixture skips the item (resume, budget).
        return self.path, 0, self.name


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        scenario = load_scenario(self.path, _dataset_index(self.config, self.path))
        for dataset in scenario.datasets or (None,):
            figures = dataset_complexity(self.config, dataset) if dataset else None
            case = Case(scenario, dataset, figures)
            markers = [scenario.category]
            if figures is not None:
                markers += [f"complexity_{figures.complexity}", f"size_{figures.size}"]
            for model in settings_of(self.config).models:
                item = ScenarioItem.from_parent(
                    self, name=f"test_scenario[{case.label}-{model}]", callobj=test_scenario
                )
                item.stash[CASE_KEY] = (case, model)
                for marker in markers:
                    item.add_marker(marker)
                yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException]) -> Any:  # type: ignore[override]
        if isinstance(excinfo.value, FormatError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)
