"""The controller's side of a run: gather item results from reports, write the report dir.

Registered on the controller only (never on an xdist worker): workers attach results
to their test reports, and xdist replays every report here through
pytest_runtest_logreport.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from ..redaction import redact_data
from ..schema.results import PROPERTY_KEY
from ..settings import Settings
from . import markdown
from .usage import usage_lines
from .writer import ResultsFile, publish


class ReportCollector:
    def __init__(
        self,
        config: pytest.Config,
        settings: Settings,
        owns_json_report: bool,
        resumed: dict[str, dict[str, Any]] | None = None,
    ) -> None:
        self.config = config
        self.settings = settings
        # True when we switched pytest-json-report on ourselves (the user did not ask for it).
        self.owns_json_report = owns_json_report
        self.items: dict[str, dict[str, Any]] = {}
        results = ResultsFile(settings.report_dir)
        self.results_file: ResultsFile | None = results
        self.document: dict[str, Any] | None = None
        # --llm-resume: results finished by an earlier run count, and stay in results.jsonl.
        for nodeid, result in (resumed or {}).items():
            self.items[nodeid] = result
            results.append(result)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.nodeid in self.items:
            return
        for key, value in report.user_properties:
            if key == PROPERTY_KEY and isinstance(value, dict):
                finished = datetime.now(UTC).isoformat(timespec="microseconds")
                result = {**value, "nodeid": report.nodeid, "finished_utc": finished}
                self.items[report.nodeid] = result
                if self.results_file is not None:
                    self.results_file.append(result)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self.finish()

    def finish(self) -> None:
        """Write the leaderboard once; pytest-json-report may ask for it before our sessionfinish."""
        if self.results_file is not None:
            self.results_file.close()
            self.results_file = None
        if not self.items or self.document is not None:
            return
        settings = redact_data(  # --llm-api-base may hold a password
            {k: str(v) if isinstance(v, Path) else v for k, v in asdict(self.settings).items()}
        )
        self.document = publish(
            self.settings.report_dir,
            list(self.items.values()),
            self.settings.attempts,
            self.settings.score_formula,
            settings,
            self.config.rootpath,
            lambda board: self.config.hook.pytest_llmbench_leaderboard(
                leaderboard=board, config=self.config
            ),
        )

    def pytest_json_modifyreport(self, json_report: dict[str, Any]) -> None:
        self.finish()
        if self.document is not None:
            json_report["llmbench"] = self.document
        elif self.owns_json_report:
            # No benchmark item ran (e.g. a project's own unit tests): write no report.json.
            self.config.option.json_report_file = None

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.document is None:
            return
        terminalreporter.section("llmbench leaderboard")
        for line in markdown.model_table(self.document["leaderboard"]):
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"written to {self.settings.report_dir}/leaderboard.md")
        terminalreporter.section("llmbench usage")
        for line in usage_lines(list(self.items.values())):
            terminalreporter.write_line(line)
