"""The pytest plugin: options, hooks and fixtures only. The work lives in the sub-packages."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import hookspecs
from .collection import CASE_KEY, ScenarioFile, is_scenario_file, register_markers
from .models.base import Model
from .models.registry import make_model
from .reporting.collector import ReportCollector
from .reporting.writer import JSON_REPORT
from .results import PROPERTY_KEY, ItemResult
from .settings import SETTINGS_KEY, Settings, add_options, resolve, settings_of


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)  # before pytest-json-report reads its options
def pytest_configure(config: pytest.Config) -> None:
    settings = resolve(config)
    config.stash[SETTINGS_KEY] = settings
    register_markers(config)
    owns_json_report = not getattr(config.option, "json_report", True)
    if owns_json_report:
        config.option.json_report = True
        config.option.json_report_file = str(settings.report_dir / JSON_REPORT)
    if not hasattr(config, "workerinput"):
        collector = ReportCollector(config, settings, owns_json_report)
        config.pluginmanager.register(collector, "llmbench-report")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(trylast=True)
def pytest_llmbench_make_model(name: str, settings: Settings) -> Model:
    return make_model(name, settings.api_base)


@pytest.fixture
def llmbench_result(request: pytest.FixtureRequest) -> ItemResult:
    """Runs the item's scenario x dataset x model and records the result on the report."""
    from .runner import run

    case, model = request.node.stash[CASE_KEY]
    result = run(request.config, settings_of(request.config), case, model)
    # What record_property does, without its per-item warning under junit_family=xunit2.
    request.node.user_properties.append((PROPERTY_KEY, result.model_dump(mode="json")))
    if result.status == "error":
        pytest.fail(result.reason or "error", pytrace=False)  # in setup: an error, not a failure
    return result
