"""An item's result as the rest of the pytest ecosystem sees it: user properties (JUnit
XML, xdist transport), pytest's outcome, pytest-html columns.

An item carries its result in `user_properties` under "llmbench", as JSON text (JUnit XML
writes each value with str()), beside one flat property per headline figure. Ordinary
tests that call models through the fixtures carry their calls under "llmbench_calls".
Kept free of heavy imports: it runs for every report of every test.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest

from ..redaction import redact_data
from ..schema.vocabulary import PROPERTY_KEY

CALLS_KEY = "llmbench_calls"
# The flat properties, in order, with the result field each comes from.
FIGURES = ("model", "scenario", "dataset", "category", "accuracy", "completeness")
HTML_COLUMNS = (
    ("model", "Model"),
    ("accuracy", "Acc"),
    ("completeness", "Compl"),
    ("quality", "Quality"),
)


def _usage_total(result: dict[str, Any], field: str) -> float | None:
    values = [(result.get(u) or {}).get(field) for u in ("candidate_usage", "judge_usage")]
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def item_properties(result: dict[str, Any]) -> list[tuple[str, object]]:
    """The item's figures as flat properties, then the whole result as JSON."""
    from ..judging.formulas import quality

    acc, compl = result.get("accuracy"), result.get("completeness")
    props: list[tuple[str, object]] = [(k, result.get(k)) for k in FIGURES]
    props.append(
        (
            "quality",
            round(quality(acc, compl), 4) if acc is not None and compl is not None else None,
        )
    )
    tokens = [_usage_total(result, f) for f in ("prompt_tokens", "completion_tokens")]
    props.append(("tokens", int(sum(t or 0 for t in tokens))))
    props.append(("cost_usd", _usage_total(result, "cost_usd")))
    props = [(k, "" if v is None else v) for k, v in props]
    return [*props, (PROPERTY_KEY, json.dumps(result, ensure_ascii=False))]


def attach(item: pytest.Item, result: dict[str, Any], *reports: pytest.TestReport) -> None:
    """Put the item's (new) result on the item and on reports already made; a rerun's
    result replaces the earlier one. Redacted here, once: every file of the report dir
    and the terminal get the result from these properties."""
    names = {name for name, _ in item_properties({})}
    props = item_properties(redact_data(result))
    for holder in (item.user_properties, *(r.user_properties for r in reports)):
        holder[:] = [p for p in holder if p[0] not in names]
        holder.extend(props)


def _property(report: pytest.TestReport, key: str) -> Any:
    found = None
    for name, value in report.user_properties:
        if name == key:
            found = value
    return found


def result_of(report: pytest.TestReport) -> dict[str, Any] | None:
    value = _property(report, PROPERTY_KEY)
    if isinstance(value, str):
        value = json.loads(value)
    return value if isinstance(value, dict) else None


def calls_of(report: pytest.TestReport) -> list[dict[str, Any]]:
    value = _property(report, CALLS_KEY)
    calls = json.loads(value) if isinstance(value, str) else value
    return calls if isinstance(calls, list) else []


def outcome_of(report: pytest.TestReport) -> str | None:
    """pytest's outcome of the item once this report settles it; None if it does not
    (a passed setup, a passed teardown, a run pytest-rerunfailures will repeat)."""
    if report.outcome not in ("passed", "failed", "skipped"):
        return None  # "rerun"
    if report.when == "call":
        return str(report.outcome)
    if report.failed:
        return "error"  # in setup, or in teardown after the call
    return "skipped" if report.skipped and report.when == "setup" else None


def reason_of(report: pytest.TestReport) -> str:
    """pytest's one-line reason for a failed or skipped report."""
    longrepr = report.longrepr
    if isinstance(longrepr, tuple):  # a skip: (path, line, reason)
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return str(crash.message)
    lines = [line for line in str(longrepr or "").splitlines() if line.strip()]
    return lines[-1].strip() if lines else report.outcome


class HtmlColumns:
    """pytest-html columns; registered only when pytest-html is active."""

    def pytest_html_results_table_header(self, cells: list[str]) -> None:
        cells[2:2] = [f"<th>{title}</th>" for _, title in HTML_COLUMNS]

    def pytest_html_results_table_row(self, report: pytest.TestReport, cells: list[str]) -> None:
        values = [_property(report, name) for name, _ in HTML_COLUMNS]
        cells[2:2] = [f"<td>{escape(str(v if v is not None else ''))}</td>" for v in values]
