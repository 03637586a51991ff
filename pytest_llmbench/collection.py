"""Scenario files become pytest items: one per scenario x dataset x model.

A YAML file at `<scenarios>/<category>/<Id>.yaml`, where `<scenarios>` is one of the roots
of `llm_scenarios` (default `scenarios`, relative to the rootdir), is a scenario; its
datasets are looked up in the root's sibling `datasets/`. No other YAML file is read. Each item is a pytest Function named
`test_scenario[<Scenario>-<Dataset>-<model>]` whose `llmbench_result` fixture runs the
pipeline, marked with its category and its dataset's complexity and size buckets.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from .errors import FormatError
from .formats.categories import CATEGORIES
from .judging.formulas import quality
from .settings import settings_of

if TYPE_CHECKING:  # heavy (pydantic, yaml, jinja2, lizard): imported once a scenario is found
    from .formats.dataset import Dataset, DatasetIndex
    from .metrics.complexity import Complexity
    from .schema.results import ItemResult
    from .tasks.case import Case  # noqa: F401 (in the stash key's type)

CASE_KEY = pytest.StashKey["tuple[Case, str]"]()
_INDEXES_KEY = pytest.StashKey["dict[Path, DatasetIndex]"]()
_COMPLEXITY_KEY = pytest.StashKey["dict[str, Complexity]"]()
BUCKETS = ("low", "avg", "high")


def is_scenario_file(path: Path, roots: tuple[Path, ...]) -> bool:
    """`<root>/<category>/<Id>.yaml` under one of the configured roots (--llm-scenarios)."""
    return path.suffix in (".yaml", ".yml") and path.parent.parent in roots


def is_benchmark_data(path: Path, roots: tuple[Path, ...]) -> bool:
    """A path of the benchmark's data, never one of the user's own tests: under a scenario
    root but a category folder or a scenario file (the hidden tests, references, mutants
    and feedback beside the scenarios), or under the datasets folder beside it (the code
    the tasks are about, whose own tests are the dataset's)."""
    for root in roots:
        if root in path.parents:
            return not (is_scenario_file(path, roots) or (path.parent == root and path.is_dir()))
        if root.parent / "datasets" in path.parents:
            return True
    return False


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
    from .metrics.complexity import cached_measure

    cache = config.stash.setdefault(_COMPLEXITY_KEY, {})
    key = dataset.content_hash
    if key not in cache:
        cache[key] = cached_measure(dataset.files, key, settings_of(config).cache_dir)
    return cache[key]


def _dataset_index(config: pytest.Config, scenario_path: Path) -> DatasetIndex:
    from .formats.dataset import DatasetIndex

    root = scenario_path.parent.parent.parent / "datasets"
    indexes = config.stash.setdefault(_INDEXES_KEY, {})
    if root not in indexes:
        indexes[root] = DatasetIndex(root)
    return indexes[root]


def test_scenario(llmbench_result: ItemResult, request: pytest.FixtureRequest) -> None:
    """Passes when the item was run and scored; a low quality fails only under
    --llm-min-quality, a low functional rate only under --llm-min-functional."""
    __tracebackhide__ = True
    if llmbench_result.status != "scored":
        pytest.fail(f"unscored: {llmbench_result.reason}", pytrace=False)
    settings = settings_of(request.config)
    gate = settings.min_quality
    acc, compl = llmbench_result.accuracy, llmbench_result.completeness
    if gate is not None and acc is not None and compl is not None and quality(acc, compl) < gate:
        found = quality(acc, compl)
        pytest.fail(
            f"quality (Acc + Compl)/8 = {found:.3f} is below --llm-min-quality {gate}",
            pytrace=False,
        )
    rate, least = llmbench_result.functional_rate, settings.min_functional
    if least is not None and rate is not None and rate < least:
        tampered = " (tampered with the verdict)" if llmbench_result.tampered else ""
        pytest.fail(
            f"functional rate {rate:.3f}{tampered} is below --llm-min-functional {least}",
            pytrace=False,
        )


class ScenarioItem(pytest.Function):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # pytest >= 9 keeps a structured id beside the string one. Built from the name it has
        # no params, while ids read back (--lf, --ff, --nf, --sw cache files, node-id
        # arguments) are parsed from the string into name + [params]: use the parsed form so
        # both compare equal. pytest 8 keeps only the string.
        structured = getattr(self, "_id", None)
        if structured is not None and hasattr(type(structured), "parse"):
            self._id = type(structured).parse(str(structured))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        # A line number (0: the file's top) is required by node.warn() (e.g. from junitxml)
        # and when a fixture skips the item (resume, budget).
        return self.path, 0, self.name


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from .formats.scenario import load_scenario
        from .tasks.case import Case  # noqa: F401 (in the stash key's type)

        scenario = load_scenario(self.path, _dataset_index(self.config, self.path))
        for dataset in scenario.datasets or (None,):
            figures = dataset_complexity(self.config, dataset) if dataset else None
            case = Case(scenario, dataset, figures, settings_of(self.config).cache_dir)
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
