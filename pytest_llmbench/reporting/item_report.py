"""An item's result as the rest of the pytest ecosystem sees it: user properties (JUnit
XML, xdist transport), pytest's outcome, pytest-html columns.

An item carries its result in `user_properties` under "llmbench", as JSON text (JUnit XML
writes each value with str()), beside one flat property per headline figure. Ordinary
tests that call models through the fixtures carry their calls under "llmbench_calls".
Both go on as the schema's models (ItemResult, CallRecord) and come back as them: the
JSON text is only how they travel. On the controller the report's property then
becomes the stored form results.jsonl holds (`store_result`). Kept free of heavy
imports: it runs for every report of every test, and loads the schema only for a report
that carries our data.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import pytest

from ..redaction import redact_data
from ..schema.vocabulary import PROPERTY_KEY, Outcome

if TYPE_CHECKING:
    from ..schema.results import CallRecord, ItemResult

CALLS_KEY = "llmbench_calls"
# The flat properties, in order, with the result field each comes from.
FIGURES = ("model", "scenario", "dataset", "category", "accuracy", "completeness")
HTML_COLUMNS = (
    ("model", "Model"),
    ("accuracy", "Acc"),
    ("completeness", "Compl"),
    ("quality", "Quality"),
)


# Every property an item's result sets (a rerun's result replaces them all).
PROPERTIES = (*FIGURES, "quality", "tokens", "cost_usd", PROPERTY_KEY)


def item_properties(result: ItemResult) -> list[tuple[str, object]]:
    """The item's figures as flat properties, then the whole result as JSON; redacted."""
    from ..judging.formulas import quality
    from ..schema.stored import to_stored

    acc, compl = result.accuracy, result.completeness
    usage = (result.candidate_usage, result.judge_usage)
    costs = [u.cost_usd for u in usage if u.cost_usd is not None]
    figures: dict[str, object] = {k: getattr(result, k) for k in FIGURES}
    figures["quality"] = (
        round(quality(acc, compl), 4) if acc is not None and compl is not None else None
    )
    figures["tokens"] = sum(u.prompt_tokens + u.completion_tokens for u in usage)
    figures["cost_usd"] = sum(costs) if costs else None
    props = [(k, "" if v is None else v) for k, v in redact_data(figures).items()]
    data = redact_data(to_stored(result))
    return [*props, (PROPERTY_KEY, json.dumps(data, ensure_ascii=False))]


def attach(item: pytest.Item, result: ItemResult, *reports: pytest.TestReport) -> None:
    """Put the item's (new) result on the item and on reports already made; a rerun's
    result replaces the earlier one. Redacted here, once: every file of the report dir
    and the terminal get the result from these properties."""
    props = item_properties(result)
    for holder in (item.user_properties, *(r.user_properties for r in reports)):
        holder[:] = [p for p in holder if p[0] not in PROPERTIES]
        holder.extend(props)


def attach_calls(item: pytest.Item, calls: Sequence[CallRecord]) -> None:
    """Put the calls an ordinary test made through the fixtures on its report (replacing
    the list attached before)."""
    props = item.user_properties
    props[:] = [p for p in props if p[0] != CALLS_KEY]
    props.append((CALLS_KEY, json.dumps([c.model_dump(mode="json") for c in calls])))


def _property(report: pytest.TestReport, key: str) -> Any:
    found = None
    for name, value in report.user_properties:
        if name == key:
            found = value
    return found


def store_result(report: pytest.TestReport, stored: Callable[[str], str]) -> None:
    """Replace the result the report carries (JSON text) by `stored` of it: the form
    results.jsonl holds, whose texts the controller's store has written. report.json and
    JUnit XML, which take the property from the report after this, then carry references,
    not copies. The worker's report itself carried the whole result."""
    props = report.user_properties
    for index, (name, value) in enumerate(props):
        if name == PROPERTY_KEY and isinstance(value, str):
            props[index] = (name, stored(value))


def has_result(report: pytest.TestReport) -> bool:
    return _property(report, PROPERTY_KEY) is not None


def result_of(report: pytest.TestReport) -> ItemResult | None:
    """The item's result this report carries (None for other tests' reports)."""
    value = _property(report, PROPERTY_KEY)
    if value is None:
        return None
    from .reader import parse_result

    data = json.loads(value) if isinstance(value, str) else value
    return parse_result(data) if isinstance(data, dict) else None


def calls_of(report: pytest.TestReport) -> list[CallRecord]:
    """The calls an ordinary test made through the fixtures (empty for other reports)."""
    value = _property(report, CALLS_KEY)
    calls = json.loads(value) if isinstance(value, str) else value
    if not isinstance(calls, list) or not calls:
        return []
    from ..schema.results import CallRecord

    return [CallRecord.model_validate(c) for c in calls]


def outcome_of(report: pytest.TestReport) -> Outcome | None:
    """pytest's outcome of the item once this report settles it; None if it does not
    (a passed setup, a passed teardown, a run pytest-rerunfailures will repeat)."""
    if report.outcome not in ("passed", "failed", "skipped"):
        return None  # "rerun"
    if report.when == "call":
        return report.outcome
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
