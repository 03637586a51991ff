"""The pytest plugin: options, hooks and fixtures only. The work lives in the sub-packages."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

from . import hookspecs, runner
from .airun.replay import ReplayModel, is_replay
from .collection import ScenarioFile, is_scenario_file, register_markers
from .execution.partition import XdistPartition, note_dist_choice
from .execution.resume import RESUME_REASON, finished_results
from .models.base import Model
from .models.registry import make_model
from .redaction import redact_data
from .reporting.collector import ReportCollector
from .reporting.writer import JSON_REPORT, RESULTS
from .schema.results import PROPERTY_KEY, ItemResult
from .settings import SETTINGS_KEY, Settings, add_options, resolve


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(wrapper=True)  # before xdist turns a bare -n into --dist=load
def pytest_cmdline_main(config: pytest.Config) -> Generator[None, object, object]:
    note_dist_choice(config)
    return (yield)


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
        previous = finished_results(settings.report_dir / RESULTS) if settings.resume else {}
        config.stash[runner.RESUMED_KEY] = set(previous)
        collector = ReportCollector(config, settings, owns_json_report, previous)
        config.pluginmanager.register(collector, "llmbench-report")
        if config.pluginmanager.hasplugin("xdist"):
            config.pluginmanager.register(XdistPartition(sorted(previous)), "llmbench-xdist")


def pytest_collection_finish(session: pytest.Session) -> None:
    runner.start(session)


def pytest_unconfigure(config: pytest.Config) -> None:
    runner.close(config)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(trylast=True)
def pytest_llmbench_make_model(name: str, settings: Settings) -> Model:
    if is_replay(name):
        return ReplayModel(name, settings.replay_dir)
    return make_model(name, settings.api_base)


@pytest.fixture
def llmbench_result(request: pytest.FixtureRequest) -> ItemResult:
    """The item's scenario x dataset x model result (run on the background loop), recorded
    on the report."""
    if request.node.nodeid in runner.resumed(request.config):
        pytest.skip(RESUME_REASON)  # its stored result is already in the report
    result = runner.run(request.node)
    # What record_property does, without its per-item warning under junit_family=xunit2.
    # Redacted here, once: every file of the report dir and the terminal get it from here.
    record = redact_data(result.model_dump(mode="json"))
    request.node.user_properties.append((PROPERTY_KEY, record))
    if result.status == "error":
        pytest.fail(record["reason"] or "error", pytrace=False)  # in setup: an error, not a failure
    if result.status == "skipped":
        pytest.skip(record["reason"] or "skipped")
    return result
