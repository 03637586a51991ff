"""An item result in the form files carry it (results.jsonl, report.json, JUnit XML), and back.

From schema version 5 on, the stored form differs from the result's own JSON in three
ways, each undone by the reader:
- a field at its default is left out (pydantic fills it back); `schema_version` never is;
- the facts of a criterion (`CRITERION_FACTS`), the same in every attempt of an item, are
  stored once per item under `criteria` (step id -> facts) and left out of the steps that
  agree with it (a step that differs keeps its own);
- every text of `TEXT_MIN` characters or more, but the item's names (`INLINE`), is a
  reference into the report dir's texts.jsonl (texts.py; applied by the controller's
  text store, since only the controller writes that file).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the writer's module imports this at start-up: pydantic stays unloaded
    from .results import ItemResult

CRITERIA = "criteria"
CRITERION_FACTS = ("metric", "criterion", "weight")
# Texts of this many characters or more are stored in texts.jsonl: criteria, reasons and
# test messages repeat across attempts, items and models, and a reference is 35 characters.
TEXT_MIN = 64
# Keys whose string values stay in the line whatever their length: what names the item.
INLINE = frozenset({"nodeid", "scenario", "category", "dataset", "model"})


def dicts_of(value: object) -> list[dict[str, Any]]:
    """The dicts of a list (anything else of a damaged line is left for validation)."""
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        step
        for attempt in dicts_of(data.get("attempts"))
        for step in dicts_of(attempt.get("steps"))
        if isinstance(step.get("id"), str)
    ]


def to_stored(result: ItemResult) -> dict[str, Any]:
    """`result` as JSON data in the stored form, before its texts are swapped out."""
    data = result.model_dump(mode="json", exclude_defaults=True)
    criteria: dict[str, dict[str, Any]] = {}
    for step in _steps(data):
        facts = {key: step[key] for key in CRITERION_FACTS if key in step}
        if criteria.setdefault(step["id"], facts) == facts:
            for key in facts:
                del step[key]
    stored = {"schema_version": result.schema_version, **data}
    if criteria:
        stored[CRITERIA] = criteria
    return stored


def from_stored(data: dict[str, Any]) -> dict[str, Any]:
    """A stored line (texts already resolved) as the result's own JSON: each step's
    criterion facts put back. A line without `criteria` is returned as it is."""
    criteria = data.get(CRITERIA)
    if not isinstance(criteria, dict):
        return data
    plain = {key: value for key, value in data.items() if key != CRITERIA}
    for step in _steps(plain):
        facts = criteria.get(step["id"])
        if isinstance(facts, dict):
            for key, value in facts.items():
                step.setdefault(key, value)
    return plain
