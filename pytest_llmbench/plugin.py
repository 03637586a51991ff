"""The pytest plugin: options, hooks and fixtures only. The work lives in the sub-packages.

Registered as `llmbench` (`-p no:llmbench` turns it off). A run that collects no scenario
imports nothing heavy (pydantic, jinja2, yaml, lizard, radon, litellm): those modules are
imported inside the hooks below once a scenario file is found.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from . import hookspecs, runner
from .collection import (
    CASE_KEY,
    ScenarioFile,
    is_benchmark_data,
    is_scenario_file,
    register_markers,
)
from .fixtures import llm_complete, llm_judge, llmbench_result
from .reporting.collector import ReportCollector, ReportSettings
from .reporting.item_report import HtmlColumns
from .settings import (
    SETTINGS_KEY,
    Settings,
    add_options,
    deprecations,
    estimate_only,
    resolve,
    settings_of,
)

if TYPE_CHECKING:
    from .models.base import Model
    from .schema.results import ItemResult

__all__ = ["llm_complete", "llm_judge", "llmbench_result"]
JSON_REPORT = "report.json"  # writer.JSON_REPORT, without importing the writer
_JSON_REPORT_DEFAULT = ".report.json"  # pytest-json-report's default --json-report-file


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(wrapper=True)  # before xdist turns a bare -n into --dist=load
def pytest_cmdline_main(config: pytest.Config) -> Generator[None, object, object]:
    if estimate_only(config):  # an estimate needs every item in one process, and no worker
        config.option.numprocesses = None
        config.option.dist = "no"
    if getattr(config.option, "numprocesses", None):  # -n given: xdist will run workers
        from .execution.partition import note_dist_choice

        note_dist_choice(config)
    return (yield)


@pytest.hookimpl(tryfirst=True)  # before pytest-json-report reads its options
def pytest_configure(config: pytest.Config) -> None:
    settings = resolve(config)
    _check_replays(settings)
    config.stash[SETTINGS_KEY] = settings
    register_markers(config)
    # --json-report-file=X alone (without --json-report) asks for that file: it is honoured.
    asked_file = getattr(config.option, "json_report_file", _JSON_REPORT_DEFAULT)
    owns_json_report = not getattr(config.option, "json_report", True)
    if owns_json_report:
        config.option.json_report = True
        if asked_file == _JSON_REPORT_DEFAULT:
            config.option.json_report_file = str(settings.report_dir / JSON_REPORT)
        else:
            owns_json_report = False
    if config.pluginmanager.hasplugin("html"):
        config.pluginmanager.register(HtmlColumns(), "llmbench-html")
    if not hasattr(config, "workerinput"):
        previous, warnings = _resumed(settings)
        warnings = [*deprecations(config), *warnings]
        if any(root.is_dir() for root in settings.scenario_roots):
            _check_folders(settings)  # a project without scenarios is left alone
        config.stash[runner.RESUMED_KEY] = set(previous)
        report = ReportSettings(
            settings.report_dir,
            settings.attempts,
            settings.score_formula,
            asdict(settings),
            settings.cache_dir,
        )
        collector = ReportCollector(config, report, owns_json_report, previous, warnings)
        config.pluginmanager.register(collector, "llmbench-report")
        if getattr(config.option, "dist", "no") != "no":  # xdist runs workers
            from .execution.partition import XdistPartition

            partition = XdistPartition(sorted(previous))
            config.pluginmanager.register(partition, "llmbench-xdist")


def _resumed(settings: Settings) -> tuple[dict[str, ItemResult], list[str]]:
    """What --llm-resume takes over (results by node id, and warnings about lines it could
    not read); a results.jsonl that cannot be read is one usage error. Without
    --llm-resume nothing is read, nor imported."""
    if not settings.resume:
        return {}, []
    from .errors import FormatError
    from .execution.resume import finished_results

    try:
        resumed = finished_results(settings.report_dir / "results.jsonl")
    except FormatError as exc:
        raise pytest.UsageError(f"--llm-resume: {exc}") from None
    return resumed.results, resumed.warnings


def _check_replays(settings: Settings) -> None:
    """Each llmbench/replay model names a published model of --llm-replay-dir: one usage
    line if not. airun/ is imported only when a replay model is named."""
    from .models.registry import is_replay

    replays = [model for model in settings.models if is_replay(model)]
    if not replays:
        return
    from .airun.replay import published_model

    for model in replays:
        try:
            published_model(model, settings.replay_dir)
        except ValueError as exc:
            raise pytest.UsageError(f"--llm-model: {exc}") from None


def _check_folders(settings: Settings) -> None:
    """The report dir (and the cache dir, when used) before any call: one line if unusable."""
    from .reporting.writer import folder_problem, report_dir_problem

    problem = report_dir_problem(settings.report_dir)
    if problem is not None:
        raise pytest.UsageError(f"--llm-report-dir: {problem}")
    problem = folder_problem(settings.cache_dir) if settings.cache != "off" else None
    if problem is not None:
        raise pytest.UsageError(f"--llm-cache-dir: {problem}")


def pytest_collection_finish(session: pytest.Session) -> None:
    runner.start(session)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    try:
        return (yield)
    finally:
        session = item.session
        if session.shouldstop or session.shouldfail:
            runner.stop(item.config, str(session.shouldstop or session.shouldfail))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if CASE_KEY in item.stash:
        runner.amend_report(item, call, report)
    return report


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    ended = "interrupted" if exitstatus == pytest.ExitCode.INTERRUPTED else "end of the session"
    runner.stop(session.config, str(session.shouldstop or session.shouldfail or ended))
    runner.send_stop_note(session.config)  # an xdist worker: to the controller's summary


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object) -> None:
    runner.receive_stop_note(node)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for note in runner.stop_notes(terminalreporter.config):
        terminalreporter.write_line(f"llmbench: {note}")


def pytest_unconfigure(config: pytest.Config) -> None:
    runner.close(config)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    # the benchmark's hidden tests and datasets are data: never collected as the user's
    # tests (unless the scenarios are the whole project: --llm-scenarios=.)
    roots = tuple(r for r in settings_of(config).scenario_roots if r != config.rootpath)
    return True if is_benchmark_data(collection_path, roots) else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if is_scenario_file(file_path, settings_of(parent.config).scenario_roots):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


@pytest.hookimpl(trylast=True)
def pytest_llmbench_make_model(name: str, settings: Settings) -> Model:
    from .models.registry import is_replay, make_model

    if is_replay(name):
        from .airun.replay import ReplayModel

        return ReplayModel(name, settings.replay_dir)
    return make_model(name, settings.api_base, settings.context_windows.get(name))
