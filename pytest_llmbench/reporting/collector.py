"""The controller's side of a run: gather item results from reports, write the report dir.

Registered on the controller only (never on an xdist worker): workers attach results
to their test reports, and xdist replays every report here through
pytest_runtest_logreport. Every item pytest reports is kept with pytest's outcome; a
rerun (pytest-rerunfailures) replaces the earlier result. Imports stay light: this runs
in every pytest run, with or without benchmark items (the schema and the writers are
imported once a result comes).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ..redaction import redact_data
from .item_report import calls_of, outcome_of, result_of, store_result
from .textstore import json_line

if TYPE_CHECKING:
    from ..schema.leaderboard import LeaderboardDocument
    from ..schema.results import CallRecord, ItemResult
    from .textstore import TextStore
    from .writer import ResultsFile


@dataclass(frozen=True)
class ReportSettings:
    """What the report dir needs of the run's resolved settings (settings.py)."""

    report_dir: Path
    attempts: int
    formula: str | None  # --llm-score-formula
    options: dict[str, Any]  # every resolved option by name, as leaderboard.json records them
    cache_dir: Path | None = None  # where the run is registered (history.py); None: not


class ReportCollector:
    def __init__(
        self,
        config: pytest.Config,
        settings: ReportSettings,
        owns_json_report: bool,
        resumed: dict[str, ItemResult] | None = None,
        warnings: list[str] | None = None,
    ) -> None:
        self.config = config
        self.settings = settings
        # True when we switched pytest-json-report on ourselves (the user did not ask for it).
        self.owns_json_report = owns_json_report
        self.items: dict[str, ItemResult] = {}
        # One line each for the terminal summary (e.g. lines --llm-resume could not read).
        self.warnings = list(warnings or [])
        self.results_file: ResultsFile | None = None  # opened when the first result comes
        # texts.jsonl, open for the whole run: results.jsonl and the reports refer to it.
        self.texts: TextStore | None = None
        # nodeid -> (its result as the reports carry it, stored): an item's setup, call and
        # teardown reports carry the same text, stored once.
        self.stored: dict[str, tuple[str, str]] = {}
        self.closed = False
        self.rewrite = False  # an item's result was replaced: results.jsonl is written anew
        self.document: LeaderboardDocument | None = None
        self.calls: list[CallRecord] = []  # calls of ordinary tests (llm_complete, ...)
        self.resumed = set(resumed or {})  # their calls were made by an earlier run
        # --llm-resume: results finished by an earlier run count, and stay in results.jsonl.
        for result in (resumed or {}).values():
            self._keep(result)

    def _keep(self, result: ItemResult) -> None:
        nodeid = result.nodeid
        self.rewrite = self.rewrite or nodeid in self.items
        self.items[nodeid] = result
        if self.closed or self.rewrite:
            return
        if self.results_file is None:
            from .writer import ResultsFile

            self.results_file = ResultsFile(self.settings.report_dir, self._texts())
        self.results_file.append(result)

    def _texts(self) -> TextStore:
        if self.texts is None:
            from ..folders import own_folder
            from .textstore import TextStore

            own_folder(self.settings.report_dir)
            self.texts = TextStore(self.settings.report_dir)
        return self.texts

    # First, before pytest-json-report and JUnit XML take the report's properties: they
    # get the stored form of the result (store_result) once it is kept here.
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # The schema (pydantic) is imported only for reports that carry our data: a run
        # of ordinary tests never loads it.
        self._collect(report)
        if not self.closed:
            store_result(report, lambda value: self._stored_text(report.nodeid, value))
        if report.when == "teardown":
            self.stored.pop(report.nodeid, None)

    def _stored_text(self, nodeid: str, value: str) -> str:
        sent, stored = self.stored.get(nodeid, ("", ""))
        if value != sent:
            data = self._texts().stored(json.loads(value))
            stored = json_line(data)
            self.stored[nodeid] = (value, stored)
        return stored

    def _collect(self, report: pytest.TestReport) -> None:
        if report.when == "teardown":
            self.calls += calls_of(report)
        outcome = outcome_of(report)
        if outcome is None or report.nodeid in self.resumed:
            return
        result = result_of(report)
        if result is None:
            return
        result.nodeid, result.outcome = report.nodeid, outcome
        result.finished_utc = datetime.now(UTC).isoformat(timespec="microseconds")
        self._keep(result)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.finish()

    def finish(self) -> None:
        """Write the leaderboard once; pytest-json-report may ask for it before our sessionfinish."""
        if self.results_file is not None:
            self.results_file.close()
            self.results_file = None
        if self.rewrite and not self.closed:
            from .writer import write_results

            write_results(self.settings.report_dir, list(self.items.values()), self._texts())
        if self.texts is not None:
            self.texts.close()
        self.closed = True
        if not self.items or self.document is not None:
            return
        from pydantic_core import to_jsonable_python

        from .history import Registration
        from .writer import publish

        # Paths as text and tuples as lists, as leaderboard.json holds them.
        settings: dict[str, Any] = to_jsonable_python(self.settings.options)
        settings = redact_data(settings)  # --llm-api-base may hold a password
        cache = self.settings.cache_dir
        registration = Registration(cache, "run", self.warnings.append) if cache else None
        self.document = publish(
            self.settings.report_dir,
            list(self.items.values()),
            self.settings.attempts,
            self.settings.formula,
            settings,
            self.config.rootpath,
            lambda board: self.config.hook.pytest_llmbench_leaderboard(
                leaderboard=board, config=self.config
            ),
            registration=registration,
        )

    def pytest_json_modifyreport(self, json_report: dict[str, Any]) -> None:
        self.finish()
        if self.document is not None:
            json_report["llmbench"] = self.document.model_dump(mode="json")
        elif self.owns_json_report:
            # No benchmark item ran (e.g. a project's own unit tests): write no report.json.
            self.config.option.json_report_file = None

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        for warning in self.warnings:
            terminalreporter.write_line(f"llmbench warning: {warning}", yellow=True)
        if self.document is None and not self.calls:
            return
        from . import markdown
        from .usage import usage_lines

        if self.document is not None:
            terminalreporter.section("llmbench leaderboard")
            for line in markdown.model_table(self.document.leaderboard):
                terminalreporter.write_line(line)
            shared = markdown.ranks_line(self.document.leaderboard)
            if shared is not None:
                terminalreporter.write_line(shared)
            terminalreporter.write_line(f"written to {self.settings.report_dir}/leaderboard.md")
            missing = [k for k, ok in (self.document.checkers or {}).items() if not ok]
            if missing:
                terminalreporter.write_line(
                    f"llmbench: syntax checker(s) missing: {', '.join(missing)}; code they "
                    "check is not checked, so scores differ from a run with them",
                    yellow=True,
                )
            from .functional import tampered_line, unavailable_lines

            for line in unavailable_lines(self.items.values()):
                terminalreporter.write_line(line, yellow=True)
            tampered = tampered_line(self.items.values())
            if tampered is not None:
                terminalreporter.write_line(tampered, red=True)
        terminalreporter.section("llmbench usage")
        this_run = [r for n, r in self.items.items() if n not in self.resumed]
        earlier = [r for n, r in self.items.items() if n in self.resumed]
        for line in usage_lines(this_run, earlier, self.calls):
            terminalreporter.write_line(line)
